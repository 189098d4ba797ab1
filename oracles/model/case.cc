#include "oracles/model/case.h"
#include "oracles/model/json_member.h"

#include <algorithm>
#include <stdexcept>

namespace gemini_oracle::model {
namespace {

[[noreturn]] void Bad(const std::string& where, const char* what) {
  throw std::invalid_argument("case member " + where + " " + what);
}

std::string StringAt(const Json& object, const char* key, const std::string& where) {
  const Json* value = Member(object, key);
  if (value == nullptr) return {};
  if (!value->is_string()) Bad(where + "/" + key, "is not a string");
  return value->get<std::string>();
}

std::optional<std::string> OptionalString(const Json& object, const char* key,
                                          const std::string& where) {
  if (Member(object, key) == nullptr) return std::nullopt;
  return StringAt(object, key, where);
}

std::size_t Index(const Json& value, const std::string& where) {
  if (!value.is_number_integer() || value.get<std::int64_t>() < 0) {
    Bad(where, "is not a non-negative integer");
  }
  return value.get<std::size_t>();
}

std::optional<std::size_t> OptionalIndex(const Json& object, const char* key,
                                         const std::string& where) {
  const Json* value = Member(object, key);
  if (value == nullptr) return std::nullopt;
  return Index(*value, where + "/" + key);
}

std::vector<std::string> Strings(const Json& object, const char* key, const std::string& where) {
  std::vector<std::string> out;
  const Json* value = Member(object, key);
  if (value == nullptr) return out;
  if (!value->is_array()) Bad(where + "/" + key, "is not an array");
  for (const auto& item : *value) {
    if (!item.is_string()) Bad(where + "/" + key, "has a non-string item");
    out.push_back(item.get<std::string>());
  }
  return out;
}

CallSelector SelectorFromJson(const Json& call, const std::string& where) {
  if (call.is_object()) {
    NamedCall named;
    named.name = StringAt(call, "name", where);
    if (const Json* args = Member(call, "args")) named.args = *args;
    return named;
  }
  return Index(call, where);
}

Result ResultFromJson(const Json& json, const std::string& where) {
  Result result;
  const Json* call = Member(json, "call");
  if (call == nullptr) Bad(where, "has no call");
  result.call = SelectorFromJson(*call, where + "/call");
  if (const Json* value = Member(json, "json")) {
    result.kind = Result::Kind::kJson;
    result.value = *value;
  } else if (const Json* text = Member(json, "text")) {
    result.kind = Result::Kind::kText;
    result.value = *text;
  } else if (const Json* error = Member(json, "error")) {
    result.kind = Result::Kind::kError;
    result.value = *error;
  } else {
    Bad(where, "has no json, text or error");
  }
  if (const Json* gated = Member(json, "gated")) {
    if (!gated->is_boolean()) Bad(where + "/gated", "is not a boolean");
    result.gated = gated->get<bool>();
  }
  if (Member(json, "approval") != nullptr) result.approval = StringAt(json, "approval", where);
  return result;
}

ApprovalAction ApprovalFromJson(const Json& json, const std::string& where) {
  ApprovalAction action;
  const Json* call = Member(json, "call");
  if (call == nullptr) Bad(where, "has no call");
  action.call = SelectorFromJson(*call, where + "/call");
  const std::string decision = StringAt(json, "decision", where);
  if (decision != "approve" && decision != "deny") Bad(where + "/decision", "is not approve/deny");
  action.approve = decision == "approve";
  action.id = StringAt(json, "id", where);
  return action;
}

Actions ActionsFromJson(const Json& json, const std::string& where) {
  Actions actions;
  if (const Json* normalize = Member(json, "normalize_numbers")) {
    if (!normalize->is_boolean()) Bad(where + "/normalize_numbers", "is not a boolean");
    actions.normalize_numbers = normalize->get<bool>();
  }
  if (const Json* order = Member(json, "call_order")) {
    CallOrder call_order;
    if (order->is_string() && order->get<std::string>() == "reverse") {
      call_order.reverse = true;
    } else if (order->is_array()) {
      for (std::size_t i = 0; i < order->size(); ++i) {
        call_order.indices.push_back(
            Index((*order)[i], where + "/call_order/" + std::to_string(i)));
      }
    } else {
      Bad(where + "/call_order", "is neither \"reverse\" nor an index list");
    }
    actions.call_order = std::move(call_order);
  }
  if (const Json* approvals = Member(json, "approvals")) {
    if (!approvals->is_array()) Bad(where + "/approvals", "is not an array");
    for (std::size_t i = 0; i < approvals->size(); ++i) {
      actions.approvals.push_back(
          ApprovalFromJson((*approvals)[i], where + "/approvals/" + std::to_string(i)));
    }
  }
  if (const Json* suspend = Member(json, "suspend")) {
    if (!suspend->is_boolean()) Bad(where + "/suspend", "is not a boolean");
    actions.suspend = suspend->get<bool>();
  }
  if (const Json* results = Member(json, "results")) {
    for (std::size_t i = 0; i < results->size(); ++i) {
      actions.results.push_back(
          ResultFromJson((*results)[i], where + "/results/" + std::to_string(i)));
    }
  }
  return actions;
}

StreamScript StreamFromJson(const Json& json, const std::string& where) {
  if (!json.is_object()) Bad(where, "is not an object");
  StreamScript stream;
  const Json* events = Member(json, "events");
  if (events == nullptr || !events->is_array() || events->empty()) {
    Bad(where + "/events", "is not a list of events");
  }
  for (std::size_t i = 0; i < events->size(); ++i) {
    const Json& event = (*events)[i];
    if (!event.is_object() && !event.is_string()) {
      Bad(where + "/events/" + std::to_string(i), "is neither an object nor a string");
    }
    stream.events.push_back(event);
  }
  if (const Json* framing = Member(json, "framing")) {
    const std::string f = framing->is_string() ? framing->get<std::string>() : "";
    if (f == "crlf") {
      stream.eol = "\r\n";
    } else if (f == "lf") {
      stream.eol = "\n";
    } else if (f == "cr") {
      stream.eol = "\r";
    } else {
      Bad(where + "/framing", "is not crlf, lf or cr");
    }
  }
  if (const Json* split = Member(json, "split_at")) {
    if (!split->is_array()) Bad(where + "/split_at", "is not a list");
    for (std::size_t i = 0; i < split->size(); ++i) {
      if (!(*split)[i].is_number_unsigned()) {
        Bad(where + "/split_at/" + std::to_string(i), "is not a count");
      }
      stream.split_at.push_back((*split)[i].get<std::size_t>());
    }
  }
  if (const Json* delay = Member(json, "delay_ms")) {
    if (!delay->is_number_unsigned()) Bad(where + "/delay_ms", "is not a count");
    stream.delay_ms = delay->get<std::uint64_t>();
  }
  if (const Json* cut = Member(json, "cut_at")) {
    if (!cut->is_number_unsigned()) Bad(where + "/cut_at", "is not a count");
    stream.cut_at = cut->get<std::size_t>();
  }
  return stream;
}

Exchange ExchangeFromJson(const Json& json, const std::string& where) {
  Exchange exchange;
  exchange.user = OptionalString(json, "user", where);
  exchange.tool_mode = OptionalString(json, "tool_mode", where);
  const Json* response = Member(json, "response");
  if (response == nullptr) Bad(where, "has no response");
  if (const Json* status = Member(*response, "status")) {
    if (!status->is_number_integer()) Bad(where + "/response/status", "is not an integer");
    exchange.response.status = status->get<int>();
  }
  if (const Json* headers = Member(*response, "headers")) {
    if (!headers->is_object()) Bad(where + "/response/headers", "is not an object");
    for (const auto& [name, value] : headers->items()) {
      if (!value.is_string()) Bad(where + "/response/headers/" + name, "is not a string");
      exchange.response.headers.emplace_back(name, value.get<std::string>());
    }
  }
  if (const Json* body = Member(*response, "body")) exchange.response.body = *body;
  if (const Json* raw = Member(*response, "raw_body")) {
    if (!raw->is_string()) Bad(where + "/response/raw_body", "is not a string");
    exchange.response.raw_body = raw->get<std::string>();
  }
  if (const Json* delay = Member(*response, "delay_ms")) {
    if (!delay->is_number_unsigned()) Bad(where + "/response/delay_ms", "is not a count");
    exchange.response.delay_ms = delay->get<std::uint64_t>();
  }
  if (const Json* stream = Member(*response, "stream")) {
    exchange.response.stream = StreamFromJson(*stream, where + "/response/stream");
    exchange.response.body = StreamEventObjects(exchange.response.stream->events);
  }
  if (const Json* then = Member(json, "then")) {
    exchange.then = ActionsFromJson(*then, where + "/then");
  }
  return exchange;
}

Expect ExpectFromJson(const Json& json) {
  Expect expect;
  const auto outcome = ExpectedFromOutcome(StringAt(json, "outcome", "/expect"));
  if (!outcome) Bad("/expect/outcome", "is not a known outcome");
  expect.outcome = *outcome;
  expect.requests = OptionalIndex(json, "requests", "/expect");
  if (const Json* wire = Member(json, "wire")) {
    for (std::size_t i = 0; i < wire->size(); ++i) {
      const std::string where = "/expect/wire/" + std::to_string(i);
      const Json& item = (*wire)[i];
      WireAssertion assertion;
      assertion.request = OptionalIndex(item, "request", where).value_or(1);
      assertion.pointer = StringAt(item, "pointer", where);
      assertion.clause = StringAt(item, "clause", where);
      if (const Json* answering = Member(item, "answering")) {
        AnsweringCall call;
        call.turn = OptionalIndex(*answering, "turn", where + "/answering").value_or(1);
        call.call = OptionalIndex(*answering, "call", where + "/answering").value_or(0);
        assertion.answering = call;
      }
      if (const Json* equals = Member(item, "equals")) assertion.equals = *equals;
      if (const Json* absent = Member(item, "absent")) {
        assertion.absent = absent->is_boolean() && absent->get<bool>();
      }
      if (const Json* view = Member(item, "view")) {
        if (!view->is_string() || (*view != "sent" && *view != "joined")) {
          Bad(where + "/view", "is neither \"sent\" nor \"joined\"");
        }
        assertion.as_sent = *view == "sent";
        // The answering functionResponse is the same object in either view.
        if (assertion.as_sent && assertion.answering) {
          Bad(where + "/view", "\"sent\" addresses a body position, not an answering call");
        }
      }
      expect.wire.push_back(std::move(assertion));
    }
  }
  expect.error = StringAt(json, "error", "/expect");
  expect.phase = StringAt(json, "phase", "/expect");
  expect.exchange = OptionalIndex(json, "exchange", "/expect");
  expect.message = OptionalIndex(json, "message", "/expect");
  expect.part = OptionalIndex(json, "part", "/expect");
  expect.note = StringAt(json, "note", "/expect");
  return expect;
}

}  // namespace

std::string_view ToString(Expected expected) {
  switch (expected) {
    case Expected::kAccept:
      return "accept";
    case Expected::kRefuse:
      return "refuse";
    case Expected::kImplementationDefined:
      return "implementation_defined";
  }
  return "accept";
}

std::optional<Expected> ExpectedFromOutcome(std::string_view outcome) {
  if (outcome == "accept") return Expected::kAccept;
  if (outcome == "refuse") return Expected::kRefuse;
  if (outcome == "implementation_defined") return Expected::kImplementationDefined;
  return std::nullopt;
}

std::optional<Expected> ExpectedFromFileName(std::string_view file_name) {
  if (file_name.starts_with("y_")) return Expected::kAccept;
  if (file_name.starts_with("n_")) return Expected::kRefuse;
  if (file_name.starts_with("i_")) return Expected::kImplementationDefined;
  return std::nullopt;
}

std::string_view ToString(Result::Kind kind) {
  switch (kind) {
    case Result::Kind::kJson:
      return "json";
    case Result::Kind::kText:
      return "text";
    case Result::Kind::kError:
      return "error";
  }
  return "json";
}

std::string Case::Stem() const {
  const auto slash = id.rfind('/');
  return slash == std::string::npos ? id : id.substr(slash + 1);
}

std::string Case::Folder() const {
  const auto slash = id.find('/');
  return slash == std::string::npos ? std::string() : id.substr(0, slash);
}

bool Case::HasFeature(std::string_view feature) const {
  return std::find(features.begin(), features.end(), feature) != features.end();
}

bool Case::Suspends() const {
  return stored || std::any_of(exchanges.begin(), exchanges.end(),
                               [](const Exchange& ex) { return ex.then.suspend; });
}

Case CaseFromJson(Json document, std::string id, std::filesystem::path file) {
  if (!document.is_object()) Bad("/", "is not an object");
  Case result;
  result.id = std::move(id);
  result.file = std::move(file);
  const auto expected = ExpectedFromFileName(result.file.filename().string());
  if (!expected) Bad("file name", "does not start with y_, n_ or i_");
  result.expected = *expected;
  result.description = StringAt(document, "description", "");
  result.clauses = Strings(document, "clauses", "");
  result.features = Strings(document, "features", "");
  result.source = StringAt(document, "source", "");
  result.rationale = StringAt(document, "rationale", "");
  if (const Json* options = Member(document, "options")) result.options = *options;
  if (const Json* transcript = Member(document, "transcript")) {
    if (!transcript->is_array()) Bad("/transcript", "is not an array");
    result.transcript = *transcript;
  }
  if (const Json* stored = Member(document, "stored")) {
    if (!stored->is_boolean()) Bad("/stored", "is not a boolean");
    result.stored = stored->get<bool>();
  }
  const Json* exchanges = Member(document, "exchanges");
  if (exchanges == nullptr || !exchanges->is_array()) Bad("/exchanges", "is not an array");
  for (std::size_t i = 0; i < exchanges->size(); ++i) {
    result.exchanges.push_back(
        ExchangeFromJson((*exchanges)[i], "/exchanges/" + std::to_string(i)));
  }
  const Json* expect = Member(document, "expect");
  if (expect == nullptr) Bad("/expect", "is missing");
  result.expect = ExpectFromJson(*expect);
  result.raw = std::move(document);
  return result;
}

Json StreamEventObjects(const std::vector<Json>& events) {
  Json objects = Json::array();
  for (const Json& event : events) {
    if (event.is_object()) {
      objects.push_back(event);
      continue;
    }
    // A string event is served as data text: when that text is a JSON object, it is an event
    // like any other to whoever reads the stream, so the judges read it too.
    if (!event.is_string()) continue;
    try {
      Json parsed = ParseJson(event.get<std::string>());
      if (parsed.is_object()) objects.push_back(std::move(parsed));
    } catch (const Json::exception&) {
      // not JSON: no part of the answer
    }
  }
  return objects;
}

std::string StreamScript::Bytes() const {
  std::string bytes;
  for (const Json& event : events) {
    bytes += "data: ";
    bytes += event.is_string() ? event.get<std::string>() : DumpJson(event);
    bytes += eol;
    bytes += eol;
  }
  return bytes;
}

std::vector<std::size_t> StreamScript::EventEnds() const {
  std::vector<std::size_t> ends;
  std::size_t at = 0;
  for (const Json& event : events) {
    at += 6 + (event.is_string() ? event.get<std::string>().size() : DumpJson(event).size()) +
          2 * eol.size();
    ends.push_back(at);
  }
  return ends;
}

}  // namespace gemini_oracle::model
