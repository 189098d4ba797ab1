#include "oracles/runner/clause_registry.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/oracles/runner/test_fixtures.h"

namespace gemini_oracle::runner {
namespace {

// The ids of the clause document, in its order: a stable contract fixtures cite.
const std::vector<std::string> kClauseIds = {
    "ADR-224.1",  "ADR-224.2",  "ADR-224.3",  "ADR-224.4",  "ADR-224.5",  "ADR-224.6",
    "ADR-224.7",  "ADR-224.8",  "ADR-224.9",  "ADR-224.10", "ADR-224.11", "ADR-224.12",
    "ADR-224.F1", "ADR-224.F2", "ADR-226.1",  "ADR-226.2",  "ADR-226.3",  "ADR-226.4",  "ADR-226.5",
    "ADR-226.6",  "ADR-226.7",  "ADR-226.8",  "ADR-226.9",  "ADR-226.10", "ADR-226.11",
    "ADR-226.12", "ADR-226.13", "ADR-226.14", "ADR-226.15", "ADR-226.16", "ADR-226.17",
    "ADR-226.18", "ADR-226.19", "ADR-226.20", "ADR-226.F1", "ADR-226.B1", "ADR-226.B2",
    "ADR-226.B3", "WIRE.1",     "WIRE.2",     "REF.B1"};

ClauseRegistry Registry() { return ClauseRegistry::Load(ClausesPath(testing::SourceRoot())); }

// Lists exactly the clause ids of the clause document, in document order.
TEST(ClauseRegistry, HasExactlyTheDocumentedIds) {
  const ClauseRegistry registry = Registry();
  std::vector<std::string> ids;
  for (const auto& clause : registry.clauses()) ids.push_back(clause.id);
  EXPECT_EQ(ids, kClauseIds);
}

// Gives every clause its ADR, a level and a one-line summary.
TEST(ClauseRegistry, EveryClauseHasAdrLevelAndSummary) {
  const ClauseRegistry registry = Registry();
  for (const auto& clause : registry.clauses()) {
    // ADR-22x.n belongs to ADR-22x; WIRE.n (Gemini's wire contract the ADRs build on) to WIRE;
    // REF.Bn (the reference implementation's own promises) to REF.
    EXPECT_EQ(clause.adr, clause.id.substr(0, clause.id.find('.'))) << clause.id;
    EXPECT_FALSE(clause.summary.empty()) << clause.id;
    EXPECT_EQ(clause.summary.find('\n'), std::string::npos) << clause.id;
  }
}

// Reports must, open and beyond levels as documented.
TEST(ClauseRegistry, LevelsMatchTheDocument) {
  const ClauseRegistry registry = Registry();
  EXPECT_EQ(registry.LevelOf("ADR-226.3"), Level::kMust);
  EXPECT_EQ(registry.LevelOf("ADR-224.F1"), Level::kOpen);
  EXPECT_EQ(registry.LevelOf("ADR-226.F1"), Level::kOpen);
  EXPECT_EQ(registry.LevelOf("ADR-226.B1"), Level::kBeyond);
  EXPECT_EQ(registry.LevelOf("ADR-226.B3"), Level::kBeyond);
  // Recording fidelity: members the ADRs do not govern gate the reference alone.
  EXPECT_EQ(registry.LevelOf("REF.B1"), Level::kBeyond);
  EXPECT_EQ(registry.LevelOf("ADR-226.21"), std::nullopt);
  EXPECT_FALSE(registry.Contains("ADR-226"));
}

// Names the profiles that judge these ADRs' own encodings, and when a check cannot run.
TEST(ClauseRegistry, ProfilesAndNotJudgedReasons) {
  const ClauseRegistry registry = Registry();
  EXPECT_EQ(registry.Find("ADR-224.4")->profiles, std::vector<std::string>{"adr"});
  EXPECT_EQ(registry.Find("ADR-224.5")->profiles, std::vector<std::string>{"adr"});
  EXPECT_TRUE(registry.Find("ADR-226.3")->profiles.empty());  // every profile
  EXPECT_FALSE(registry.Find("ADR-224.9")->not_judged_when.empty());
  EXPECT_THROW(ClauseRegistry::FromJson(Json::parse(
                   R"([{"id":"ADR-224.4","adr":"ADR-224","level":"must","summary":"s",
                        "profiles":["php"]}])")),
               std::runtime_error);
  EXPECT_THROW(ClauseRegistry::FromJson(Json::parse(
                   R"([{"id":"ADR-224.4","adr":"ADR-224","level":"must","summary":"s",
                        "profiles":[]}])")),
               std::runtime_error);
}

// Refuses a registry that lists an id twice.
TEST(ClauseRegistry, RejectsDuplicateIds) {
  const Json twice = Json::parse(R"([
    {"id": "ADR-224.1", "adr": "ADR-224", "level": "must", "summary": "a"},
    {"id": "ADR-224.1", "adr": "ADR-224", "level": "must", "summary": "b"}])");
  EXPECT_THROW(ClauseRegistry::FromJson(twice), std::runtime_error);
}

// Refuses an unknown level and an id outside its ADR.
TEST(ClauseRegistry, RejectsBadLevelAndForeignId) {
  EXPECT_THROW(ClauseRegistry::FromJson(Json::parse(
                   R"([{"id": "ADR-224.1", "adr": "ADR-224", "level": "may", "summary": "a"}])")),
               std::runtime_error);
  EXPECT_THROW(ClauseRegistry::FromJson(Json::parse(
                   R"([{"id": "ADR-226.1", "adr": "ADR-224", "level": "must", "summary": "a"}])")),
               std::runtime_error);
}

// Reads why a clause is pending or only partly reachable, and refuses an empty reason.
TEST(ClauseRegistry, PendingAndPartialCarryAReason) {
  const auto registry = ClauseRegistry::FromJson(Json::parse(R"([
    {"id": "ADR-226.18", "adr": "ADR-226", "level": "must", "summary": "a", "pending": "later"},
    {"id": "ADR-224.7", "adr": "ADR-224", "level": "must", "summary": "b", "partial": "SSE"}])"));
  EXPECT_EQ(registry.Find("ADR-226.18")->pending, "later");
  EXPECT_EQ(registry.Find("ADR-224.7")->partial, "SSE");
  EXPECT_TRUE(registry.Find("ADR-224.7")->pending.empty());
  EXPECT_THROW(ClauseRegistry::FromJson(Json::parse(
                   R"([{"id": "ADR-224.1", "adr": "ADR-224", "level": "must", "summary": "a",
                        "pending": ""}])")),
               std::runtime_error);
  // The real registry leaves no clause pending (ADR-226.18 was the last, until the state
  // stores), and ADR-224.9 and 224.12 are no longer partial.
  const auto real = Registry();
  std::vector<std::string> pending;
  for (const auto& clause : real.clauses()) {
    if (!clause.pending.empty()) pending.push_back(clause.id);
  }
  EXPECT_EQ(pending, std::vector<std::string>{});
  EXPECT_TRUE(real.Find("ADR-224.9")->partial.empty());
  EXPECT_TRUE(real.Find("ADR-224.12")->partial.empty());
}

}  // namespace
}  // namespace gemini_oracle::runner
