// ADR-226.18: "Real encrypted SQL suspension/resume must preserve captured bindings,
// signatures, known Struct objects and approval identity." Observable as: a conversation
// suspended into a store and resumed between turns sends the same requests, and ends the same
// way, as the same conversation kept in memory (INTERPRETING §14).
#include <string>

#include "oracles/checks/judge.h"
#include "oracles/checks/judge_json.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {
namespace {

constexpr const char* kClause = "ADR-226.18";

bool EmptyContainer(const Json& v) { return (v.is_object() || v.is_array()) && v.empty(); }

// Equal except where an empty object stands against an empty array below the root of a Struct
// (functionCall.args, functionResponse.response). That is the open ADR-224.F1 ("arbitrary
// nested values retain their current decoded representation"; a carrier may hold them
// array-valued), never ADR-226.18's "known Struct objects", which are the roots.
// `depth`: 0 outside a Struct, 1 at its root, 2 and more inside it.
bool EqualUpToNestedEmptyKinds(const Json& a, const Json& b, int depth) {
  if (depth >= 2 && EmptyContainer(a) && EmptyContainer(b)) return true;
  if (a.is_object() && b.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it) {
      const auto other = b.find(it.key());
      if (other == b.end()) return false;
      int child = depth > 0 ? depth + 1 : 0;
      if (depth == 0 && ((it.key() == "args" && a.contains("name")) ||
                         (it.key() == "response" && a.contains("name")))) {
        child = 1;
      }
      if (!EqualUpToNestedEmptyKinds(*it, *other, child)) return false;
    }
    return true;
  }
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!EqualUpToNestedEmptyKinds(a[i], b[i], depth > 0 ? depth + 1 : 0)) return false;
    }
    return true;
  }
  return KindExactEqual(a, b);
}

std::string OutcomeText(const model::DriverReport& report) {
  if (report.harness_error) return "a harness error";
  if (!report.refusal) return "acceptance";
  return "refusal " + (report.refusal->code.empty() ? "(untyped)" : report.refusal->code) +
         " at " + report.refusal->phase + " of exchange " +
         std::to_string(report.refusal->exchange);
}

}  // namespace

std::vector<Finding> JudgeResumeEquivalence(const CaseRun& run) {
  std::vector<Finding> findings;
  if (run.baseline_journal == nullptr || run.baseline_report == nullptr) return findings;
  const auto& memory = *run.baseline_journal;
  const auto& stored = run.journal;
  if (!run.report.persisted) {
    findings.push_back(NotJudged(kClause, "the implementation did not suspend the conversation"));
    return findings;
  }
  const std::string in_memory = OutcomeText(*run.baseline_report);
  const std::string resumed = OutcomeText(run.report);
  if (in_memory != resumed) {
    Json expected = Json::object();
    Json actual = Json::object();
    expected["outcome"] = in_memory;
    actual["outcome"] = resumed;
    findings.push_back(MakeFinding(kClause, kWireViolation, std::nullopt, "",
                                   "with suspension and resume the conversation ended in " +
                                       resumed + ", kept in memory in " + in_memory,
                                   expected, actual));
  }
  if (memory.size() != stored.size()) {
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
    const std::string& a = memory[i].body;
    const std::string& b = stored[i].body;
    if (a == b) continue;
    // Bytes may differ where JSON does not (member order in an object carries no meaning to
    // Google's decoder); what gates is a difference in decoded, kind-exact content: a lost
    // binding, signature or part, {} against [], 1.0 against 1.
    const JudgeDecoded before = DecodeJudgeJson(a);
    const JudgeDecoded after = DecodeJudgeJson(b);
    if (before.value && after.value && KindExactEqual(*before.value, *after.value)) continue;
    std::string at;
    Json expected = nullptr;
    Json actual = nullptr;
    if (before.value && after.value) {
      at = detail::FirstDifference(*before.value, *after.value, "").value_or("");
      const Json::json_pointer pointer(at);
      expected = before.value->contains(pointer) ? before.value->at(pointer) : Json("absent");
      actual = after.value->contains(pointer) ? after.value->at(pointer) : Json("absent");
    }
    const bool nested_only = before.value && after.value &&
                             EqualUpToNestedEmptyKinds(*before.value, *after.value, 0);
    findings.push_back(MakeFinding(
        nested_only ? "ADR-224.F1" : kClause, kWireViolation, i + 1, at,
        "request " + std::to_string(i + 1) +
            " after suspension and resume differs from the one the conversation kept in "
            "memory sent" +
            (nested_only ? " only where an empty object and an empty list stand inside a Struct"
                         : ""),
        expected, actual));
  }
  return findings;
}

}  // namespace gemini_oracle::checks
