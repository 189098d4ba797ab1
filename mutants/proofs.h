#pragma once
// Which killed faults prove which clauses' oracles, read back from a mutation report
// (mutants.json) for `gemini-oracle clauses`. A report measured on other sources, or on part
// of the catalogue, proves nothing and says why.

#include <filesystem>
#include <map>
#include <set>
#include <string>

namespace gemini_oracle::mutants {

struct ClauseProofs {
  /// Empty when the report counts; else why not (missing, unreadable, stale, filtered).
  std::string unusable;
  /// clause -> killed faults whose kill came from a finding citing it (and which cite it).
  std::map<std::string, std::set<std::string>> proving;
  /// clause -> killed faults whose killing findings all cite this clause (its oracles alone).
  std::map<std::string, std::set<std::string>> sole;
};

/// Reads `report` and compares its fingerprint with the sources, `fixtures` and `catalogue`.
ClauseProofs ReadClauseProofs(const std::filesystem::path& report,
                              const std::filesystem::path& source_root,
                              const std::filesystem::path& fixtures,
                              const std::filesystem::path& catalogue);

}  // namespace gemini_oracle::mutants
