#include "oracles/runner/driver_protocol.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <set>
#include <stdexcept>

#include "oracles/checks/wire_view.h"

namespace gemini_oracle::runner::protocol {
namespace {

const Json* Find(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string StringOr(const Json& object, const char* key, const std::string& fallback = "") {
  const Json* value = Find(object, key);
  return value != nullptr && value->is_string() ? value->get<std::string>() : fallback;
}

// The exchange's `then` as the case file gives it (a twin shares its original's).
Json ThenOf(const Case& c, std::size_t k) {
  const Json* exchanges = Find(c.raw, "exchanges");
  if (exchanges == nullptr || !exchanges->is_array() || k >= exchanges->size()) return nullptr;
  const Json* then = Find((*exchanges)[k], "then");
  return then != nullptr ? *then : Json(nullptr);
}

std::optional<std::size_t> Index(const Json& object, const char* key) {
  const Json* value = Find(object, key);
  if (value == nullptr || value->is_null()) return std::nullopt;
  if (!value->is_number_integer() || value->get<std::int64_t>() < 0) {
    throw std::invalid_argument(std::string(key) + " is not a count");
  }
  return value->get<std::size_t>();
}

// Every value inside `value` (strings, and numbers written with 6 or more characters), keys
// left out, except the values of members named in `skip` (at any depth).
void CollectValues(const Json& value, std::vector<std::string>& out,
                   std::initializer_list<std::string_view> skip = {}) {
  if (value.is_string()) {
    out.push_back(value.get<std::string>());
  } else if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (std::find(skip.begin(), skip.end(), it.key()) != skip.end()) continue;
      CollectValues(*it, out, skip);
    }
  } else if (value.is_array()) {
    for (const auto& item : value) CollectValues(item, out, skip);
  } else if (value.is_number()) {
    const std::string text = DumpJson(value);
    if (text.size() >= 6) out.push_back(text);
  }
}

// The native content of a scripted answer: every string in it (texts, ids, signatures,
// arguments, results, error messages, code), but for the members that name its structure
// (roles, function names, finish reasons, the model's version, MIME types, statuses). A
// `raw_body` is read as JSON when it is, else held whole.
void CollectAnswerContent(const Json& value, std::vector<std::string>& out) {
  static const std::vector<std::string_view> kStructure = {
      "role", "name", "finishReason", "modelVersion", "mimeType", "status", "language",
      "outcome"};
  if (value.is_array()) {
    for (const auto& item : value) CollectAnswerContent(item, out);
    return;
  }
  if (value.is_string() || value.is_number()) {
    CollectValues(value, out);
    return;
  }
  if (!value.is_object()) return;
  for (auto it = value.begin(); it != value.end(); ++it) {
    const std::string& key = it.key();
    if (key == "args" || key == "response" || key == "partialArgs") {
      CollectValues(*it, out);  // every value, whatever its member is called
    } else if (key == "raw_body" && it->is_string()) {
      try {
        CollectAnswerContent(ParseJson(it->get<std::string>()), out);
      } catch (const std::exception&) {
        out.push_back(it->get<std::string>());
      }
    } else if (std::find(kStructure.begin(), kStructure.end(), key) == kStructure.end()) {
      CollectAnswerContent(*it, out);
    }
  }
}

// What a driver's text must not carry into a report: the case's native content (ids,
// argument and result values, signatures, texts, the carried transcript's contents), not the
// ordinary words its structure uses (feature and function names, roles, descriptions).
std::vector<std::string> NativeStrings(const Case& c) {
  std::vector<std::string> natives;
  if (const Json* exchanges = Find(c.raw, "exchanges"); exchanges && exchanges->is_array()) {
    for (const Json& x : *exchanges) {
      if (const Json* user = Find(x, "user"); user && user->is_string()) {
        natives.push_back(user->get<std::string>());
      }
      if (const Json* response = Find(x, "response")) CollectAnswerContent(*response, natives);
      const Json* then = Find(x, "then");
      const Json* results = then ? Find(*then, "results") : nullptr;
      if (results && results->is_array()) {
        for (const Json& r : *results) {
          // The result's own members but its selector (`call`) and approval reference.
          if (!r.is_object()) continue;
          for (auto it = r.begin(); it != r.end(); ++it) {
            if (it.key() != "call" && it.key() != "approval") CollectValues(*it, natives);
          }
        }
      }
    }
  }
  // The carried transcript: every value but each message's and tool call's role and name.
  if (c.transcript.is_array()) {
    for (const Json& message : c.transcript) {
      if (!message.is_object()) {
        CollectValues(message, natives);
        continue;
      }
      for (auto it = message.begin(); it != message.end(); ++it) {
        if (it.key() == "role" || it.key() == "name") continue;
        if (it.key() == "tool_calls" && it->is_array()) {
          for (const Json& call : *it) {
            if (!call.is_object()) continue;
            for (auto m = call.begin(); m != call.end(); ++m) {
              if (m.key() != "name") CollectValues(*m, natives);
            }
          }
          continue;
        }
        CollectValues(*it, natives);
      }
    }
  }
  return natives;
}

// Whether `text` holds `native` at `at` as a token of its own (no letter, digit or `_` on
// either side).
bool StandsAlone(const std::string& text, std::size_t at, std::size_t size) {
  const auto word = [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '_';
  };
  return (at == 0 || !word(text[at - 1])) &&
         (at + size >= text.size() || !word(text[at + size]));
}

bool LooksLikeCode(const std::string& code) {
  if (code.empty() || code.size() > 64) return false;
  for (const char ch : code) {
    // `$` for nested class names (Java's Outer$Inner).
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '.' && ch != ':' &&
        ch != '-' && ch != '$') {
      return false;
    }
  }
  return true;
}

DriverReport ReportOf(const Json& message) {
  DriverReport report;
  const Json* exchanges = Find(message, "exchanges");
  if (exchanges == nullptr || !exchanges->is_array()) {
    throw std::invalid_argument("a report without an `exchanges` list");
  }
  for (const Json& x : *exchanges) {
    if (!x.is_object()) throw std::invalid_argument("an exchange that is not an object");
    model::ExchangeReport er;
    er.request_built = Find(x, "request_built") != nullptr && x["request_built"] == true;
    er.response_parsed = Find(x, "response_parsed") != nullptr && x["response_parsed"] == true;
    if (const Json* calls = Find(x, "calls")) {
      if (!calls->is_array()) throw std::invalid_argument("`calls` is not a list");
      for (const Json& call : *calls) {
        if (!call.is_object() || !Find(call, "id") || !call["id"].is_string() ||
            !Find(call, "name") || !call["name"].is_string()) {
          throw std::invalid_argument("a call without a string `id` and `name`");
        }
        er.calls.push_back(
            ParsedCall{call["id"].get<std::string>(), call["name"].get<std::string>(),
                       Find(call, "arguments") ? call["arguments"] : Json::object()});
      }
    }
    if (const Json* answered = Find(x, "answered")) {
      if (!answered->is_array()) throw std::invalid_argument("`answered` is not a list");
      er.answered.emplace();
      for (const Json& a : *answered) {
        const auto result = a.is_object() ? Index(a, "result") : std::nullopt;
        if (!result || !Find(a, "call") || !a["call"].is_string()) {
          throw std::invalid_argument("an `answered` entry without a `result` index and `call` id");
        }
        er.answered->push_back(model::AnsweredCall{*result, a["call"].get<std::string>()});
      }
    }
    er.transcript_before_build = StringOr(x, "transcript_before_build");
    er.transcript_after_build = StringOr(x, "transcript_after_build");
    er.stored_before_build = StringOr(x, "stored_before_build");
    er.stored_after_build = StringOr(x, "stored_after_build");
    report.exchanges.push_back(std::move(er));
  }
  report.persisted = Find(message, "persisted") != nullptr && message["persisted"] == true;
  // The application stopped where the case's actions did not fit the calls the implementation
  // parsed (INTERPRETING §15.2): judged, not a driver error. Optional: v1 drivers omit it.
  if (const Json* stopped = Find(message, "stopped"); stopped != nullptr && !stopped->is_null()) {
    const auto exchange = stopped->is_object() ? Index(*stopped, "exchange") : std::nullopt;
    // The exchange whose actions failed has the report's last entry (§15): nothing ran after.
    if (!exchange || *exchange == 0 || *exchange != report.exchanges.size()) {
      throw std::invalid_argument("`stopped` names not the report's last exchange (1-based)");
    }
    report.stopped = model::Stop{*exchange, StringOr(*stopped, "reason")};
  }
  if (const Json* refusal = Find(message, "refusal"); refusal != nullptr && !refusal->is_null()) {
    if (!refusal->is_object()) throw std::invalid_argument("`refusal` is not an object");
    model::Refusal r;
    r.code = StringOr(*refusal, "code");
    if (!LooksLikeCode(r.code)) throw std::invalid_argument("a refusal code that is not a code");
    // A framework that raises may not say where (protocol 2): a refusal without `exchange`
    // and `phase` is placed from the journal by the runner (PlaceRefusal). Given, they are
    // judged as reported.
    r.phase = StringOr(*refusal, "phase");
    if (r.phase != "build" && r.phase != "parse" && r.phase != "http" && !r.phase.empty()) {
      throw std::invalid_argument("a refusal whose phase is not build, parse or http");
    }
    const std::optional<std::size_t> exchange = Index(*refusal, "exchange");
    if (exchange && *exchange == 0) throw std::invalid_argument("a refusal at exchange 0");
    if (exchange.has_value() == r.phase.empty()) {
      throw std::invalid_argument("a refusal with only one of `exchange` and `phase`");
    }
    r.exchange = exchange.value_or(0);
    r.message = StringOr(*refusal, "message");
    r.message_index = Index(*refusal, "message_index");
    r.part_index = Index(*refusal, "part_index");
    report.refusal = std::move(r);
  }
  return report;
}

}  // namespace

std::string SafeDriverText(std::string text, const Case* c, std::size_t limit) {
  std::string kept;
  for (const char ch : text) {
    const auto byte = static_cast<unsigned char>(ch);
    if (byte >= 0x20 && byte != 0x7f) kept += ch;
  }
  if (c != nullptr) {
    // Native content of 8 or more characters is cut wherever it occurs; shorter content (an
    // id such as "c1ab", a short text) only where it stands as a token of its own, so that
    // ordinary words of a reason survive; content under 4 characters says nothing.
    std::vector<std::string> natives = NativeStrings(*c);
    std::sort(natives.begin(), natives.end(),
              [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    for (const std::string& native : natives) {
      if (native.size() < 4) continue;
      const bool anywhere = native.size() >= 8;
      for (std::size_t at = kept.find(native); at != std::string::npos;
           at = kept.find(native, at + 1)) {
        if (!anywhere && !StandsAlone(kept, at, native.size())) continue;
        kept.replace(at, native.size(), "\u2026");
      }
    }
  }
  if (kept.size() > limit) {
    kept.resize(limit);
    // Not inside a UTF-8 sequence.
    while (!kept.empty() && (static_cast<unsigned char>(kept.back()) & 0xC0) == 0x80)
      kept.pop_back();
    if (!kept.empty() && static_cast<unsigned char>(kept.back()) >= 0xC0) kept.pop_back();
    kept += "\u2026";
  }
  return kept;
}

bool PlaceRefusal(const Case& c, std::size_t sent, DriverReport& report) {
  if (!report.refusal || report.refusal->exchange != 0) return false;
  model::Refusal& r = *report.refusal;
  // `sent` requests went out: the refusal is of the answer to request `sent` (parse) or of
  // building request `sent + 1` (build). The journal cannot tell them apart; the case's own
  // expectation does, when it is one of the two.
  const auto& expect = c.expect;
  if (expect.outcome == model::Expected::kRefuse && expect.exchange) {
    const bool build = expect.phase == "build";
    const std::size_t allowed = build ? *expect.exchange - 1 : *expect.exchange;
    if (allowed == sent) {
      r.exchange = *expect.exchange;
      r.phase = expect.phase;
      return true;
    }
  }
  if (sent == 0) {
    r.exchange = 1;
    r.phase = "build";
  } else {
    r.exchange = sent;
    r.phase = "parse";
  }
  return true;
}

std::vector<std::string> RequiredCapabilities(const Case& c) {
  std::vector<std::string> needed;
  if ((c.transcript.is_array() && !c.transcript.empty()) || c.stored)
    needed.push_back(kCarriedState);
  if (c.Suspends()) needed.push_back(kPersistence);
  if (c.HasFeature("approvals")) needed.push_back(kApprovals);
  for (const auto& ex : c.exchanges) {
    if (ex.response.stream) {
      needed.push_back(kStreaming);
      break;
    }
  }
  if (c.HasFeature("stream-capture")) needed.push_back(kStreamCapture);
  return needed;
}

namespace {

// What a framework-run loop needs to answer from `then` without reading the wire (protocol 2):
// the answer's calls in parse order (`name`, `args` when present, and
// `answered_inside` for a call the server answered in its own content, which is no pending
// call, ADR-226.B2), and the call (index into `calls`) each result and approval selects.
void AnswerCalls(const Exchange& ex, Json& x) {
  const Json parts = checks::detail::ScriptedParts(ex);
  // The turn read once for every call and selector (a call in pieces, INTERPRETING §5.6, is
  // one call with its assembled args).
  const checks::detail::CallsView view = checks::detail::ReadCalls(parts);
  const std::set<std::size_t> pending(view.pending.begin(), view.pending.end());
  Json calls = Json::array();
  for (const model::PieceCall& call : view.turn.calls) {
    Json entry = Json::object();
    if (const Json* name = Find(call.call, "name")) entry["name"] = *name;
    if (const Json* args = Find(call.call, "args")) entry["args"] = *args;
    entry["answered_inside"] = pending.count(call.pieces.front()) == 0;
    calls.push_back(std::move(entry));
  }
  x["calls"] = std::move(calls);
  const auto selected = [&](const model::CallSelector& selector) {
    const auto call = checks::detail::ResolveSelector(selector, view);
    return call ? Json(*call) : Json(nullptr);
  };
  Json results = Json::array();
  for (const auto& r : ex.then.results) results.push_back(selected(r.call));
  Json approvals = Json::array();
  for (const auto& a : ex.then.approvals) approvals.push_back(selected(a.call));
  x["selected"] = Json{{"results", std::move(results)}, {"approvals", std::move(approvals)}};
}

}  // namespace

Json StartMessage() {
  return Json{{"type", "start"},
              {"version", kVersion},
              {"versions", Json::array({1, 2})},
              {"reply_fd", kReplyFd}};
}

Json StopMessage() { return Json{{"type", "stop"}}; }

Json RunCaseMessage(const Case& c, const std::string& base_url, std::size_t seq,
                    bool keep_in_memory) {
  Json exchanges = Json::array();
  for (std::size_t k = 0; k < c.exchanges.size(); ++k) {
    const Exchange& ex = c.exchanges[k];
    Json x = Json::object();
    if (ex.user) x["user"] = *ex.user;
    if (ex.tool_mode) x["tool_mode"] = *ex.tool_mode;
    x["streamed"] = ex.response.stream.has_value();
    const Json then = ThenOf(c, k);
    if (!then.is_null()) x["then"] = then;
    AnswerCalls(ex, x);
    exchanges.push_back(std::move(x));
  }
  Json message = Json{{"type", "run_case"},
                      {"seq", seq},
                      {"id", c.id},
                      {"base_url", base_url},
                      {"options", c.options},
                      {"transcript", c.transcript},
                      {"stored", c.stored},
                      {"features", c.features},
                      {"exchanges", exchanges},
                      {"keep_in_memory", keep_in_memory}};
  // The model the case names, else the default (INTERPRETING §5.2).
  const Json* model = Find(c.options, "model");
  message["model"] = model != nullptr && model->is_string() ? *model : Json("gemini-2.5-flash");
  return message;
}

Hello ParseHello(const Json& message) {
  if (StringOr(message, "type") != "hello") {
    throw std::invalid_argument("the answer to start is not a hello");
  }
  const Json* version = Find(message, "protocol");
  if (version == nullptr || !version->is_number_integer() ||
      version->get<std::int64_t>() < kOldestVersion || version->get<std::int64_t>() > kVersion) {
    throw std::invalid_argument("a hello without protocol " + std::to_string(kOldestVersion) +
                                " to " + std::to_string(kVersion));
  }
  Hello hello;
  hello.protocol = version->get<int>();
  // Long enough for a framework's name and every package version it pins (`ai 5.0.60,
  // @ai-sdk/google 2.0.17`): reports and comparisons tell implementations apart by them.
  hello.name = SafeDriverText(StringOr(message, "name"), nullptr, 128);
  hello.version = SafeDriverText(StringOr(message, "version"), nullptr, 160);
  hello.language = SafeDriverText(StringOr(message, "language"), nullptr, 64);
  if (hello.name.empty()) throw std::invalid_argument("a hello without a name");
  const Json* capabilities = Find(message, "capabilities");
  if (capabilities == nullptr || !capabilities->is_array()) {
    throw std::invalid_argument("a hello without a `capabilities` list");
  }
  for (const Json& capability : *capabilities) {
    if (!capability.is_string()) throw std::invalid_argument("a capability is not a string");
    hello.capabilities.insert(capability.get<std::string>());
  }
  if (hello.protocol == 1 && hello.capabilities.count(kStreaming) != 0) {
    hello.capabilities.insert(kStreamCapture);
  }
  return hello;
}

Reply ParseReply(const Json& message, std::size_t seq, const Case& c) {
  if (!message.is_object()) return Garbled{"a line that is not a JSON object"};
  const Json* got = Find(message, "seq");
  if (got == nullptr || !got->is_number_integer() || got->get<std::int64_t>() < 0 ||
      got->get<std::size_t>() != seq) {
    return Garbled{"an answer without the seq of the case asked for (" + std::to_string(seq) + ")"};
  }
  const std::string type = StringOr(message, "type");
  try {
    if (type == "report") {
      DriverReport report = ReportOf(message);
      if (report.stopped) report.stopped->reason = SafeDriverText(report.stopped->reason, &c);
      return report;
    }
  } catch (const std::invalid_argument& e) {
    return Garbled{std::string("a report that breaks the protocol: ") + e.what()};
  }
  if (type == "skipped") {
    return Skipped{SafeDriverText(StringOr(message, "reason", "no reason given"), &c)};
  }
  if (type == "errored") {
    return Errored{SafeDriverText(StringOr(message, "context", "no context given"), &c)};
  }
  return Garbled{"an answer whose type is not report, skipped or errored"};
}

Json ReportMessage(const DriverReport& report, std::size_t seq) {
  Json exchanges = Json::array();
  for (const auto& er : report.exchanges) {
    Json calls = Json::array();
    for (const auto& call : er.calls) {
      calls.push_back(Json{{"id", call.id}, {"name", call.name}, {"arguments", call.arguments}});
    }
    Json x = Json{{"request_built", er.request_built},
                  {"response_parsed", er.response_parsed},
                  {"calls", calls}};
    if (er.answered) {
      Json answered = Json::array();
      for (const auto& a : *er.answered) {
        answered.push_back(Json{{"result", a.result}, {"call", a.call}});
      }
      x["answered"] = std::move(answered);
    }
    if (!er.transcript_before_build.empty()) {
      x["transcript_before_build"] = er.transcript_before_build;
      x["transcript_after_build"] = er.transcript_after_build;
    }
    if (!er.stored_before_build.empty() || !er.stored_after_build.empty()) {
      x["stored_before_build"] = er.stored_before_build;
      x["stored_after_build"] = er.stored_after_build;
    }
    exchanges.push_back(std::move(x));
  }
  Json message = Json{
      {"type", "report"}, {"seq", seq}, {"exchanges", exchanges}, {"persisted", report.persisted}};
  if (report.stopped) {
    message["stopped"] = Json{{"exchange", report.stopped->exchange},
                              {"reason", report.stopped->reason}};
  }
  if (report.refusal) {
    const auto& r = *report.refusal;
    Json refusal = Json{{"code", r.code}, {"message", r.message}};
    // A refusal not placed (a framework that raises says neither) is written without both, as
    // ParseReply reads it; "exchange": 0 would break the protocol.
    if (r.exchange != 0 || !r.phase.empty()) {
      refusal["phase"] = r.phase;
      refusal["exchange"] = r.exchange;
    }
    if (r.message_index) refusal["message_index"] = *r.message_index;
    if (r.part_index) refusal["part_index"] = *r.part_index;
    message["refusal"] = refusal;
  }
  return message;
}

Case CaseOfRunMessage(const Json& message) {
  if (StringOr(message, "type") != "run_case") throw std::invalid_argument("not a run_case");
  const Json* exchanges = Find(message, "exchanges");
  if (exchanges == nullptr || !exchanges->is_array() || exchanges->empty()) {
    throw std::invalid_argument("a run_case without exchanges");
  }
  Json document = Json::object();
  document["description"] = "run by a driver";
  document["clauses"] = Json::array();
  document["features"] = Find(message, "features") ? message["features"] : Json::array();
  document["options"] = Find(message, "options") ? message["options"] : Json::object();
  if (const Json* transcript = Find(message, "transcript")) document["transcript"] = *transcript;
  if (const Json* stored = Find(message, "stored")) document["stored"] = *stored;
  Json xs = Json::array();
  for (const Json& x : *exchanges) {
    Json exchange = Json::object();
    if (const Json* user = Find(x, "user")) exchange["user"] = *user;
    if (const Json* mode = Find(x, "tool_mode")) exchange["tool_mode"] = *mode;
    // Stand-ins: the driver never sees the scripted answers, only whether one is streamed.
    exchange["response"] = Find(x, "streamed") && x["streamed"] == true
                               ? Json{{"stream", Json{{"events", Json::array({Json::object()})}}}}
                               : Json{{"body", Json::object()}};
    if (const Json* then = Find(x, "then")) exchange["then"] = *then;
    xs.push_back(std::move(exchange));
  }
  document["exchanges"] = xs;
  document["expect"] = Json{{"outcome", "implementation_defined"}, {"note", "run by a driver"}};
  const std::string id = StringOr(message, "id", "driver/i_case");
  return CaseFromJson(std::move(document), id, id + ".json");
}

}  // namespace gemini_oracle::runner::protocol
