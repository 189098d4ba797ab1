#include "oracles/runner/reference_driver.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "reference_impl/fault.h"
#include "reference_impl/http_client.h"
#include "reference_impl/json_equality.h"
#include "reference_impl/provider_error.h"
#include "reference_impl/request_builder.h"
#include "reference_impl/response_parser.h"
#include "reference_impl/transcript.h"

namespace gemini_oracle::runner {
namespace {

ref::RequestOptions OptionsOf(const Case& c) {
  ref::RequestOptions options;
  const Json& o = c.options;
  if (const auto it = o.find("model"); it != o.end()) options.model = it->get<std::string>();
  if (const auto it = o.find("tools"); it != o.end()) options.tools = *it;
  if (const auto it = o.find("system_instruction"); it != o.end()) {
    options.system_instruction = it->get<std::string>();
  }
  if (const auto it = o.find("generation_config"); it != o.end()) {
    options.generation_config = *it;
  }
  if (const auto it = o.find("tool_config"); it != o.end()) options.tool_config = *it;
  return options;
}

// Resolves a selector to a parse-order index; the case checker guarantees it resolves.
std::optional<std::size_t> Select(const CallSelector& selector,
                                  const std::vector<ParsedCall>& calls) {
  if (const auto* index = std::get_if<std::size_t>(&selector)) {
    if (*index < calls.size()) return *index;
    return std::nullopt;
  }
  const NamedCall& named = std::get<NamedCall>(selector);
  std::optional<std::size_t> found;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (calls[i].name != named.name) continue;
    if (named.args && !ref::ArgumentsEqual(*named.args, calls[i].arguments)) continue;
    if (found) return std::nullopt;  // ambiguous
    found = i;
  }
  return found;
}

std::vector<std::size_t> Order(const CallOrder& order, std::size_t count) {
  std::vector<std::size_t> indices(count);
  std::iota(indices.begin(), indices.end(), 0);
  if (order.reverse)
    std::reverse(indices.begin(), indices.end());
  else
    indices = order.indices;
  return indices;
}

// Applies the client's actions to the turn just appended (fixtures/INTERPRETING.md, "then").
void ApplyActions(const Actions& actions, const std::vector<ParsedCall>& parsed,
                  ref::Transcript& transcript, std::size_t exchange) {
  ref::Message& turn = transcript.messages.back();
  if (actions.normalize_numbers) {
    for (auto& call : turn.tool_calls) call.arguments = NormalizeNumbers(call.arguments);
  }
  if (actions.call_order) {
    const auto indices = Order(*actions.call_order, turn.tool_calls.size());
    if (indices.size() != turn.tool_calls.size()) {
      throw std::runtime_error("call_order of exchange " + std::to_string(exchange) +
                               " is not a permutation of the parsed calls");
    }
    std::vector<ref::ToolCall> reordered;
    for (const std::size_t i : indices) {
      if (i >= turn.tool_calls.size()) throw std::runtime_error("call_order index out of range");
      // Calls are looked up by public ID so that normalization above is kept.
      const std::string& id = parsed[i].id;
      const auto it = std::find_if(turn.tool_calls.begin(), turn.tool_calls.end(),
                                   [&](const ref::ToolCall& c) { return c.id == id; });
      reordered.push_back(*it);
    }
    turn.tool_calls = std::move(reordered);
  }
  // Under driver.results_paired_by_list_position the framework pairs each result with the call
  // at its selector's position in the reordered generic list instead of the selected call.
  const std::vector<ref::ToolCall> listed = GEMINI_FAULT("driver.results_paired_by_list_position")
                                                ? turn.tool_calls
                                                : std::vector<ref::ToolCall>{};
  // Under driver.results_paired_by_signature the framework attaches each result to the first
  // call not yet answered with the same name and arguments as the selected call.
  std::vector<bool> answered_by_signature(
      GEMINI_FAULT("driver.results_paired_by_signature") ? parsed.size() : 0, false);
  for (const Result& result : actions.results) {
    const auto index = Select(result.call, parsed);
    if (!index) {
      // Names the selector and the calls (function names only, never arguments or IDs), so
      // the case author sees which part of the case does not fit the parsed turn.
      std::string names;
      for (const auto& call : parsed) names += (names.empty() ? "" : ", ") + call.name;
      std::string selector;
      if (const auto* position = std::get_if<std::size_t>(&result.call)) {
        selector = "call " + std::to_string(*position);
      } else {
        const NamedCall& named = std::get<NamedCall>(result.call);
        selector = "{name \"" + named.name + "\"" + (named.args ? ", args}" : "}");
      }
      throw std::runtime_error("the result selector " + selector + " of exchange " +
                               std::to_string(exchange) + " picks no single call among the " +
                               std::to_string(parsed.size()) + " parsed (" +
                               (names.empty() ? "none" : names) + ")");
    }
    ParsedCall call = parsed[*index];
    if (*index < listed.size()) call = ParsedCall{listed[*index].id, listed[*index].name, {}};
    for (std::size_t j = 0; j < answered_by_signature.size(); ++j) {
      if (!answered_by_signature[j] && parsed[j].name == call.name &&
          ref::ArgumentsEqual(parsed[j].arguments, call.arguments)) {
        answered_by_signature[j] = true;
        call = parsed[j];
        break;
      }
    }
    switch (result.kind) {
      case Result::Kind::kJson:
        transcript.messages.push_back(
            ref::ToolResultMessage(call.id, call.name, DumpJson(result.value)));
        break;
      case Result::Kind::kText:
        transcript.messages.push_back(
            ref::ToolResultMessage(call.id, call.name, result.value.get<std::string>()));
        break;
      case Result::Kind::kError:
        transcript.messages.push_back(ref::ToolResultMessage(
            call.id, call.name, result.value.get<std::string>(), /*is_error=*/true));
        break;
    }
  }
}

}  // namespace

Json NormalizeNumbers(const Json& value) {
  if (value.is_number_float()) {
    const double d = value.get<double>();
    // Every integral float an int64 holds exactly (INTERPRETING §5.4); -0.0 becomes 0.
    if (std::isfinite(d) && std::trunc(d) == d && d >= -9223372036854775808.0 &&
        d < 9223372036854775808.0) {
      return Json(static_cast<std::int64_t>(d));
    }
    return value;
  }
  if (value.is_object()) {
    Json out = Json::object();
    for (auto it = value.begin(); it != value.end(); ++it) out[it.key()] = NormalizeNumbers(*it);
    return out;
  }
  if (value.is_array()) {
    Json out = Json::array();
    for (const auto& v : value) out.push_back(NormalizeNumbers(v));
    return out;
  }
  return value;
}

void ReferenceDriver::Cancel() {
  std::lock_guard lock(client_mutex_);
  if (client_) client_->Cancel();
}

DriverReport ReferenceDriver::Run(const Case& c, const std::string& base_url) {
  DriverReport report;
  ref::Transcript transcript;
  ref::RequestOptions options = OptionsOf(c);
  {
    std::lock_guard lock(client_mutex_);
    if (client_) {
      try {
        client_->Rebase(base_url);
        client_->ResetCancel();
      } catch (const std::invalid_argument&) {
        client_.reset();
      }
    }
    if (!client_) {
      ref::ClientOptions client_options;
      client_options.base_url = base_url;
      client_ = std::make_unique<ref::GeminiHttpClient>(client_options);
    }
  }
  ref::GeminiHttpClient& client = *client_;

  std::size_t exchange = 0;
  const auto refuse = [&](const ref::ProviderError& e, const char* phase) {
    report.refusal = Refusal{e.code(), phase, exchange, e.what(), std::nullopt, std::nullopt};
    // The stored state the refusal concerns (fixtures/INTERPRETING.md §7.2): indices only.
    if (const auto where = e.location()) {
      report.refusal->message_index = where->message;
      report.refusal->part_index = where->native_part;
    }
  };
  // Anything else the implementation throws is an untyped refusal (fixtures/INTERPRETING.md
  // §5.1): judged as wrong-error or should-have-accepted, not as a harness error.
  const auto untyped = [&](const std::exception& e, const char* phase) {
    report.refusal = Refusal{"", phase, exchange, e.what(), std::nullopt, std::nullopt};
  };
  try {
    try {
      transcript = ref::TranscriptFromJson(c.transcript);
    } catch (const ref::ProviderError& e) {
      exchange = 1;
      report.exchanges.emplace_back();
      refuse(e, "build");
      return report;
    }
    for (const Exchange& ex : c.exchanges) {
      ++exchange;
      ExchangeReport& er = report.exchanges.emplace_back();
      if (ex.user) transcript.messages.push_back(ref::UserMessage(*ex.user));
      options.tool_mode = ex.tool_mode;
      Json request;
      er.transcript_before_build = DumpJson(ref::ToJson(transcript));
      try {
        request = ref::BuildRequest(transcript, options);
      } catch (const ref::ProviderError& e) {
        refuse(e, "build");
        return report;
      } catch (const std::exception& e) {
        untyped(e, "build");
        return report;
      }
      er.transcript_after_build = DumpJson(ref::ToJson(transcript));
      er.request_built = true;
      if (hook_) hook_(request);
      Json response;
      try {
        response = client.GenerateContent(options.model, request);
      } catch (const ref::ProviderError& e) {
        refuse(e, "http");
        return report;
      } catch (const std::exception& e) {
        untyped(e, "http");
        return report;
      }
      ref::Message turn;
      try {
        turn = ref::ParseResponse(response, transcript);
      } catch (const ref::ProviderError& e) {
        refuse(e, "parse");
        return report;
      } catch (const std::exception& e) {
        untyped(e, "parse");
        return report;
      }
      er.response_parsed = true;
      for (const auto& call : turn.tool_calls) {
        er.calls.push_back(ParsedCall{call.id, call.name, call.arguments});
      }
      transcript.messages.push_back(std::move(turn));
      ApplyActions(ex.then, er.calls, transcript, exchange);
    }
  } catch (const std::exception& e) {
    report.harness_error = std::string("reference driver: ") + e.what();
  }
  return report;
}

}  // namespace gemini_oracle::runner
