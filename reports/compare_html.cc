// compare.html: the comparison document as one self-contained page (inline CSS, no script).
#include <string>
#include <vector>

#include "reports/compare.h"
#include "reports/text.h"

namespace gemini_oracle::reports {
namespace {

using nlohmann::json;

constexpr const char* kStyle = R"(body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.2em .6em;text-align:left}
td.n{text-align:right}code{font:12px ui-monospace,monospace;background:#f4f4f4;padding:0 .2em}
.warning{border-left:4px solid #b00020;padding:.4em .8em;background:#fff4f4}
.v-pass{color:#176f2c}.v-fail,.v-error,.v-timeout,.v-unexpected_pass{color:#b00020;font-weight:bold}
.v-skipped,.v-known,.v-implementation_defined{color:#8a6d00}.notrun{color:#888})";

std::string Code(const std::string& text) { return "<code>" + HtmlEscape(text) + "</code>"; }

// A class per verdict, for any verdict spelled as a plain name (so a new verdict still gets
// one); anything else gets none rather than an attribute built from report text.
std::string VerdictClass(const std::string& verdict) {
  if (verdict.empty() || verdict.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") !=
                             std::string::npos) {
    return "";
  }
  return " class=\"v-" + verdict + "\"";
}

void Header(const std::string& first, const std::vector<std::string>& columns, std::ostream& out) {
  out << "<tr><th>" << first << "</th>";
  for (const auto& column : columns) out << "<th>" << HtmlEscape(column) << "</th>";
  out << "</tr>\n";
}

void CaseTable(const json& rows, const std::vector<std::string>& columns, bool with_reasons,
               std::ostream& out) {
  out << "<table>\n";
  Header("case", columns, out);
  for (const auto& row : rows) {
    out << "<tr><td>" << Code(StringField(row, "id")) << "</td>";
    const json& verdicts = row.at("verdicts");
    for (const auto& column : columns) {
      const auto it = verdicts.find(column);
      if (it == verdicts.end() || !it->is_string()) {
        out << "<td class=\"notrun\">—</td>";
        continue;
      }
      const std::string verdict = it->get<std::string>();
      out << "<td" << VerdictClass(verdict) << ">" << HtmlEscape(verdict);
      if (with_reasons) {
        const std::string reason = StringField(row.at("reasons"), column.c_str());
        if (!reason.empty()) out << ": " << HtmlEscape(reason);
      }
      out << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</table>\n";
}

}  // namespace

void WriteComparisonHtml(const json& comparison, std::ostream& out) {
  const auto columns = comparison.value("implementations", std::vector<std::string>{});
  const json& summary = comparison.at("summary");
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<title>gemini-oracle compare</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n"
      << "<h1>gemini-oracle compare</h1>\n";
  for (const auto& warning : comparison.at("warnings")) {
    out << "<p class=\"warning\"><strong>Warning:</strong> "
        << HtmlEscape(warning.get<std::string>()) << "</p>\n";
  }
  out << "<p>" << summary.value("cases", 0) << " cases, " << summary.value("implementations", 0)
      << " implementations: " << summary.value("disagreements", 0)
      << " where their verdicts differ, " << summary.value("not_run_everywhere", 0)
      << " not run by every report.</p>\n";

  out << "<h2>Reports</h2>\n<table>\n<tr><th>implementation</th><th>file</th>";
  for (const char* key : kCompareHeaderMembers) out << "<th>" << HtmlEscape(key) << "</th>";
  out << "<th>results</th></tr>\n";
  for (const auto& report : comparison.at("reports")) {
    out << "<tr><td>" << HtmlEscape(StringField(report, "implementation")) << "</td><td>"
        << Code(StringField(report, "file")) << "</td>";
    for (const char* key : kCompareHeaderMembers) {
      const auto it = report.find(key);
      out << "<td>" << HtmlEscape(ContextValueText(it == report.end() ? json() : *it)) << "</td>";
    }
    out << "<td>" << HtmlEscape(SummaryText(report.at("summary"))) << "</td></tr>\n";
  }
  out << "</table>\n";

  out << "<h2>Disagreements</h2>\n<p>Cases whose verdicts differ among the reports that ran "
         "them, with each reason's first line (—: not run; a case some report did not run or "
         "skipped is no disagreement by itself; a known failure counts as the failure it "
         "is).</p>\n";
  if (comparison.at("disagreements").empty()) {
    out << "<p>None.</p>\n";
  } else {
    CaseTable(comparison.at("disagreements"), columns, /*with_reasons=*/true, out);
  }

  out << "<h2>Clauses</h2>\n<p>Cases citing each clause, per implementation: pass / gating "
         "(fail, error, timeout, unexpected_pass, ...) / other (skipped, known, "
         "implementation_defined).</p>\n<table>\n";
  Header("clause", columns, out);
  for (const auto& row : comparison.at("clauses")) {
    out << "<tr><td>" << Code(StringField(row, "clause")) << "</td>";
    for (const auto& column : columns) {
      const json& counts = row.at("counts").at(column);
      out << "<td class=\"n\">" << counts.value("pass", 0) << " / " << counts.value("gating", 0)
          << " / " << counts.value("other", 0) << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</table>\n";

  out << "<h2>All cases</h2>\n";
  CaseTable(comparison.at("cases"), columns, /*with_reasons=*/false, out);
  out << "</body>\n</html>\n";
}

}  // namespace gemini_oracle::reports
