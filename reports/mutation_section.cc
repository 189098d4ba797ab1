#include "reports/mutation_section.h"

#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "reports/text.h"

namespace gemini_oracle::reports {
namespace {

// The parts both formats show, read defensively from a possibly hand-edited index.
struct Section {
  std::string headline;
  std::string stop;
  std::vector<nlohmann::json> rows;        // canary first, then every counted fault
  std::vector<nlohmann::json> equivalent;  // listed apart, not counted
  std::vector<nlohmann::json> bug_pairs;   // faults with a bug case
  std::vector<std::string> problems;       // what keeps the run from being clean
};

std::string Percent(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f%%", value);
  return text;
}

std::string Join(const nlohmann::json& list) {
  std::string text;
  if (!list.is_array()) return text;
  for (const auto& item : list) {
    if (item.is_string()) text += (text.empty() ? "" : ", ") + item.get<std::string>();
  }
  return text;
}

Section Read(const nlohmann::json& mutation) {
  Section s;
  const nlohmann::json counts = mutation.value("counts", nlohmann::json::object());
  const auto count = [&](const char* key) { return std::to_string(counts.value(key, 0)); };
  s.headline = !mutation.contains("score") || !mutation["score"].is_number()
                   ? std::string("No mutation score: the run stopped before the faults ran.")
                   : "Mutation score " + Percent(NumberField(mutation, "score")) + ": " +
                         count("killed") + " killed, " + count("survived") + " survived, " +
                         count("runtime_errors") + " runtime errors, " + count("timeouts") +
                         " timeouts of " + count("total") + " faults (" + count("equivalent") +
                         " equivalent, not counted).";
  s.stop = StringField(mutation, "stop_reason");
  if (mutation.contains("canary") && mutation["canary"].is_object()) {
    s.rows.push_back(mutation["canary"]);
  }
  for (const auto& row : mutation.value("faults", nlohmann::json::array())) {
    (row.contains("equivalent") ? s.equivalent : s.rows).push_back(row);
    if (row.contains("bug")) s.bug_pairs.push_back(row);
    for (const auto& problem : row.value("problems", nlohmann::json::array())) {
      if (problem.is_string()) {
        s.problems.push_back(StringField(row, "id") + ": " + problem.get<std::string>());
      }
    }
  }
  for (const auto& id : mutation.value("unpaired_bug_cases", nlohmann::json::array())) {
    if (id.is_string()) {
      s.problems.push_back("bug case " + id.get<std::string>() + " is paired with no fault");
    }
  }
  for (const auto& entry : mutation.value("unproven_must_clauses", nlohmann::json::array())) {
    const std::string reason = StringField(entry, "reason");
    s.problems.push_back(
        "must-clause " + StringField(entry, "clause") +
        (reason.empty() ? " is proven by no killed fault" : " cannot be proven yet: " + reason));
  }
  return s;
}

std::string KilledBy(const nlohmann::json& row) {
  std::string text = StringField(row, "killing_case");
  if (text.empty()) return StringField(row, "reason");
  if (const std::string clause = StringField(row, "killing_clause"); !clause.empty()) {
    text += " (" + clause + ")";
  }
  const auto killers = row.value("killed_by", nlohmann::json::array());
  if (killers.size() > 1) text += " +" + std::to_string(killers.size() - 1);
  return text;
}

std::string Where(const nlohmann::json& row) {
  return StringField(row, "file") + ":" + StringField(row, "line_number");
}

}  // namespace

void WriteMutationMarkdown(const nlohmann::json& mutation, std::ostream& out) {
  const Section s = Read(mutation);
  out << "## Mutation testing\n\n" << MarkdownEscape(s.headline) << "\n\n";
  if (!s.stop.empty()) out << "**Stopped:** " << MarkdownEscape(s.stop) << "\n\n";
  out << "| fault | where | status | killed by | proves |\n|---|---|---|---|---|\n";
  for (const auto& row : s.rows) {
    out << "| " << MarkdownCode(StringField(row, "id"), true)
        << (row.value("canary", false) ? " (canary)" : "") << " | "
        << MarkdownCode(Where(row), true) << " | " << MarkdownEscape(StringField(row, "status"))
        << " | " << MarkdownEscape(KilledBy(row)) << " | "
        << MarkdownEscape(Join(row.value("proven_clauses", nlohmann::json::array()))) << " |\n";
  }
  out << "\n";
  if (!s.bug_pairs.empty()) {
    out << "### Public bugs and their cases\n\n| bug | fault | case | killed by its case |\n"
           "|---|---|---|---|\n";
    for (const auto& row : s.bug_pairs) {
      const auto bug = row.value("bug", nlohmann::json::object());
      out << "| " << MarkdownEscape(StringField(bug, "project") + ": " + StringField(bug, "report"))
          << " | " << MarkdownCode(StringField(row, "id"), true) << " | "
          << MarkdownCode(StringField(bug, "case"), true) << " | "
          << (bug.value("killed", false) ? "yes" : "**no**") << " |\n";
    }
    out << "\n";
  }
  if (!s.equivalent.empty()) {
    out << "### Equivalent faults (not counted)\n\n";
    for (const auto& row : s.equivalent) {
      out << "- " << MarkdownCode(StringField(row, "id")) << " ("
          << MarkdownEscape(StringField(row, "status"))
          << "): " << MarkdownEscape(StringField(row, "equivalent")) << "\n";
    }
    out << "\n";
  }
  if (!s.problems.empty()) {
    out << "### Problems\n\n";
    for (const auto& problem : s.problems) out << "- " << MarkdownEscape(problem) << "\n";
    out << "\n";
  }
}

void WriteMutationHtml(const nlohmann::json& mutation, std::ostream& out) {
  const Section s = Read(mutation);
  out << "<h2>Mutation testing</h2>\n<p>" << HtmlEscape(s.headline) << "</p>\n";
  if (!s.stop.empty()) out << "<p class=\"fail\">Stopped: " << HtmlEscape(s.stop) << "</p>\n";
  out << "<table>\n<tr><th>fault</th><th>where</th><th>status</th><th>killed by</th>"
         "<th>proves</th></tr>\n";
  for (const auto& row : s.rows) {
    const std::string status = StringField(row, "status");
    out << "<tr><td><code>" << HtmlEscape(StringField(row, "id")) << "</code>"
        << (row.value("canary", false) ? " (canary)" : "") << "</td><td><code>"
        << HtmlEscape(Where(row)) << "</code></td><td class=\""
        << (status == "Killed" ? "pass" : "fail") << "\">" << HtmlEscape(status) << "</td><td>"
        << HtmlEscape(KilledBy(row)) << "</td><td>"
        << HtmlEscape(Join(row.value("proven_clauses", nlohmann::json::array()))) << "</td></tr>\n";
  }
  out << "</table>\n";
  if (!s.bug_pairs.empty()) {
    out << "<h3>Public bugs and their cases</h3>\n<table>\n<tr><th>bug</th><th>fault</th>"
           "<th>case</th><th>killed by its case</th></tr>\n";
    for (const auto& row : s.bug_pairs) {
      const auto bug = row.value("bug", nlohmann::json::object());
      const bool killed = bug.value("killed", false);
      out << "<tr><td>"
          << HtmlEscape(StringField(bug, "project") + ": " + StringField(bug, "report"))
          << "</td><td><code>" << HtmlEscape(StringField(row, "id")) << "</code></td><td><code>"
          << HtmlEscape(StringField(bug, "case")) << "</code></td><td class=\""
          << (killed ? "pass" : "fail") << "\">" << (killed ? "yes" : "no") << "</td></tr>\n";
    }
    out << "</table>\n";
  }
  if (!s.equivalent.empty()) {
    out << "<h3>Equivalent faults (not counted)</h3>\n<ul>\n";
    for (const auto& row : s.equivalent) {
      out << "<li><code>" << HtmlEscape(StringField(row, "id")) << "</code> ("
          << HtmlEscape(StringField(row, "status"))
          << "): " << HtmlEscape(StringField(row, "equivalent")) << "</li>\n";
    }
    out << "</ul>\n";
  }
  if (!s.problems.empty()) {
    out << "<h3>Problems</h3>\n<ul>\n";
    for (const auto& problem : s.problems) out << "<li>" << HtmlEscape(problem) << "</li>\n";
    out << "</ul>\n";
  }
}

}  // namespace gemini_oracle::reports
