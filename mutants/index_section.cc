#include "mutants/index_section.h"

#include <algorithm>
#include <cmath>

namespace gemini_oracle::mutants {

nlohmann::json FaultRow(const FaultResult& r) {
  nlohmann::json row = nlohmann::json::object();
  row["id"] = r.fault.id;
  row["status"] = std::string(ToString(r.status));
  row["line"] = FaultLine(r);
  row["file"] = r.point.file.empty() ? r.fault.file : r.point.file;
  row["line_number"] = r.point.line;
  row["function"] = r.fault.function;
  row["description"] = r.fault.description;
  row["clauses"] = r.fault.clauses;
  row["proven_clauses"] = r.proven_clauses;
  row["killing_clauses"] = std::vector<std::string>(r.killing_clauses.begin(),
                                                    r.killing_clauses.end());
  row["finding_clauses"] = std::vector<std::string>(r.finding_clauses.begin(),
                                                    r.finding_clauses.end());
  row["killed_by"] = r.killed_by;
  row["killing_case"] = r.killing_case;
  row["killing_clause"] = r.killing_clause;
  if (r.fault.bug) {
    nlohmann::json bug = nlohmann::json::object();
    bug["project"] = r.fault.bug->project;
    bug["report"] = r.fault.bug->report;
    bug["case"] = r.fault.bug->case_id;
    bug["killed"] = std::find(r.killed_by.begin(), r.killed_by.end(), r.fault.bug->case_id) !=
                    r.killed_by.end();
    row["bug"] = std::move(bug);
  }
  if (r.fault.equivalent) row["equivalent"] = *r.fault.equivalent;
  row["canary"] = r.fault.canary;
  row["reason"] = r.reason;
  row["problems"] = r.problems;
  row["cases_run"] = r.cases_run;
  row["case_errors"] = r.case_errors;
  row["duration_ms"] = std::round(r.duration_ms * 1000.0) / 1000.0;
  return row;
}

nlohmann::json MutationSection(const MutationRun& run, bool whole_catalogue) {
  nlohmann::json section = nlohmann::json::object();
  // A stopped run measured nothing: no score rather than a vacuous 100%.
  section["score"] = run.stop == MutationRun::Stop::kNone
                         ? nlohmann::json(std::round(run.Score() * 100.0) / 100.0)
                         : nlohmann::json(nullptr);
  nlohmann::json counts = nlohmann::json::object();
  std::size_t equivalent = 0;
  for (const auto& r : run.faults) {
    if (r.fault.equivalent) ++equivalent;
  }
  counts["total"] = run.faults.size();
  counts["equivalent"] = equivalent;
  // The counted faults only: an equivalent fault is in `equivalent` whatever became of it.
  const auto counted = [&run](Status status) {
    return std::count_if(run.faults.begin(), run.faults.end(), [status](const FaultResult& r) {
      return !r.fault.equivalent && r.status == status;
    });
  };
  counts["killed"] = counted(Status::kKilled);
  counts["survived"] = counted(Status::kSurvived);
  counts["runtime_errors"] = counted(Status::kRuntimeError);
  counts["timeouts"] = counted(Status::kTimeout);
  section["counts"] = std::move(counts);
  const char* stops[] = {"", "baseline_failed", "canary_survived", "harness"};
  section["stop"] = stops[static_cast<int>(run.stop)];
  section["stop_reason"] = run.stop_reason;
  section["clean"] = run.Clean();
  section["canary"] = run.canary ? FaultRow(*run.canary) : nlohmann::json(nullptr);
  section["faults"] = nlohmann::json::array();
  for (const auto& r : run.faults) section["faults"].push_back(FaultRow(r));
  section["unpaired_bug_cases"] = run.unpaired_bug_cases;
  section["unproven_must_clauses"] = nlohmann::json::array();
  for (const auto& [clause, reason] : run.unproven_must_clauses) {
    nlohmann::json entry = nlohmann::json::object();
    entry["clause"] = clause;
    entry["reason"] = reason;
    section["unproven_must_clauses"].push_back(std::move(entry));
  }
  section["must_clauses_without_sole_proof"] = run.must_clauses_without_sole_proof;
  section["whole_catalogue"] = whole_catalogue;
  section["baseline_ms"] = std::round(run.baseline_ms);
  section["mutation_ms"] = std::round(run.mutation_ms);
  return section;
}

}  // namespace gemini_oracle::mutants
