#pragma once
// mutants.json: the mutation run in Stryker's mutation-testing-report-schema (version 2), so
// Stryker's dashboard and HTML elements read it. Files are the sources that hold fault points
// (relative to the source root); tests are the cases, one test file per fixture file.

#include <filesystem>
#include <nlohmann/json.hpp>

namespace gemini_oracle::mutants {

struct StrykerInput {
  nlohmann::json section;           // MutationSection()
  nlohmann::json baseline_results;  // the baseline's index entries (id, file, description)
  std::filesystem::path source_root;  // where each fault's source file is read from
  /// Free-form run configuration (the report's `config`): filter, jobs, seed, fingerprint...
  nlohmann::json config = nlohmann::json::object();
  std::string tool_version;
  bool ci = false;
};

/// The report. Beside the schema's members each mutant carries `clauses` (catalogued),
/// `killingClauses` (of the gating findings that killed it, an outcome finding counting for
/// every clause of its case), `findingClauses` (the findings' own), `provenClauses` and, for
/// a fault that reproduces a public bug, `bugCase` (the schema allows extra members).
nlohmann::json StrykerReport(const StrykerInput& input);

}  // namespace gemini_oracle::mutants
