#include "reference_impl/request_builder.h"

#include "reference_impl/fault.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <unordered_map>

#include "reference_impl/correlation.h"
#include "reference_impl/provider_error.h"

namespace gemini_oracle::ref {
namespace {

[[noreturn]] void Refuse(const char* code, std::size_t turn, std::optional<std::size_t> part = {},
                         const char* field = "", std::optional<std::size_t> native_part = {}) {
  Position where;
  where.turn = turn;
  where.part = part;
  where.field = field;
  where.native_part = native_part;
  throw ProviderError(code, std::move(where));
}

Json TextPart(const std::string& text) {
  Json part = Json::object();
  part["text"] = text;
  return part;
}

// PHP's JSON_FORCE_OBJECT as applied to a decoded map: every empty list, nested or not, is {}.
void ForceEmptyListsToObjects(Json& value) {
  if (value.is_array() && value.empty()) {
    value = Json::object();
    return;
  }
  if (value.is_structured()) {
    for (auto& member : value) ForceEmptyListsToObjects(member);
  }
}

// snake_case -> lowerCamelCase, as protobuf's JSON mapping spells field names.
std::string LowerCamelCase(const std::string& name) {
  std::string out;
  bool upper = false;
  for (const char ch : name) {
    if (ch == '_' && !out.empty()) {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch;
    upper = false;
  }
  return out;
}

Json Content(const char* role, Json parts) {
  Json content = Json::object();
  content["role"] = role;
  content["parts"] = std::move(parts);
  return content;
}

// ADR-224.7/8: the owned native parts in order with every member; only a non-object
// functionCall.args root is repaired, on this copy.
Json ReplayNativeParts(const Json& native_parts, std::size_t turn) {
  Json parts = native_parts;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const bool is_call = parts[p].contains("functionCall");
    if (is_call && GEMINI_FAULT("builder.thought_signature_dropped")) {
      parts[p].erase("thoughtSignature");
    }
    if (is_call && GEMINI_FAULT("builder.signature_copied_to_parallel_calls") && p > 0 &&
        !parts[p].contains("thoughtSignature") && parts[p - 1].contains("functionCall") &&
        parts[p - 1].contains("thoughtSignature")) {
      parts[p]["thoughtSignature"] = parts[p - 1]["thoughtSignature"];
    }
    auto fc = parts[p].find("functionCall");
    if (fc == parts[p].end()) continue;
    auto args = fc->find("args");
    if (args != fc->end() && args->is_object() && args->empty() &&
        GEMINI_FAULT("builder.empty_args_replayed_as_list")) {
      *args = Json::array();  // prism, nextcloud: "Unknown name args"
      continue;
    }
    if (args != fc->end() && GEMINI_FAULT("builder.nested_empty_lists_forced_to_objects")) {
      ForceEmptyListsToObjects(*args);  // nextcloud: the JSON_FORCE_OBJECT fix
    }
    if (args == fc->end() || args->is_object()) continue;
    auto root = ArgumentsRoot(*args);
    if (!root) Refuse("capsule.malformed", turn, p, "args", p);
    *args = std::move(*root);
  }
  if (GEMINI_FAULT("builder.call_pieces_replayed_reversed")) {
    // The nameless pieces that follow a call's opening part (INTERPRETING §5.6) are collected
    // by prepending, so they go out last-first.
    for (std::size_t p = 0; p < parts.size(); ++p) {
      const auto fc = parts[p].find("functionCall");
      if (fc == parts[p].end() || !fc->is_object() || !fc->contains("name")) continue;
      std::size_t end = p + 1;
      while (end < parts.size() && parts[end].contains("functionCall") &&
             parts[end]["functionCall"].is_object() &&
             !parts[end]["functionCall"].contains("name")) {
        ++end;
      }
      std::reverse(parts.begin() + static_cast<std::ptrdiff_t>(p + 1),
                   parts.begin() + static_cast<std::ptrdiff_t>(end));
      p = end - 1;
    }
  }
  if (GEMINI_FAULT("builder.thought_parts_dropped_on_replay")) {
    Json kept = Json::array();
    for (auto& part : parts) {
      if (!(part.contains("thought") && part["thought"] == true)) kept.push_back(std::move(part));
    }
    parts = std::move(kept);
  }
  return parts;
}

// ADR-224.10, 226.16: a foreign or generic turn is rebuilt from its generic calls, no IDs.
Json RebuildGenericTurn(const Message& message, std::size_t turn) {
  Json parts = Json::array();
  if (!message.content.empty() &&
      !(GEMINI_FAULT("builder.generic_turn_text_dropped") && !message.tool_calls.empty())) {
    parts.push_back(TextPart(message.content));
  }
  for (std::size_t c = 0; c < message.tool_calls.size(); ++c) {
    const ToolCall& call = message.tool_calls[c];
    auto root = ArgumentsRoot(call.arguments);
    if (!root) Refuse("transcript.malformed", turn, c, "arguments");
    Json fc = Json::object();
    fc["name"] = call.name;
    fc["args"] = std::move(*root);
    if (GEMINI_FAULT("builder.foreign_list_args_sent_as_list") && call.arguments.is_array()) {
      fc["args"] = call.arguments;  // other adapters' stored [] sent as it is
    }
    if (GEMINI_FAULT("builder.foreign_list_args_replaced_by_empty_object") &&
        call.arguments.is_array()) {
      fc["args"] = Json::object();  // only maps are taken as arguments
    }
    Json part = Json::object();
    part["functionCall"] = std::move(fc);
    parts.push_back(std::move(part));
  }
  return parts;
}

// All results answering one turn, in one user content (Gemini requires one response part per
// call in one turn), ordered like the functionCall parts they answer.
Json BuildResults(const Message& call_turn, std::size_t call_turn_index,
                  const TurnCorrelation& correlation, const std::vector<Message>& messages,
                  std::size_t first, std::size_t end) {
  std::unordered_map<std::string, std::size_t> call_index;
  for (std::size_t c = 0; c < call_turn.tool_calls.size(); ++c) {
    call_index[call_turn.tool_calls[c].id] = c;
  }
  struct Answer {
    std::size_t order;
    const Message* result;
    const ToolCall* call;
  };
  std::vector<Answer> answers;
  std::vector<bool> answered(call_turn.tool_calls.size(), false);
  const bool by_native_order =
      correlation.owned && correlation.links.size() == call_turn.tool_calls.size();
  for (std::size_t r = first; r < end; ++r) {
    const Message& result = messages[r];
    auto c = call_index.find(result.tool_call_id);
    if (c == call_index.end() && GEMINI_FAULT("builder.result_matched_by_native_id")) {
      for (const auto& [public_id, link] : correlation.links) {  // the id the model knows
        if (link.native_id == result.tool_call_id) c = call_index.find(public_id);
      }
    }
    if (c == call_index.end()) Refuse("transcript.orphan_result", r, {}, "tool_call_id");
    if (answered[c->second] && !GEMINI_FAULT("builder.duplicate_result_sent")) {
      Refuse("transcript.duplicate_result", r, {}, "tool_call_id");
    }
    answered[c->second] = true;
    const ToolCall& call = call_turn.tool_calls[c->second];
    std::size_t order = by_native_order ? correlation.links.at(call.id).native_part : c->second;
    if (GEMINI_FAULT("builder.results_in_transcript_order")) order = answers.size();
    if (GEMINI_FAULT("builder.results_in_generic_list_order")) order = c->second;
    answers.push_back({order, &result, &call});
  }
  for (std::size_t c = 0; c < answered.size(); ++c) {
    if (!answered[c]) Refuse("transcript.missing_result", call_turn_index, c, "tool_calls");
  }
  const auto by_order = [](const Answer& a, const Answer& b) { return a.order < b.order; };
  if (GEMINI_FAULT("builder.results_sorted_unstably")) {
    std::sort(answers.begin(), answers.end(), by_order);
  } else {
    std::stable_sort(answers.begin(), answers.end(), by_order);
  }

  Json parts = Json::array();
  for (const Answer& answer : answers) {
    Json fr = Json::object();
    // ADR-226.3/4: echo exactly the bound native ID; absent stays absent.
    if (correlation.owned && !GEMINI_FAULT("builder.response_id_omitted")) {
      const auto link = correlation.links.find(answer.call->id);
      if (link != correlation.links.end() && link->second.native_id) {
        fr["id"] = *link->second.native_id;
      }
    }
    if (!fr.contains("id") && GEMINI_FAULT("builder.response_id_invented")) {
      fr["id"] = answer.call->id;  // gemini-cli: a made-up id for a call that had none
    }
    if (GEMINI_FAULT("builder.mixed_turn_ids_dropped") &&
        std::any_of(correlation.links.begin(), correlation.links.end(),
                    [](const auto& link) { return !link.second.native_id; })) {
      fr.erase("id");  // ids echoed only for turns whose every call has one (Gemini 3)
    }
    if (!fr.contains("id") && GEMINI_FAULT("builder.mixed_turn_idless_answer_gets_public_id") &&
        std::any_of(correlation.links.begin(), correlation.links.end(),
                    [](const auto& link) { return link.second.native_id.has_value(); })) {
      fr["id"] = answer.call->id;  // every answer of a turn with native ids carries one
    }
    fr["name"] = answer.call->name;
    fr["response"] = ResultToResponseObject(answer.result->content, answer.result->is_error);
    Json part = Json::object();
    part["functionResponse"] = std::move(fr);
    parts.push_back(std::move(part));
  }
  if (GEMINI_FAULT("builder.results_split_over_contents") && parts.size() > 1) {
    Json split = Json::array();
    for (auto& part : parts) split.push_back(Content("user", Json::array({std::move(part)})));
    return split;  // the caller appends each content
  }
  return Content("user", std::move(parts));
}

}  // namespace

Json ListAsNumericKeyObject(const Json& list) {
  Json object = Json::object();
  for (std::size_t i = 0; i < list.size(); ++i) object[std::to_string(i)] = list[i];
  if (GEMINI_FAULT("builder.nested_lists_cast_to_objects")) {
    for (auto& member : object) {
      if (member.is_array()) member = ListAsNumericKeyObject(member);  // cast indiscriminately
    }
  }
  return object;
}

std::optional<Json> ArgumentsRoot(const Json& arguments) {
  if (arguments.is_object()) return arguments;
  if (arguments.is_array()) return ListAsNumericKeyObject(arguments);
  if (arguments.is_null()) return Json::object();
  return std::nullopt;
}

Json ResultToResponseObject(const std::string& content, bool is_error) {
  Json wrapped = Json::object();
  if (is_error && !GEMINI_FAULT("builder.error_flag_ignored")) {
    wrapped["error"] = content;
    return wrapped;
  }
  // Plain text, JSON no decoder reads alike (a repeated member name, a number beyond a double,
  // an integer literal no int64, uint64 or double holds exactly) or nested deeper than
  // kMaxJsonDepth: sent as the text itself, so nothing the tool returned is lost or rounded
  // (ADR-224: "Preserve their member values and current scalar/invalid result fallback") and
  // nothing too deep reaches the recursive dump.
  std::optional<Json> decoded;
  try {
    decoded = ParseJson(content);
  } catch (const Json::exception&) {
  }
  if (!decoded || FindDuplicateKey(content) ||
      (HasInexactInteger(content) && !GEMINI_FAULT("builder.inexact_integer_result_rounded"))) {
    wrapped["output"] = content;
    return wrapped;
  }
  if (decoded->is_object() && GEMINI_FAULT("builder.result_keys_camel_cased")) {
    Json renamed = Json::object();
    for (auto it = decoded->begin(); it != decoded->end(); ++it) {
      renamed[LowerCamelCase(it.key())] = it.value();
    }
    return renamed;
  }
  if (decoded->is_object() && decoded->empty() &&
      GEMINI_FAULT("builder.empty_object_result_sent_as_list")) {
    return Json::array();  // PHP: json_decode('{}', true) is [], encoded back as []
  }
  if (decoded->is_object()) return std::move(*decoded);  // ADR-224.2
  if (decoded->is_array() && GEMINI_FAULT("builder.list_result_sent_as_list")) {
    return std::move(*decoded);  // symfony/ai, adk-js: "cannot start list"
  }
  if (decoded->is_array() && GEMINI_FAULT("builder.list_result_wrapped_like_scalar")) {
    wrapped["output"] = std::move(*decoded);  // every non-object result in the fallback wrapper
    return wrapped;
  }
  if (decoded->is_array()) return ListAsNumericKeyObject(*decoded);  // ADR-224.4
  wrapped["output"] = std::move(*decoded);                           // ADR-224.5
  if (GEMINI_FAULT("builder.scalar_result_sent_as_text")) wrapped["output"] = content;
  if (GEMINI_FAULT("builder.scalar_result_wrapper_carries_error_flag")) wrapped["is_error"] = false;
  return wrapped;
}

Json BuildRequest(const Transcript& transcript, const RequestOptions& options) {
  const std::vector<TurnCorrelation> correlation = Correlate(transcript);
  const auto& messages = transcript.messages;

  Json contents = Json::array();
  Json system_parts = Json::array();
  if (options.system_instruction) system_parts.push_back(TextPart(*options.system_instruction));

  for (std::size_t i = 0; i < messages.size();) {
    const Message& message = messages[i];
    switch (message.role) {
      case Role::kSystem:
        system_parts.push_back(TextPart(message.content));
        ++i;
        break;
      case Role::kUser:
        contents.push_back(Content("user", Json::array({TextPart(message.content)})));
        ++i;
        break;
      case Role::kTool:
        Refuse("transcript.orphan_result", i, {}, "tool_call_id");
      case Role::kAssistant: {
        const TurnCorrelation& turn = correlation[i];
        Json parts = turn.owned
                         ? ReplayNativeParts(
                               message.provider_state.at(kGeminiCapsuleKey).at("native_parts"), i)
                         : RebuildGenericTurn(message, i);
        if (turn.owned && GEMINI_FAULT("builder.args_repair_written_to_stored_capsule")) {
          // The repaired copy replaces the stored native parts.
          const_cast<Message&>(message).provider_state[kGeminiCapsuleKey]["native_parts"] = parts;
        }
        if (parts.empty()) parts.push_back(TextPart(""));
        contents.push_back(Content("model", std::move(parts)));
        std::size_t end = i + 1;
        while (end < messages.size() && messages[end].role == Role::kTool) ++end;
        if (!message.tool_calls.empty()) {
          Json results = BuildResults(message, i, turn, messages, i + 1, end);
          if (results.is_array()) {  // only under the fault builder.results_split_over_contents
            for (auto& content : results) contents.push_back(std::move(content));
          } else {
            contents.push_back(std::move(results));
          }
        } else if (end > i + 1) {
          Refuse("transcript.orphan_result", i + 1, {}, "tool_call_id");
        }
        i = end;
        break;
      }
    }
  }

  if (options.streaming && GEMINI_FAULT("stream.streaming_request_ids_omitted")) {
    // A streaming code path that builds its answers without the association.
    for (Json& content : contents) {
      for (Json& part : content["parts"]) {
        if (part.contains("functionResponse")) part["functionResponse"].erase("id");
      }
    }
  }
  Json request = Json::object();
  request["contents"] = std::move(contents);
  if (GEMINI_FAULT("canary.request_without_contents")) request["contents"] = Json::array();
  if (!options.tools.empty() &&
      !(options.tool_mode == "NONE" && GEMINI_FAULT("builder.closing_request_drops_tools"))) {
    request["tools"] = options.tools;
  }
  // toolConfig as the caller wrote it (allowedFunctionNames, ...); the exchange's mode on top.
  if (options.tool_config.is_object()) request["toolConfig"] = options.tool_config;
  if (options.tool_mode &&
      !(*options.tool_mode == "NONE" && GEMINI_FAULT("builder.closing_mode_not_sent"))) {
    Json& config = request["toolConfig"];
    if (!config.is_object()) config = Json::object();
    Json& calling = config["functionCallingConfig"];
    if (!calling.is_object()) calling = Json::object();
    calling["mode"] = *options.tool_mode;
  }
  if (!system_parts.empty()) request["systemInstruction"]["parts"] = std::move(system_parts);
  if (!options.generation_config.is_null()) request["generationConfig"] = options.generation_config;
  return request;
}

}  // namespace gemini_oracle::ref
