#pragma once
// Finds fixture files, loads and checks each one. A bad file becomes diagnostics and never
// stops the rest of the corpus from loading.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "oracles/runner/case.h"
#include "oracles/runner/case_schema.h"
#include "oracles/runner/clause_registry.h"
#include "oracles/runner/diagnostic.h"

namespace gemini_oracle::runner {

/// A file's outcome: a Case when it passed every rule, and its diagnostics (sorted).
struct LoadedCase {
  std::optional<Case> value;
  std::vector<Diagnostic> diagnostics;
};

/// The case id of `file`: its path under `fixtures_root` without ".json", '/'-separated;
/// just the stem for a file outside the root.
std::string CaseId(const std::filesystem::path& file, const std::filesystem::path& fixtures_root);

/// Case files under a root, in id order, plus `file.name` diagnostics for *.json files in
/// subfolders whose name lacks the y_/n_/i_ prefix. Files at the root that are not cases
/// (case.schema.json) and non-JSON files are skipped, as are hidden entries.
struct DiscoveredFiles {
  std::vector<std::filesystem::path> cases;
  std::vector<Diagnostic> diagnostics;
};
/// Throws std::runtime_error when the root is not a readable folder.
DiscoveredFiles DiscoverCaseFiles(const std::filesystem::path& fixtures_root);

class CaseLoader {
 public:
  CaseLoader(CaseSchema schema, ClauseRegistry registry);

  /// The schema and registry of a source tree (fixtures/case.schema.json,
  /// oracles/clauses.json); throws std::runtime_error when either cannot be loaded.
  static CaseLoader FromSourceRoot(const std::filesystem::path& source_root);

  /// Reads, parses, validates and lints one file. Never throws for a bad file.
  LoadedCase Load(const std::filesystem::path& file,
                  const std::filesystem::path& fixtures_root) const;

  const ClauseRegistry& registry() const { return registry_; }

 private:
  CaseSchema schema_;
  ClauseRegistry registry_;
};

/// The result of `check`: cases that passed every rule (id order) and all diagnostics
/// (sorted). ok() is the exit status.
struct CorpusCheck {
  std::vector<Case> cases;
  std::vector<Diagnostic> diagnostics;
  bool ok() const { return diagnostics.empty(); }
};

/// Every case file under the root, including the corpus-wide id.unique rule.
/// `jobs` threads load files in parallel; the result is the same for any count.
CorpusCheck CheckCorpus(const std::filesystem::path& fixtures_root, const CaseLoader& loader,
                        unsigned jobs = 1);

/// Only the named files (ids relative to `fixtures_root`); id.unique among them.
CorpusCheck CheckFiles(const std::vector<std::filesystem::path>& files,
                       const std::filesystem::path& fixtures_root, const CaseLoader& loader);

}  // namespace gemini_oracle::runner
