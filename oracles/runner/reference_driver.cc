#include "oracles/runner/reference_driver.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>

#include "oracles/model/normalize_numbers.h"
#include "oracles/runner/call_matching.h"
#include "reference_impl/approvals.h"
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

// The call of turn `turn` with this public id (it is there: the parser made it).
const ref::ToolCall& CallOfTurn(const ref::Transcript& transcript, std::size_t turn,
                                const std::string& id) {
  const auto& calls = transcript.messages.at(turn).tool_calls;
  const auto it = std::find_if(calls.begin(), calls.end(),
                               [&](const ref::ToolCall& c) { return c.id == id; });
  if (it == calls.end()) throw std::runtime_error("a parsed call is missing from its turn");
  return *it;
}

std::string SelectorText(const CallSelector& call) {
  if (const auto* position = std::get_if<std::size_t>(&call)) {
    return "call " + std::to_string(*position);
  }
  const NamedCall& named = std::get<NamedCall>(call);
  return "{name \"" + named.name + "\"" + (named.args ? ", args}" : "}");
}

// The client's actions do not fit the calls the implementation parsed. The case checker made
// sure they fit the answer the server sent, so this is the implementation's parse (a call
// dropped, merged or made up): the application stops there and the run is judged.
struct Unappliable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The parse-order call a selector picks, or Unappliable naming the selector and the count of
// calls (never names, arguments or IDs: they are native content).
std::size_t SelectOrThrow(const CallSelector& selector, const std::vector<ParsedCall>& parsed,
                          std::size_t exchange) {
  if (const auto index = Select(selector, parsed)) return *index;
  const bool by_position = std::holds_alternative<std::size_t>(selector);
  throw Unappliable("the selector " + (by_position ? SelectorText(selector) : "by name") +
                    " of exchange " + std::to_string(exchange) +
                    " picks no single call among the " + std::to_string(parsed.size()) +
                    " the implementation parsed");
}

std::int64_t NowSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Applies the client's actions to the turn just appended (fixtures/INTERPRETING.md, "then"),
// in the order normalize_numbers, call_order, approvals, suspend, results. `suspend` is the
// application's suspend-and-resume step (it may replace `state` with what the store gives
// back).
void ApplyActions(const Actions& actions, const std::vector<ParsedCall>& parsed,
                  ref::ConversationState& state, std::size_t exchange,
                  const std::function<void()>& suspend) {
  ref::Transcript& transcript = state.transcript;
  const std::size_t turn_index = transcript.messages.size() - 1;
  ref::Message& turn = transcript.messages.back();
  if (actions.normalize_numbers) {
    for (auto& call : turn.tool_calls) call.arguments = model::NormalizeNumbers(call.arguments);
  }
  if (actions.call_order) {
    const auto indices = Order(*actions.call_order, turn.tool_calls.size());
    if (indices.size() != turn.tool_calls.size()) {
      throw Unappliable("call_order of exchange " + std::to_string(exchange) +
                        " is not a permutation of the " + std::to_string(turn.tool_calls.size()) +
                        " calls the implementation parsed");
    }
    std::vector<ref::ToolCall> reordered;
    for (const std::size_t i : indices) {
      if (i >= turn.tool_calls.size()) {
        throw Unappliable("call_order of exchange " + std::to_string(exchange) +
                          " names a call beyond the " + std::to_string(turn.tool_calls.size()) +
                          " the implementation parsed");
      }
      // Calls are looked up by public ID so that normalization above is kept.
      const std::string& id = parsed[i].id;
      const auto it = std::find_if(turn.tool_calls.begin(), turn.tool_calls.end(),
                                   [&](const ref::ToolCall& c) { return c.id == id; });
      reordered.push_back(*it);
    }
    turn.tool_calls = std::move(reordered);
  }
  for (const ApprovalAction& approval : actions.approvals) {
    const std::size_t index = SelectOrThrow(approval.call, parsed, exchange);
    ref::RecordApproval(state, approval.id, CallOfTurn(transcript, turn_index, parsed[index].id),
                        approval.approve ? ref::Approval::Status::kApproved
                                         : ref::Approval::Status::kDenied,
                        NowSeconds());
  }
  if (actions.suspend) suspend();
  // Under driver.results_paired_by_list_position the framework pairs each result with the call
  // at its selector's position in the reordered generic list instead of the selected call.
  const std::vector<ref::ToolCall> listed = GEMINI_FAULT("driver.results_paired_by_list_position")
                                                ? transcript.messages[turn_index].tool_calls
                                                : std::vector<ref::ToolCall>{};
  // Under driver.results_paired_by_signature the framework attaches each result to the first
  // call not yet answered with the same name and arguments as the selected call.
  std::vector<bool> answered_by_signature(
      GEMINI_FAULT("driver.results_paired_by_signature") ? parsed.size() : 0, false);
  for (const Result& result : actions.results) {
    const std::size_t index = SelectOrThrow(result.call, parsed, exchange);
    ParsedCall call = parsed[index];
    if (index < listed.size()) call = ParsedCall{listed[index].id, listed[index].name, {}};
    for (std::size_t j = 0; j < answered_by_signature.size(); ++j) {
      if (!answered_by_signature[j] && parsed[j].name == call.name &&
          ref::ArgumentsEqual(parsed[j].arguments, call.arguments)) {
        answered_by_signature[j] = true;
        call = parsed[j];
        break;
      }
    }
    // A gated tool runs only under an approval of this very call (ADR-226.19); the call as
    // the conversation holds it now, after any resume.
    if (result.gated &&
        !ref::Authorizes(state, CallOfTurn(transcript, turn_index, call.id),
                         result.approval.empty()
                             ? std::nullopt
                             : std::optional<std::string_view>(result.approval))) {
      transcript.messages.push_back(
          ref::ToolResultMessage(call.id, call.name, kDenialMessage, /*is_error=*/true));
      continue;
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


void ReferenceDriver::Cancel() {
  std::lock_guard lock(client_mutex_);
  if (client_) client_->Cancel();
}

namespace {

// A conversation id no earlier run into the same store used: a digest of the case id (case ids
// have no length limit, conversation ids do), this process and a per-process counter.
std::string FreshConversationId(const Case& c) {
  static const std::string process = [] {
    std::random_device device;
    return std::to_string(::getpid()) + "." + std::to_string(device());
  }();
  static std::atomic<std::uint64_t> counter{0};
  std::uint64_t digest = 14695981039346656037ull;  // FNV-1a 64
  for (const unsigned char byte : c.id) digest = (digest ^ byte) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(digest));
  return std::string("case-") + hex + "#" + process + "." + std::to_string(++counter);
}

// Every column of the stored row, length-prefixed: equal strings, equal bytes (ADR-224.9).
std::string RowBytes(const std::optional<ref::StoredRow>& row) {
  if (!row) return "";
  std::string bytes;
  for (const std::string* field : {&row->conversation_id, &row->key_id, &row->nonce,
                                   &row->ciphertext}) {
    bytes += std::to_string(field->size()) + ":" + *field;
  }
  return bytes + std::to_string(row->version) + ":" + std::to_string(row->updated_at);
}

}  // namespace

ReferenceDriver::~ReferenceDriver() {
  store_.reset();
  if (!temporary_store_dir_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(temporary_store_dir_, ignored);
  }
}

bool ReferenceDriver::Persists(const Case& c) const {
  return !store_settings_.url.empty() || c.Suspends();
}

ref::StateStore& ReferenceDriver::Store() {
  if (store_) return *store_;
  if (!store_settings_.url.empty()) {
    store_ = ref::OpenStateStore(store_settings_.url,
                                 store_settings_.keyring.value_or(ref::Keyring::Ephemeral()),
                                 ref::StoreOpening::kCreateWhenMissing, store_settings_.wait_limit);
    return *store_;
  }
  std::string pattern =
      (std::filesystem::temp_directory_path() / "gemini-oracle-store.XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("cannot create a folder for the temporary state store");
  }
  temporary_store_dir_ = pattern;
  store_ = ref::OpenStateStore("sqlite:" + (temporary_store_dir_ / "state.sqlite3").string(),
                               ref::Keyring::Ephemeral(), ref::StoreOpening::kCreateWhenMissing,
                               store_settings_.wait_limit);
  return *store_;
}

DriverReport ReferenceDriver::Run(const Case& c, const std::string& base_url) {
  return RunConversation(c, base_url, Persists(c));
}

DriverReport ReferenceDriver::RunInMemory(const Case& c, const std::string& base_url) {
  return RunConversation(c, base_url, false);
}

DriverReport ReferenceDriver::RunConversation(const Case& c, const std::string& base_url,
                                              bool persist) {
  DriverReport report;
  ref::ConversationState state;
  ref::Transcript& transcript = state.transcript;
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

  // The application's suspension: the whole conversation state sealed into the store, then
  // resumed as a fresh adapter would, and only what the store gave back is used from here on
  // (ADR-226.18). `every_turn` (a store URL was given) suspends after each turn as well.
  const bool every_turn = persist && !store_settings_.url.empty();
  const std::string conversation = persist ? FreshConversationId(c) : std::string();
  std::uint64_t version = 0;
  const auto suspend = [&] {
    if (!persist) return;
    ref::StateStore& store = Store();
    std::vector<ref::Approval> approvals = std::move(state.approvals);
    const std::uint64_t counter = state.public_id_counter;
    state = ref::StateOfTranscript(std::move(state.transcript), counter);
    state.approvals = std::move(approvals);
    version = store.Suspend(conversation, state, version);
    ref::ResumedState resumed = store.Resume(conversation);
    state = std::move(resumed.state);
    version = resumed.version;
    report.persisted = true;
  };
  const auto stored_bytes = [&]() -> std::string {
    if (!persist || version == 0) return "";
    return RowBytes(Store().ReadRaw(conversation));
  };

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
    if (c.stored || every_turn) suspend();
    for (const Exchange& ex : c.exchanges) {
      ++exchange;
      ExchangeReport& er = report.exchanges.emplace_back();
      if (ex.user) transcript.messages.push_back(ref::UserMessage(*ex.user));
      options.tool_mode = ex.tool_mode;
      options.streaming = ex.response.stream.has_value();
      Json request;
      er.transcript_before_build = DumpJson(ref::ToJson(transcript));
      er.stored_before_build = stored_bytes();
      try {
        request = ref::BuildRequest(transcript, options);
      } catch (const ref::ProviderError& e) {
        if (options.streaming && GEMINI_FAULT("stream.state_checked_after_contact")) {
          // A streaming path that opens the stream first and checks the carried state while
          // the answer arrives: the refusal comes, but after contact.
          Json opening = Json::object();
          opening["contents"] = Json::array(
              {Json{{"role", "user"}, {"parts", Json::array({Json{{"text", "..."}}})}}});
          try {
            client.StreamGenerateContent(options.model, opening);
          } catch (const std::exception&) {
            // whatever the server answers, the state is refused
          }
        }
        refuse(e, "build");
        return report;
      } catch (const std::exception& e) {
        untyped(e, "build");
        return report;
      }
      // Under driver.state_saved_during_build the application saves the conversation again
      // while it sends ("save before send"): the same content, sealed anew.
      if (version > 0 && GEMINI_FAULT("driver.state_saved_during_build")) suspend();
      er.transcript_after_build = DumpJson(ref::ToJson(transcript));
      er.stored_after_build = stored_bytes();
      er.request_built = true;
      if (hook_) hook_(request);
      Json response;
      try {
        // A streamed exchange goes to :streamGenerateContent and is folded into the response
        // of the whole content, parsed and correlated like any other (ADR-226.17).
        response = ex.response.stream ? client.StreamGenerateContent(options.model, request)
                                      : client.GenerateContent(options.model, request);
      } catch (const ref::ProviderError& e) {
        refuse(e, "http");
        return report;
      } catch (const std::exception& e) {
        untyped(e, "http");
        return report;
      }
      ref::Message turn;
      try {
        turn = ref::ParseResponse(response, transcript, state.public_id_counter);
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
      try {
        // The case's selectors name the answer's parts; each reported call is the part it
        // is, wherever the implementation lists it (INTERPRETING §5.4).
        ApplyActions(ex.then, CallsInPartOrder(ex, er.calls), state, exchange, suspend);
      } catch (const Unappliable& e) {
        report.stopped = model::Stop{exchange, e.what()};
        return report;
      }
      if (every_turn) suspend();
    }
  } catch (const ref::ProviderError& e) {
    // The store failed (unavailable, conflict, ...): the application could not go on, which
    // says nothing about the adapter; the message carries no stored content.
    report.harness_error = std::string("reference driver: state store: ") + e.what();
  } catch (const std::exception& e) {
    report.harness_error = std::string("reference driver: ") + e.what();
  }
  return report;
}

}  // namespace gemini_oracle::runner
