#pragma once
// The context members every run's index shares, whoever runs it (`run`, `serve`, `mutants`).

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "oracles/runner/clause_registry.h"

namespace gemini_oracle::runner {

/// The corpus version (fixtures/VERSION's first line), "unknown" when it cannot be read.
std::string ReadSuiteVersion(const std::filesystem::path& fixtures);

/// Every clause's level by id ("ADR-224.1": "must", ...), as reports read them.
nlohmann::json ClauseLevels(const ClauseRegistry& registry);

}  // namespace gemini_oracle::runner
