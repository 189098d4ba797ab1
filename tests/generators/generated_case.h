#pragma once
// Runs one generated case file like the corpus: written into a folder of its family, checked,
// loaded and run against the reference implementation through the capture server and the
// judges. A property that fails keeps its case (the shrunk one, since every failing attempt
// overwrites it) as an ordinary fixture, named in the failure, to become a permanent case in
// fixtures/regressions/.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "oracles/model/streamed_twin.h"
#include "oracles/runner/case_loader.h"
#include "oracles/runner/reference_driver.h"
#include "oracles/runner/suite_runner.h"
#include "tests/property_support.h"
#include "tests/source_root.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::testing {

/// The stem of a kept counterexample: `<prefix>_<name>_cx_s<seed>` (prefix y or n), apart from
/// every stem `generate` writes, named by the property seed.
inline std::string CounterexampleStem(char prefix, const std::string& name) {
  return std::string(1, prefix) + "_" + name + "_cx_s" + std::to_string(PropertySeed());
}

/// Writes a failing property's case where GEMINI_ORACLE_COUNTEREXAMPLES names (default:
/// `reports/counterexamples/` in the working folder, the source root under ctest) as
/// <folder>/<stem>.json, its `source` naming the property seed, and returns the path.
inline std::filesystem::path KeepCounterexample(const std::string& folder,
                                                const std::string& stem, Json file) {
  const char* env = std::getenv("GEMINI_ORACLE_COUNTEREXAMPLES");
  const std::filesystem::path root =
      env != nullptr && *env != '\0' ? std::filesystem::path(env) : "reports/counterexamples";
  file["source"] = "generator " + folder + ", shrunk counterexample of property seed " +
                   std::to_string(PropertySeed());
  const auto path = std::filesystem::absolute(root / folder / (stem + ".json"));
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << file.dump(2) << "\n";
  return path;
}

struct GeneratedRun {
  nlohmann::json results = nlohmann::json::array();  // the case's entry, then its twins'
  std::string problems;  // `check` diagnostics of the file, one a line
};

inline GeneratedRun RunGeneratedCase(const std::string& family, const std::string& stem,
                                     const Json& file,
                                     runner::ReferenceDriver::RequestHook hook = nullptr) {
  static const runner::CaseLoader loader = runner::CaseLoader::FromSourceRoot(SourceRoot());
  TempDir dir;
  const auto path = dir.path() / family / (stem + ".json");
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << file.dump(2) << "\n";
  GeneratedRun run;
  const runner::CorpusCheck corpus = runner::CheckCorpus(dir.path(), loader);
  for (const auto& d : corpus.diagnostics) run.problems += runner::FormatDiagnostic(d) + "\n";
  if (corpus.cases.size() != 1) return run;
  runner::SuiteOptions options;
  options.beyond_gates = true;
  // The case and its streamed twins (INTERPRETING §5.5), as `run` runs them.
  run.results = runner::RunSuite(
      model::WithStreamedTwins(corpus.cases), loader.registry(),
      [&hook] {
        return std::make_unique<runner::ReferenceDriver>(runner::ReferenceDriver::StoreSettings{},
                                                         hook);
      },
      options);
  return run;
}

/// The property every family shares: the drawn case passes `check`, and the reference passes
/// it and its twins with the outcome the construction predicts (`expected_error`, "" for
/// accept), every request sent through `hook`. A failure keeps the case (unless `keep` is
/// false: the negative controls).
inline void PassesWithPredictedOutcome(const std::string& family, const std::string& stem,
                                       const Json& file, const std::string& expected_error,
                                       runner::ReferenceDriver::RequestHook hook, bool keep) {
  const GeneratedRun run = RunGeneratedCase(family, stem, file, std::move(hook));
  if (!run.problems.empty()) RC_FAIL("the generated case fails check:\n" + run.problems);
  RC_ASSERT(run.results.size() >= 1u);
  const bool passed =
      run.results[0]["expected"] == (expected_error.empty() ? "accept" : "refuse") &&
      std::all_of(run.results.begin(), run.results.end(),
                  [](const nlohmann::json& r) { return r["verdict"] == "pass"; });
  if (!passed) {
    const std::string kept =
        keep ? "\nkept as " +
                   KeepCounterexample(family, CounterexampleStem(stem[0], family), file).string()
             : "";
    RC_FAIL(run.results.dump(2) + kept);
  }
}

}  // namespace gemini_oracle::testing
