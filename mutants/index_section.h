#pragma once
// The mutation run as a section of the report index (`mutation`): what summary.md and the
// HTML report show, and what mutants.json (Stryker's format) is made from.

#include <nlohmann/json.hpp>
#include <string>

#include "mutants/harness.h"

namespace gemini_oracle::mutants {

/// One row per fault: id, status, line (the printed line), file, line_number, description,
/// clauses, proven_clauses, killing_clauses, finding_clauses, killed_by, killing_case, killing_clause, bug
/// {project, report, case, killed}, equivalent, reason, problems, cases_run, duration_ms.
nlohmann::json FaultRow(const FaultResult& result);

/// {score, counts, stop, stop_reason, canary, faults, unpaired_bug_cases,
/// unproven_must_clauses [{clause, reason}], whole_catalogue, baseline_ms, mutation_ms}.
nlohmann::json MutationSection(const MutationRun& run, bool whole_catalogue);

}  // namespace gemini_oracle::mutants
