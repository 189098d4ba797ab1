// ADR-226.18: "Real encrypted SQL suspension/resume must preserve captured bindings,
// signatures, known Struct objects and approval identity." Observable as: a conversation
// suspended into a store and resumed between turns sends the same requests, and ends the same
// way, as the same conversation kept in memory (INTERPRETING §14).
#include <string>
#include <vector>

#include "oracles/checks/judge.h"
#include "oracles/checks/run_comparison.h"

namespace gemini_oracle::checks {
namespace {

constexpr const char* kClause = "ADR-226.18";

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
  detail::RunComparison how;
  how.clause_of = [](std::size_t, const std::string&) { return std::string(kClause); };
  how.this_run = "with suspension and resume";
  how.other_run = "kept in memory";
  how.this_request = "after suspension and resume";
  how.other_request = "the conversation kept in memory";
  return detail::CompareRuns(run, memory, *run.baseline_report, how, kClause);
}

}  // namespace gemini_oracle::checks
