// ADR-226.18: "Real encrypted SQL suspension/resume must preserve captured bindings,
// signatures, known Struct objects and approval identity." Observable as: a conversation
// suspended into a store and resumed between turns sends the same requests, and ends the same
// way, as the same conversation kept in memory (INTERPRETING §14).
#include <string>
#include <vector>

#include "oracles/checks/judge.h"
#include "oracles/checks/judge_json.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {
namespace {

constexpr const char* kClause = "ADR-226.18";

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
// to 1 ... normalization") is no finding here; the stored run's own requests are judged for it.
// Anything else (a lost binding, signature, part or member, a Struct root that changed kind, a
// changed value, a difference outside the Structs) is ADR-226.18.
bool Gates(const detail::DriftAt& drift) {
  using detail::Drift;
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

}  // namespace

std::vector<Finding> JudgeResumeEquivalence(const CaseRun& run) {
  std::vector<Finding> findings;
  if (run.baseline_journal == nullptr || run.baseline_report == nullptr) {
    // A case that suspends, run by a driver that keeps it in memory: the clause could not run.
    if (run.c.Suspends()) {
      findings.push_back(NotJudged(
          kClause, "the case suspends the conversation, but the implementation kept it in memory"));
    }
    return findings;
  }
  const auto& memory = *run.baseline_journal;
  const auto& stored = run.journal;
  if (!run.report.persisted) {
    findings.push_back(NotJudged(kClause, "the implementation did not suspend the conversation"));
    return findings;
  }
  // The twin must really have been kept in memory, or the two runs share whatever the store
  // does to them and their agreement proves nothing.
  if (run.baseline_report->persisted) {
    findings.push_back(NotJudged(
        kClause, "the run meant to keep the conversation in memory went through a store too"));
    return findings;
  }
  const std::string in_memory = OutcomeText(*run.baseline_report);
  const std::string resumed = OutcomeText(run.report);
  // Outcomes and request counts compare only when neither run lost its connection; the
  // requests both runs did send are compared all the same.
  const bool comparable_outcomes =
      !(BrokenTransport(run.c, run.report) || BrokenTransport(run.c, *run.baseline_report));
  if (!comparable_outcomes) {
    findings.push_back(NotJudged(kClause,
                                 "a transport failure ended one of the two runs, so their "
                                 "outcomes and request counts cannot be compared"));
  }
  if (comparable_outcomes && in_memory != resumed) {
    Json expected = Json::object();
    Json actual = Json::object();
    expected["outcome"] = in_memory;
    actual["outcome"] = resumed;
    findings.push_back(MakeFinding(kClause, kWireViolation, std::nullopt, "",
                                   "with suspension and resume the conversation ended in " +
                                       resumed + ", kept in memory in " + in_memory,
                                   expected, actual));
  }
  if (comparable_outcomes && memory.size() != stored.size()) {
    Json expected = Json::object();
    Json actual = Json::object();
    expected["requests"] = memory.size();
    actual["requests"] = stored.size();
    findings.push_back(MakeFinding(kClause, kWireViolation, std::nullopt, "",
                                   "with suspension and resume the conversation sent " +
                                       std::to_string(stored.size()) +
                                       " requests, kept in memory " +
                                       std::to_string(memory.size()),
                                   expected, actual));
  }
  const std::size_t common = std::min(memory.size(), stored.size());
  for (std::size_t i = 0; i < common; ++i) {
    const std::string message = "request " + std::to_string(i + 1) +
                                " after suspension and resume differs from the one the "
                                "conversation kept in memory sent";
    // The same endpoint: method, path (model and method name) and query. The query is not
    // quoted: it may carry the API key.
    if (memory[i].method != stored[i].method || memory[i].path != stored[i].path ||
        memory[i].query != stored[i].query) {
      Json expected = Json::object();
      Json actual = Json::object();
      expected["endpoint"] = memory[i].method + " " + memory[i].path;
      actual["endpoint"] = stored[i].method + " " + stored[i].path;
      const bool query_only = expected == actual;
      findings.push_back(MakeFinding(
          kClause, kWireViolation, i + 1, "",
          message + (query_only ? " in its query" : " in its method or path"), expected, actual));
    }
    const std::string& a = memory[i].body;
    const std::string& b = stored[i].body;
    if (a == b) continue;
    // Bytes may differ where JSON does not (member order in an object carries no meaning to
    // Google's decoder); what gates is a difference in decoded, kind-exact content.
    JudgeDecoded before = DecodeJudgeJson(a);
    JudgeDecoded after = DecodeJudgeJson(b);
    if (!before.value || !after.value) {
      findings.push_back(MakeFinding(kClause, kWireViolation, i + 1, "",
                                     message + (after.value ? "" : " (it is not JSON)"),
                                     nullptr, nullptr));
      continue;
    }
    FillAbsentArgs(*before.value);
    FillAbsentArgs(*after.value);
    std::optional<detail::DriftAt> first;
    for (const auto& drift : detail::Drifts(*before.value, *after.value, "")) {
      if (Gates(drift)) {
        first = drift;
        break;
      }
    }
    if (!first) continue;
    findings.push_back(MakeFinding(kClause, kWireViolation, i + 1, first->pointer, message,
                                   ValueAt(*before.value, first->pointer),
                                   ValueAt(*after.value, first->pointer)));
  }
  return findings;
}

}  // namespace gemini_oracle::checks
