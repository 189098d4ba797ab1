// gemini-oracle merge: joining shard reports, the refusals, and the command end to end
// against real sharded runs.

#include "reports/merge.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "apps/gemini-oracle/commands.h"
#include "apps/gemini-oracle/report_commands.h"
#include "reports/index.h"
#include "reports/write_all.h"
#include "tests/captured_output.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::reports {
namespace {

using nlohmann::json;

json Result(const std::string& id, const std::string& verdict = "pass") {
  return {{"id", id}, {"verdict", verdict}, {"reason", ""}, {"clauses", {"ADR-226.3"}}};
}

json Context(const std::string& shard) {
  return {{"tool", "gemini-oracle"},
          {"tool_version", "0.1.0"},
          {"suite_version", "2.5.0"},
          {"seed", 7},
          {"implementation", "reference"},
          {"profile", "adr"},
          {"strict", false},
          {"filter", "ADR-226"},
          {"store", "temporary sqlite (suspending cases only)"},
          {"shard", shard},
          {"jobs", 2},
          {"case_timeout_ms", 60000},
          {"bad_fixtures", 0},
          {"started_at", "2026-01-02T03:04:05Z"},
          {"clause_levels", {{"ADR-226.3", "must"}, {"ADR-224.F1", "open"}}}};
}

LoadedReport Shard(const std::string& file, json context, json results) {
  return {file, BuildIndex(std::move(context), std::move(results))};
}

std::string MergeError(const std::vector<LoadedReport>& reports) {
  try {
    MergeShards(reports);
  } catch (const BadReport& e) {
    return e.what();
  }
  return "(merged)";
}

// What the message adds for a seed: shards run without --seed can never be merged.
std::string Hint(const std::string& key) {
  return key == "seed" ? "; run every shard with the same --seed" : "";
}

class MergeRefusesMember : public ::testing::TestWithParam<const char*> {};

// Shards differing in a member every shard of one run shares come from different runs.
TEST_P(MergeRefusesMember, NamingBothFilesAndTheMember) {
  const std::string key = GetParam();
  json second = Context("2/2");
  second[key] = "other";
  EXPECT_EQ(MergeError({Shard("a/index.json", Context("1/2"), json::array({Result("x/1")})),
                        Shard("b/index.json", second, json::array({Result("x/2")}))}),
            "a/index.json and b/index.json differ in context." + key + " (" +
                (Context("1/2").contains(key) ? Context("1/2")[key].dump() : "absent") +
                " vs \"other\")" + Hint(key));
  // Absent on one side only differs too.
  json absent = Context("2/2");
  absent.erase(key);
  json present = Context("1/2");
  present[key] = "x";
  EXPECT_EQ(MergeError({Shard("a", present, json::array()), Shard("b", absent, json::array())}),
            "a and b differ in context." + key + " (\"x\" vs absent)" + Hint(key));
}

INSTANTIATE_TEST_SUITE_P(Members, MergeRefusesMember,
                         ::testing::Values("suite_version", "seed", "tool_version",
                                           "implementation", "profile", "strict", "filter", "fault",
                                           "store", "expectations", "refusal_codes"));

// The member list the tests above walk is the one merge applies.
TEST(Merge, InvariantMembersAreTheDocumentedOnes) {
  std::vector<std::string> members(std::begin(kShardInvariantMembers),
                                   std::end(kShardInvariantMembers));
  EXPECT_EQ(members, (std::vector<std::string>{"suite_version", "seed", "tool_version",
                                               "implementation", "profile", "strict", "filter",
                                               "fault", "store", "expectations", "refusal_codes"}));
}

TEST(Merge, RefusesDifferentShardCounts) {
  EXPECT_EQ(MergeError({Shard("a", Context("1/2"), json::array()),
                        Shard("b", Context("2/3"), json::array())}),
            "a and b differ in the shard count n of context.shard (\"1/2\" vs \"2/3\")");
}

TEST(Merge, RefusesTheSameShardTwice) {
  EXPECT_EQ(MergeError({Shard("a", Context("1/3"), json::array({Result("x/1")})),
                        Shard("b", Context("2/3"), json::array({Result("x/2")})),
                        Shard("c", Context("2/3"), json::array({Result("x/3")}))}),
            "b and c are both shard 2/3");
}

TEST(Merge, RefusesACaseInTwoShards) {
  EXPECT_EQ(MergeError({Shard("a", Context("1/2"), json::array({Result("x/1"), Result("x/2")})),
                        Shard("b", Context("2/2"), json::array({Result("x/2", "fail")}))}),
            "a and b both hold case x/2");
}

// A whole run is no shard: merged with one, every case of that shard would come twice.
TEST(Merge, RefusesAWholeRun) {
  EXPECT_EQ(MergeError({Shard("a", Context("1/2"), json::array({Result("x/1")})),
                        Shard("whole", Context("1/1"), json::array({Result("x/2")}))}),
            "whole is a whole run (context.shard \"1/1\"), not a shard: it cannot be merged "
            "with a");
}

TEST(Merge, RefusesDifferentClauseLevels) {
  json second = Context("2/2");
  second["clause_levels"]["ADR-224.F1"] = "must";
  EXPECT_EQ(
      MergeError({Shard("a", Context("1/2"), json::array()), Shard("b", second, json::array())}),
      "a and b differ in context.clause_levels (ADR-224.F1: \"open\" vs \"must\")");
}

TEST(Merge, RefusesAShardThatIsNotIOfN) {
  for (const char* shard : {"1-2/4", "0/2", "3/2", "x", ""}) {
    EXPECT_EQ(MergeError({Shard("a", Context(shard), json::array())}),
              "a: context.shard \"" + std::string(shard) +
                  "\" is not i/n (the shard of one run --shard i/n)")
        << shard;
  }
  json no_shard = Context("1/2");
  no_shard.erase("shard");
  EXPECT_EQ(MergeError({Shard("a", no_shard, json::array())}),
            "a: context.shard absent is not i/n (the shard of one run --shard i/n)");
}

TEST(Merge, RefusesAnotherSchemaVersion) {
  LoadedReport old = Shard("a", Context("1/2"), json::array());
  old.index["json_schema_version"] = 1;
  EXPECT_EQ(MergeError({old}), "a: json_schema_version 1: merge joins version " +
                                   std::to_string(kJsonSchemaVersion) + " reports only");
}

// The merged index: the union of the results sorted by id, the shared context, the earliest
// start, the summed bad fixtures, no jobs, and a context member the shards do not share
// (here case_timeout_ms) left out.
TEST(Merge, MergedIndexIsTheUnion) {
  json first = Context("1/3");
  json second = Context("2/3");
  json third = Context("3/3");
  second["started_at"] = "2026-01-02T03:04:01Z";
  second["bad_fixtures"] = 2;
  third["bad_fixtures"] = 1;
  third["jobs"] = 8;
  third["case_timeout_ms"] = 1000;
  const MergedReport merged =
      MergeShards({Shard("c", third, json::array({Result("x/2", "fail")})),
                   Shard("a", first, json::array({Result("x/3"), Result("x/1", "known")})),
                   Shard("b", second, json::array({Result("x/0"), Result("x/4", "error")}))});
  json context = Context("1-3/3");
  context.erase("jobs");
  context.erase("case_timeout_ms");
  context["started_at"] = "2026-01-02T03:04:01Z";
  context["bad_fixtures"] = 3;
  context["shards"] = {1, 2, 3};
  const json expected =
      BuildIndex(context, json::array({Result("x/0"), Result("x/1", "known"), Result("x/2", "fail"),
                                       Result("x/3"), Result("x/4", "error")}));
  EXPECT_EQ(merged.index, expected);
  EXPECT_EQ(merged.index["summary"]["total"], 5);
  EXPECT_EQ(merged.shards, (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_TRUE(merged.missing.empty());
  EXPECT_EQ(merged.shard_count, 3u);
}

// Missing shards are listed: in `shard` (what is there), `shards` and `missing_shards`.
TEST(Merge, FlagsMissingShards) {
  const MergedReport merged =
      MergeShards({Shard("a", Context("1/5"), json::array({Result("x/1")})),
                   Shard("b", Context("2/5"), json::array({Result("x/2")})),
                   Shard("d", Context("4/5"), json::array({Result("x/4")}))});
  EXPECT_EQ(merged.index["context"]["shard"], "1-2,4/5");
  EXPECT_EQ(merged.index["context"]["shards"], json::parse("[1, 2, 4]"));
  EXPECT_EQ(merged.index["context"]["missing_shards"], json::parse("[3, 5]"));
  EXPECT_EQ(merged.missing, (std::vector<std::size_t>{3, 5}));
  // jobs is dropped even when every shard ran with the same number.
  EXPECT_FALSE(merged.index["context"].contains("jobs"));
  EXPECT_EQ(merged.index["context"]["case_timeout_ms"], 60000);
  // One shard alone merges too (what is missing is said).
  const MergedReport alone = MergeShards({Shard("c", Context("3/3"), json::array())});
  EXPECT_EQ(alone.index["context"]["shard"], "3/3");
  EXPECT_EQ(alone.index["context"]["missing_shards"], json::parse("[1, 2]"));
}

}  // namespace
}  // namespace gemini_oracle::reports

namespace gemini_oracle::cli {
namespace {

using gemini_oracle::testing::ReadText;
using gemini_oracle::testing::SourceRoot;
using gemini_oracle::testing::TempDir;
using nlohmann::json;

using gemini_oracle::testing::Captured;

Captured Merge(std::vector<std::filesystem::path> reports, const std::filesystem::path& dir) {
  MergeArgs args;
  args.reports = std::move(reports);
  args.report_dir = dir;
  return gemini_oracle::testing::Capture(MergeCommand, args);
}

std::string IndexText(const std::string& shard, const json& results) {
  json context = {{"implementation", "reference"}, {"seed", 7}, {"shard", shard}};
  std::ostringstream out;
  reports::WriteIndexTo(reports::BuildIndex(context, results), out);
  return out.str();
}

const json kPass = json::parse(R"([{"id": "x/1", "verdict": "pass"}])");
const json kFail = json::parse(R"([{"id": "x/2", "verdict": "fail", "reason": "r"}])");

std::string ReportsLine(const std::filesystem::path& dir) {
  return "reports: " + DisplayPath(dir) + "/{index.json,junit.xml,summary.md,summary.html}\n";
}

// Complete: the gate's status (1 when a result gates), the four reports, and run's summary
// line.
TEST(MergeCommand, CompleteMergeExitsWithTheGatesStatus) {
  TempDir in, out;
  const auto a = in.Write("a/index.json", IndexText("1/2", kPass));
  in.Write("b/index.json", IndexText("2/2", kFail));
  const Captured failing = Merge({a, in.path() / "b"}, out.path() / "merged");
  EXPECT_EQ(failing.status, kExitConformance) << failing.err;
  EXPECT_EQ(failing.err, "");
  EXPECT_EQ(failing.out, "gemini-oracle merge: shards 1, 2 of 2, 2 cases\n" +
                             ReportsLine(out.path() / "merged") +
                             "gemini-oracle: 1 passed, 1 failed, 0 skipped, 0 "
                             "implementation-defined, 0 errors (0 bad fixtures), 0 timeouts, 0 "
                             "known, 0 unexpected passes; 2 in all\n");
  for (const char* name : {"index.json", "junit.xml", "summary.md", "summary.html"}) {
    EXPECT_TRUE(std::filesystem::exists(out.path() / "merged" / name)) << name;
  }
  const json index = json::parse(ReadText(out.path() / "merged" / "index.json"));
  EXPECT_EQ(index["context"]["shard"], "1-2/2");
  EXPECT_EQ(index["results"].size(), 2u);

  in.Write("c/index.json", IndexText("2/2", json::parse(R"([{"id": "x/3", "verdict": "known"}])")));
  const Captured passing = Merge({a, in.path() / "c"}, out.path() / "merged");
  EXPECT_EQ(passing.status, 0) << passing.err;
}

// Incomplete: written, with a warning and the harness bit, so it never passes as the whole run.
TEST(MergeCommand, MissingShardsAreWrittenWithAWarningAndTheHarnessBit) {
  TempDir in, out;
  const auto a = in.Write("a.json", IndexText("1/3", kPass));
  const auto c = in.Write("c.json", IndexText("3/3", kFail));
  const Captured merged = Merge({a, c}, out.path() / "merged");
  EXPECT_EQ(merged.status, kExitHarness | kExitConformance);
  EXPECT_EQ(merged.err,
            "gemini-oracle merge: warning: shard 2 of 3 missing; the merged report is incomplete "
            "(context.missing_shards)\n");
  const json index = json::parse(ReadText(out.path() / "merged" / "index.json"));
  EXPECT_EQ(index["context"]["missing_shards"], json::parse("[2]"));
  EXPECT_EQ(index["context"]["shard"], "1,3/3");

  const Captured passing = Merge({a}, out.path() / "merged");
  EXPECT_EQ(passing.status, kExitHarness);
}

// Shards that do not belong together: exit 4, both files and the member named, nothing
// written.
TEST(MergeCommand, ConflictWritesNothing) {
  TempDir in, out;
  const auto a = in.Write("a.json", IndexText("1/2", kPass));
  json context = {{"implementation", "reference"}, {"seed", 8}, {"shard", "2/2"}};
  std::ostringstream text;
  reports::WriteIndexTo(reports::BuildIndex(context, kFail), text);
  const auto b = in.Write("b.json", text.str());
  const Captured c = Merge({a, b}, out.path() / "merged");
  EXPECT_EQ(c.status, kExitBadInput);
  EXPECT_EQ(c.err, "gemini-oracle merge: " + a.generic_string() + " and " + b.generic_string() +
                       " differ in context.seed (7 vs 8); run every shard with the same --seed\n");
  EXPECT_EQ(c.out, "");
  EXPECT_FALSE(std::filesystem::exists(out.path() / "merged"));

  const Captured broken = Merge({a, in.Write("broken.json", "{")}, out.path() / "merged");
  EXPECT_EQ(broken.status, kExitBadInput);
  EXPECT_EQ(broken.err, "gemini-oracle merge: " + (in.path() / "broken.json").generic_string() +
                            ": invalid JSON at byte 2: parse error at line 1, column 2: syntax "
                            "error while parsing object key - unexpected end of input; expected "
                            "string literal\n");
  EXPECT_FALSE(std::filesystem::exists(out.path() / "merged"));
}

// Merging into a shard's own folder would destroy that shard's report.
TEST(MergeCommand, RefusesToWriteOverAShard) {
  TempDir in;
  in.Write("a/index.json", IndexText("1/2", kPass));
  const auto b = in.Write("b/index.json", IndexText("2/2", kFail));
  const Captured c = Merge({in.path() / "a", b}, in.path() / "b");
  EXPECT_EQ(c.status, kExitBadInput);
  EXPECT_EQ(c.err, "gemini-oracle merge: --report-dir " + DisplayPath(in.path() / "b") + " holds " +
                       b.generic_string() + ", one of the shards; merge into another folder\n");
  EXPECT_EQ(ReadText(b), IndexText("2/2", kFail));
}

Captured RunShard(const std::string& shard, const std::filesystem::path& dir) {
  RunArgs args;
  args.source_root = SourceRoot();
  args.fixtures = SourceRoot() / "fixtures";
  args.report_dir = dir;
  args.filter = "ADR-226.3";
  args.shard = shard;
  args.seed = 7;
  args.jobs = 2;
  std::ostringstream out, err;
  const int status = RunCommand(args, out, err);
  return {status, out.str(), err.str()};
}

json Outcomes(const json& results) {
  json outcomes = json::array();
  for (const auto& result : results) {
    outcomes.push_back({result["id"], result["verdict"], result["reason"]});
  }
  return outcomes;
}

// A real run split in two shards and merged gives the unsharded run's cases and verdicts.
TEST(MergeCommand, MergedShardsOfARealRunEqualTheWholeRun) {
  TempDir dir;
  // Whatever the verdicts are today, the runs themselves must have worked.
  const Captured whole = RunShard("1/1", dir.path() / "whole");
  ASSERT_EQ(whole.status & kExitBadInput, 0) << whole.out << whole.err;
  const Captured one = RunShard("1/2", dir.path() / "one");
  ASSERT_EQ(one.status & kExitBadInput, 0) << one.out << one.err;
  const Captured two = RunShard("2/2", dir.path() / "two");
  ASSERT_EQ(two.status & kExitBadInput, 0) << two.out << two.err;
  const Captured merged = Merge({dir.path() / "two", dir.path() / "one"}, dir.path() / "merged");

  const json whole_index = json::parse(ReadText(dir.path() / "whole" / "index.json"));
  const json one_index = json::parse(ReadText(dir.path() / "one" / "index.json"));
  const json two_index = json::parse(ReadText(dir.path() / "two" / "index.json"));
  const json index = json::parse(ReadText(dir.path() / "merged" / "index.json"));
  // Both shards ran something, so the merge really joined two parts.
  EXPECT_GT(one_index["results"].size(), 0u);
  EXPECT_GT(two_index["results"].size(), 0u);
  EXPECT_GT(whole_index["results"].size(), 20u);
  EXPECT_EQ(Outcomes(index["results"]), Outcomes(whole_index["results"]));
  const auto& whole_results = whole_index["results"];
  const bool gates = std::any_of(whole_results.begin(), whole_results.end(),
                                 [](const json& result) { return reports::Gates(result); });
  EXPECT_EQ(merged.status, gates ? kExitConformance : 0) << merged.err;
  EXPECT_EQ(index["summary"], whole_index["summary"]);
  EXPECT_EQ(index["context"]["shard"], "1-2/2");
  json context = index["context"];
  json expected = whole_index["context"];
  for (const char* own : {"shard", "shards", "jobs", "started_at"}) {
    context.erase(own);
    expected.erase(own);
  }
  EXPECT_EQ(context, expected);
}

// Shards holding only timeouts, errors or bad fixtures exit as run does (2, 2, 4), not as a
// conformance failure.
TEST(MergeCommand, ExitsWithTheBitsRunGivesTheSameResults) {
  struct Only {
    const char* results;
    int status;
  };
  for (const Only& only :
       {Only{R"([{"id": "x/9", "verdict": "timeout", "reason": "r"}])", kExitHarness},
        Only{R"([{"id": "x/9", "verdict": "error", "reason": "r"}])", kExitHarness},
        Only{R"([{"id": "x/9", "verdict": "error", "bad_fixture": true, "reason": "r"}])",
             kExitBadInput},
        Only{R"([{"id": "x/9", "verdict": "unexpected_pass", "reason": "r"}])",
             kExitConformance}}) {
    TempDir in, out;
    const auto a = in.Write("a.json", IndexText("1/2", json::parse(only.results)));
    const auto b = in.Write("b.json", IndexText("2/2", kPass));
    const Captured merged = Merge({a, b}, out.path() / "merged");
    EXPECT_EQ(merged.status, only.status) << only.results << merged.err;
  }
}

// A real run's shards, one holding a bad fixture: merged, they exit as the shards did together.
TEST(MergeCommand, BadFixtureShardsMergeToRunsStatus) {
  TempDir fixtures, dir;
  fixtures.Write("adr-226/y_broken.json", "{");
  fixtures.Write("adr-226/n_broken_too.json", "[");
  const auto run_shard = [&](const std::string& shard) {
    RunArgs args;
    args.source_root = SourceRoot();
    args.fixtures = fixtures.path();
    args.report_dir = dir.path() / shard.substr(0, 1);
    args.shard = shard;
    args.seed = 7;
    return gemini_oracle::testing::Capture(RunCommand, args);
  };
  const Captured one = run_shard("1/2");
  const Captured two = run_shard("2/2");
  EXPECT_EQ(one.status | two.status, kExitBadInput) << one.err << two.err;
  const Captured merged = Merge({dir.path() / "1", dir.path() / "2"}, dir.path() / "merged");
  EXPECT_EQ(merged.status, one.status | two.status) << merged.err;
}

// A shard whose results no longer add up to its own summary was cut or edited: refused,
// naming the file and the count, with nothing written.
TEST(MergeCommand, RefusesAShardWhoseSummaryDisagreesWithItsResults) {
  TempDir in, out;
  const auto a = in.Write("a.json", IndexText("1/2", kPass));
  json cut = json::parse(IndexText("2/2", json::parse(R"([{"id": "x/2", "verdict": "pass"},
                                                          {"id": "x/3", "verdict": "fail"}])")));
  cut["results"].erase(1);  // the failing case is gone, the summary still counts it
  const auto b = in.Write("b.json", cut.dump());
  const Captured c = Merge({a, b}, out.path() / "merged");
  EXPECT_EQ(c.status, kExitBadInput);
  EXPECT_EQ(c.err, "gemini-oracle merge: " + b.generic_string() +
                       ": summary.total is 2 but its results count 1; the report was changed "
                       "after its run\n");
  EXPECT_FALSE(std::filesystem::exists(out.path() / "merged"));
  json edited = json::parse(IndexText("2/2", kFail));
  edited["summary"]["failed"] = 0;
  const Captured d = Merge({a, in.Write("d.json", edited.dump())}, out.path() / "merged");
  EXPECT_EQ(d.status, kExitBadInput);
  EXPECT_NE(d.err.find("summary.failed is 0 but its results count 1"), std::string::npos) << d.err;
  json bare = json::parse(IndexText("2/2", kFail));
  bare.erase("summary");
  const Captured e = Merge({a, in.Write("e.json", bare.dump())}, out.path() / "merged");
  EXPECT_EQ(e.status, kExitBadInput);
  EXPECT_NE(e.err.find("no summary object"), std::string::npos) << e.err;
}

// A shard whose result holds a value nested 100,000 deep (copying it crashed merge with
// SIGSEGV) is refused in one pass with the file, the byte and the bound.
TEST(MergeCommand, RefusesADeeplyNestedIndexWithoutCrashing) {
  TempDir in, out;
  const auto a = in.Write("a.json", IndexText("1/2", kPass));
  std::string deep = IndexText("2/2", kFail);
  const std::string verdict = R"("verdict": "fail")";
  deep.insert(deep.find(verdict) + verdict.size(), R"(, "deep": )" + std::string(100000, '[') +
                                                       std::string(100000, ']'));
  // The value starts at level 4 (index, results, result): level 1025 opens 1,022 brackets in.
  const std::size_t at = deep.find(std::string(10, '[')) + 1022;
  const auto b = in.Write("b/index.json", deep);
  const Captured c = Merge({a, in.path() / "b"}, out.path() / "merged");
  EXPECT_EQ(c.status, kExitBadInput);
  EXPECT_EQ(c.err, "gemini-oracle merge: " + b.generic_string() + ": refused at byte " +
                       std::to_string(at) +
                       ": arrays and objects nest deeper than 1024 levels, the bound of a "
                       "report file\n");
  EXPECT_FALSE(std::filesystem::exists(out.path() / "merged"));
  // Brackets inside strings do not count.
  std::string quoted = IndexText("2/2", kFail);
  quoted.insert(quoted.rfind('}'), R"(, "note": ")" + std::string(5000, '[') + "\"");
  EXPECT_EQ(Merge({a, in.Write("q.json", quoted)}, out.path() / "merged").status,
            kExitConformance);
}

// A number past a double's range (1e999; found by report_reader_fuzzer) is bad input naming
// the file and the byte, never an exception that escapes as an internal error.
TEST(MergeCommand, RefusesANumberBeyondADouble) {
  TempDir in, out;
  const auto a = in.Write("a.json", IndexText("1/2", kPass));
  std::string huge = IndexText("2/2", kFail);
  const std::string seed = R"("seed": 7)";
  const std::size_t at = huge.find(seed) + seed.size() - 1;
  huge.replace(at, 1, "1e999");
  const auto b = in.Write("b.json", huge);
  const Captured c = Merge({a, b}, out.path() / "merged");
  EXPECT_EQ(c.status, kExitBadInput);
  EXPECT_EQ(c.err, "gemini-oracle merge: " + b.generic_string() + ": invalid JSON at byte " +
                       std::to_string(at + 1) + ": a number beyond the range of a double\n");
  EXPECT_FALSE(std::filesystem::exists(out.path() / "merged"));
}

// A report file over the size bound is refused before it is read (a sparse file: no disk).
TEST(MergeCommand, RefusesAnOversizedReportUnread) {
  TempDir in, out;
  const auto a = in.Write("a.json", IndexText("1/2", kPass));
  const auto big = in.Write("big.json", "{");
  std::filesystem::resize_file(big, reports::kMaxReportBytes + 1);
  const Captured c = Merge({a, big}, out.path() / "merged");
  EXPECT_EQ(c.status, kExitBadInput);
  EXPECT_EQ(c.err, "gemini-oracle merge: " + big.generic_string() + ": " +
                       std::to_string(reports::kMaxReportBytes + 1) +
                       " bytes: a report file holds at most " +
                       std::to_string(reports::kMaxReportBytes) + " bytes\n");
}

// A folder another process writes in is refused (exit 4, the folder named) and left as it is.
TEST(MergeCommand, RefusesAFolderAnotherProcessHolds) {
  TempDir in, out;
  const auto a = in.Write("a.json", IndexText("1/2", kPass));
  const auto b = in.Write("b.json", IndexText("2/2", kFail));
  const auto dir = out.path() / "merged";
  out.Write("merged/index.json", "theirs");
  const reports::ReportDirLock held(dir);
  const Captured c = Merge({a, b}, dir);
  EXPECT_EQ(c.status, kExitBadInput);
  EXPECT_EQ(c.err, "gemini-oracle merge: --report-dir: " + dir.generic_string() +
                       ": another gemini-oracle process is writing its reports in this folder "
                       "(it holds .gemini-oracle.lock); wait for it to end or choose another "
                       "folder\n");
  EXPECT_EQ(ReadText(dir / "index.json"), "theirs");
}

// A write that fails (here a folder where summary.html's temporary file would go, which
// stops root too): exit 2, and the reports line names exactly the files that are there.
TEST(MergeCommand, AnnouncesOnlyTheFilesWritten) {
  TempDir in, out;
  const auto a = in.Write("a.json", IndexText("1/2", kPass));
  const auto b =
      in.Write("b.json", IndexText("2/2", json::parse(R"([{"id": "x/5", "verdict": "pass"}])")));
  const auto dir = out.path() / "merged";
  out.Write("merged/.summary.html.partial/blocker", "x");
  const Captured c = Merge({a, b}, dir);
  EXPECT_EQ(c.status, kExitHarness) << c.err;
  EXPECT_NE(c.err.find("summary.html: cannot write the file"), std::string::npos) << c.err;
  EXPECT_NE(c.out.find("reports: " + DisplayPath(dir) + "/{junit.xml,summary.md}\n"),
            std::string::npos)
      << c.out;
  std::vector<std::string> present;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.front() != '.') present.push_back(name);
  }
  std::sort(present.begin(), present.end());
  EXPECT_EQ(present, (std::vector<std::string>{"junit.xml", "summary.md"}));
}

}  // namespace
}  // namespace gemini_oracle::cli
