#pragma once
// Per-clause tallies over the report index, shared by the Markdown and HTML writers.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gemini_oracle::reports {

struct ClauseRow {
  std::string clause;
  std::string level;  // from the findings that cite the clause; empty when none does
  int cases = 0;      // results citing it in `clauses` or in a finding
  int passed = 0;
  int gating = 0;  // fail, error, timeout
  int other = 0;   // skipped, known, implementation_defined, or a pass that left it not judged
  int findings = 0;
  int not_judged = 0;  // results where a check of this clause could not run (`not_judged`)
};

/// One row per clause cited anywhere in the results, in clause order (224.2 before 224.10).
/// `levels` maps clause ids to must/open/beyond (the index's context.clause_levels); a clause
/// missing there takes the level of its first finding.
std::vector<ClauseRow> ClauseRows(const nlohmann::json& results,
                                  const nlohmann::json& levels = nlohmann::json::object());

}  // namespace gemini_oracle::reports
