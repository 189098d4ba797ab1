#include "oracles/runner/case_rules.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include "oracles/model/case.h"
#include "oracles/model/call_pieces.h"
#include "oracles/model/server_answered.h"
#include "oracles/runner/json_positions.h"
#include "oracles/runner/model_names.h"
#include "oracles/runner/strict_json.h"
#include "reference_impl/json_equality.h"
#include "reference_impl/provider_error.h"

namespace gemini_oracle::runner::rules {
namespace {

constexpr std::size_t kMaxDescription = 100;

const Json* Member(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string Quoted(const std::string& text) { return "\"" + text + "\""; }

std::size_t CodePoints(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// A non-negative integer member, or nullopt for anything else (the schema reports that).
std::optional<std::uint64_t> Count(const Json* value) {
  if (value == nullptr || !value->is_number_integer()) return std::nullopt;
  if (value->is_number_unsigned()) return value->get<std::uint64_t>();
  const auto signed_value = value->get<std::int64_t>();
  if (signed_value < 0) return std::nullopt;
  return static_cast<std::uint64_t>(signed_value);
}

void CheckPrefix(const Json& document, std::string_view file_name, std::vector<Finding>& out) {
  const auto expected = ExpectedFromFileName(file_name);
  if (!expected) return;
  const Json* expect = Member(document, "expect");
  const Json* outcome = expect == nullptr ? nullptr : Member(*expect, "outcome");
  const std::string want(ToString(*expected));
  const std::string prefix(file_name.substr(0, 2));
  if (outcome == nullptr || !outcome->is_string()) {
    out.push_back({std::string(kPrefixExpect), expect == nullptr ? "" : "/expect",
                   prefix + " file needs expect.outcome " + Quoted(want)});
  } else if (outcome->get<std::string>() != want) {
    out.push_back({std::string(kPrefixExpect), "/expect/outcome",
                   prefix + " file needs expect.outcome " + Quoted(want) + ", found " +
                       Quoted(outcome->get<std::string>())});
  }
}

void CheckClauses(const Json& document, const ClauseRegistry& registry, std::vector<Finding>& out) {
  const Json* clauses = Member(document, "clauses");
  if (clauses == nullptr || !clauses->is_array()) return;
  for (std::size_t i = 0; i < clauses->size(); ++i) {
    const Json& id = (*clauses)[i];
    if (id.is_string() && !registry.Contains(id.get<std::string>())) {
      out.push_back(
          {std::string(kClauseUnknown), "/clauses/" + std::to_string(i),
           "clause " + Quoted(id.get<std::string>()) + " is not in oracles/clauses.json"});
    }
  }
}

void CheckDescription(const Json& document, std::vector<Finding>& out) {
  const Json* description = Member(document, "description");
  if (description == nullptr || !description->is_string()) return;
  const std::string text = description->get<std::string>();
  const std::size_t length = CodePoints(text);
  if (length >= kMaxDescription) {
    out.push_back({std::string(kDescriptionStyle), "/description",
                   "description has " + std::to_string(length) + " characters; keep it under 100"});
  }
  const std::string lower = Lower(text);
  for (const char* banned : {"should", "test that"}) {
    if (lower.find(banned) != std::string::npos) {
      out.push_back({std::string(kDescriptionStyle), "/description",
                     std::string("description must not contain ") + Quoted(banned) +
                         "; state the behaviour"});
    }
  }
}

void CheckErrorCode(const Json& document, std::vector<Finding>& out) {
  const Json* expect = Member(document, "expect");
  const Json* error = expect == nullptr ? nullptr : Member(*expect, "error");
  if (error == nullptr || !error->is_string()) return;
  if (ref::FindErrorCode(error->get<std::string>()) == nullptr) {
    out.push_back({std::string(kErrorUnknown), "/expect/error",
                   "error code " + Quoted(error->get<std::string>()) +
                       " is not in the provider error catalogue"});
  }
}

// A {name, args?} selector must pick exactly one functionCall of the scripted response, or
// the run would stop with a harness error instead of judging the implementation.
void CheckNamedSelector(const Json& selector, const std::vector<Json>& calls,
                        const std::string& where, std::vector<Finding>& out) {
  const Json* name = Member(selector, "name");
  if (name == nullptr || !name->is_string()) return;
  const Json* args = Member(selector, "args");
  std::size_t named = 0;
  std::size_t matched = 0;
  for (const Json& call : calls) {
    const Json* call_name = Member(call, "name");
    if (call_name == nullptr || *call_name != *name) continue;
    ++named;
    const Json* call_args = Member(call, "args");
    const Json empty = Json::object();
    if (args == nullptr || ref::ArgumentsEqual(*args, call_args ? *call_args : empty)) ++matched;
  }
  const std::string selected =
      "the selector {name " + Quoted(name->get<std::string>()) + (args ? ", args" : "") + "}";
  if (named == 0) {
    out.push_back({std::string(kSelectorMatch), where,
                   selected + " matches none of the scripted response's " +
                       std::to_string(calls.size()) +
                       " pending functionCall parts (no call of that name)"});
  } else if (matched == 0) {
    out.push_back({std::string(kSelectorMatch), where,
                   selected + " matches none of the " + std::to_string(named) +
                       " calls of that name: no call has these args"});
  } else if (matched > 1) {
    out.push_back({std::string(kSelectorMatch), where,
                   selected + " matches " + std::to_string(matched) +
                       " calls; add args or select by parse-order index"});
  }
}

void CheckSelectors(const Json& then, const std::vector<Json>& parsed,
                    const std::string& where, std::vector<Finding>& out) {
  const std::size_t calls = parsed.size();
  const std::string count_text =
      std::to_string(calls) + " pending functionCall part" + (calls == 1 ? "" : "s");
  for (const char* list : {"approvals", "results"}) {
    const Json* items = Member(then, list);
    if (items == nullptr || !items->is_array()) continue;
    for (std::size_t j = 0; j < items->size(); ++j) {
      const Json* call = Member((*items)[j], "call");
      const std::string call_where = where + "/" + list + "/" + std::to_string(j) + "/call";
      const auto index = Count(call);
      if (index && *index >= calls) {
        out.push_back({std::string(kSelectorRange), call_where,
                       "call " + std::to_string(*index) +
                           " is out of range: the scripted response has " + count_text});
      }
      if (call != nullptr && call->is_object()) CheckNamedSelector(*call, parsed, call_where, out);
    }
  }
  const Json* order = Member(then, "call_order");
  if (order == nullptr || !order->is_array()) return;
  std::set<std::uint64_t> seen;
  bool in_range = true;
  bool repeated = false;
  for (std::size_t k = 0; k < order->size(); ++k) {
    const auto index = Count(&(*order)[k]);
    if (!index) continue;
    if (*index >= calls) {
      out.push_back({std::string(kSelectorRange), where + "/call_order/" + std::to_string(k),
                     "call_order index " + std::to_string(*index) +
                         " is out of range: the scripted response has " + count_text});
      in_range = false;
    }
    if (!seen.insert(*index).second) repeated = true;
  }
  if (repeated) {
    out.push_back({std::string(kSelectorRange), where + "/call_order",
                   "call_order repeats an index; it must be a permutation of the " + count_text});
  } else if (in_range && order->size() != calls) {
    out.push_back({std::string(kSelectorRange), where + "/call_order",
                   "call_order must list each of the " + count_text + " exactly once"});
  }
}

// INTERPRETING §5.4: a `text` result is never a JSON text (that is what `json` is for), so
// every runner and the judges agree on whether the tool returned JSON.
void CheckTextResults(const Json& then, const std::string& where, std::vector<Finding>& out) {
  const Json* results = Member(then, "results");
  if (results == nullptr || !results->is_array()) return;
  for (std::size_t j = 0; j < results->size(); ++j) {
    const Json* text = Member((*results)[j], "text");
    if (text == nullptr || !text->is_string()) continue;
    // accept() reads without building a tree and without recursion, at any depth; a number
    // beyond a double is JSON to some readers (Python reads 1e999 as inf) though not to it.
    const std::string& value = text->get_ref<const std::string&>();
    const auto strict = ParseStrictJson(value);
    // NaN and Infinity are not JSON, but Python's json reads them as numbers.
    const bool python_number = value == "NaN" || value == "Infinity" || value == "-Infinity";
    // A member named twice makes no JSON object (INTERPRETING §8.4.1): such text is text.
    const bool repeated = strict.error && strict.error->rule == kJsonDuplicateKey;
    if ((Json::accept(value) && !repeated) || python_number ||
        (strict.error && strict.error->rule == kJsonNumberRange)) {
      out.push_back({std::string(kResultText), where + "/results/" + std::to_string(j) + "/text",
                     "a text result is a JSON text; give it as `json` instead"});
    }
  }
}

// How deep the arrays and objects of a text nest, strings skipped (no recursion).
std::size_t NestingOf(std::string_view text) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (in_string) {
      if (ch == '\\') {
        ++i;
      } else if (ch == '"') {
        in_string = false;
      }
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '[' || ch == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((ch == ']' || ch == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

// A carried tool message's content is text and may hold any JSON an implementation decodes
// (an integer beyond 64 bits, a repeated member name): only nesting deeper than a case file's
// is refused. An implementation may send such content decoded, and a request nesting it is
// past what the judges read, so no judge could say whether it survived (INTERPRETING §5.4).
void CheckCarriedContents(const Json& document, std::vector<Finding>& out) {
  const Json* transcript = Member(document, "transcript");
  if (transcript == nullptr || !transcript->is_array()) return;
  for (std::size_t i = 0; i < transcript->size(); ++i) {
    const Json* role = Member((*transcript)[i], "role");
    if (role == nullptr || *role != "tool") continue;  // only tool results are read as JSON
    const Json* content = Member((*transcript)[i], "content");
    if (content == nullptr || !content->is_string()) continue;
    const std::string& text = content->get_ref<const std::string&>();
    // Within the limit, or no JSON text anyone decodes (nlohmann's reader has no depth limit).
    if (NestingOf(text) <= kMaxCaseDepth || !Json::accept(text)) continue;
    out.push_back({std::string(kTranscriptContent), "/transcript/" + std::to_string(i) + "/content",
                   "the content is JSON nested deeper than " + std::to_string(kMaxCaseDepth) +
                       " levels"});
  }
}

void CheckExchanges(const Json& document, std::vector<Finding>& out) {
  const Json* exchanges = Member(document, "exchanges");
  if (exchanges == nullptr || !exchanges->is_array()) return;
  for (std::size_t i = 0; i < exchanges->size(); ++i) {
    const std::string where = "/exchanges/" + std::to_string(i) + "/then";
    const Json& exchange = (*exchanges)[i];
    const Json* then = Member(exchange, "then");
    if (then == nullptr || !then->is_object()) continue;
    CheckTextResults(*then, where, out);
    const Json* response = Member(exchange, "response");
    const Json* body = response == nullptr ? nullptr : Member(*response, "body");
    // An answer served byte for byte has the calls the judges read in it: those of a JSON object.
    Json raw;
    if (const Json* text = response == nullptr ? nullptr : Member(*response, "raw_body");
        text != nullptr && text->is_string()) {
      raw = ParseStrictJson(text->get_ref<const std::string&>()).value;
      if (raw.is_object()) body = &raw;
    }
    // A streamed answer's calls are those of its events, one after the other.
    Json events = Json::array();
    if (const Json* stream = response == nullptr ? nullptr : Member(*response, "stream")) {
      if (const Json* list = Member(*stream, "events"); list != nullptr && list->is_array()) {
        events = model::StreamEventObjects(std::vector<Json>(list->begin(), list->end()));
      }
      body = &events;
    }
    CheckSelectors(*then, body == nullptr ? std::vector<Json>() : FunctionCallsOf(*body),
                   where, out);
  }
}

bool HasFeature(const Json& document, std::string_view feature);
void CollectParts(const Json& body, std::vector<const Json*>& out, bool event = false);

// INTERPRETING §5.3: the chunk boundaries and the cut of a streamed answer lie inside the
// stream as served, and a case that streams says so in its features.
void CheckStreams(const Json& document, std::vector<Finding>& out) {
  const Json* exchanges = Member(document, "exchanges");
  bool streams = false;
  bool captures = false;
  for (std::size_t i = 0; exchanges != nullptr && exchanges->is_array() && i < exchanges->size();
       ++i) {
    const Json* response = Member((*exchanges)[i], "response");
    const Json* stream = response == nullptr ? nullptr : Member(*response, "stream");
    if (stream == nullptr || !stream->is_object()) continue;
    streams = true;
    // A later exchange carries what this streamed answer made (ADR-226.B1): the case says so,
    // unless it expects a refusal at or before this exchange (INTERPRETING §10).
    if (i + 1 < exchanges->size() && !captures) {
      const Json* expect = Member(document, "expect");
      const Json* outcome = expect == nullptr ? nullptr : Member(*expect, "outcome");
      const auto refused_at = expect == nullptr ? std::nullopt : Count(Member(*expect, "exchange"));
      const bool refused_here = outcome != nullptr && *outcome == "refuse" && refused_at &&
                                *refused_at <= i + 1;
      captures = !refused_here;
    }
    const std::string where = "/exchanges/" + std::to_string(i) + "/response/stream";
    model::StreamScript script;
    const Json* events = Member(*stream, "events");
    if (events == nullptr || !events->is_array()) continue;
    for (const Json& event : *events) script.events.push_back(event);
    const Json* framing = Member(*stream, "framing");
    if (framing != nullptr && *framing == "lf") script.eol = "\n";
    if (framing != nullptr && *framing == "cr") script.eol = "\r";
    const std::size_t size = script.Bytes().size();
    std::size_t previous = 0;
    const Json* split = Member(*stream, "split_at");
    for (std::size_t j = 0; split != nullptr && split->is_array() && j < split->size(); ++j) {
      const auto at = Count(&(*split)[j]);
      if (!at) continue;
      if (*at <= previous || *at >= size) {
        out.push_back({std::string(kStreamBytes), where + "/split_at/" + std::to_string(j),
                       "split_at " + std::to_string(*at) + " must be above " +
                           std::to_string(previous) + " and below the stream's " +
                           std::to_string(size) + " bytes"});
      } else {
        previous = *at;
      }
    }
    if (const auto cut = Count(Member(*stream, "cut_at")); cut && *cut > size) {
      out.push_back({std::string(kStreamBytes), where + "/cut_at",
                     "cut_at " + std::to_string(*cut) + " is past the stream's " +
                         std::to_string(size) + " bytes"});
    }
  }
  if (streams && !HasFeature(document, "streaming")) {
    out.push_back({std::string(kFeatureDeclared), "/features",
                   "the case streams a response; list feature \"streaming\""});
  }
  if (captures && !HasFeature(document, "stream-capture")) {
    out.push_back({std::string(kFeatureDeclared), "/features",
                   "a later exchange carries what a streamed answer made; list feature "
                   "\"stream-capture\""});
  }
}

bool HasFeature(const Json& document, std::string_view feature) {
  const Json* features = Member(document, "features");
  if (features == nullptr || !features->is_array()) return false;
  return std::any_of(features->begin(), features->end(),
                     [&](const Json& f) { return f.is_string() && f.get<std::string>() == feature; });
}

bool IsTrue(const Json* value) { return value != nullptr && value->is_boolean() && value->get<bool>(); }

// INTERPRETING §14: what goes through a store or an approval is tagged, and every approval a
// gated result presents exists by then.
void CheckPersistenceAndApprovals(const Json& document, std::vector<Finding>& out) {
  bool suspends = IsTrue(Member(document, "stored"));
  bool approves = false;
  std::set<std::string> recorded;
  const Json* exchanges = Member(document, "exchanges");
  for (std::size_t i = 0; exchanges != nullptr && exchanges->is_array() && i < exchanges->size();
       ++i) {
    const std::string where = "/exchanges/" + std::to_string(i) + "/then";
    const Json* then = Member((*exchanges)[i], "then");
    if (then == nullptr || !then->is_object()) continue;
    suspends = suspends || IsTrue(Member(*then, "suspend"));
    if (const Json* approvals = Member(*then, "approvals"); approvals && approvals->is_array()) {
      approves = approves || !approvals->empty();
      for (std::size_t j = 0; j < approvals->size(); ++j) {
        const Json* id = Member((*approvals)[j], "id");
        if (id == nullptr || !id->is_string()) continue;
        if (!recorded.insert(id->get<std::string>()).second) {
          out.push_back({std::string(kApprovalReference),
                         where + "/approvals/" + std::to_string(j) + "/id",
                         "approval id " + Quoted(id->get<std::string>()) +
                             " is recorded twice; approval ids are unique in a case"});
        }
      }
    }
    const Json* results = Member(*then, "results");
    for (std::size_t j = 0; results != nullptr && results->is_array() && j < results->size();
         ++j) {
      const Json& result = (*results)[j];
      const bool gated = IsTrue(Member(result, "gated"));
      approves = approves || gated;
      const Json* approval = Member(result, "approval");
      if (approval == nullptr || !approval->is_string()) continue;
      const std::string at = where + "/results/" + std::to_string(j) + "/approval";
      if (!gated) {
        out.push_back({std::string(kApprovalReference), at,
                       "only a gated result presents an approval; add \"gated\": true"});
      } else if (!recorded.count(approval->get<std::string>())) {
        out.push_back({std::string(kApprovalReference), at,
                       "approval " + Quoted(approval->get<std::string>()) +
                           " is not recorded in this or an earlier exchange"});
      }
    }
  }
  if (suspends && !HasFeature(document, "persistence")) {
    out.push_back({std::string(kFeatureDeclared), "/features",
                   "the case goes through a store (stored or then.suspend); list feature "
                   "\"persistence\""});
  }
  if (approves && !HasFeature(document, "approvals")) {
    out.push_back({std::string(kFeatureDeclared), "/features",
                   "the case records approvals or gates results; list feature \"approvals\""});
  }
}

// INTERPRETING §3.1: an n_ case quotes the ADR sentence that demands the refusal and an i_
// case says what the ADRs leave open, so every verdict that is not an acceptance can be
// traced to the text. A y_ case may carry a rationale too; it is not required there.
void CheckRationale(const Json& document, std::string_view file_name, std::vector<Finding>& out) {
  const auto expected = ExpectedFromFileName(file_name);
  if (!expected || *expected == Expected::kAccept) return;
  const std::string prefix(file_name.substr(0, 2));
  const Json* rationale = Member(document, "rationale");
  if (rationale == nullptr) {
    out.push_back({std::string(kRationalePresent), "",
                   prefix + " case needs a top-level /rationale: " +
                       (*expected == Expected::kRefuse
                            ? "quote the ADR sentence that demands the refusal"
                            : "say what the ADRs leave open")});
    return;
  }
  if (!rationale->is_string()) {
    out.push_back({std::string(kRationalePresent), "/rationale",
                   prefix + " case needs /rationale to be a string"});
    return;
  }
  const std::string& text = rationale->get_ref<const std::string&>();
  if (std::all_of(text.begin(), text.end(),
                  [](unsigned char c) { return std::isspace(c) != 0; })) {
    out.push_back({std::string(kRationalePresent), "/rationale",
                   prefix + " case has an empty /rationale: say why the verdict follows from "
                            "the ADR text"});
  }
}

void CheckExpectCounts(const Json& document, std::vector<Finding>& out) {
  const Json* expect = Member(document, "expect");
  if (expect == nullptr) return;
  const auto requests = Count(Member(*expect, "requests"));
  const Json* wire = Member(*expect, "wire");
  if (requests && wire != nullptr && wire->is_array()) {
    for (std::size_t k = 0; k < wire->size(); ++k) {
      const auto request = Count(Member((*wire)[k], "request"));
      if (request && *request > *requests) {
        out.push_back({std::string(kWireRequest), "/expect/wire/" + std::to_string(k) + "/request",
                       "wire assertion names request " + std::to_string(*request) +
                           " but the case expects " + std::to_string(*requests) + " request" +
                           (*requests == 1 ? "" : "s")});
      }
    }
  }
  const auto exchange = Count(Member(*expect, "exchange"));
  const Json* exchanges = Member(document, "exchanges");
  const std::size_t available =
      exchanges != nullptr && exchanges->is_array() ? exchanges->size() : 0;
  // An accepted run sends one request per exchange (INTERPRETING §5.1); another count would
  // blame the implementation for the case's own mistake.
  const Json* outcome = Member(*expect, "outcome");
  const bool accepting = outcome != nullptr && outcome->is_string() &&
                         (*outcome == "accept" || *outcome == "implementation_defined");
  if (requests && accepting && *requests != available) {
    out.push_back({std::string(kExpectRequests), "/expect/requests",
                   "expect.requests is " + std::to_string(*requests) +
                       " but an accepting run sends one request per exchange, " +
                       std::to_string(available) + " here"});
  }
  if (exchange && *exchange > available) {
    out.push_back({std::string(kRefuseExchange), "/expect/exchange",
                   "expect.exchange is " + std::to_string(*exchange) + " but the case has " +
                       std::to_string(available) + " exchange" + (available == 1 ? "" : "s")});
  }
}

// A wire assertion's place inside a Struct root: none, or the root kind and how deep below it.
struct RootPlace {
  enum class Root { kNone, kArgs, kResponse } root = Root::kNone;
  std::size_t depth = 0;  // 0: the root itself
};

RootPlace Enter(RootPlace place, std::string_view parent, std::string_view key) {
  if (place.root != RootPlace::Root::kNone) return {place.root, place.depth + 1};
  if (parent == "functionCall" && key == "args") return {RootPlace::Root::kArgs, 0};
  if (parent == "functionResponse" && key == "response") return {RootPlace::Root::kResponse, 0};
  return place;
}

bool NumericKeys(const Json& object) {
  std::size_t i = 0;
  for (auto it = object.begin(); it != object.end(); ++it, ++i) {
    if (it.key() != std::to_string(i)) return false;
  }
  return true;
}

// The first value of `value` (at `pointer`) whose kind §8.3 leaves open: a number inside a
// result (ADR-224: "arbitrary nested values retain their current decoded representation"), an
// object nested below a Struct root that a list could stand for (ADR-224: "The inherited
// associative decoder also loses arbitrary nested object/list kinds").
std::optional<std::pair<std::string, std::string>> OpenKind(const Json& value, RootPlace place,
                                                            std::string_view parent,
                                                            const std::string& pointer) {
  if (place.root == RootPlace::Root::kResponse && value.is_number()) {
    return std::pair{pointer, std::string("a number's kind inside functionResponse.response")};
  }
  if (place.root != RootPlace::Root::kNone && place.depth >= 1 && value.is_object() &&
      NumericKeys(value)) {
    const std::string what = value.empty() ? "{}" : "numeric-key object";
    return std::pair{pointer, "a nested " + what + " that a decoder may send as a list"};
  }
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      const std::string child = pointer + "/" + EscapePointerToken(it.key());
      if (auto found = OpenKind(it.value(), Enter(place, parent, it.key()), it.key(), child)) {
        return found;
      }
    }
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      const RootPlace inside = place.root == RootPlace::Root::kNone
                                   ? place
                                   : RootPlace{place.root, place.depth + 1};
      if (auto found = OpenKind(value[i], inside, "", pointer + "/" + std::to_string(i))) {
        return found;
      }
    }
  }
  return std::nullopt;
}

// Where an assertion's pointer lands: its place relative to the Struct roots, and the member
// name it ends at. An `answering` pointer is relative to a functionResponse object.
RootPlace PlaceOfPointer(const std::string& pointer, bool answering, std::string& last) {
  RootPlace place;
  last = answering ? "functionResponse" : "";
  std::size_t at = 0;
  while (at < pointer.size() && pointer[at] == '/') {
    const std::size_t end = std::min(pointer.find('/', at + 1), pointer.size());
    std::string token = pointer.substr(at + 1, end - at - 1);
    for (std::size_t i = 0; (i = token.find('~', i)) != std::string::npos; ++i) {
      token.replace(i, 2, i + 1 < token.size() && token[i + 1] == '1' ? "/" : "~");
    }
    place = Enter(place, last, token);
    last = std::move(token);
    at = end;
  }
  return place;
}

// The 1-based index of the first exchange whose answer is streamed, or 0 when none is.
std::size_t FirstStreamedAnswer(const Json& document) {
  const Json* exchanges = Member(document, "exchanges");
  if (exchanges == nullptr || !exchanges->is_array()) return 0;
  for (std::size_t e = 0; e < exchanges->size(); ++e) {
    const Json* response = Member((*exchanges)[e], "response");
    if (response != nullptr && Member(*response, "stream") != nullptr) return e + 1;
  }
  return 0;
}

// INTERPRETING §8.3: one rule decides each kind, so no must-level literal assertion is stricter
// than the always-on judges on what the ADRs leave open. Likewise §8.5: a request that carries
// a turn captured from a stream may send it as one content or one per event, which rests on
// ADR-226.B1 ("new streamed capture" stays separate), so a must-level assertion on that request
// as sent (`view: "sent"`) pins what the ADRs leave to the implementation.
void CheckAssertionKinds(const Json& document, const ClauseRegistry& registry,
                         std::vector<Finding>& out) {
  const Json* expect = Member(document, "expect");
  const Json* wire = expect == nullptr ? nullptr : Member(*expect, "wire");
  if (wire == nullptr || !wire->is_array()) return;
  const std::size_t first_streamed = FirstStreamedAnswer(document);
  for (std::size_t k = 0; k < wire->size(); ++k) {
    const Json& assertion = (*wire)[k];
    const Json* view = Member(assertion, "view");
    const Json* request = Member(assertion, "request");
    const Json* cited = Member(assertion, "clause");
    if (view != nullptr && *view == "sent" && first_streamed != 0 && request != nullptr &&
        request->is_number_unsigned() && request->get<std::size_t>() > first_streamed &&
        cited != nullptr && cited->is_string() &&
        registry.LevelOf(cited->get<std::string>()) == Level::kMust) {
      out.push_back({std::string(kWireStricterThanRule), "/expect/wire/" + std::to_string(k),
                     "a must-level assertion (" + cited->get<std::string>() +
                         ") pins as sent a request carrying a turn captured from a stream, "
                         "whose form INTERPRETING §8.5 leaves open: cite ADR-226.B1 or drop "
                         "`view: \"sent\"`"});
    }
    const Json* equals = Member(assertion, "equals");
    const Json* clause = Member(assertion, "clause");
    const Json* pointer = Member(assertion, "pointer");
    if (equals == nullptr || clause == nullptr || !clause->is_string() || pointer == nullptr ||
        !pointer->is_string() || registry.LevelOf(clause->get<std::string>()) != Level::kMust) {
      continue;
    }
    std::string last;
    const RootPlace place =
        PlaceOfPointer(pointer->get<std::string>(), Member(assertion, "answering") != nullptr, last);
    const std::string at = "/expect/wire/" + std::to_string(k) + "/equals";
    if (const auto found = OpenKind(*equals, place, last, at)) {
      out.push_back({std::string(kWireStricterThanRule), found->first,
                     "a must-level assertion (" + clause->get<std::string>() +
                         ") pins " + found->second +
                         ", which INTERPRETING §8.3 leaves open: cite ADR-224.F1 or assert less"});
    }
  }
}

// A model turn of the case as the judges read it: its parts in order, where each sits in the
// file, and what to call the turn.
struct CaseTurn {
  std::string label;
  Json parts = Json::array();
  std::vector<std::string> pointers;  // one per part
};

// The candidate a reader takes from one answer or event (INTERPRETING §5.3): in a whole
// answer the first; in a streamed event the one whose `index` is 0 (an absent index counts
// as its position). Its index into `candidates`, or nullopt.
std::optional<std::size_t> TurnCandidate(const Json& response, bool event) {
  const Json* candidates = Member(response, "candidates");
  if (candidates == nullptr || !candidates->is_array() || candidates->empty()) return std::nullopt;
  if (!event) return 0;
  for (std::size_t c = 0; c < candidates->size(); ++c) {
    const Json* index = Member((*candidates)[c], "index");
    if (index != nullptr && index->is_number_integer() ? index->get<std::int64_t>() == 0 : c == 0) {
      return c;
    }
  }
  return std::nullopt;
}

// Appends the parts of one answer or event to `turn`. `pointer` addresses `response` in the
// file; `verbatim` is false when the response was read from text (a raw body, a string
// event), whose parts have no pointer of their own: they point at the text.
void AddParts(const Json& response, bool event, const std::string& pointer, bool verbatim,
              CaseTurn& turn) {
  const auto c = TurnCandidate(response, event);
  if (!c) return;
  const Json* content = Member((*Member(response, "candidates"))[*c], "content");
  const Json* parts = content == nullptr ? nullptr : Member(*content, "parts");
  if (parts == nullptr || !parts->is_array()) return;
  for (std::size_t p = 0; p < parts->size(); ++p) {
    turn.parts.push_back((*parts)[p]);
    turn.pointers.push_back(verbatim ? pointer + "/candidates/" + std::to_string(*c) +
                                           "/content/parts/" + std::to_string(p)
                                     : pointer);
  }
}

// Every scripted answer and carried capsule of the case, as the judges read their turns.
std::vector<CaseTurn> CaseTurns(const Json& document) {
  std::vector<CaseTurn> turns;
  const Json* transcript = Member(document, "transcript");
  for (std::size_t m = 0; transcript != nullptr && transcript->is_array() && m < transcript->size();
       ++m) {
    const Json* state = Member((*transcript)[m], "provider_state");
    const Json* capsule = state == nullptr ? nullptr : Member(*state, "gemini");
    const Json* parts = capsule == nullptr ? nullptr : Member(*capsule, "native_parts");
    if (parts == nullptr || !parts->is_array()) continue;
    CaseTurn turn;
    turn.label = "the capsule of transcript message " + std::to_string(m);
    const std::string at =
        "/transcript/" + std::to_string(m) + "/provider_state/gemini/native_parts/";
    for (std::size_t p = 0; p < parts->size(); ++p) {
      turn.parts.push_back((*parts)[p]);
      turn.pointers.push_back(at + std::to_string(p));
    }
    turns.push_back(std::move(turn));
  }
  const Json* exchanges = Member(document, "exchanges");
  for (std::size_t i = 0; exchanges != nullptr && exchanges->is_array() && i < exchanges->size();
       ++i) {
    const Json* response = Member((*exchanges)[i], "response");
    if (response == nullptr) continue;
    CaseTurn turn;
    turn.label = "the answer of exchange " + std::to_string(i + 1);
    const std::string at = "/exchanges/" + std::to_string(i) + "/response";
    if (const Json* stream = Member(*response, "stream")) {
      const Json* events = Member(*stream, "events");
      for (std::size_t e = 0; events != nullptr && events->is_array() && e < events->size(); ++e) {
        const Json& event = (*events)[e];
        const std::string event_at = at + "/stream/events/" + std::to_string(e);
        if (event.is_object()) {
          AddParts(event, true, event_at, true, turn);
        } else if (event.is_string()) {
          // A string event whose text is a JSON object is an event like any other (§5.3).
          const Json read = ParseStrictJson(event.get_ref<const std::string&>()).value;
          if (read.is_object()) AddParts(read, true, event_at, false, turn);
        }
      }
    } else if (const Json* body = Member(*response, "body")) {
      AddParts(*body, false, at + "/body", true, turn);
    } else if (const Json* raw = Member(*response, "raw_body"); raw != nullptr && raw->is_string()) {
      const Json read = ParseStrictJson(raw->get_ref<const std::string&>()).value;
      if (read.is_object()) AddParts(read, false, at + "/raw_body", false, turn);
    }
    turns.push_back(std::move(turn));
  }
  return turns;
}

// The most members any one object inside `value` has (no recursion beyond a case's nesting:
// assembled arguments stay within 255 path steps of a case's own values).
std::size_t MostMembers(const Json& value) {
  std::size_t most = value.is_object() ? value.size() : 0;
  if (value.is_structured()) {
    for (const Json& member : value) most = std::max(most, MostMembers(member));
  }
  return most;
}

// INTERPRETING §5.6: a y_ or i_ case's turns keep the grammar of calls in pieces (a turn that
// breaks it has no calls to judge, and the reference refuses it: an n_ case), and a case
// holding a call in pieces cites only beyond clauses ("Levels"), so what rests on reading
// pieces gates only the reference implementation.
void CheckPieces(const Json& document, std::string_view file_name, const ClauseRegistry& registry,
                 std::vector<Finding>& out) {
  const auto expected = ExpectedFromFileName(file_name);
  const bool accepting = expected && *expected != Expected::kRefuse;
  bool pieced = false;
  for (const CaseTurn& turn : CaseTurns(document)) {
    const model::TurnCalls read = model::GroupCalls(turn.parts);
    pieced = pieced || model::HoldsCallInPieces(turn.parts, read);
    for (const model::PieceCall& call : read.calls) {
      const Json* fc = Member(turn.parts[call.pieces.front()], "functionCall");
      // §2's members per object hold for what pieces assemble too (§5.6 "Bounds"), so every
      // runner holds the arguments alike; a call sent whole was checked as written.
      const Json* args = Member(call.call, "args");
      if (call.pieces.size() > 1 || (fc != nullptr && Member(*fc, "partialArgs") != nullptr)) {
        if (const std::size_t most = args == nullptr ? 0 : MostMembers(*args);
            most > kMaxCaseMembers) {
          out.push_back({std::string(kJsonDepth), turn.pointers[call.pieces.front()],
                         "the arguments this call's pieces assemble hold an object of " +
                             std::to_string(most) + " members; at most " +
                             std::to_string(kMaxCaseMembers) + " (INTERPRETING §2, §5.6)"});
        }
      }
    }
    if (!accepting || !read.malformed || turn.pointers.empty()) continue;
    // A turn that ends while a call is open breaks at its end: its last part is named.
    const std::size_t at = std::min(read.malformed_at, turn.pointers.size() - 1);
    out.push_back({std::string(kPiecesGrammar), turn.pointers[at],
                   "the function call pieces of " + turn.label + " break the grammar of "
                   "INTERPRETING §5.6 at part " + std::to_string(at) + " (" + *read.malformed +
                   "): a " + std::string(file_name.substr(0, 2)) +
                   " case's turns keep it (an n_ case shows the refusal)"});
  }
  if (!pieced) return;
  const Json* clauses = Member(document, "clauses");
  for (std::size_t i = 0; clauses != nullptr && clauses->is_array() && i < clauses->size(); ++i) {
    const Json& id = (*clauses)[i];
    if (!id.is_string()) continue;
    const auto level = registry.LevelOf(id.get<std::string>());
    if (!level || *level == Level::kBeyond) continue;  // an unknown clause is clause.unknown's
    out.push_back({std::string(kPiecesLevel), "/clauses/" + std::to_string(i),
                   "the case holds a call in pieces, which rests on streamed capture "
                   "(INTERPRETING §5.6 \"Levels\"): cite only beyond clauses such as ADR-226.B1, "
                   "not " + Quoted(id.get<std::string>()) + " (" +
                       std::string(ToString(*level)) + ")"});
  }
}

}  // namespace

const std::vector<std::string_view>& AllRules() {
  static const std::vector<std::string_view> all = {
      kFileRead,      kFileName,       kFileKind,         kFileSize,         kJsonSyntax,
      kJsonBom,       kJsonDepth,      kJsonNumberRange,  kJsonDuplicateKey, kSchema,
      kPrefixExpect,  kClauseUnknown,  kIdUnique,         kDescriptionStyle, kErrorUnknown,
      kSelectorRange, kSelectorMatch,  kWireRequest,      kRefuseExchange,   kExpectRequests,
      kResultText,    kTranscriptContent, kFeatureDeclared, kApprovalReference,
      kRationalePresent, kStreamBytes, kWireStricterThanRule, kPiecesGrammar, kPiecesLevel};
  return all;
}

namespace {

// The parts of a scripted response body, chunk after chunk for a streamed body (a JSON array
// of chunks): one model content.
// In a streamed event the turn's candidate is the one whose `index` is 0 (an absent index
// counts as its position); in a whole response, the first (INTERPRETING §5.3).
void CollectParts(const Json& body, std::vector<const Json*>& out, bool event) {
  if (body.is_array()) {
    for (const auto& chunk : body) CollectParts(chunk, out, /*event=*/true);
    return;
  }
  const Json* candidates = Member(body, "candidates");
  if (candidates == nullptr || !candidates->is_array() || candidates->empty()) return;
  const Json* candidate = &(*candidates)[0];
  if (event) {
    candidate = nullptr;
    for (std::size_t p = 0; p < candidates->size() && candidate == nullptr; ++p) {
      const Json* index = Member((*candidates)[p], "index");
      if (index != nullptr && index->is_number_integer() ? index->get<std::int64_t>() == 0
                                                         : p == 0) {
        candidate = &(*candidates)[p];
      }
    }
    if (candidate == nullptr) return;
  }
  const Json* content = Member(*candidate, "content");
  const Json* parts = content == nullptr ? nullptr : Member(*content, "parts");
  if (parts == nullptr || !parts->is_array()) return;
  for (const auto& part : *parts) out.push_back(&part);
}

}  // namespace

std::vector<Json> FunctionCallsOf(const Json& body) {
  std::vector<const Json*> parts;
  CollectParts(body, parts);
  Json copy = Json::array();
  for (const Json* part : parts) copy.push_back(*part);
  // ADR-226.B2: a call the server answered inside its content is no pending call, so
  // selectors and call orders never count it (INTERPRETING §5.4, "P"). A call whose arguments
  // arrive in pieces is one call, its arguments assembled (§5.6: "its `call` index counts
  // calls, not pieces").
  const model::TurnCalls turn = model::GroupCalls(copy);  // the turn read once
  std::vector<Json> calls;
  for (const std::size_t p : model::PendingCallPositions(copy, turn)) {
    const model::PieceCall* call = model::CallOpenedAt(turn, p);
    calls.push_back(call != nullptr ? call->call : Json(nullptr));
  }
  return calls;
}

std::size_t CountFunctionCalls(const Json& body) { return FunctionCallsOf(body).size(); }

std::vector<Finding> CheckDocument(const Json& document, std::string_view file_name,
                                   const ClauseRegistry& registry) {
  std::vector<Finding> out;
  CheckPrefix(document, file_name, out);
  CheckClauses(document, registry, out);
  CheckDescription(document, out);
  CheckErrorCode(document, out);
  CheckExchanges(document, out);
  CheckCarriedContents(document, out);
  CheckRationale(document, file_name, out);
  CheckExpectCounts(document, out);
  CheckPersistenceAndApprovals(document, out);
  CheckStreams(document, out);
  CheckAssertionKinds(document, registry, out);
  CheckPieces(document, file_name, registry, out);
  return out;
}

}  // namespace gemini_oracle::runner::rules
