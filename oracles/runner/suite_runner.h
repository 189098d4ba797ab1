#pragma once
// Case -> capture server -> driver -> journal -> judges -> one index entry per case.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "oracles/checks/judge.h"
#include "oracles/runner/clause_registry.h"
#include "oracles/runner/diagnostic.h"
#include "oracles/runner/driver.h"
#include "oracles/runner/model_names.h"

namespace gemini_oracle::runner {

struct Shard {
  std::size_t index = 1;  // 1-based
  std::size_t count = 1;
};

/// Parses "i/n" (1 <= i <= n); nullopt when malformed.
std::optional<Shard> ParseShard(const std::string& text);

/// True when the case is in the shard: a stable hash of its id, so adding a case never
/// moves the others between shards.
bool InShard(const Case& c, const Shard& shard);
bool InShard(const std::string& case_id, const Shard& shard);

/// A clause id prefix ("ADR-226.3", "ADR-224", "ADR-"; one that ends in a digit stops at a
/// clause boundary, so "ADR-226.1" is not "ADR-226.10"), a feature ("parallel"), or a glob
/// over the id or file stem ("adr-226/y_*", "*identical*"). Empty matches everything.
bool MatchesFilter(const Case& c, const std::string& filter);

struct SuiteOptions {
  bool strict = false;  // open-level findings gate too
  /// Which encodings the judges require (checks::Profile; fixtures/INTERPRETING.md §9.1).
  checks::Profile profile = checks::Profile::kAdr;
  /// Whether findings of `beyond` clauses gate: true for the reference implementation (the
  /// behaviour this project adds past the ADRs is its own promise), false for other
  /// implementations, whose beyond findings are reported only (INTERPRETING §9).
  bool beyond_gates = false;
  unsigned jobs = 1;       // cases in parallel, each under its own base URL
  bool fail_fast = false;  // stop scheduling after the first gating result
  std::optional<std::size_t> max_fail;
  std::uint64_t seed = 0;  // shuffles execution order; reports stay in id order
  /// Wall-clock limit of one case; past it the driver is cancelled and the case gets the
  /// `timeout` verdict while the run goes on. Zero: no limit.
  std::chrono::milliseconds case_timeout{60000};
  /// Keep the request bodies of every case in its result (`sent`); without it only the
  /// results that gate keep them.
  bool keep_requests = false;
  /// Features the driver cannot run; such cases are skipped with a reason.
  std::vector<std::string> unsupported_features;
  /// The driver's capabilities (driver protocol, INTERPRETING §15); a case needing one it
  /// lacks (protocol::RequiredCapabilities) is skipped with the reason. Unset: it has all.
  std::optional<std::set<std::string>> capabilities;
  /// The implementation's error classes mapped to the catalogue's codes (`run --error-map`,
  /// INTERPRETING §15.4). Used when `capabilities` lacks typed-errors: a refusal whose class is
  /// mapped is judged under the mapped code; without an entry its code is not judged.
  std::map<std::string, std::string> error_map;
  /// Result `file` paths are written relative to this folder (the source root), so reports
  /// name the same file on every machine. Empty: as loaded.
  std::filesystem::path relative_to;
  /// Called after each case, from worker threads but never concurrently.
  std::function<void(const nlohmann::json& result, std::size_t done, std::size_t total)> progress;
};

/// One index entry per bad fixture id (BadFixtureId: a file that failed `check`, or entries
/// that take one id together; verdict `error`, `bad_fixture: true`, the diagnostics under
/// `diagnostics`, each with its `file` when the entry gathers several), in id order, so every
/// report shows the bad file. Only the ids of `shard` are kept.
nlohmann::json BadFixtureResults(const std::vector<Diagnostic>& diagnostics,
                                 const std::filesystem::path& fixtures_root, const Shard& shard,
                                 const SuiteOptions& options);

/// Adds the bad fixtures' entries to a run's results, keeping ids unique: a result of the same
/// id (a streamed twin whose id a misnamed file takes) is replaced by the bad fixture's entry,
/// which says so in an id.unique diagnostic. Sorted by id afterwards.
void AddBadFixtureResults(nlohmann::json& results, const nlohmann::json& bad);

/// Makes one driver per worker thread.
using DriverFactory = std::function<std::unique_ptr<Driver>()>;

/// Runs the cases (already filtered and sharded) and returns their index entries in the
/// order of `cases`.
nlohmann::json RunSuite(const std::vector<Case>& cases, const ClauseRegistry& registry,
                        const DriverFactory& make_driver, const SuiteOptions& options);

}  // namespace gemini_oracle::runner
