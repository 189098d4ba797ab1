#pragma once
// The mutation harness: the corpus once without a fault (the baseline, which must pass), then
// under the canary (which must be killed: proof that a fault can be killed at all), then under
// every selected fault. Each run happens in a child process of its own, so a fault that
// crashes or hangs is recorded as such and never takes the harness down, and faults run in
// parallel without sharing the process-wide fault switch.

#include <chrono>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "mutants/catalogue.h"
#include "oracles/runner/suite_runner.h"
#include "reference_impl/fault.h"

namespace gemini_oracle::mutants {

/// Stryker's statuses (Ignored is an equivalent fault).
enum class Status { kKilled, kSurvived, kRuntimeError, kTimeout, kIgnored };
std::string_view ToString(Status status);

struct FaultResult {
  Fault fault;
  ref::fault::Point point;  // where it lives in this build
  Status status = Status::kSurvived;
  std::vector<std::string> killed_by;  // case ids that failed, in id order
  std::string killing_case;            // the one a line names
  std::string killing_clause;          // a clause of that case's gating findings
  /// Of every gating finding of every killer; an outcome finding adds every clause its case
  /// cites (the outcome check is that case's oracle for each of them).
  std::set<std::string> killing_clauses;
  /// Only the clauses the gating findings themselves cite: a fault whose set is one clause
  /// is killed by that clause's oracles alone.
  std::set<std::string> finding_clauses;
  std::vector<std::string> proven_clauses;  // catalogue clauses among killing_clauses
  /// Why it was not killed (a crash, a time limit, a harness error) or the equivalence
  /// argument; empty for killed and survived faults.
  std::string reason;
  /// What is wrong although the status may look fine: killed only under clauses it does not
  /// cite, not killed by its own bug case, an equivalent fault that was killed.
  std::vector<std::string> problems;
  std::size_t cases_run = 0;
  std::size_t case_errors = 0;  // error and timeout verdicts (never kills)
  double duration_ms = 0;
};

struct HarnessOptions {
  std::vector<runner::Case> cases;
  const runner::ClauseRegistry* registry = nullptr;
  Catalogue catalogue;
  /// The faults to run (catalogue ids, canary excluded); the canary always runs.
  std::vector<std::string> selected;
  /// Whether `selected` is the whole catalogue: only then are run-wide promises checked (every
  /// bug case paired, every must-clause proven).
  bool whole_catalogue = true;
  unsigned jobs = 1;  // fault runs at once, each a process running its cases one by one
  std::chrono::milliseconds case_timeout{20000};
  /// Wall-clock limit of one fault run, past which its process is killed and the fault is a
  /// Timeout. Zero: 30 s plus ten baselines (never less than one case's limit).
  std::chrono::milliseconds fault_time_limit{0};
  std::uint64_t seed = 1;
  /// Result `file` paths are written relative to this folder (runner::SuiteOptions).
  std::filesystem::path relative_to;
  runner::DriverFactory make_driver;  // default: the reference driver
  /// Turns a fault on in a child process. The default is ref::fault::SetActive; a test
  /// swaps in one that does nothing to prove that the canary catches a harness that cannot
  /// kill.
  std::function<void(const std::string& id)> activate;
  /// Called for each fault result in catalogue order (the canary first), as soon as it and
  /// every earlier one are known, so the output is the same at any --jobs.
  std::function<void(const FaultResult&)> on_result;
};

struct MutationRun {
  enum class Stop { kNone, kBaselineFailed, kCanarySurvived, kHarness };
  Stop stop = Stop::kNone;
  std::string stop_reason;
  nlohmann::json baseline_results = nlohmann::json::array();
  std::optional<FaultResult> canary;
  std::vector<FaultResult> faults;  // the selected faults, in catalogue order
  /// Cases of bugs/ that no fault names as its bug case (whole catalogue only).
  std::vector<std::string> unpaired_bug_cases;
  /// Must-clauses no killed fault proves: id -> why it cannot be yet ("" when it should be).
  std::vector<std::pair<std::string, std::string>> unproven_must_clauses;
  /// Proven must-clauses that no killed fault proves alone (no fault whose gating findings all
  /// cite that clause): reported, not a problem.
  std::vector<std::string> must_clauses_without_sole_proof;
  double baseline_ms = 0;
  double mutation_ms = 0;

  std::size_t Count(Status status) const;
  /// Killed over every non-equivalent selected fault, in percent (100 when there is none).
  double Score() const;
  /// True when nothing is wrong: no stop, every non-equivalent fault killed, no problem.
  bool Clean() const;
};

/// Runs the harness. Throws std::invalid_argument when a selected fault (or the canary) has no
/// point in this build: an unknown fault is an error, never a silent baseline run; throws
/// std::runtime_error when a run cannot be started (its started runs stopped first). It forks
/// a process per run, so call it from a single-threaded process (no thread running beside it).
MutationRun RunMutants(const HarnessOptions& options);

/// Where each selected fault lives in this build, or the first unknown id.
std::optional<std::string> FirstUnknownFault(const Catalogue& catalogue);

/// `reference_impl/FILE:LINE: Killed: DESCRIPTION [ID] by CASE (CLAUSE)`, `...: Survived: ...`.
std::string FaultLine(const FaultResult& result);

}  // namespace gemini_oracle::mutants
