#include "oracles/checks/run_comparison.h"

#include <algorithm>
#include <optional>

#include "oracles/checks/judge_json.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks::detail {
namespace {

// Where a difference lies: inside a Struct (`functionCall.args`, `functionResponse.response`
// of a part in `contents`), and how deep below its root.
struct Place {
  enum class Struct { kNone, kArgs, kResponse } in = Struct::kNone;
  std::size_t depth = 0;  // 0: the Struct's root itself
};

std::vector<std::string> PointerTokens(const std::string& pointer) {
  std::vector<std::string> tokens;
  std::size_t i = 0;
  while (i < pointer.size() && pointer[i] == '/') {
    const std::size_t next = pointer.find('/', i + 1);
    tokens.push_back(pointer.substr(i + 1, next == std::string::npos ? std::string::npos
                                                                     : next - i - 1));
    if (next == std::string::npos) break;
    i = next;
  }
  return tokens;
}

Place PlaceOf(const std::string& pointer) {
  const auto t = PointerTokens(pointer);
  Place place;
  if (t.size() < 6 || t[0] != "contents" || t[2] != "parts") return place;
  if (t[4] == "functionCall" && t[5] == "args") {
    place.in = Place::Struct::kArgs;
  } else if (t[4] == "functionResponse" && t[5] == "response") {
    place.in = Place::Struct::kResponse;
  } else {
    return place;
  }
  place.depth = t.size() - 6;
  return place;
}

// The kinds rule of INTERPRETING §8.3 where neither run is the source of truth: inside a
// Struct a value's kind is judged on each request against where it came from (the server's
// answer for native parts, ADR-224.6/.7/.8; the case's result for results, ADR-224.3/.F1), and
// either run may be the one that lost it. So a kind-only difference below a Struct's root (an
// object that became a list or the reverse, ADR-224.F1 / 224.6; a number whose kind alone
// changed, ADR-224.8 / F1, or no finding in public arguments: ADR-226 "permits the inherited 1.0
// to 1 ... normalization") is no finding here; each run's own requests are judged for it.
// Anything else (a lost binding, signature, part or member, a Struct root that changed kind, a
// changed value, a difference outside the Structs) is a difference of the two runs.
bool Gates(const DriftAt& drift) {
  const Place place = PlaceOf(drift.pointer);
  const bool below_root = place.in != Place::Struct::kNone && place.depth > 0;
  switch (drift.drift) {
    case Drift::kObjectBecameList:
    case Drift::kListBecameObject:
    case Drift::kNumericKind:
      return !below_root;
    case Drift::kOther:
      return true;
  }
  return true;
}

// A functionCall without `args` stands for the empty Struct (§8.3: "A native functionCall
// without args replayed with args: {} is equivalent"), so both runs are read with it filled in.
void FillAbsentArgs(Json& body) {
  if (!body.is_object()) return;
  const auto contents = body.find("contents");
  if (contents == body.end() || !contents->is_array()) return;
  for (Json& content : *contents) {
    if (!content.is_object()) continue;
    const auto parts = content.find("parts");
    if (parts == content.end() || !parts->is_array()) continue;
    for (Json& part : *parts) {
      if (!part.is_object()) continue;
      const auto call = part.find("functionCall");
      if (call != part.end() && call->is_object() && !call->contains("args")) {
        (*call)["args"] = Json::object();
      }
    }
  }
}

// A run that ended in a transport failure with the capture server (which answers every
// request) says nothing about the conversation: its outcome is not compared (INTERPRETING §11),
// unless the case itself expects that refusal (then both runs meet it alike).
bool BrokenTransport(const model::Case& c, const model::DriverReport& report) {
  return report.refusal && report.refusal->code == "http.transport" &&
         !(c.expect.outcome == model::Expected::kRefuse && c.expect.error == "http.transport");
}

std::string OutcomeText(const model::DriverReport& report) {
  if (report.harness_error) return "a harness error";
  if (!report.refusal) return "acceptance";
  return "refusal " + (report.refusal->code.empty() ? "(untyped)" : report.refusal->code) +
         " at " + report.refusal->phase + " of exchange " +
         std::to_string(report.refusal->exchange);
}

Json ValueAt(const Json& body, const std::string& at) {
  const Json::json_pointer pointer(at);
  return body.contains(pointer) ? Readable(body.at(pointer)) : Json("absent");
}

// The model part of a path: "/v1beta/models/m:generateContent" -> "/v1beta/models/m".
std::string ModelPath(const std::string& path) { return path.substr(0, path.rfind(':')); }

}  // namespace

std::vector<Finding> CompareRuns(const CaseRun& run,
                                 const std::vector<capture::JournalEntry>& other_journal,
                                 const model::DriverReport& other_report,
                                 const RunComparison& how, const std::string& not_judged_clause) {
  std::vector<Finding> findings;
  const auto& other = other_journal;
  const auto& ours = run.journal;
  const std::string other_outcome = OutcomeText(other_report);
  const std::string our_outcome = OutcomeText(run.report);
  // Outcomes and request counts compare only when neither run lost its connection; the
  // requests both runs did send are compared all the same.
  const bool comparable_outcomes =
      !(BrokenTransport(run.c, run.report) || BrokenTransport(run.c, other_report));
  if (!comparable_outcomes) {
    findings.push_back(NotJudged(not_judged_clause,
                                 "a transport failure ended one of the two runs, so their "
                                 "outcomes and request counts cannot be compared"));
  }
  if (comparable_outcomes && other_outcome != our_outcome) {
    Json expected = Json::object();
    Json actual = Json::object();
    expected["outcome"] = other_outcome;
    actual["outcome"] = our_outcome;
    findings.push_back(MakeFinding(how.clause_of(0, ""), kWireViolation, std::nullopt, "",
                                   how.this_run + " the conversation ended in " + our_outcome +
                                       ", " + how.other_run + " in " + other_outcome,
                                   expected, actual));
  }
  if (comparable_outcomes && other.size() != ours.size()) {
    Json expected = Json::object();
    Json actual = Json::object();
    expected["requests"] = other.size();
    actual["requests"] = ours.size();
    findings.push_back(MakeFinding(how.clause_of(0, ""), kWireViolation, std::nullopt, "",
                                   how.this_run + " the conversation sent " +
                                       std::to_string(ours.size()) + " requests, " +
                                       how.other_run + " " + std::to_string(other.size()),
                                   expected, actual));
  }
  const auto other_decoded = DecodeJournal(other, &run.c);
  std::vector<DecodedRequest> storage;
  const auto& our_decoded = DecodedJournal(run, storage);
  const std::size_t common = std::min(other.size(), ours.size());
  for (std::size_t i = 0; i < common; ++i) {
    const std::string message = "request " + std::to_string(i + 1) + " " + how.this_request +
                                " differs from the one " + how.other_request + " sent";
    // The same endpoint: method, path (model and method name) and query. The query is not
    // quoted: it may carry the API key.
    const bool same_endpoint =
        how.whole_endpoint
            ? other[i].method == ours[i].method && other[i].path == ours[i].path &&
                  other[i].query == ours[i].query
            : other[i].method == ours[i].method &&
                  ModelPath(other[i].path) == ModelPath(ours[i].path);
    if (!same_endpoint) {
      Json expected = Json::object();
      Json actual = Json::object();
      expected["endpoint"] = other[i].method + " " + other[i].path;
      actual["endpoint"] = ours[i].method + " " + ours[i].path;
      const bool query_only = expected == actual;
      findings.push_back(MakeFinding(
          how.clause_of(i + 1, ""), kWireViolation, i + 1, "",
          message + (query_only ? " in its query" : " in its method or path"), expected, actual));
    }
    if (other[i].body == ours[i].body) continue;
    // Bytes may differ where JSON does not (member order in an object carries no meaning to
    // Google's decoder); what gates is a difference in decoded, kind-exact content.
    if (!other_decoded[i].body || !our_decoded[i].body) {
      findings.push_back(MakeFinding(how.clause_of(i + 1, ""), kWireViolation, i + 1, "",
                                     message + (our_decoded[i].body ? "" : " (it is not JSON)"),
                                     nullptr, nullptr));
      continue;
    }
    Json before = *other_decoded[i].body;
    Json after = *our_decoded[i].body;
    FillAbsentArgs(before);
    FillAbsentArgs(after);
    if (how.contents_only) {
      const Json* a = Member(before, "contents");
      const Json* b = Member(after, "contents");
      Json left = Json::object();
      Json right = Json::object();
      left["contents"] = a != nullptr ? *a : Json("absent");
      right["contents"] = b != nullptr ? *b : Json("absent");
      before = std::move(left);
      after = std::move(right);
    }
    std::optional<DriftAt> first;
    for (const auto& drift : Drifts(before, after, "")) {
      if (Gates(drift)) {
        first = drift;
        break;
      }
    }
    if (!first) continue;
    findings.push_back(MakeFinding(how.clause_of(i + 1, first->pointer), kWireViolation, i + 1,
                                   first->pointer, message, ValueAt(before, first->pointer),
                                   ValueAt(after, first->pointer)));
  }
  return findings;
}

}  // namespace gemini_oracle::checks::detail
