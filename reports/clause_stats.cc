#include "reports/clause_stats.h"

#include <algorithm>
#include <map>
#include <set>

#include "reports/index.h"
#include "reports/text.h"

namespace gemini_oracle::reports {

std::vector<ClauseRow> ClauseRows(const nlohmann::json& results, const nlohmann::json& levels) {
  std::map<std::string, ClauseRow> rows;
  if (!results.is_array()) return {};
  for (const auto& result : results) {
    std::set<std::string> cited;
    for (const auto& clause : StringList(result, "clauses")) cited.insert(clause);
    const auto it = result.is_object() ? result.find("findings") : result.end();
    if (result.is_object() && it != result.end() && it->is_array()) {
      for (const auto& finding : *it) {
        const std::string clause = StringField(finding, "clause");
        if (clause.empty()) continue;
        cited.insert(clause);
        ClauseRow& row = rows[clause];
        ++row.findings;
        if (row.level.empty()) row.level = StringField(finding, "level");
      }
    }
    // A clause some check could not judge on this case: counted apart, never as passed.
    const auto notes = result.is_object() ? result.find("not_judged") : result.end();
    std::set<std::string> unjudged;
    if (result.is_object() && notes != result.end() && notes->is_array()) {
      for (const auto& note : *notes) {
        const std::string clause = StringField(note, "clause");
        if (!clause.empty()) unjudged.insert(clause);
      }
      for (const auto& clause : unjudged) {
        ClauseRow& row = rows[clause];
        row.clause = clause;
        ++row.not_judged;
      }
    }
    const std::string verdict = StringField(result, "verdict");
    for (const auto& clause : cited) {
      ClauseRow& row = rows[clause];
      row.clause = clause;
      if (levels.is_object() && levels.contains(clause) && levels[clause].is_string()) {
        row.level = levels[clause].get<std::string>();
      }
      ++row.cases;
      // A passing case whose check of this clause could not run did not pass the clause.
      if (verdict == kPass && unjudged.count(clause) == 0) {
        ++row.passed;
      } else if (Gates(result)) {
        ++row.gating;
      } else {
        ++row.other;
      }
    }
  }
  std::vector<ClauseRow> out;
  for (auto& [clause, row] : rows) out.push_back(std::move(row));
  std::sort(out.begin(), out.end(),
            [](const ClauseRow& a, const ClauseRow& b) { return ClauseLess(a.clause, b.clause); });
  return out;
}

}  // namespace gemini_oracle::reports
