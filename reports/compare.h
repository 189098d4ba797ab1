#pragma once
// Several reports of the same suite side by side (`gemini-oracle compare`): where the
// implementations' verdicts differ, per clause, and every case. README.md documents
// compare.json; the Markdown and HTML pages are derived from it alone.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "reports/report_file.h"

namespace gemini_oracle::reports {

/// Bumped when a member of compare.json changes meaning or disappears.
inline constexpr int kCompareSchemaVersion = 1;

/// The context members each report's header row shows (compare.json copies them).
inline constexpr const char* kCompareHeaderMembers[] = {
    "suite_version", "tool_version", "profile", "strict", "shard", "filter", "seed", "started_at"};

/// compare.md, compare.html, compare.json, in the order WriteComparison writes them.
const std::vector<std::string>& ComparisonFileNames();

/// The comparison document (compare.json). Columns follow the argument order and are named
/// after context.implementation, a repeated name getting "#2", "#3"... A case disagrees when
/// the reports that ran it gave more than one verdict: not running a case (absent, or
/// skipped) is no verdict, and a known failure counts as the verdict it was listed for.
/// Deterministic: the same reports in the same order give the same document.
nlohmann::json BuildComparison(const std::vector<LoadedReport>& reports);

/// The first line of `text`, made printable and cut to `max_bytes` (at a character
/// boundary); "…" marks a cut or dropped lines.
std::string OneLine(std::string_view text, std::size_t max_bytes = 160);

/// Shared by the two writers: a context value as shown ("—" when absent), and a report's
/// counts ("657: 613 passed, 44 implementation_defined"; zero counts left out).
std::string ContextValueText(const nlohmann::json& value);
std::string SummaryText(const nlohmann::json& summary);

/// The comparison as Markdown: title, warnings, counts, reports, disagreements, clauses, all
/// cases. Table cells escape "|" and fold line breaks.
void WriteComparisonMarkdown(const nlohmann::json& comparison, std::ostream& out);

/// The same sections as one self-contained HTML page (inline CSS, no script); every text
/// HTML-escaped.
void WriteComparisonHtml(const nlohmann::json& comparison, std::ostream& out);

/// Creates `dir` and writes the three files, each atomically, compare.json last.
/// Throws std::runtime_error naming the file that could not be written.
void WriteComparison(const nlohmann::json& comparison, const std::filesystem::path& dir);

}  // namespace gemini_oracle::reports
