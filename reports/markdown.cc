#include "reports/markdown.h"

#include <map>

#include "reports/clause_stats.h"
#include "reports/index.h"
#include "reports/mutation_section.h"
#include "reports/text.h"

namespace gemini_oracle::reports {
namespace {

std::string Count(const nlohmann::json& summary, const std::string& key) {
  const auto it = summary.is_object() ? summary.find(key) : summary.end();
  return summary.is_object() && it != summary.end() && it->is_number_integer()
             ? std::to_string(it->get<std::int64_t>())
             : "0";
}

void WriteFinding(const nlohmann::json& finding, std::ostream& out) {
  out << "- " << MarkdownCode(StringField(finding, "clause"));
  if (const std::string level = StringField(finding, "level"); !level.empty()) {
    out << " (" << MarkdownEscape(level) << ")";
  }
  if (finding.is_object() && finding.contains("request")) {
    out << ", request " << MarkdownEscape(StringField(finding, "request"));
  }
  if (const std::string pointer = StringField(finding, "pointer"); !pointer.empty()) {
    out << ", " << MarkdownCode(pointer);
  }
  out << ": " << MarkdownEscape(StringField(finding, "message"));
  const auto dump = [](const nlohmann::json& value) {
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  if (finding.is_object() && finding.contains("expected")) {
    out << "; expected " << MarkdownCode(dump(finding["expected"]));
  }
  if (finding.is_object() && finding.contains("actual")) {
    out << ", actual " << MarkdownCode(dump(finding["actual"]));
  }
  if (const std::string absent = AbsentText(finding); !absent.empty()) {
    out << " (" << MarkdownCode(absent) << ")";
  }
  out << "\n";
}

// What a gating result keeps besides its findings: a bad fixture's diagnostics and the
// request bodies that were sent.
void WriteEvidence(const nlohmann::json& result, std::ostream& out) {
  const auto diagnostics = DiagnosticLines(result);
  for (const auto& line : diagnostics) out << "- " << MarkdownCode(line) << "\n";
  if (!diagnostics.empty()) out << "\n";
  for (const auto& [label, body] : SentRequests(result)) {
    out << MarkdownEscape(label) << "\n\n" << MarkdownFence(body, "json") << "\n";
  }
}

}  // namespace

void WriteMarkdown(const nlohmann::json& index, std::ostream& out) {
  const IndexParts parts = ReadIndex(index);
  const nlohmann::json& context = parts.context;
  const nlohmann::json& results = parts.results;
  const nlohmann::json& summary = parts.summary;

  out << "# gemini-oracle report\n\n";
  // Context line: only the fields the run set, so no empty code spans.
  std::string line;
  for (const char* key : {"implementation", "suite_version", "tool_version", "seed", "shard",
                          "strict", "profile", "filter", "started_at"}) {
    const std::string value = StringField(context, key);
    if (value.empty()) continue;
    line += (line.empty() ? "" : ", ") + MarkdownEscape(key) + " " + MarkdownCode(value);
  }
  if (!line.empty()) out << line << "\n\n";

  for (const std::string& key : SummaryKeys()) out << "| " << MarkdownEscape(key) << " ";
  out << "|\n";
  for (std::size_t i = 0; i < SummaryKeys().size(); ++i) out << "|---:";
  out << "|\n";
  for (const std::string& key : SummaryKeys()) out << "| " << Count(summary, key) << " ";
  out << "|\n\n";

  out << "## Failures\n\n";
  bool any = false;
  for (const auto& result : results) {
    if (!Gates(result)) continue;
    any = true;
    const std::string reason = StringField(result, "reason");
    out << "### " << MarkdownCode(StringField(result, "id")) << " "
        << MarkdownEscape(StringField(result, "verdict"))
        << (reason.empty() ? "" : ": " + MarkdownEscape(reason)) << "\n\n";
    if (const std::string description = StringField(result, "description"); !description.empty()) {
      out << MarkdownEscape(description) << "\n\n";
    }
    const auto it = result.find("findings");
    if (it != result.end() && it->is_array() && !it->empty()) {
      for (const auto& finding : *it) WriteFinding(finding, out);
      out << "\n";
    }
    WriteEvidence(result, out);
  }
  if (!any) out << "None.\n\n";

  // Checks that could not run: listed so that no one reads them as passes.
  std::map<std::string, std::pair<std::size_t, std::string>> not_judged;
  for (const auto& result : results) {
    const auto it = result.find("not_judged");
    if (it == result.end() || !it->is_array()) continue;
    for (const auto& note : *it) {
      auto& [count, reason] = not_judged[StringField(note, "clause")];
      if (count++ == 0) reason = StringField(note, "reason");
    }
  }
  if (!not_judged.empty()) {
    out << "## Not judged\n\n";
    out << "| clause | cases | first reason |\n|---|---:|---|\n";
    for (const auto& [clause, entry] : not_judged) {
      out << "| " << MarkdownCode(clause, true) << " | " << entry.first << " | "
          << MarkdownEscape(entry.second) << " |\n";
    }
    out << "\n";
  }

  if (parts.mutation.is_object()) WriteMutationMarkdown(parts.mutation, out);

  out << "## Clauses\n\n";
  out << "| clause | level | cases | passed | gating | other | findings | not judged |\n";
  out << "|---|---|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& row : ClauseRows(results, parts.clause_levels)) {
    out << "| " << MarkdownCode(row.clause, true) << " | " << MarkdownEscape(row.level) << " | "
        << row.cases << " | " << row.passed << " | " << row.gating << " | " << row.other << " | "
        << row.findings << " | " << row.not_judged << " |\n";
  }
  out << "\n## All cases\n\n";
  out << "| case | verdict | reason | ms |\n";
  out << "|---|---|---|---:|\n";
  for (const auto& result : results) {
    out << "| " << MarkdownCode(StringField(result, "id"), true) << " | "
        << MarkdownEscape(StringField(result, "verdict")) << " | "
        << MarkdownEscape(StringField(result, "reason")) << " | "
        << Decimal3(NumberField(result, "duration_ms")) << " |\n";
  }
}

}  // namespace gemini_oracle::reports
