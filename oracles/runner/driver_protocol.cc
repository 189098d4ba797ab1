#include "oracles/runner/driver_protocol.h"

#include <stdexcept>

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
        er.calls.push_back(ParsedCall{call["id"].get<std::string>(), call["name"].get<std::string>(),
                                      Find(call, "arguments") ? call["arguments"] : Json::object()});
      }
    }
    er.transcript_before_build = StringOr(x, "transcript_before_build");
    er.transcript_after_build = StringOr(x, "transcript_after_build");
    er.stored_before_build = StringOr(x, "stored_before_build");
    er.stored_after_build = StringOr(x, "stored_after_build");
    report.exchanges.push_back(std::move(er));
  }
  report.persisted = Find(message, "persisted") != nullptr && message["persisted"] == true;
  if (const Json* refusal = Find(message, "refusal"); refusal != nullptr && !refusal->is_null()) {
    if (!refusal->is_object()) throw std::invalid_argument("`refusal` is not an object");
    model::Refusal r;
    r.code = StringOr(*refusal, "code");
    r.phase = StringOr(*refusal, "phase");
    if (r.phase != "build" && r.phase != "parse" && r.phase != "http") {
      throw std::invalid_argument("a refusal whose phase is not build, parse or http");
    }
    r.exchange = Index(*refusal, "exchange").value_or(0);
    if (r.exchange == 0) throw std::invalid_argument("a refusal without its exchange");
    r.message = StringOr(*refusal, "message");
    r.message_index = Index(*refusal, "message_index");
    r.part_index = Index(*refusal, "part_index");
    report.refusal = std::move(r);
  }
  return report;
}

}  // namespace

std::vector<std::string> RequiredCapabilities(const Case& c) {
  std::vector<std::string> needed;
  if ((c.transcript.is_array() && !c.transcript.empty()) || c.stored) needed.push_back(kCarriedState);
  if (c.Suspends()) needed.push_back(kPersistence);
  if (c.HasFeature("approvals")) needed.push_back(kApprovals);
  for (const auto& ex : c.exchanges) {
    if (ex.response.stream) {
      needed.push_back(kStreaming);
      break;
    }
  }
  return needed;
}

Json StartMessage() { return Json{{"type", "start"}, {"version", kVersion}}; }

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
  if (const Json* model = Find(c.options, "model")) message["model"] = *model;
  return message;
}

Hello ParseHello(const Json& message) {
  if (StringOr(message, "type") != "hello") {
    throw std::invalid_argument("the answer to start is not a hello");
  }
  Hello hello;
  hello.name = StringOr(message, "name");
  hello.version = StringOr(message, "version");
  hello.language = StringOr(message, "language");
  if (hello.name.empty()) throw std::invalid_argument("a hello without a name");
  if (const Json* capabilities = Find(message, "capabilities")) {
    if (!capabilities->is_array()) throw std::invalid_argument("`capabilities` is not a list");
    for (const Json& capability : *capabilities) {
      if (!capability.is_string()) throw std::invalid_argument("a capability is not a string");
      hello.capabilities.insert(capability.get<std::string>());
    }
  }
  return hello;
}

Reply ParseReply(const Json& message, std::size_t seq) {
  if (!message.is_object()) return Garbled{"a line that is not a JSON object"};
  const Json* got = Find(message, "seq");
  if (got == nullptr || !got->is_number_integer() || got->get<std::int64_t>() < 0 ||
      got->get<std::size_t>() != seq) {
    return Garbled{"an answer without the seq of the case asked for (" + std::to_string(seq) + ")"};
  }
  const std::string type = StringOr(message, "type");
  try {
    if (type == "report") return ReportOf(message);
  } catch (const std::invalid_argument& e) {
    return Garbled{std::string("a report that breaks the protocol: ") + e.what()};
  }
  if (type == "skipped") return Skipped{StringOr(message, "reason", "no reason given")};
  if (type == "errored") return Errored{StringOr(message, "context", "no context given")};
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
  Json message = Json{{"type", "report"}, {"seq", seq}, {"exchanges", exchanges},
                      {"persisted", report.persisted}};
  if (report.refusal) {
    const auto& r = *report.refusal;
    Json refusal = Json{{"code", r.code}, {"phase", r.phase}, {"exchange", r.exchange},
                        {"message", r.message}};
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
