#pragma once
// The compliance table (`gemini-oracle compliance`, docs/compliance/): several
// implementations' reports as one page for people choosing a library. A clause x implementation
// matrix, each implementation's distinct defects (clause, an example case, what it sent, what
// the ADR says), and the cases where their verdicts differ. Unlike `compare`, the document
// holds nothing that changes from run to run (no paths, times, seeds or durations): the same
// verdicts give the same bytes.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "reports/report_file.h"

namespace gemini_oracle::reports {

/// Bumped when a member of compliance.json changes meaning or disappears.
inline constexpr int kComplianceSchemaVersion = 1;

/// One column: a short label for the matrix ("genai chat") and the report it stands for.
struct ComplianceInput {
  std::string label;
  LoadedReport report;
};

/// The clause registry as the page needs it: {"id", "level", "summary", "profiles"} per clause, in
/// registry order (oracles/clauses.json).
///
/// A cell of the matrix, per clause and implementation, over the cases it judged (any verdict
/// but skipped, error and timeout) that cite the clause or hold a finding of it:
///   "fail"     a gating finding of the clause in at least one of them (known failures count);
///   "pass"     judged cases, none with a gating finding of the clause;
///   "open"     the clause is open or beyond (whatever was judged): never gating, its findings
///              are counted as noted;
///   "not_run"  no such case was judged (skipped, or errors and timeouts only);
///   "excluded" the report's profile does not judge the clause (its registry `profiles`).
/// Defects: the failing results (fail and known) grouped by cause: the expectations file's
/// reason when the failure is listed, else the clauses and message of its first gating
/// finding. Labels must be unique and nonempty; throws std::invalid_argument otherwise.
nlohmann::json BuildCompliance(const std::vector<ComplianceInput>& inputs,
                               const nlohmann::json& clauses);

/// README.md of docs/compliance/: the same sections as GitHub Markdown.
void WriteComplianceMarkdown(const nlohmann::json& compliance, std::ostream& out);

/// index.html: one self-contained page (inline CSS, one inline script that only measures
/// the matrix and marks the page, so a browser test can tell it rendered and fits).
void WriteComplianceHtml(const nlohmann::json& compliance, std::ostream& out);

/// README.md, index.html and compliance.json, the last written last, each atomically.
const std::vector<std::string>& ComplianceFileNames();
void WriteCompliance(const nlohmann::json& compliance, const std::filesystem::path& dir);

}  // namespace gemini_oracle::reports
