#include "reports/compare.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <system_error>

#include "reports/atomic_file.h"
#include "reports/index.h"
#include "reports/text.h"

namespace gemini_oracle::reports {
namespace {

namespace fs = std::filesystem;

// Context members that change verdicts by themselves: differing, they earn a warning, because
// a reader would otherwise blame the implementations for the difference.
constexpr const char* kWarnedMembers[] = {"suite_version", "profile", "strict"};

// First occurrences keep their name; a repeat takes the first free "#k" (k from 2) that is
// neither taken nor some other report's own name, so no two columns ever share a name.
std::vector<std::string> ColumnNames(const std::vector<std::string>& names) {
  const std::set<std::string> own(names.begin(), names.end());
  std::set<std::string> used;
  std::vector<std::string> columns;
  for (const auto& name : names) {
    if (used.insert(name).second) {
      columns.push_back(name);
      continue;
    }
    for (int k = 2;; ++k) {
      const std::string candidate = name + "#" + std::to_string(k);
      if (own.count(candidate) == 0 && used.insert(candidate).second) {
        columns.push_back(candidate);
        break;
      }
    }
  }
  return columns;
}

nlohmann::json Member(const nlohmann::json& context, const char* key) {
  const auto it = context.find(key);
  return it == context.end() ? nlohmann::json() : *it;
}

std::string ValueText(const nlohmann::json& value) {
  if (value.is_null()) return "absent";
  if (value.is_string()) return value.get<std::string>();
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

struct Outcome {
  std::string verdict;
  std::string reason;
  std::optional<std::string> judged;  // what disagreement compares; none: not run
};

// A skipped case was not run (a capability the implementation lacks), and a known failure is
// the failure it was before the expectations file renamed it: comparing those as verdicts
// would flag implementations for their manifests, not for what they sent.
std::optional<std::string> Judged(const nlohmann::json& result, const std::string& verdict) {
  if (verdict == kSkipped) return std::nullopt;
  // An unexpected pass is a pass: only the manifest is stale.
  if (verdict == kUnexpectedPass) return std::string(kPass);
  if (verdict == kKnown && result.is_object()) {
    const auto expected = result.find("known_failure");
    if (expected != result.end() && expected->is_object()) {
      const std::string before = StringField(*expected, "verdict");
      if (!before.empty()) return before;
    }
  }
  return verdict;
}

}  // namespace

const std::vector<std::string>& ComparisonFileNames() {
  static const std::vector<std::string> names = {"compare.md", "compare.html", "compare.json"};
  return names;
}

std::string OneLine(std::string_view text, std::size_t max_bytes) {
  const std::string clean = SanitizeText(text);
  const auto end = clean.find_first_of("\r\n");
  std::string line = clean.substr(0, end);
  bool cut =
      end != std::string::npos && clean.find_first_not_of(" \t\r\n", end) != std::string::npos;
  std::replace(line.begin(), line.end(), '\t', ' ');
  while (!line.empty() && line.back() == ' ') line.pop_back();
  if (line.size() > max_bytes) {
    // Back up to the start of a character so the cut never splits UTF-8.
    std::size_t n = max_bytes;
    while (n > 0 && (static_cast<unsigned char>(line[n]) & 0xC0) == 0x80) --n;
    line.resize(n);
    cut = true;
  }
  return cut ? line + "…" : line;
}

std::string ContextValueText(const nlohmann::json& value) {
  if (value.is_null()) return "—";
  if (value.is_string()) return value.get<std::string>();
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string SummaryText(const nlohmann::json& summary) {
  if (!summary.is_object()) return "0";
  // The usual order first; a count this tool does not know yet (a new verdict) after them.
  std::vector<std::string> keys = {
      "passed", "failed", "errors", "timeouts", "skipped", "known", "implementation_defined",
      "unexpected_passes"};
  for (const auto& [key, value] : summary.items()) {
    if (key != "total" && std::find(keys.begin(), keys.end(), key) == keys.end()) {
      keys.push_back(key);
    }
  }
  std::string text = std::to_string(summary.value("total", std::int64_t{0}));
  bool first = true;
  for (const auto& key : keys) {
    const auto it = summary.find(key);
    if (it == summary.end() || !it->is_number_integer() || it->get<std::int64_t>() == 0) continue;
    text += (first ? ": " : ", ") + std::to_string(it->get<std::int64_t>()) + " " + key;
    first = false;
  }
  return text;
}

nlohmann::json BuildComparison(const std::vector<LoadedReport>& reports) {
  std::vector<std::string> names;
  std::vector<IndexParts> parts;
  for (const auto& report : reports) {
    parts.push_back(ReadIndex(report.index));
    std::string name = StringField(parts.back().context, "implementation");
    names.push_back(name.empty() ? "unknown" : name);
  }
  const std::vector<std::string> columns = ColumnNames(names);

  nlohmann::json doc;
  doc["compare_schema_version"] = kCompareSchemaVersion;
  doc["implementations"] = columns;
  doc["reports"] = nlohmann::json::array();
  for (std::size_t r = 0; r < reports.size(); ++r) {
    nlohmann::json entry = {
        {"implementation", columns[r]}, {"file", reports[r].file}, {"summary", parts[r].summary}};
    for (const char* key : kCompareHeaderMembers) entry[key] = Member(parts[r].context, key);
    doc["reports"].push_back(std::move(entry));
  }

  doc["warnings"] = nlohmann::json::array();
  for (const char* key : kWarnedMembers) {
    std::set<std::string> distinct;
    std::string listing;
    for (std::size_t r = 0; r < reports.size(); ++r) {
      const nlohmann::json value = Member(parts[r].context, key);
      distinct.insert(value.dump());
      listing += (r == 0 ? "" : "; ") + columns[r] + ": " + ValueText(value);
    }
    if (distinct.size() > 1) {
      doc["warnings"].push_back("The reports differ in " + std::string(key) + " (" + listing +
                                "): verdicts may differ for that reason, not because the "
                                "implementations do.");
    }
  }

  // Per report: case id -> verdict and reason; per clause: pass / gating / other per report.
  std::vector<std::map<std::string, Outcome>> outcomes(reports.size());
  std::set<std::string> ids;
  std::map<std::string, std::vector<std::array<int, 3>>> clause_counts;
  for (std::size_t r = 0; r < reports.size(); ++r) {
    for (const auto& result : parts[r].results) {
      const std::string id = StringField(result, "id");
      const std::string verdict = StringField(result, "verdict");
      ids.insert(id);
      outcomes[r][id] = {verdict, StringField(result, "reason"), Judged(result, verdict)};
      const int column = verdict == kPass ? 0 : Gates(result) ? 1 : 2;
      const auto cited = StringList(result, "clauses");
      for (const auto& clause : std::set<std::string>(cited.begin(), cited.end())) {
        auto& counts = clause_counts[clause];
        counts.resize(reports.size(), {0, 0, 0});
        ++counts[r][static_cast<std::size_t>(column)];
      }
    }
  }

  doc["cases"] = nlohmann::json::array();
  doc["disagreements"] = nlohmann::json::array();
  std::size_t not_everywhere = 0;
  for (const auto& id : ids) {
    nlohmann::json verdicts = nlohmann::json::object();
    nlohmann::json reasons = nlohmann::json::object();
    std::set<std::string> distinct;
    bool missing = false;
    for (std::size_t r = 0; r < reports.size(); ++r) {
      const auto it = outcomes[r].find(id);
      if (it == outcomes[r].end()) {
        verdicts[columns[r]] = nullptr;
        reasons[columns[r]] = nullptr;
        missing = true;
        continue;
      }
      verdicts[columns[r]] = it->second.verdict;
      reasons[columns[r]] = OneLine(it->second.reason);
      if (it->second.judged) {
        distinct.insert(*it->second.judged);
      } else {
        missing = true;
      }
    }
    if (missing) ++not_everywhere;
    if (distinct.size() > 1) {
      doc["disagreements"].push_back({{"id", id}, {"verdicts", verdicts}, {"reasons", reasons}});
    }
    doc["cases"].push_back({{"id", id}, {"verdicts", std::move(verdicts)}});
  }

  std::vector<std::string> clauses;
  for (const auto& [clause, counts] : clause_counts) clauses.push_back(clause);
  std::sort(clauses.begin(), clauses.end(), ClauseLess);
  doc["clauses"] = nlohmann::json::array();
  for (const auto& clause : clauses) {
    auto counts = clause_counts[clause];
    counts.resize(reports.size(), {0, 0, 0});
    nlohmann::json row = {{"clause", clause}, {"counts", nlohmann::json::object()}};
    for (std::size_t r = 0; r < reports.size(); ++r) {
      row["counts"][columns[r]] = {
          {"pass", counts[r][0]}, {"gating", counts[r][1]}, {"other", counts[r][2]}};
    }
    doc["clauses"].push_back(std::move(row));
  }

  doc["summary"] = {{"cases", ids.size()},
                    {"implementations", reports.size()},
                    {"disagreements", doc["disagreements"].size()},
                    {"not_run_everywhere", not_everywhere}};
  return doc;
}

void WriteComparison(const nlohmann::json& comparison, const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir, error)) {
    throw std::runtime_error(dir.generic_string() + ": cannot create the folder");
  }
  // The JSON last: a reader that finds it finds the pages of the same comparison.
  WriteFileAtomically(dir / "compare.md",
                      [&](std::ostream& out) { WriteComparisonMarkdown(comparison, out); });
  WriteFileAtomically(dir / "compare.html",
                      [&](std::ostream& out) { WriteComparisonHtml(comparison, out); });
  WriteFileAtomically(dir / "compare.json",
                      [&](std::ostream& out) { WriteIndexTo(comparison, out); });
}

}  // namespace gemini_oracle::reports
