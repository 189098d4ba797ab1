#include "oracles/runner/suite_runner.h"

#include <gtest/gtest.h>

namespace gemini_oracle::runner {
namespace {

Case MakeCase(std::string id, std::vector<std::string> clauses,
              std::vector<std::string> features = {}) {
  Case c;
  c.id = std::move(id);
  c.file = c.id + ".json";
  c.clauses = std::move(clauses);
  c.features = std::move(features);
  return c;
}

// Accepts i/n with 1 <= i <= n and nothing else.
TEST(ParseShard, AcceptsOnlyIOverN) {
  ASSERT_TRUE(ParseShard("1/1"));
  EXPECT_EQ(ParseShard("2/4")->index, 2u);
  EXPECT_EQ(ParseShard("2/4")->count, 4u);
  for (const char* bad : {"", "1", "0/2", "3/2", "1/0", "a/b", "1/2x", "-1/2", "1//2", " 1/2", "+1/2"}) {
    EXPECT_FALSE(ParseShard(bad)) << bad;
  }
}

// Puts every case in exactly one shard, by a hash of its id (stable across corpus changes).
TEST(InShard, PartitionsCases) {
  std::size_t total = 0;
  for (int i = 0; i < 200; ++i) {
    const Case c = MakeCase("adr-226/y_case_" + std::to_string(i), {"ADR-226.3"});
    int shards = 0;
    for (std::size_t s = 1; s <= 4; ++s) shards += InShard(c, Shard{s, 4}) ? 1 : 0;
    EXPECT_EQ(shards, 1) << c.id;
    total += InShard(c, Shard{1, 4}) ? 1 : 0;
  }
  EXPECT_GT(total, 20u);  // no shard is empty or holds everything
  EXPECT_LT(total, 80u);
}

// Selects by clause prefix at a boundary, by feature, or by glob over id and stem.
TEST(MatchesFilter, ClauseFeatureOrGlob) {
  const Case c = MakeCase("adr-226/y_identical_calls", {"ADR-226.10", "ADR-224.1"}, {"parallel"});
  EXPECT_TRUE(MatchesFilter(c, ""));
  EXPECT_TRUE(MatchesFilter(c, "ADR-226.10"));
  EXPECT_TRUE(MatchesFilter(c, "ADR-226"));
  EXPECT_TRUE(MatchesFilter(c, "ADR-226."));
  EXPECT_FALSE(MatchesFilter(c, "ADR-226.1"));  // not a prefix of 226.10 at a boundary
  EXPECT_TRUE(MatchesFilter(c, "ADR-224.1"));
  EXPECT_FALSE(MatchesFilter(c, "ADR-224.2"));
  EXPECT_TRUE(MatchesFilter(c, "parallel"));
  EXPECT_FALSE(MatchesFilter(c, "closing"));
  EXPECT_TRUE(MatchesFilter(c, "adr-226/*"));
  EXPECT_TRUE(MatchesFilter(c, "*identical*"));
  EXPECT_TRUE(MatchesFilter(c, "y_identical_calls"));
  EXPECT_FALSE(MatchesFilter(c, "n_*"));
}

}  // namespace
}  // namespace gemini_oracle::runner
