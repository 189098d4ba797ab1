#include "reports/html.h"

#include <string>

#include "reports/clause_stats.h"
#include "reports/index.h"
#include "reports/mutation_section.h"
#include "reports/text.h"

namespace gemini_oracle::reports {
namespace {

constexpr const char* kStyle = R"(body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.2em .6em;text-align:left}
td.n{text-align:right}code{font:12px ui-monospace,monospace;background:#f4f4f4;padding:0 .2em}
.pass{color:#176f2c}.fail,.error,.timeout,.unexpected_pass{color:#b00020;font-weight:bold}
.skipped,.known,.implementation_defined{color:#8a6d00}section{margin-bottom:1.5em})";

std::string Code(const std::string& text) { return "<code>" + HtmlEscape(text) + "</code>"; }

// Verdicts become class names; anything outside the closed set gets none.
std::string VerdictClass(const std::string& verdict) {
  for (std::string_view known : {kPass, kFail, kError, kTimeout, kSkipped, kKnown,
                                 kImplementationDefined, kUnexpectedPass}) {
    if (verdict == known) return std::string(known);
  }
  return "";
}

void WriteFindings(const nlohmann::json& result, std::ostream& out) {
  const auto it = result.find("findings");
  if (it == result.end() || !it->is_array() || it->empty()) return;
  const auto dump = [](const nlohmann::json& value) {
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  out << "<ul>\n";
  for (const auto& finding : *it) {
    out << "<li>" << Code(StringField(finding, "clause"));
    if (const std::string level = StringField(finding, "level"); !level.empty()) {
      out << " (" << HtmlEscape(level) << ")";
    }
    if (finding.is_object() && finding.contains("request")) {
      out << ", request " << HtmlEscape(StringField(finding, "request"));
    }
    if (const std::string pointer = StringField(finding, "pointer"); !pointer.empty()) {
      out << ", " << Code(pointer);
    }
    out << ": " << HtmlEscape(StringField(finding, "message"));
    if (finding.is_object() && finding.contains("expected")) {
      out << "; expected " << Code(dump(finding["expected"]));
    }
    if (finding.is_object() && finding.contains("actual")) {
      out << ", actual " << Code(dump(finding["actual"]));
    }
    if (const std::string absent = AbsentText(finding); !absent.empty()) {
      out << " (" << Code(absent) << ")";
    }
    out << "</li>\n";
  }
  out << "</ul>\n";
}

// A bad fixture's diagnostics and the request bodies that were sent, folded.
void WriteEvidence(const nlohmann::json& result, std::ostream& out) {
  const auto diagnostics = DiagnosticLines(result);
  if (!diagnostics.empty()) {
    out << "<ul>\n";
    for (const auto& line : diagnostics) out << "<li>" << Code(line) << "</li>\n";
    out << "</ul>\n";
  }
  for (const auto& [label, body] : SentRequests(result)) {
    out << "<details><summary>" << HtmlEscape(label) << "</summary><pre>" << HtmlEscape(body)
        << "</pre></details>\n";
  }
}

}  // namespace

void WriteHtml(const nlohmann::json& index, std::ostream& out) {
  const IndexParts parts = ReadIndex(index);
  const nlohmann::json& context = parts.context;
  const nlohmann::json& results = parts.results;
  const nlohmann::json& summary = parts.summary;

  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<title>gemini-oracle report</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n";
  out << "<h1>gemini-oracle report</h1>\n<table>\n";
  for (const auto& [key, value] : context.items()) {
    if (value.is_structured()) continue;  // tables such as clause_levels stay in index.json
    out << "<tr><th>" << HtmlEscape(key) << "</th><td>"
        << HtmlEscape(StringField(context, key.c_str())) << "</td></tr>\n";
  }
  out << "</table>\n";

  out << "<h2>Summary</h2>\n<table>\n<tr>";
  for (const std::string& key : SummaryKeys()) out << "<th>" << HtmlEscape(key) << "</th>";
  out << "</tr>\n<tr>";
  for (const std::string& key : SummaryKeys()) {
    out << "<td class=\"n\">" << summary[key].get<std::int64_t>() << "</td>";
  }
  out << "</tr>\n</table>\n";

  out << "<h2>Failures</h2>\n";
  bool any = false;
  for (const auto& result : results) {
    if (!Gates(result)) continue;
    any = true;
    const std::string verdict = StringField(result, "verdict");
    const std::string reason = StringField(result, "reason");
    out << "<section>\n<h3>" << Code(StringField(result, "id")) << " <span class=\""
        << VerdictClass(verdict) << "\">" << HtmlEscape(verdict)
        << (reason.empty() ? "" : ": " + HtmlEscape(reason)) << "</span></h3>\n";
    if (const std::string description = StringField(result, "description"); !description.empty()) {
      out << "<p>" << HtmlEscape(description) << "</p>\n";
    }
    WriteFindings(result, out);
    WriteEvidence(result, out);
    out << "</section>\n";
  }
  if (!any) out << "<p>None.</p>\n";

  if (parts.mutation.is_object()) WriteMutationHtml(parts.mutation, out);

  out << "<h2>Clauses</h2>\n<table>\n<tr><th>clause</th><th>level</th><th>cases</th>"
      << "<th>passed</th><th>gating</th><th>other</th><th>findings</th><th>not judged</th></tr>\n";
  for (const auto& row : ClauseRows(results, parts.clause_levels)) {
    out << "<tr><td>" << Code(row.clause) << "</td><td>" << HtmlEscape(row.level)
        << "</td><td class=\"n\">" << row.cases << "</td><td class=\"n\">" << row.passed
        << "</td><td class=\"n\">" << row.gating << "</td><td class=\"n\">" << row.other
        << "</td><td class=\"n\">" << row.findings << "</td><td class=\"n\">" << row.not_judged
        << "</td></tr>\n";
  }
  out << "</table>\n";

  out << "<h2>All cases</h2>\n<table>\n<tr><th>case</th><th>verdict</th><th>reason</th>"
      << "<th>description</th><th>ms</th></tr>\n";
  for (const auto& result : results) {
    const std::string verdict = StringField(result, "verdict");
    out << "<tr><td>" << Code(StringField(result, "id")) << "</td><td class=\""
        << VerdictClass(verdict) << "\">" << HtmlEscape(verdict) << "</td><td>"
        << HtmlEscape(StringField(result, "reason")) << "</td><td>"
        << HtmlEscape(StringField(result, "description")) << "</td><td class=\"n\">"
        << Decimal3(NumberField(result, "duration_ms")) << "</td></tr>\n";
  }
  out << "</table>\n</body>\n</html>\n";
}

}  // namespace gemini_oracle::reports
