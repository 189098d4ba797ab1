// docs/compliance/README.md: the compliance document as GitHub Markdown.
#include <string>
#include <vector>

#include "reports/compliance.h"
#include "reports/compliance_text.h"
#include "reports/text.h"

namespace gemini_oracle::reports {
namespace {

using nlohmann::json;
using compliance_text::Labels;

void Header(const std::string& first, const std::vector<std::string>& labels, std::ostream& out) {
  out << "| " << first << " |";
  for (const auto& label : labels) out << " " << MarkdownEscape(label) << " |";
  out << "\n|---|";
  for (std::size_t i = 0; i < labels.size(); ++i) out << "---|";
  out << "\n";
}

std::string Cell(const json& cell) {
  const std::string text = compliance_text::CellText(cell);
  return compliance_text::CellState(cell) == "fail" ? "**" + text + "**" : text;
}

void Matrix(const json& doc, const std::vector<std::string>& labels, std::ostream& out) {
  out << "## Clauses\n\n" << MarkdownEscape(compliance_text::Intro(doc)) << "\n\n";
  Header("clause", labels, out);
  for (const auto& row : doc.at("clauses")) {
    out << "| " << MarkdownEscape(StringField(row, "id"));
    if (const std::string level = StringField(row, "level"); level != "must") {
      out << " (" << MarkdownEscape(level) << ")";
    }
    out << " |";
    for (const auto& label : labels) out << " " << Cell(row.at("cells").value(label, json())) << " |";
    out << "\n";
  }
  out << "\n";
}

void Legend(const json& doc, std::ostream& out) {
  out << "## Implementations\n\n| label | implementation | profile | expectations |";
  for (const auto& [key, heading] : compliance_text::LegendCounts()) out << " " << heading << " |";
  out << "\n|---|---|---|---|";
  for (std::size_t i = 0; i < compliance_text::LegendCounts().size(); ++i) out << "---:|";
  out << "\n";
  for (const auto& entry : doc.at("implementations")) {
    out << "| " << MarkdownEscape(StringField(entry, "label")) << " | "
        << MarkdownCode(StringField(entry, "implementation"), /*in_table=*/true) << " | "
        << MarkdownEscape(StringField(entry, "profile")) << " | ";
    if (const std::string file = StringField(entry, "expectations"); !file.empty()) {
      out << MarkdownCode(file, /*in_table=*/true);
    }
    out << " |";
    for (const auto& [key, heading] : compliance_text::LegendCounts()) {
      out << " " << entry.at("summary").value(key, 0) << " |";
    }
    out << "\n";
  }
  out << "\n";
}

void Defects(const json& doc, std::ostream& out) {
  out << "## Defects\n\nEach implementation's failing cases grouped by cause: the causes its "
         "expectations file names (a case counted under each of its causes) or its reason, "
         "or, for a failure no file lists, the first gating finding.\n\n";
  for (const auto& entry : doc.at("implementations")) {
    const std::string label = StringField(entry, "label");
    out << "### " << MarkdownEscape(label) << "\n\n"
        << MarkdownCode(StringField(entry, "implementation")) << "\n\n";
    const json& list = doc.at("defects").at(label);
    if (list.empty()) {
      out << "No failing case.\n\n";
      continue;
    }
    int n = 0;
    for (const auto& defect : list) {
      out << ++n << ". " << MarkdownEscape(StringField(defect, "cause")) << " (";
      bool first = true;
      for (const auto& clause : defect.at("clauses")) {
        out << (first ? "" : ", ") << MarkdownEscape(clause.get<std::string>());
        first = false;
      }
      out << (first ? "" : "; ") << defect.value("cases", 0)
          << (defect.value("cases", 0) == 1 ? " case" : " cases") << ")\n";
      out << "   - example: " << MarkdownCode(StringField(defect, "example")) << "\n";
      if (const std::string sends = StringField(defect, "sends"); !sends.empty()) {
        out << "   - observed: " << MarkdownEscape(sends) << "\n";
      }
      for (const auto& adr : defect.at("adr")) {
        out << "   - " << MarkdownEscape(StringField(adr, "clause"))
            << " says: " << MarkdownEscape(StringField(adr, "says")) << "\n";
      }
      if (const std::string link = StringField(defect, "link"); !link.empty()) {
        out << "   - upstream: <" << link << ">\n";
      }
    }
    out << "\n";
  }
}

void Disagreements(const json& doc, const std::vector<std::string>& labels, std::ostream& out) {
  const json& rows = doc.at("disagreements");
  out << "## Disagreements\n\n" << rows.size()
      << " cases where the implementations that ran a case gave different verdicts (— not run; "
         "a known failure counts as the failure it is).\n\n";
  if (rows.empty()) return;
  Header("case", labels, out);
  for (const auto& row : rows) {
    out << "| " << MarkdownCode(StringField(row, "id"), /*in_table=*/true) << " |";
    for (const auto& label : labels) {
      const std::string verdict = StringField(row.at("verdicts"), label.c_str());
      out << " " << (verdict.empty() ? "—" : MarkdownEscape(verdict)) << " |";
    }
    out << "\n";
  }
  out << "\n";
}

}  // namespace

void WriteComplianceMarkdown(const json& compliance, std::ostream& out) {
  const std::vector<std::string> labels = Labels(compliance);
  out << "# Gemini tool calling: compliance with ADR-224 and ADR-226\n\n"
         "Generated by `scripts/compliance` from the shipped drivers' reports; do not edit. "
         "The same page as HTML: [index.html](index.html).\n\n";
  for (const auto& warning : compliance.at("warnings")) {
    out << "> **Warning:** " << MarkdownEscape(warning.get<std::string>()) << "\n\n";
  }
  Matrix(compliance, labels, out);
  Legend(compliance, out);
  Defects(compliance, out);
  Disagreements(compliance, labels, out);
}

}  // namespace gemini_oracle::reports
