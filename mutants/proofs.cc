#include "mutants/proofs.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "mutants/fingerprint.h"
#include "reports/report_file.h"

namespace gemini_oracle::mutants {

ClauseProofs ReadClauseProofs(const std::filesystem::path& report,
                              const std::filesystem::path& source_root,
                              const std::filesystem::path& fixtures,
                              const std::filesystem::path& catalogue) {
  ClauseProofs proofs;
  std::ifstream in(report, std::ios::binary);
  if (!in) {
    proofs.unusable = "no mutation report (run gemini-oracle mutants in the mutants build)";
    return proofs;
  }
  // Read as every report file is: bounded in size and depth before anything is built.
  nlohmann::json doc;
  try {
    doc = reports::ReadReportJson(report, report.generic_string());
  } catch (const reports::BadReport& e) {
    proofs.unusable = std::string("the mutation report cannot be read: ") + e.what();
    return proofs;
  }
  if (!doc.is_object() || !doc.contains("files") || !doc["files"].is_object()) {
    proofs.unusable = "the mutation report is not a Stryker mutation report";
    return proofs;
  }
  const nlohmann::json config = doc.value("config", nlohmann::json::object());
  if (config.value("fingerprint", std::string()) !=
      SourceFingerprint(source_root, fixtures, catalogue)) {
    proofs.unusable =
        "the mutation report is stale or measured other inputs: reference_impl/, oracles/, the "
        "fixtures or the catalogue differ from what it ran on; run gemini-oracle mutants again";
    return proofs;
  }
  if (!config.value("whole_catalogue", false)) {
    proofs.unusable = "the mutation report covers a filtered part of the catalogue";
    return proofs;
  }
  if (!config.value("stop_reason", std::string()).empty()) {
    proofs.unusable = "the mutation run stopped before the faults ran";
    return proofs;
  }
  for (const auto& [file, entry] : doc["files"].items()) {
    for (const auto& mutant : entry.value("mutants", nlohmann::json::array())) {
      if (mutant.value("status", "") != "Killed" || mutant.value("canary", false)) continue;
      const std::string id = mutant.value("id", "");
      for (const auto& clause : mutant.value("provenClauses", nlohmann::json::array())) {
        if (clause.is_string()) proofs.proving[clause.get<std::string>()].insert(id);
      }
      const auto cited = mutant.value("findingClauses", nlohmann::json::array());
      const auto proven = mutant.value("provenClauses", nlohmann::json::array());
      if (cited.size() == 1 && cited[0].is_string() &&
          std::find(proven.begin(), proven.end(), cited[0]) != proven.end()) {
        proofs.sole[cited[0].get<std::string>()].insert(id);
      }
    }
  }
  return proofs;
}

}  // namespace gemini_oracle::mutants
