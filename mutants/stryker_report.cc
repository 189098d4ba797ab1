#include "mutants/stryker_report.h"

#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

namespace gemini_oracle::mutants {
namespace {

std::string ReadSource(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The length of line `number` (1-based) of `text`, or 0 when the text has no such line.
std::size_t LineLength(const std::string& text, int number) {
  std::istringstream lines(text);
  std::string line;
  for (int i = 1; std::getline(lines, line); ++i) {
    if (i == number) return line.size();
  }
  return 0;
}

nlohmann::json Position(int line, std::size_t column) {
  nlohmann::json position = nlohmann::json::object();
  position["line"] = std::max(1, line);
  position["column"] = std::max<std::size_t>(1, column);
  return position;
}

std::string StatusReason(const nlohmann::json& row) {
  const std::string status = row.value("status", "");
  if (status == "Killed") {
    std::string reason = "killed by " + row.value("killing_case", std::string());
    if (const std::string clause = row.value("killing_clause", ""); !clause.empty()) {
      reason += " (" + clause + ")";
    }
    const std::size_t more = row.value("killed_by", nlohmann::json::array()).size();
    if (more > 1) reason += " and " + std::to_string(more - 1) + " more case(s)";
    return reason;
  }
  if (row.contains("equivalent")) return "equivalent: " + row["equivalent"].get<std::string>();
  return row.value("reason", "");
}

nlohmann::json Mutant(const nlohmann::json& row, const std::string& source) {
  nlohmann::json mutant = nlohmann::json::object();
  const std::string id = row.value("id", "");
  mutant["id"] = id;
  mutant["mutatorName"] = id.substr(0, id.find('.'));
  mutant["description"] = row.value("description", "");
  const int line = row.value("line_number", 1);
  const std::size_t length = LineLength(source, line);
  nlohmann::json location = nlohmann::json::object();
  location["start"] = Position(line, 1);
  location["end"] = Position(line, length + 1);
  mutant["location"] = std::move(location);
  mutant["status"] = row.value("status", "RuntimeError");
  mutant["statusReason"] = StatusReason(row);
  mutant["killedBy"] = row.value("killed_by", nlohmann::json::array());
  mutant["testsCompleted"] = row.value("cases_run", 0);
  mutant["duration"] = row.value("duration_ms", 0.0);
  mutant["static"] = false;
  mutant["clauses"] = row.value("clauses", nlohmann::json::array());
  mutant["provenClauses"] = row.value("proven_clauses", nlohmann::json::array());
  mutant["killingClauses"] = row.value("killing_clauses", nlohmann::json::array());
  mutant["findingClauses"] = row.value("finding_clauses", nlohmann::json::array());
  if (row.contains("bug")) mutant["bugCase"] = row["bug"].value("case", "");
  if (row.value("canary", false)) mutant["canary"] = true;
  return mutant;
}

}  // namespace

nlohmann::json StrykerReport(const StrykerInput& input) {
  nlohmann::json report = nlohmann::json::object();
  report["schemaVersion"] = "2";
  nlohmann::json thresholds = nlohmann::json::object();
  thresholds["high"] = 100;
  thresholds["low"] = 90;
  report["thresholds"] = std::move(thresholds);

  std::vector<nlohmann::json> rows;
  if (input.section.contains("canary") && input.section["canary"].is_object()) {
    rows.push_back(input.section["canary"]);
  }
  for (const auto& row : input.section.value("faults", nlohmann::json::array())) rows.push_back(row);
  std::map<std::string, nlohmann::json> files;
  for (const auto& row : rows) {
    const std::string file = row.value("file", "");
    auto [it, fresh] = files.try_emplace(file, nlohmann::json::object());
    if (fresh) {
      it->second["language"] = "cpp";
      it->second["source"] = ReadSource(input.source_root / file);
      it->second["mutants"] = nlohmann::json::array();
    }
    it->second["mutants"].push_back(Mutant(row, it->second["source"].get<std::string>()));
  }
  report["files"] = nlohmann::json::object();
  for (auto& [file, entry] : files) report["files"][file] = std::move(entry);

  std::map<std::string, nlohmann::json> tests;
  for (const auto& result : input.baseline_results) {
    const std::string file = result.value("file", result.value("id", std::string()));
    auto& entry = tests[file];
    if (entry.is_null()) entry = {{"tests", nlohmann::json::array()}};
    nlohmann::json test = nlohmann::json::object();
    test["id"] = result.value("id", "");
    const std::string description = result.value("description", "");
    test["name"] = description.empty() ? test["id"].get<std::string>() : description;
    entry["tests"].push_back(std::move(test));
  }
  report["testFiles"] = nlohmann::json::object();
  for (auto& [file, entry] : tests) report["testFiles"][file] = std::move(entry);

  nlohmann::json framework = nlohmann::json::object();
  framework["name"] = "gemini-oracle";
  framework["version"] = input.tool_version;
  report["framework"] = std::move(framework);
  nlohmann::json system = nlohmann::json::object();
  system["ci"] = input.ci;
  report["system"] = std::move(system);
  nlohmann::json performance = nlohmann::json::object();
  performance["setup"] = 0;
  performance["initialRun"] = input.section.value("baseline_ms", 0.0);
  performance["mutation"] = input.section.value("mutation_ms", 0.0);
  report["performance"] = std::move(performance);
  report["config"] = input.config;
  return report;
}

}  // namespace gemini_oracle::mutants
