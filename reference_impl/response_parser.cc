#include "reference_impl/response_parser.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <unordered_set>

#include "reference_impl/call_pieces.h"
#include "reference_impl/correlation.h"
#include "reference_impl/fault.h"
#include "reference_impl/provider_error.h"

namespace gemini_oracle::ref {
namespace {

[[noreturn]] void Refuse(const char* code, std::optional<std::size_t> part = {},
                         const char* field = "") {
  Position where;
  where.part = part;  // a response part; no transcript turn yet
  where.field = field;
  throw ProviderError(code, std::move(where));
}

// Outside functionCall.args an integer literal beyond exact reach is only kept, never used:
// it becomes the double every other reader makes of it, so the capsule holds plain JSON.
void RoundInexactIntegers(Json& value) {
  if (const auto text = InexactIntegerText(value)) {
    value = std::strtod(text->c_str(), nullptr);
    return;
  }
  if (value.is_structured()) {
    for (auto& member : value) RoundInexactIntegers(member);
  }
}

// Every number as the double a Struct holds (integers become floats).
void NumbersToDoubles(Json& value) {
  if (value.is_number_integer()) {
    value = value.get<double>();
    return;
  }
  if (value.is_structured()) {
    for (auto& member : value) NumbersToDoubles(member);
  }
}

// Every ID already naming a turn or a call in the conversation, so new ones never collide.
struct TakenIds {
  std::unordered_set<std::string> turns;
  std::unordered_set<std::string> calls;
  std::size_t call_count = 0;

  explicit TakenIds(const Transcript& conversation) {
    for (const auto& m : conversation.messages) {
      if (!m.id.empty()) turns.insert(m.id);
      for (const auto& c : m.tool_calls) calls.insert(c.id);
      call_count += m.tool_calls.size();
      if (!m.tool_call_id.empty()) calls.insert(m.tool_call_id);
    }
  }

  static std::string Fresh(std::unordered_set<std::string>& taken, const char* prefix,
                           std::size_t start) {
    for (std::size_t n = start;; ++n) {
      std::string id = prefix + std::to_string(n);
      if (taken.insert(id).second) return id;
    }
  }
};

}  // namespace

Message ParseResponse(const Json& response, const Transcript& conversation) {
  return ParseResponse(response, conversation, 0);
}

Message ParseResponse(const Json& response, const Transcript& conversation,
                      std::uint64_t public_ids_issued) {
  if (!response.is_object()) Refuse("response.malformed");
  const auto candidates = response.find("candidates");
  if (candidates == response.end() || !candidates->is_array() || candidates->empty() ||
      !(*candidates)[0].is_object()) {
    Refuse("response.malformed", {}, "candidates");
  }
  const Json& candidate = (*candidates)[0];
  const auto content = candidate.find("content");
  if (content == candidate.end() || !content->is_object()) {
    Refuse("response.malformed", {}, "content");
  }
  // A candidate without parts (e.g. finishReason MALFORMED_FUNCTION_CALL) has no turn to keep.
  const auto p = content->find("parts");
  if (p == content->end() || !p->is_array()) Refuse("response.malformed", {}, "parts");
  Json parts = *p;
  if (GEMINI_FAULT("parser.integer_args_read_as_doubles")) NumbersToDoubles(parts);
  // ADR-226.B2: calls the server answered inside this content (server-side tools).
  const std::vector<bool> answered = CallsAnsweredInContent(parts);

  TakenIds taken(conversation);
  if (public_ids_issued > taken.call_count) {
    taken.call_count = static_cast<std::size_t>(public_ids_issued);
  }
  // A synthesized ID never coincides with a native one of this answer, so no reader can mistake
  // one for the other.
  for (const auto& part : parts) {
    if (!part.is_object()) continue;
    const auto fc = part.find("functionCall");
    if (fc == part.end() || !fc->is_object()) continue;
    const auto id = fc->find("id");
    if (id != fc->end() && id->is_string()) taken.calls.insert(id->get<std::string>());
  }
  Message turn;
  turn.role = Role::kAssistant;
  turn.id = TakenIds::Fresh(taken.turns, "turn_", conversation.messages.size() + 1);

  Json bindings = Json::array();
  std::set<std::string> native_ids;
  if (GEMINI_FAULT("parser.native_ids_unique_across_conversation")) {
    for (const auto& m : conversation.messages) {  // earlier turns' bound native ids
      const auto capsule = m.provider_state.find(kGeminiCapsuleKey);
      if (capsule == m.provider_state.end() || !capsule->contains("tool_call_bindings")) continue;
      for (const auto& b : capsule->at("tool_call_bindings")) {
        if (b.contains("native_id") && b.at("native_id").is_string())
          native_ids.insert(b.at("native_id"));
      }
    }
  }
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const Json& part = parts[p];
    if (!part.is_object()) Refuse("response.malformed", p, "parts");
    if (const auto text = part.find("text"); text != part.end()) {
      if (!text->is_string()) Refuse("response.malformed", p, "text");
      const auto thought = part.find("thought");
      const bool is_thought =
          thought != part.end() && thought->is_boolean() && thought->get<bool>();
      if (!is_thought) turn.content += text->get<std::string>();
    }
  }
  // The calls of the answer, each sent whole or in pieces (INTERPRETING §5.6): one public call,
  // one binding and one answer per call, at the part that opens it; the pieces stay in the
  // native parts as received. Refusals: response.*, native_id.malformed (a piece's other id).
  const std::vector<AssembledCall> calls = ReadFunctionCalls(parts);
  for (const AssembledCall& assembled : calls) {
    const std::size_t p = assembled.first();
    const Json& fc = parts[p]["functionCall"];
    const Json* const id = assembled.id ? &*assembled.id : nullptr;
    Json args = assembled.args;
    if (GEMINI_FAULT("parser.absent_args_become_null") && !fc.contains("args") &&
        assembled.pieces.size() == 1 && !fc.contains("partialArgs")) {
      args = nullptr;  // no args: no map
    }
    if (answered[p] && !GEMINI_FAULT("parser.server_answered_call_made_pending")) {
      // ADR-226.B2: answered inside this content by the server; kept in the capsule and
      // replayed as received, never a public ToolCall, a binding or something to answer.
      if (id != nullptr && !GEMINI_FAULT("parser.server_answered_call_id_unchecked")) {
        if (!id->is_string() || id->get_ref<const std::string&>().empty()) {
          Refuse("native_id.malformed", p, "id");
        }
        if (!native_ids.insert(id->get<std::string>()).second) {
          Refuse("native_id.duplicate", p, "id");
        }
      }
      continue;
    }
    // Under parser.later_calls_dropped only the first pending call of an answer becomes a
    // public call; under parser.identical_calls_merged a call equal in name and arguments to
    // an earlier one of the answer is taken as that call (the native parts stay as received).
    if (!turn.tool_calls.empty() && GEMINI_FAULT("parser.later_calls_dropped")) continue;
    if (GEMINI_FAULT("parser.identical_calls_merged") &&
        std::any_of(turn.tool_calls.begin(), turn.tool_calls.end(), [&](const ToolCall& c) {
          return c.name == assembled.name && c.arguments == args;
        })) {
      continue;
    }
    ToolCall call;
    // ADR-226.1: the public ID is always synthesized, never the native one.
    call.id = TakenIds::Fresh(taken.calls, "tc_", taken.call_count + turn.tool_calls.size() + 1);
    if (GEMINI_FAULT("parser.public_id_counter_unchecked")) {
      // Numbered after the calls the transcript holds, never checked against the ids it uses.
      call.id = "tc_" + std::to_string(taken.call_count + turn.tool_calls.size() + 1);
    }
    if (GEMINI_FAULT("parser.public_ids_restart_per_response")) {
      call.id = "tc_" + std::to_string(turn.tool_calls.size() + 1);  // LangChain JS: call_0, ...
    }
    if (GEMINI_FAULT("parser.public_id_from_function_name")) {
      call.id = assembled.name;  // Elixir LangChain, TanStack AI
    }
    call.name = assembled.name;
    call.arguments = std::move(args);
    // ADR-226.5: a present native ID is a nonempty string, unique in the response.
    if (id != nullptr) {
      if (!id->is_string() || (id->get_ref<const std::string&>().empty() &&
                               !GEMINI_FAULT("parser.empty_native_id_accepted"))) {
        Refuse("native_id.malformed", p, "id");
      }
      if (!native_ids.insert(id->get<std::string>()).second &&
          !GEMINI_FAULT("parser.duplicate_native_id_accepted")) {
        if (GEMINI_FAULT("errors.refusal_quotes_native_id")) {
          Refuse("native_id.duplicate", p, ("id " + id->get<std::string>()).c_str());
        }
        Refuse("native_id.duplicate", p, "id");
      }
      if (GEMINI_FAULT("parser.native_id_taken_as_naming_one_function")) {
        for (const auto& m : conversation.messages) {  // an earlier turn's call with this id
          const auto capsule = m.provider_state.find(kGeminiCapsuleKey);
          if (capsule == m.provider_state.end() || !capsule->contains("native_parts")) continue;
          for (const auto& earlier : capsule->at("native_parts")) {
            const auto efc = earlier.find("functionCall");
            if (efc != earlier.end() && efc->is_object() && efc->value("id", Json()) == *id &&
                efc->value("name", Json()) != assembled.name) {
              Refuse("native_id.duplicate", p, "id");  // the id already names another function
            }
          }
        }
      }
      if (GEMINI_FAULT("parser.native_id_reused_as_public_id")) call.id = id->get<std::string>();
      if (GEMINI_FAULT("parser.native_id_not_bound")) {
        turn.tool_calls.push_back(std::move(call));  // Vercel AI SDK: the native id ignored
        continue;
      }
      // ADR-226.2: bind at parse time.
      Json binding = Json::object();
      binding["tool_call_id"] = call.id;
      if (GEMINI_FAULT("parser.binding_names_id_before_collision_check")) {
        // The id the call was first numbered with, before it moved past one already in use.
        binding["tool_call_id"] =
            "tc_" + std::to_string(taken.call_count + turn.tool_calls.size() + 1);
      }
      binding["native_id"] = id->get<std::string>();
      bindings.push_back(std::move(binding));
    }
    turn.tool_calls.push_back(std::move(call));
  }

  // Under parser.calls_listed_last_first the calls are collected by prepending, so the public
  // list runs against the order of the functionCall parts.
  if (GEMINI_FAULT("parser.calls_listed_last_first")) {
    std::reverse(turn.tool_calls.begin(), turn.tool_calls.end());
  }
  RoundInexactIntegers(parts);
  Json capsule = Json::object();
  capsule["owner"] = turn.id;
  capsule["native_parts"] = std::move(parts);  // exactly as received (ADR-226.2, 224.8)
  if (!bindings.empty() || !GEMINI_FAULT("parser.empty_bindings_field_omitted")) {
    capsule["tool_call_bindings"] = std::move(bindings);
  }
  turn.provider_state[kGeminiCapsuleKey] = std::move(capsule);
  return turn;
}

}  // namespace gemini_oracle::ref
