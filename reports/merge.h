#pragma once
// Joining the reports of one run's shards (`run --shard i/n`) into the report of the whole
// run (`gemini-oracle merge`). README.md documents the rules.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <vector>

#include "reports/report_file.h"

namespace gemini_oracle::reports {

/// Context members every shard of one run shares: shards differing in one (absent counting as
/// a value of its own) come from different runs, or judged differently, and are refused.
inline constexpr const char* kShardInvariantMembers[] = {
    "suite_version", "seed",  "tool_version", "implementation", "profile",       "strict",
    "filter",        "fault", "store",        "expectations",   "refusal_codes"};

struct MergedReport {
  nlohmann::json index;            // built with BuildIndex: the summary is recomputed
  std::size_t shard_count = 1;     // n
  std::vector<std::size_t> shards;   // the merged shard indexes, ascending
  std::vector<std::size_t> missing;  // those of 1..n no report held, ascending
};

/// Merges shard reports. Throws BadReport naming the two files and what differs: a member of
/// kShardInvariantMembers, the shard count n, context.clause_levels or json_schema_version; the
/// same shard twice; a case in two reports; a whole run (shard 1/1) merged with anything; a
/// context.shard that is not "i/n"; and naming the one file: a summary missing or differing
/// in any count from the shard's own results (cut or edited). The merged context keeps every member all shards share,
/// `shard` lists the merged shards ("1-2,4/4"), `shards` and (when any are) `missing_shards`
/// list them as numbers, `started_at` is the earliest, `bad_fixtures` the sum, `jobs` is
/// dropped. Results are sorted by id.
MergedReport MergeShards(const std::vector<LoadedReport>& reports);

}  // namespace gemini_oracle::reports
