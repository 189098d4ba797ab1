#include "oracles/checks/finding.h"

namespace gemini_oracle::checks {

std::string LevelOf(std::string_view clause) {
  const auto dot = clause.rfind('.');
  if (dot == std::string_view::npos || dot + 1 >= clause.size()) return "must";
  const char marker = clause[dot + 1];
  if (marker == 'F') return "open";
  if (marker == 'B') return "beyond";
  return "must";
}

std::string_view ReasonTag(const Finding& finding) {
  const std::string_view message = finding.message;
  const auto colon = message.find(':');
  return colon == std::string_view::npos ? message : message.substr(0, colon);
}

Finding NotJudged(std::string clause, std::string reason) {
  Finding finding = MakeFinding(std::move(clause), kNotJudged, std::nullopt, "", std::move(reason));
  finding.level = std::string(kNotJudged);
  return finding;
}

Finding MakeFinding(std::string clause, std::string_view tag, std::optional<std::size_t> request,
                    std::string pointer, std::string message, Json expected, Json actual) {
  Finding finding;
  finding.level = LevelOf(clause);
  finding.clause = std::move(clause);
  finding.request = request;
  finding.pointer = std::move(pointer);
  finding.expected = std::move(expected);
  finding.actual = std::move(actual);
  finding.message = std::string(tag) + ": " + message;
  return finding;
}

std::string EscapePointerToken(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (const char ch : token) {
    if (ch == '~') {
      out += "~0";
    } else if (ch == '/') {
      out += "~1";
    } else {
      out += ch;
    }
  }
  return out;
}

std::string PointerAppend(const std::string& base, std::string_view token) {
  return base + "/" + EscapePointerToken(token);
}

std::string PointerAppend(const std::string& base, std::size_t index) {
  return base + "/" + std::to_string(index);
}

std::string Describe(const Finding& finding) {
  std::string out = finding.clause + " [" + finding.level + "]";
  if (finding.request) out += " request " + std::to_string(*finding.request);
  if (!finding.pointer.empty()) out += " at " + finding.pointer;
  out += ": " + finding.message;
  if (!finding.expected.is_null()) out += " expected " + DumpJson(finding.expected);
  if (!finding.actual.is_null()) out += " actual " + DumpJson(finding.actual);
  return out;
}

std::string Describe(const std::vector<Finding>& findings) {
  std::string out;
  for (const auto& finding : findings) out += Describe(finding) + "\n";
  return out;
}

}  // namespace gemini_oracle::checks
