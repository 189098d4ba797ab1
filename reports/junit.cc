#include "reports/junit.h"

#include <map>
#include <string>
#include <vector>

#include "reports/index.h"
#include "reports/text.h"

namespace gemini_oracle::reports {
namespace {

struct Counts {
  int tests = 0;
  int failures = 0;
  int errors = 0;
  int skipped = 0;
  double milliseconds = 0;

  void Add(const nlohmann::json& result) {
    ++tests;
    milliseconds += NumberField(result, "duration_ms");
    const std::string verdict = StringField(result, "verdict");
    if (verdict == kFail || verdict == kUnexpectedPass) {
      ++failures;
    } else if (verdict == kSkipped || verdict == kKnown || verdict == kImplementationDefined) {
      ++skipped;
    } else if (verdict != kPass) {
      ++errors;  // error, timeout, or a verdict the harness should never produce
    }
  }

  std::string Attributes() const {
    return " tests=\"" + std::to_string(tests) + "\" failures=\"" + std::to_string(failures) +
           "\" errors=\"" + std::to_string(errors) + "\" skipped=\"" + std::to_string(skipped) +
           "\" time=\"" + Seconds(milliseconds) + "\"";
  }
};

std::string Details(const nlohmann::json& result) {
  std::string text = StringField(result, "description");
  const auto it = result.is_object() ? result.find("findings") : result.end();
  if (result.is_object() && it != result.end() && it->is_array()) {
    for (const auto& finding : *it) text += "\n- " + FindingLine(finding);
  }
  for (const auto& line : DiagnosticLines(result)) {
    text += "\n- " + StringField(result, "file") + ":" + line;
  }
  return text;
}

// The request bodies a failing result kept, for the CI log's test output.
std::string SentText(const nlohmann::json& result) {
  std::string text;
  for (const auto& [label, body] : SentRequests(result)) {
    text += (text.empty() ? "" : "\n") + label + "\n" + body;
  }
  return text;
}

void WriteCase(const nlohmann::json& result, const std::string& folder, std::ostream& out) {
  const std::string verdict = StringField(result, "verdict");
  std::string reason = StringField(result, "reason");
  out << "    <testcase name=\"" << XmlEscape(StringField(result, "id")) << "\" classname=\""
      << XmlEscape(folder) << "\" time=\"" << Seconds(NumberField(result, "duration_ms")) << "\"";
  if (verdict == kPass) {
    out << "/>\n";
    return;
  }
  out << ">\n";
  const std::string body = XmlEscape(Details(result));
  const std::string sent = SentText(result);
  if (verdict == kFail || verdict == kUnexpectedPass) {
    out << "      <failure message=\"" << XmlEscape(reason.empty() ? verdict : reason)
        << "\" type=\"" << verdict << "\">" << body << "</failure>\n";
    if (!sent.empty()) out << "      <system-out>" << XmlEscape(sent) << "</system-out>\n";
  } else if (verdict == kSkipped || verdict == kKnown || verdict == kImplementationDefined) {
    out << "      <skipped message=\""
        << XmlEscape(reason.empty() ? verdict : verdict + ": " + reason) << "\"/>\n";
    if (!body.empty()) out << "      <system-out>" << body << "</system-out>\n";
  } else {
    const std::string type = verdict.empty() ? "error" : verdict;
    out << "      <error message=\"" << XmlEscape(reason.empty() ? type : reason) << "\" type=\""
        << XmlEscape(type) << "\">" << body << "</error>\n";
    if (!sent.empty()) out << "      <system-out>" << XmlEscape(sent) << "</system-out>\n";
  }
  out << "    </testcase>\n";
}

}  // namespace

void WriteJunit(const nlohmann::json& index, std::ostream& out) {
  const nlohmann::json empty = nlohmann::json::array();
  const auto results_it = index.is_object() ? index.find("results") : index.end();
  const nlohmann::json& results =
      index.is_object() && results_it != index.end() && results_it->is_array() ? *results_it
                                                                               : empty;
  // Folders in name order, cases in index order within each.
  std::map<std::string, std::vector<const nlohmann::json*>> suites;
  Counts total;
  for (const auto& result : results) {
    suites[FolderOf(StringField(result, "id"))].push_back(&result);
    total.Add(result);
  }
  const nlohmann::json context =
      index.is_object() && index.contains("context") ? index["context"] : nlohmann::json::object();

  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"gemini-oracle\"" << total.Attributes() << ">\n";
  for (const auto& [folder, cases] : suites) {
    Counts counts;
    for (const auto* result : cases) counts.Add(*result);
    out << "  <testsuite name=\"" << XmlEscape(folder) << "\"" << counts.Attributes();
    if (const std::string started = StringField(context, "started_at"); !started.empty()) {
      out << " timestamp=\"" << XmlEscape(started) << "\"";
    }
    out << ">\n";
    if (context.is_object() && !context.empty()) {
      out << "    <properties>\n";
      for (const auto& [key, value] : context.items()) {
        if (value.is_structured()) continue;  // tables such as clause_levels stay in index.json
        out << "      <property name=\"" << XmlEscape(key) << "\" value=\""
            << XmlEscape(value.is_string()
                             ? value.get<std::string>()
                             : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
            << "\"/>\n";
      }
      out << "    </properties>\n";
    }
    for (const auto* result : cases) WriteCase(*result, folder, out);
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

}  // namespace gemini_oracle::reports
