#pragma once
// Two runs of one conversation that must send the same requests and end the same way: the
// conversation suspended and resumed against it kept in memory (ADR-226.18), its answers
// streamed against them sent whole (ADR-224.7, 226.17). Shared by the equivalence judges.

#include <functional>
#include <string>
#include <vector>

#include "oracles/capture/journal.h"
#include "oracles/checks/finding.h"
#include "oracles/checks/judge.h"
#include "oracles/model/driver_report.h"

namespace gemini_oracle::checks::detail {

struct RunComparison {
  /// The clause a difference violates: at `pointer` into request `request` (1-based, as the
  /// judges read it), or about the whole run (request 0 and "": the outcome, the count).
  std::function<std::string(std::size_t request, const std::string& pointer)> clause_of;
  /// How the two runs are named in messages: "with suspension and resume" / "kept in memory";
  /// "after suspension and resume" / "the conversation kept in memory".
  std::string this_run;
  std::string other_run;
  std::string this_request;
  std::string other_request;
  /// Compare method, path and query (false: the method and the model only, for runs whose
  /// requests go to different methods, :generateContent and :streamGenerateContent).
  bool whole_endpoint = true;
  /// Compare only the `contents` of each body (false: the whole body).
  bool contents_only = false;
};

/// The findings of comparing `run` (its journal and report) with the other run: outcomes,
/// request counts, endpoints and bodies (decoded, kind-exact, model turns grouped as
/// INTERPRETING §8.5 reads them, an absent `args` read as `{}`); a kind-only difference below
/// a Struct's root is left to the judges with a source of truth (INTERPRETING §8.3). Outcomes
/// and counts are not compared (a not-judged note under `not_judged_clause`) when a transport
/// failure ended either run.
std::vector<Finding> CompareRuns(const CaseRun& run,
                                 const std::vector<capture::JournalEntry>& other_journal,
                                 const model::DriverReport& other_report,
                                 const RunComparison& how, const std::string& not_judged_clause);

}  // namespace gemini_oracle::checks::detail
