// compare.md: the comparison document as Markdown (GitHub tables).
#include <string>
#include <vector>

#include "reports/compare.h"
#include "reports/text.h"

namespace gemini_oracle::reports {
namespace {

using nlohmann::json;

std::vector<std::string> Columns(const json& comparison) {
  return comparison.value("implementations", std::vector<std::string>{});
}

// A table header: the first column, then one per implementation.
void Header(const std::string& first, const std::vector<std::string>& columns, std::ostream& out) {
  out << "| " << first << " |";
  for (const auto& column : columns) out << " " << MarkdownEscape(column) << " |";
  out << "\n|---|";
  for (std::size_t i = 0; i < columns.size(); ++i) out << "---|";
  out << "\n";
}

// "—" is a case the report did not run; a verdict is otherwise shown as written.
std::string Verdict(const json& verdicts, const std::string& column, const json* reasons) {
  const auto it = verdicts.find(column);
  if (it == verdicts.end() || !it->is_string()) return "—";
  std::string cell = MarkdownEscape(it->get<std::string>());
  if (reasons != nullptr) {
    const std::string reason = StringField(*reasons, column.c_str());
    if (!reason.empty()) cell += ": " + MarkdownEscape(reason);
  }
  return cell;
}

void CaseTable(const json& rows, const std::vector<std::string>& columns, bool with_reasons,
               std::ostream& out) {
  Header("case", columns, out);
  for (const auto& row : rows) {
    out << "| " << MarkdownCode(StringField(row, "id"), /*in_table=*/true) << " |";
    const json& verdicts = row.at("verdicts");
    const json* reasons = with_reasons ? &row.at("reasons") : nullptr;
    for (const auto& column : columns) out << " " << Verdict(verdicts, column, reasons) << " |";
    out << "\n";
  }
  out << "\n";
}

}  // namespace

void WriteComparisonMarkdown(const json& comparison, std::ostream& out) {
  const std::vector<std::string> columns = Columns(comparison);
  const json& summary = comparison.at("summary");
  out << "# gemini-oracle compare\n\n";
  for (const auto& warning : comparison.at("warnings")) {
    out << "> **Warning:** " << MarkdownEscape(warning.get<std::string>()) << "\n\n";
  }
  out << summary.value("cases", 0) << " cases, " << summary.value("implementations", 0)
      << " implementations: " << summary.value("disagreements", 0)
      << " where their verdicts differ, " << summary.value("not_run_everywhere", 0)
      << " not run by every report.\n\n";

  out << "## Reports\n\n| implementation | file |";
  for (const char* key : kCompareHeaderMembers) out << " " << MarkdownEscape(key) << " |";
  out << " results |\n|---|---|";
  for (std::size_t i = 0; i < std::size(kCompareHeaderMembers); ++i) out << "---|";
  out << "---|\n";
  for (const auto& report : comparison.at("reports")) {
    out << "| " << MarkdownEscape(StringField(report, "implementation")) << " | "
        << MarkdownCode(StringField(report, "file"), /*in_table=*/true) << " |";
    for (const char* key : kCompareHeaderMembers) {
      const auto it = report.find(key);
      out << " " << MarkdownEscape(ContextValueText(it == report.end() ? json() : *it)) << " |";
    }
    out << " " << MarkdownEscape(SummaryText(report.at("summary"))) << " |\n";
  }
  out << "\n";

  out << "## Disagreements\n\n"
      << "Cases whose verdicts differ among the reports that ran them, with each reason's first "
         "line (—: not run; a case some report did not run or skipped is no disagreement by "
         "itself; a known failure counts as the failure it is).\n\n";
  if (comparison.at("disagreements").empty()) {
    out << "None.\n\n";
  } else {
    CaseTable(comparison.at("disagreements"), columns, /*with_reasons=*/true, out);
  }

  out << "## Clauses\n\n"
      << MarkdownEscape("Cases citing each clause, per implementation: pass / gating (fail, "
                        "error, timeout, unexpected_pass, ...) / other (skipped, known, "
                        "implementation_defined).")
      << "\n\n";
  Header("clause", columns, out);
  for (const auto& row : comparison.at("clauses")) {
    out << "| " << MarkdownCode(StringField(row, "clause"), /*in_table=*/true) << " |";
    for (const auto& column : columns) {
      const json& counts = row.at("counts").at(column);
      out << " " << counts.value("pass", 0) << " / " << counts.value("gating", 0) << " / "
          << counts.value("other", 0) << " |";
    }
    out << "\n";
  }
  out << "\n";

  out << "## All cases\n\n";
  CaseTable(comparison.at("cases"), columns, /*with_reasons=*/false, out);
}

}  // namespace gemini_oracle::reports
