#include "oracles/runner/run_context.h"

#include <fstream>

namespace gemini_oracle::runner {

std::string ReadSuiteVersion(const std::filesystem::path& fixtures) {
  std::ifstream in(fixtures / "VERSION");
  std::string version;
  std::getline(in, version);
  return version.empty() ? "unknown" : version;
}

nlohmann::json ClauseLevels(const ClauseRegistry& registry) {
  nlohmann::json levels = nlohmann::json::object();
  for (const auto& clause : registry.clauses()) {
    levels[clause.id] = std::string(ToString(clause.level));
  }
  return levels;
}

}  // namespace gemini_oracle::runner
