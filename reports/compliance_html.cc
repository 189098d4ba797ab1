// docs/compliance/index.html: the compliance document as one self-contained page. The matrix
// comes first and fits 1400 px without sideways scrolling (short labels, the exact versions in
// the legend); its header row stays in view while the page scrolls.
#include <string>
#include <vector>

#include "reports/compliance.h"
#include "reports/compliance_text.h"
#include "reports/text.h"

namespace gemini_oracle::reports {
namespace {

using nlohmann::json;
using compliance_text::Labels;

constexpr const char* kStyle = R"(body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;max-width:1360px}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
#matrix th{position:sticky;top:0;background:#f7f7f7;z-index:1;font-size:12px;max-width:7.5em;overflow-wrap:anywhere}
#matrix td{white-space:nowrap;font-size:13px;padding:.15em .35em}
td.n{text-align:right}code{font:12px ui-monospace,monospace;background:#f4f4f4;padding:0 .2em;overflow-wrap:anywhere}
.s-pass{background:#e6f4ea;color:#176f2c}.s-fail{background:#fce8e6;color:#b00020;font-weight:bold}
.s-open{background:#fef7e0;color:#7a5d00}.s-not_run,.s-excluded{color:#888}.level{color:#666;font-size:12px}
.warning{border-left:4px solid #b00020;padding:.4em .8em;background:#fff4f4}
ol.defects li{margin:.6em 0}ol.defects ul{margin:.2em 0;padding-left:1.2em}.observed{overflow-wrap:anywhere})";

// Marks the page once it rendered: data-matrix is "fits" when the matrix's right edge is inside
// the window, else "overflows". A page whose script failed has no mark (tests/docs).
constexpr const char* kScript = R"(window.addEventListener('error',function(){document.body.dataset.scriptError='1'});
window.addEventListener('load',function(){var m=document.getElementById('matrix');
document.body.dataset.matrix=m.getBoundingClientRect().right<=document.documentElement.clientWidth?'fits':'overflows'});)";

void Matrix(const json& doc, const std::vector<std::string>& labels, std::ostream& out) {
  out << "<h2>Clauses</h2>\n<p>" << HtmlEscape(compliance_text::Intro(doc)) << "</p>\n"
      << "<table id=\"matrix\">\n<thead><tr><th>clause</th>";
  for (const auto& label : labels) out << "<th>" << HtmlEscape(label) << "</th>";
  out << "</tr></thead>\n<tbody>\n";
  for (const auto& row : doc.at("clauses")) {
    out << "<tr><td title=\"" << HtmlEscape(StringField(row, "summary")) << "\">"
        << HtmlEscape(StringField(row, "id"));
    if (const std::string level = StringField(row, "level"); level != "must") {
      out << " <span class=\"level\">" << HtmlEscape(level) << "</span>";
    }
    out << "</td>";
    for (const auto& label : labels) {
      const json cell = row.at("cells").value(label, json());
      const std::string state = compliance_text::CellState(cell);
      out << "<td class=\"s-" << state << "\"";
      if (state == "excluded") {
        out << " title=\"not judged under profile " << HtmlEscape(StringField(cell, "profile"))
            << "\"";
      }
      out << ">" << HtmlEscape(compliance_text::CellText(cell)) << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody>\n</table>\n";
}

void Legend(const json& doc, std::ostream& out) {
  out << "<h2>Implementations</h2>\n<table>\n<tr><th>label</th><th>implementation</th>"
         "<th>profile</th><th>expectations</th>";
  for (const auto& [key, heading] : compliance_text::LegendCounts()) {
    out << "<th>" << HtmlEscape(heading) << "</th>";
  }
  out << "</tr>\n";
  for (const auto& entry : doc.at("implementations")) {
    out << "<tr><td>" << HtmlEscape(StringField(entry, "label")) << "</td><td><code>"
        << HtmlEscape(StringField(entry, "implementation")) << "</code></td><td>"
        << HtmlEscape(StringField(entry, "profile")) << "</td><td>";
    if (const std::string file = StringField(entry, "expectations"); !file.empty()) {
      out << "<code>" << HtmlEscape(file) << "</code>";
    }
    out << "</td>";
    for (const auto& [key, heading] : compliance_text::LegendCounts()) {
      out << "<td class=\"n\">" << entry.at("summary").value(key, 0) << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</table>\n";
}

// Only web links become anchors; anything else is shown as text.
std::string Link(const std::string& url) {
  if (url.rfind("https://", 0) != 0 && url.rfind("http://", 0) != 0) {
    return "<code>" + HtmlEscape(url) + "</code>";
  }
  return "<a href=\"" + HtmlEscape(url) + "\">" + HtmlEscape(url) + "</a>";
}

void Defects(const json& doc, std::ostream& out) {
  out << "<h2>Defects</h2>\n<p>Each implementation's failing cases grouped by cause: the causes "
         "its expectations file names (a case counted under each of its causes) or its "
         "reason, or, for a failure no file lists, the first gating finding.</p>\n";
  for (const auto& entry : doc.at("implementations")) {
    const std::string label = StringField(entry, "label");
    out << "<h3>" << HtmlEscape(label) << "</h3>\n<p><code>"
        << HtmlEscape(StringField(entry, "implementation")) << "</code></p>\n";
    const json& list = doc.at("defects").at(label);
    if (list.empty()) {
      out << "<p>No failing case.</p>\n";
      continue;
    }
    out << "<ol class=\"defects\">\n";
    for (const auto& defect : list) {
      out << "<li>" << HtmlEscape(StringField(defect, "cause")) << " (";
      bool first = true;
      for (const auto& clause : defect.at("clauses")) {
        out << (first ? "" : ", ") << HtmlEscape(clause.get<std::string>());
        first = false;
      }
      const int cases = defect.value("cases", 0);
      out << (first ? "" : "; ") << cases << (cases == 1 ? " case" : " cases") << ")\n<ul>\n"
          << "<li>example: <code>" << HtmlEscape(StringField(defect, "example")) << "</code></li>\n";
      if (const std::string sends = StringField(defect, "sends"); !sends.empty()) {
        out << "<li class=\"observed\">observed: " << HtmlEscape(sends) << "</li>\n";
      }
      for (const auto& adr : defect.at("adr")) {
        out << "<li>" << HtmlEscape(StringField(adr, "clause"))
            << " says: " << HtmlEscape(StringField(adr, "says")) << "</li>\n";
      }
      if (const std::string link = StringField(defect, "link"); !link.empty()) {
        out << "<li>upstream: " << Link(link) << "</li>\n";
      }
      out << "</ul></li>\n";
    }
    out << "</ol>\n";
  }
}

void Disagreements(const json& doc, const std::vector<std::string>& labels, std::ostream& out) {
  const json& rows = doc.at("disagreements");
  out << "<h2>Disagreements</h2>\n<p>" << rows.size()
      << " cases where the implementations that ran a case gave different verdicts (— not run; "
         "a known failure counts as the failure it is).</p>\n";
  if (rows.empty()) return;
  out << "<table>\n<tr><th>case</th>";
  for (const auto& label : labels) out << "<th>" << HtmlEscape(label) << "</th>";
  out << "</tr>\n";
  for (const auto& row : rows) {
    out << "<tr><td><code>" << HtmlEscape(StringField(row, "id")) << "</code></td>";
    for (const auto& label : labels) {
      const std::string verdict = StringField(row.at("verdicts"), label.c_str());
      const std::string state = verdict == "pass" ? "pass"
                                : verdict == "fail" || verdict == "known" ? "fail"
                                : verdict.empty() || verdict == "skipped" ? "not_run"
                                                                          : "open";
      out << "<td class=\"s-" << state << "\">" << (verdict.empty() ? "—" : HtmlEscape(verdict))
          << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</table>\n";
}

}  // namespace

void WriteComplianceHtml(const json& compliance, std::ostream& out) {
  const std::vector<std::string> labels = Labels(compliance);
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width\">\n"
         "<title>Gemini tool calling: compliance with ADR-224 and ADR-226</title>\n<style>"
      << kStyle << "</style>\n<script>" << kScript << "</script>\n</head>\n<body>\n"
      << "<h1>Gemini tool calling: compliance with ADR-224 and ADR-226</h1>\n"
         "<p>Generated by <code>scripts/compliance</code> from the shipped drivers' reports; do "
         "not edit. The same page as Markdown: <a href=\"README.md\">README.md</a>.</p>\n";
  for (const auto& warning : compliance.at("warnings")) {
    out << "<p class=\"warning\"><strong>Warning:</strong> "
        << HtmlEscape(warning.get<std::string>()) << "</p>\n";
  }
  Matrix(compliance, labels, out);
  Legend(compliance, out);
  Defects(compliance, out);
  Disagreements(compliance, labels, out);
  out << "</body>\n</html>\n";
}

}  // namespace gemini_oracle::reports
