#include "reports/compliance_text.h"

#include "reports/text.h"

namespace gemini_oracle::reports::compliance_text {

std::string CellState(const nlohmann::json& cell) {
  const std::string state = StringField(cell, "state");
  if (state == "pass" || state == "fail" || state == "open" || state == "excluded") return state;
  return "not_run";
}

std::string CellText(const nlohmann::json& cell) {
  const std::string state = CellState(cell);
  const auto count = [&](const char* key) {
    return std::to_string(cell.is_object() ? cell.value(key, 0) : 0);
  };
  if (state == "pass") return "pass " + count("judged");
  if (state == "fail") return "fail " + count("failing") + "/" + count("judged");
  if (state == "open") {
    return cell.value("noted", 0) > 0 ? "open " + count("noted") : "open";
  }
  if (state == "excluded") return "not judged";
  return "not run";
}

std::vector<std::string> Labels(const nlohmann::json& compliance) {
  std::vector<std::string> labels;
  for (const auto& entry : compliance.at("implementations")) {
    labels.push_back(StringField(entry, "label"));
  }
  return labels;
}

const std::vector<std::pair<std::string, std::string>>& LegendCounts() {
  static const std::vector<std::pair<std::string, std::string>> counts = {
      {"passed", "pass"},        {"failed", "fail"},
      {"known", "known"},        {"implementation_defined", "i_"},
      {"skipped", "skipped"},    {"errors", "error"},
      {"timeouts", "timeout"},   {"unexpected_passes", "unexpected pass"}};
  return counts;
}

std::string Intro(const nlohmann::json& compliance) {
  std::string text = std::to_string(compliance.value("cases", 0)) + " cases";
  if (const std::string suite = StringField(compliance, "suite_version"); !suite.empty()) {
    text += " (corpus " + suite + ")";
  }
  text += " run against " + std::to_string(compliance.at("implementations").size()) +
          " implementations";
  if (const std::string profile = StringField(compliance, "profile"); !profile.empty()) {
    text += " under profile " + profile;
  }
  return text +
         ". A cell counts the cases an implementation ran that cite the clause or hold a "
         "finding of it: \"fail k/n\" when k of those n hold a gating finding of the clause "
         "(a known failure counts), \"pass n\" when none does, \"not run\" when the "
         "implementation skipped them all (a capability it lacks) or broke before a verdict, "
         "\"not judged\" when the run's profile leaves the clause out (the ADRs' own result "
         "encodings are judged under profile adr only; a framework that wraps results its own "
         "way runs under gemini, see the legend), \"open k\" for an open or beyond clause, "
         "which never gates, with k findings noted.";
}

}  // namespace gemini_oracle::reports::compliance_text
