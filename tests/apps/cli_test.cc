// The CLI's contract: exit bits, file:line:column diagnostics, reports, closing line.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <regex>
#include <sstream>

#include "apps/gemini-oracle/commands.h"
#include "mutants/fingerprint.h"
#include "oracles/runner/clause_registry.h"
#include "reference_impl/store/keyring.h"
#include "reference_impl/store/state_store.h"
#include "tests/captured_output.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::cli {
namespace {

using gemini_oracle::testing::ReadText;
using gemini_oracle::testing::SourceRoot;
using gemini_oracle::testing::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kGoodCase = R"({
  "description": "Empty args replay as an empty object",
  "clauses": ["ADR-224.1"],
  "exchanges": [
    {"user": "go",
     "response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"functionCall": {"name": "f", "args": {}}}]}}]}},
     "then": {"results": [{"call": 0, "json": {"ok": true}}]}},
    {"response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "done"}]}}]}}}
  ],
  "expect": {"outcome": "accept", "requests": 2, "wire": [
    {"request": 2, "pointer": "/contents/1/parts/0/functionCall/args", "equals": {},
     "clause": "ADR-224.7"}]}
}
)";

using gemini_oracle::testing::Captured;

Captured Check(const TempDir& dir, std::vector<std::filesystem::path> paths = {}) {
  CheckArgs args;
  args.source_root = SourceRoot();
  args.fixtures = dir.path();
  args.paths = std::move(paths);
  return gemini_oracle::testing::Capture(CheckCommand, args);
}

Captured RunCli(const TempDir& dir, const std::filesystem::path& reports, RunArgs args = {}) {
  args.source_root = SourceRoot();
  args.fixtures = dir.path();
  args.report_dir = reports;
  args.seed = 7;
  return gemini_oracle::testing::Capture(RunCommand, args);
}

// Accepts a well-formed case (positive control).
TEST(CheckCommand, AcceptsAGoodCase) {
  TempDir dir;
  dir.Write("adr-224/y_good.json", kGoodCase);
  const Captured c = Check(dir);
  EXPECT_EQ(c.status, 0) << c.err;
  EXPECT_THAT(c.out, HasSubstr("1 valid case, 0 problems"));
}

struct BadFixture {
  const char* name;
  std::string text;
  const char* rule;
};

void PrintTo(const BadFixture& bad, std::ostream* os) { *os << bad.name; }

class CheckRejects : public ::testing::TestWithParam<BadFixture> {};

// Rejects each kind of bad fixture with file:line:column, the rule, and exit bit 4.
TEST_P(CheckRejects, WithFileLineColumnAndRule) {
  TempDir dir;
  dir.Write("adr-224/y_good.json", kGoodCase);
  const auto bad = dir.Write(std::string("adr-224/") + GetParam().name, GetParam().text);
  const Captured c = Check(dir);
  EXPECT_EQ(c.status, kExitBadInput);
  const std::regex line(
      std::regex_replace(bad.string(), std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
      R"(:[0-9]+:[0-9]+: .+ \[)" + GetParam().rule + R"(\])");
  EXPECT_TRUE(std::regex_search(c.err, line)) << c.err;
  EXPECT_THAT(c.out, HasSubstr("1 valid case,"));  // the good file still loads
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

INSTANTIATE_TEST_SUITE_P(
    BadFixtures, CheckRejects,
    ::testing::Values(
        BadFixture{"y_truncated.json", std::string(kGoodCase).substr(0, 120), "json.syntax"},
        BadFixture{"y_no_expect.json",
                   Replace(kGoodCase, R"("expect": {"outcome")", R"("expected": {"outcome")"),
                   "schema"},
        BadFixture{"y_repeated_member.json",
                   Replace(kGoodCase, R"("clauses": ["ADR-224.1"],)",
                           R"("clauses": ["ADR-224.1"], "clauses": ["ADR-226.3"],)"),
                   "json.duplicate_key"},
        BadFixture{"y_unknown_clause.json", Replace(kGoodCase, "ADR-224.1", "ADR-224.99"),
                   "clause.unknown"},
        BadFixture{"n_prefix_says_refuse.json", kGoodCase, "prefix.expect"},
        BadFixture{"y_should.json",
                   Replace(kGoodCase, "Empty args replay", "Empty args should replay"),
                   "description.style"}),
    [](const ::testing::TestParamInfo<BadFixture>& info) {
      std::string name = info.param.name;
      name = name.substr(0, name.find('.'));
      name.erase(std::remove(name.begin(), name.end(), '_'), name.end());
      return name;
    });

// Runs the good cases although one file is broken, never counting the broken one as a pass.
TEST(RunCommand, BadFixtureIsReportedAndTheRestRuns) {
  TempDir dir, reports;
  dir.Write("adr-224/y_good.json", kGoodCase);
  dir.Write("adr-224/y_broken.json", "{\"description\": ");
  const Captured c = RunCli(dir, reports.path());
  EXPECT_EQ(c.status, kExitBadInput) << c.out << c.err;
  EXPECT_THAT(c.err, HasSubstr("y_broken.json:1:"));
  EXPECT_THAT(c.out, HasSubstr("gemini-oracle: 1 passed, 0 failed, 0 skipped, "
                               "0 implementation-defined, 1 errors (1 bad fixtures), "
                               "0 timeouts, 0 known, 0 unexpected passes; 2 in all"));
  for (const char* file : {"index.json", "junit.xml", "summary.md", "summary.html"}) {
    EXPECT_TRUE(std::filesystem::exists(reports.path() / file)) << file;
  }
  // The bad file is in every report, with its diagnostics, as an error.
  const std::string index = ReadText(reports.path() / "index.json");
  EXPECT_THAT(index, HasSubstr("\"seed\": 7"));
  EXPECT_THAT(index, HasSubstr("\"id\": \"adr-224/y_broken\""));
  EXPECT_THAT(index, HasSubstr("\"bad_fixture\": true"));
  EXPECT_THAT(index, HasSubstr("\"rule\": \"json.syntax\""));
  const std::string junit = ReadText(reports.path() / "junit.xml");
  EXPECT_THAT(
      junit,
      HasSubstr("<testsuites name=\"gemini-oracle\" tests=\"2\" failures=\"0\" errors=\"1\""));
  EXPECT_THAT(junit, HasSubstr("y_broken.json:1:17: invalid JSON"));
  EXPECT_THAT(ReadText(reports.path() / "summary.md"), HasSubstr("1:17: invalid JSON"));
  EXPECT_THAT(ReadText(reports.path() / "summary.html"), HasSubstr("1:17: invalid JSON"));
  EXPECT_THAT(ReadText(reports.path() / "summary.md"), Not(HasSubstr("None.")));
}

// Removes the previous run's reports before running, so a run that stops early never leaves
// yesterday's green verdict behind.
TEST(RunCommand, StaleReportsAreRemovedFirst) {
  TempDir dir, reports;
  for (const char* file : {"index.json", "junit.xml", "summary.md", "summary.html"}) {
    reports.Write(file, "stale");
  }
  RunArgs filter;
  filter.filter = "ADR-226.3";  // selects nothing: the run stops before judging anything
  dir.Write("adr-224/y_good.json", kGoodCase);
  EXPECT_EQ(RunCli(dir, reports.path(), filter).status, kExitBadInput);
  for (const char* file : {"index.json", "junit.xml", "summary.md", "summary.html"}) {
    EXPECT_FALSE(std::filesystem::exists(reports.path() / file)) << file;
  }
}

// Refuses a report folder it cannot write before running any case.
TEST(RunCommand, UnwritableReportDirFailsFirst) {
  TempDir dir, reports;
  dir.Write("adr-224/y_good.json", kGoodCase);
  const auto blocker = reports.Write("file", "not a folder");
  const Captured c = RunCli(dir, blocker / "reports");
  EXPECT_EQ(c.status, kExitBadInput);
  EXPECT_THAT(c.err, HasSubstr("--report-dir"));
  EXPECT_THAT(c.out, Not(HasSubstr("cases, seed")));
}

// Keeps the request bodies of a failing case and shows where an absent pointer stops.
TEST(RunCommand, FailingCaseShowsWhatWasSent) {
  TempDir dir, reports;
  dir.Write(
      "adr-224/y_wrong_expectation.json",
      Replace(kGoodCase, R"("pointer": "/contents/1/parts/0/functionCall/args", "equals": {})",
              R"("pointer": "/contents/1/parts/0/functionCall/nothing", "equals": {})"));
  const Captured c = RunCli(dir, reports.path());
  EXPECT_EQ(c.status, kExitConformance) << c.out << c.err;
  const std::string index = ReadText(reports.path() / "index.json");
  EXPECT_THAT(index, HasSubstr("\"sent\": ["));
  EXPECT_THAT(index, HasSubstr("\"nearest_pointer\": \"/contents/1/parts/0/functionCall\""));
  EXPECT_THAT(ReadText(reports.path() / "summary.md"),
              HasSubstr("request 2: POST /v1beta/models/"));
  EXPECT_THAT(ReadText(reports.path() / "junit.xml"), HasSubstr("<system-out>request 1: POST"));
  // Passing cases keep no bodies unless asked.
  TempDir good_reports;
  dir.Write("adr-224/y_wrong_expectation.json", kGoodCase);
  EXPECT_EQ(RunCli(dir, good_reports.path()).status, 0);
  EXPECT_THAT(ReadText(good_reports.path() / "index.json"), Not(HasSubstr("\"sent\"")));
  RunArgs keep;
  keep.keep_requests = true;
  EXPECT_EQ(RunCli(dir, good_reports.path(), keep).status, 0);
  EXPECT_THAT(ReadText(good_reports.path() / "index.json"), HasSubstr("\"sent\""));
}

// Runs an empty shard as a success (more shards than cases is a valid CI matrix).
TEST(RunCommand, EmptyShardSucceeds) {
  TempDir dir, reports;
  dir.Write("adr-224/y_good.json", kGoodCase);
  int empty_shards = 0;
  for (std::size_t i = 1; i <= 8; ++i) {
    RunArgs shard;
    shard.shard = std::to_string(i) + "/8";
    const Captured c = RunCli(dir, reports.path(), shard);
    EXPECT_EQ(c.status, 0) << c.err;
    if (c.out.find("holds none of the 1 selected cases") != std::string::npos) ++empty_shards;
  }
  EXPECT_EQ(empty_shards, 7);
}

// Checks every case under a folder given as a path.
TEST(CheckCommand, FolderArgumentChecksItsCases) {
  TempDir dir;
  dir.Write("adr-224/y_good.json", kGoodCase);
  dir.Write("adr-224/y_broken.json", "[");
  const Captured c = Check(dir, {dir.path() / "adr-224"});
  EXPECT_EQ(c.status, kExitBadInput);
  EXPECT_THAT(c.out, HasSubstr("1 valid case, 1 problem"));
  EXPECT_THAT(c.err, HasSubstr("y_broken.json:1:2"));
}

// Prints a fixture whose name holds an ESC sequence and a newline escaped, one line per
// problem, in `check` and in `run` (where the case id is the name too).
TEST(CheckCommand, HostileFileNamesAreEscaped) {
  TempDir dir, reports;
  dir.Write("adr-224/y_good.json", kGoodCase);
  dir.Write("adr-224/y_a\x1b[2J\x1b]0;title\x07\nb.json", "[");
  const Captured c = Check(dir);
  EXPECT_EQ(c.status, kExitBadInput);
  // Two problems (the name is not portable, the text is not JSON), so two lines.
  EXPECT_THAT(c.out, HasSubstr("1 valid case, 2 problems"));
  EXPECT_THAT(c.err, HasSubstr("y_a\\x1b[2J\\x1b]0;title\\x07\\x0ab.json:1:2: "));
  EXPECT_EQ(c.err.find('\x1b'), std::string::npos) << c.err;
  EXPECT_EQ(std::count(c.err.begin(), c.err.end(), '\n'), 2) << c.err;
  const Captured r = RunCli(dir, reports.path());
  EXPECT_EQ(r.status, kExitBadInput) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("y_a\\x1b[2J\\x1b]0;title\\x07\\x0ab"));
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
}

// Says why it exits 4: the bad fixtures are listed.
TEST(ClausesCommand, BadFixturesAreNamed) {
  TempDir dir;
  dir.Write("adr-224/y_good.json", kGoodCase);
  dir.Write("adr-224/y_broken.json", "[");
  ClausesArgs args;
  args.source_root = SourceRoot();
  args.fixtures = dir.path();
  args.mutants_report = dir.path() / "no-mutants.json";
  std::ostringstream out, err;
  EXPECT_EQ(ClausesCommand(args, out, err) & kExitBadInput, kExitBadInput);
  EXPECT_THAT(err.str(), HasSubstr("y_broken.json:1:2"));
  EXPECT_THAT(err.str(), HasSubstr("1 problem(s) in the fixtures"));
}

// Fails with exit bit 1 when the wire contradicts a case's literal assertion (negative control).
TEST(RunCommand, WireViolationFailsTheGate) {
  TempDir dir, reports;
  dir.Write("adr-224/y_wrong_expectation.json",
            Replace(kGoodCase, R"("equals": {})", R"("equals": [])"));
  const Captured c = RunCli(dir, reports.path());
  EXPECT_EQ(c.status, kExitConformance) << c.out << c.err;
  EXPECT_THAT(c.out, HasSubstr("0 passed, 1 failed"));
  EXPECT_THAT(c.err, HasSubstr("wire-violation"));
}

// --expect: a listed failure is `known` and does not gate; a listed case that passes is an
// `unexpected_pass` that gates; the reason and link reach the index.
TEST(RunCommand, ExpectationsTurnListedFailuresKnownAndListedPassesUnexpected) {
  TempDir dir, reports, lists;
  dir.Write("adr-224/y_good.json", kGoodCase);
  dir.Write("adr-224/y_wrong_expectation.json",
            Replace(kGoodCase, R"("equals": {})", R"("equals": [])"));
  RunArgs args;
  args.twins = false;
  args.expect = lists.Write("known.json", R"({"implementation": "example", "known": [
    {"id": "adr-224/y_wrong_expectation", "reason": "sends a list", "link": "https://example.invalid/1"}]})");
  Captured c = RunCli(dir, reports.path(), args);
  EXPECT_EQ(c.status, 0) << c.out << c.err;
  EXPECT_THAT(c.out, HasSubstr("1 passed, 0 failed"));
  EXPECT_THAT(c.out, HasSubstr("1 known, 0 unexpected passes"));
  const auto index = nlohmann::json::parse(ReadText(reports.path() / "index.json"));
  const auto& known = index["results"][1];
  EXPECT_EQ(known["id"], "adr-224/y_wrong_expectation");
  EXPECT_EQ(known["verdict"], "known");
  EXPECT_EQ(known["known_failure"]["verdict"], "fail");
  EXPECT_EQ(known["known_failure"]["link"], "https://example.invalid/1");
  EXPECT_EQ(index["context"]["expectations"]["listed"], 1);

  // Named causes: the entry's reason is their texts, and each reaches the index with its key.
  args.expect = lists.Write("causes.json", R"({"implementation": "example",
    "causes": {"list-args": {"text": "sends a list: ADR-224.1.", "link": "https://example.invalid/2"},
               "no-ids": {"text": "drops ids: ADR-226.3."}},
    "known": [{"id": "adr-224/y_wrong_expectation", "causes": ["list-args", "no-ids"]}]})");
  c = RunCli(dir, reports.path(), args);
  EXPECT_EQ(c.status, 0) << c.out << c.err;
  const auto with_causes = nlohmann::json::parse(ReadText(reports.path() / "index.json"));
  const auto& failure = with_causes["results"][1]["known_failure"];
  EXPECT_EQ(failure["reason"], "sends a list: ADR-224.1. drops ids: ADR-226.3.");
  EXPECT_EQ(failure["link"], "https://example.invalid/2");
  ASSERT_EQ(failure["causes"].size(), 2u);
  EXPECT_EQ(failure["causes"][0]["key"], "list-args");
  EXPECT_EQ(failure["causes"][1]["text"], "drops ids: ADR-226.3.");

  args.expect = lists.Write("stale.json", R"({"known": [
    {"id": "adr-224/y_good", "reason": "used to fail"}]})");
  c = RunCli(dir, reports.path(), args);
  EXPECT_EQ(c.status, kExitConformance) << c.out << c.err;
  EXPECT_THAT(c.out, HasSubstr("1 unexpected passes"));
  EXPECT_THAT(ReadText(reports.path() / "junit.xml"), HasSubstr("type=\"unexpected_pass\""));

  // An i_ case listed that no longer fails (implementation_defined: nothing judged of it
  // failed) is as stale as a listed pass.
  TempDir open_dir;
  open_dir.Write("adr-224/i_open.json", R"({
  "description": "Either reading is allowed",
  "clauses": ["ADR-224.1"],
  "rationale": "The ADRs leave this open.",
  "exchanges": [
    {"user": "go",
     "response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "done"}]}}]}}}
  ],
  "expect": {"outcome": "implementation_defined", "note": "either reading"}
})");
  args.expect = lists.Write("stale_open.json", R"({"known": [
    {"id": "adr-224/i_open", "reason": "used to fail"}]})");
  c = RunCli(open_dir, reports.path(), args);
  EXPECT_EQ(c.status, kExitConformance) << c.out << c.err;
  EXPECT_THAT(c.out, HasSubstr("1 unexpected passes"));
}

// --expect refuses, before running anything, a file naming a case the corpus lacks, a
// malformed one and an entry without a reason, each with file:line:column and rule.
TEST(RunCommand, BadExpectationsFileStopsTheRun) {
  TempDir dir, reports, lists;
  dir.Write("adr-224/y_good.json", kGoodCase);
  const struct {
    const char* text;
    const char* rule;
  } bad[] = {
      {R"({"known": [{"id": "adr-224/y_gone", "reason": "r"}]})", "expect.unknown_case"},
      {"{\"known\": [\n  {\"id\": }]}", "expect.json"},
      {R"({"known": [{"id": "adr-224/y_good"}]})", "expect.reason"},
      {R"({"known": [{"id": "adr-224/y_good", "reason": "r"}, {"id": "adr-224/y_good", "reason": "r"}]})",
       "expect.duplicate"},
      {R"({"known": [], "extra": 1})", "expect.member"},
      {R"({"causes": {"a": {"text": "t"}}, "known": [{"id": "adr-224/y_good", "causes": ["b"]}]})",
       "expect.cause_key"},
      {R"({"causes": {"a": {"text": "t"}, "b": {"text": "u"}},
           "known": [{"id": "adr-224/y_good", "causes": ["a"]}]})",
       "expect.unused_cause"},
      {R"({"causes": {"a": {"text": "t"}},
           "known": [{"id": "adr-224/y_good", "causes": ["a"], "reason": "r"}]})",
       "expect.reason"},
      {R"({"causes": {"A b": {"text": "t"}}, "known": []})", "expect.cause_key"},
      {R"({"causes": {"a": {}}, "known": [{"id": "adr-224/y_good", "causes": ["a"]}]})",
       "expect.reason"},
  };
  for (const auto& b : bad) {
    RunArgs args;
    args.expect = lists.Write("bad.json", b.text);
    const Captured c = RunCli(dir, reports.path(), args);
    EXPECT_EQ(c.status, kExitBadInput) << b.text;
    EXPECT_THAT(c.err, HasSubstr("bad.json:")) << b.text;
    EXPECT_THAT(c.err, HasSubstr(b.rule)) << c.err;
    EXPECT_THAT(c.out, Not(HasSubstr("passed"))) << "nothing runs: " << c.out;
  }
}

// Without --shard, the shard a test runner names (TEST_SHARD_INDEX is 0-based) is run and its
// status file written; a half-set or out-of-range pair is refused.
TEST(RunCommand, ShardFromTestRunnerVariables) {
  TempDir dir, reports, status_dir;
  dir.Write("adr-224/y_good.json", kGoodCase);
  const auto status_file = status_dir.path() / "shard-status";
  setenv("TEST_SHARD_INDEX", "1", 1);
  setenv("TEST_TOTAL_SHARDS", "3", 1);
  setenv("TEST_SHARD_STATUS_FILE", status_file.c_str(), 1);
  Captured c = RunCli(dir, reports.path());
  EXPECT_EQ(c.status, 0) << c.err;
  EXPECT_THAT(c.out, HasSubstr("shard 2/3 (TEST_SHARD_INDEX/TEST_TOTAL_SHARDS)"));
  EXPECT_TRUE(std::filesystem::exists(status_file));
  EXPECT_EQ(nlohmann::json::parse(ReadText(reports.path() / "index.json"))["context"]["shard"],
            "2/3");
  RunArgs explicit_shard;
  explicit_shard.shard = "1/1";
  c = RunCli(dir, reports.path(), explicit_shard);
  EXPECT_THAT(c.out, HasSubstr("shard 1/1\n")) << "--shard wins over the variables";
  setenv("TEST_SHARD_INDEX", "3", 1);
  EXPECT_EQ(RunCli(dir, reports.path()).status, kExitBadInput);
  unsetenv("TEST_SHARD_INDEX");
  c = RunCli(dir, reports.path());
  EXPECT_EQ(c.status, kExitBadInput);
  EXPECT_THAT(c.err, HasSubstr("TEST_SHARD_INDEX and TEST_TOTAL_SHARDS must both be set"));
  unsetenv("TEST_TOTAL_SHARDS");
  unsetenv("TEST_SHARD_STATUS_FILE");
  EXPECT_EQ(RunCli(dir, reports.path()).status, 0);
}

// --error-map is for a driver: refused with the built-in implementation, and a map whose
// target is no catalogue code stops the run with file:line:column and rule.
TEST(RunCommand, ErrorMapUsageAndBadMapsAreBadInput) {
  TempDir dir, reports, lists;
  dir.Write("adr-224/y_good.json", kGoodCase);
  RunArgs builtin;
  builtin.error_map = lists.Write("map.json", R"({"map": {"ValueError": "native_id.duplicate"}})");
  Captured c = RunCli(dir, reports.path(), builtin);
  EXPECT_EQ(c.status, kExitBadInput);
  EXPECT_THAT(c.err, HasSubstr("--error-map is for a driver"));
  RunArgs driver;
  driver.impl = "python3 " + (SourceRoot() / "drivers" / "examples" / "minimal_driver.py").string();
  driver.error_map =
      lists.Write("bad-map.json", "{\"map\": {\n  \"ValueError\": \"no.such_code\"}}");
  c = RunCli(dir, reports.path(), driver);
  EXPECT_EQ(c.status, kExitBadInput) << c.out << c.err;
  EXPECT_THAT(c.err, HasSubstr("bad-map.json:2:"));
  EXPECT_THAT(c.err, HasSubstr("error_map.unknown_code"));
}

// Refuses a malformed --shard and a selection that leaves nothing to check.
TEST(RunCommand, UsageErrorsAreBadInput) {
  TempDir dir, reports;
  dir.Write("adr-224/y_good.json", kGoodCase);
  RunArgs shard;
  shard.shard = "3/2";
  EXPECT_EQ(RunCli(dir, reports.path(), shard).status, kExitBadInput);
  RunArgs filter;
  filter.filter = "ADR-226.3";
  const Captured c = RunCli(dir, reports.path(), filter);
  EXPECT_EQ(c.status, kExitBadInput);
  EXPECT_THAT(c.err, HasSubstr("--filter 'ADR-226.3' selects none of the 1 cases"));
  RunArgs every;
  every.filter = "ADR-";
  EXPECT_EQ(RunCli(dir, reports.path(), every).status, 0);
}

// A fault this build has no point for is refused, never run as a silent baseline (in the
// default build every fault is unknown; in the mutants build a made-up id is).
TEST(RunCommand, UnknownFaultIsBadInput) {
  TempDir dir, reports;
  dir.Write("adr-224/y_good.json", kGoodCase);
  RunArgs args;
  args.fault = "builder.no_such_fault";
  const Captured c = RunCli(dir, reports.path(), args);
  EXPECT_EQ(c.status, kExitBadInput) << c.out << c.err;
  EXPECT_THAT(c.err, HasSubstr("--fault: "));
  EXPECT_THAT(c.out, ::testing::Not(HasSubstr("passed")));
}

// Runs with --store: every conversation goes through the encrypted SQLite file, the index
// names the store (never a secret), and the file holds one sealed row per conversation.
TEST(RunCommand, StoreSuspendsEveryConversation) {
  TempDir dir, reports, state;
  dir.Write("adr-224/y_good.json", kGoodCase);
  const std::filesystem::path key =
      state.WritePrivate("state.key", "# test key\n" + std::string(64, 'a') + "\n");
  RunArgs args;
  args.store = "sqlite:" + (state.path() / "s.sqlite3").string();
  args.store_key_file = key;
  const Captured c = RunCli(dir, reports.path(), args);
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  const auto index = nlohmann::json::parse(ReadText(reports.path() / "index.json"));
  EXPECT_EQ(index["context"]["store"], args.store);
  StoreArgs info{"info", args.store, key};
  std::ostringstream out, err;
  ASSERT_EQ(StoreCommand(info, out, err), 0) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("1 conversation, 1 sealed under the current key"));
}

// Bad store settings stop the run before any case, with the code and exit 4; a password in
// the URL is refused and never echoed.
TEST(RunCommand, BadStoreSettingsAreBadInput) {
  TempDir dir, reports, state;
  dir.Write("adr-224/y_good.json", kGoodCase);
  for (const std::string& url : {std::string("postgres://x/y"), std::string("sqlite:"),
                                 std::string("mariadb://user:s3cr3t-pw@127.0.0.1:3306/db")}) {
    RunArgs args;
    args.store = url;
    const Captured c = RunCli(dir, reports.path(), args);
    EXPECT_EQ(c.status, kExitBadInput) << url << c.out << c.err;
    EXPECT_THAT(c.err, HasSubstr("[store.url_malformed]")) << url;
    EXPECT_THAT(c.out + c.err, ::testing::Not(HasSubstr("s3cr3t-pw")));
  }
  RunArgs bad_key;
  bad_key.store = "sqlite:" + (state.path() / "s.sqlite3").string();
  bad_key.store_key_file = state.WritePrivate("bad.key", "not-a-key-SENTINEL\n");
  const Captured c = RunCli(dir, reports.path(), bad_key);
  EXPECT_EQ(c.status, kExitBadInput) << c.out << c.err;
  EXPECT_THAT(c.err, HasSubstr("[store.key_malformed]"));
  EXPECT_THAT(c.err, ::testing::Not(HasSubstr("SENTINEL")));
}

// keygen prints a key line; rekey re-seals rows under the first key of a rotated key file,
// after which the old key alone no longer opens them.
TEST(StoreCommand, KeygenAndRekeyRotateKeys) {
  TempDir state;
  std::ostringstream k1, k2, err;
  ASSERT_EQ(StoreCommand(StoreArgs{"keygen", "", ""}, k1, err), 0);
  ASSERT_EQ(StoreCommand(StoreArgs{"keygen", "", ""}, k2, err), 0);
  EXPECT_THAT(k1.str(), ::testing::MatchesRegex("# key id [0-9a-f]{16}\n[0-9a-f]{64}\n"));
  EXPECT_NE(k1.str(), k2.str());
  const auto old_key = state.WritePrivate("old.key", k1.str());
  const auto rotated = state.WritePrivate("rotated.key", k2.str() + k1.str());
  const auto new_only = state.WritePrivate("new.key", k2.str());
  // One conversation sealed under the old key, by a run.
  TempDir dir, reports;
  dir.Write("adr-224/y_good.json", kGoodCase);
  RunArgs args;
  args.store = "sqlite:" + (state.path() / "s.sqlite3").string();
  args.store_key_file = old_key;
  ASSERT_EQ(RunCli(dir, reports.path(), args).status, 0);
  std::ostringstream out, info_err;
  EXPECT_EQ(StoreCommand(StoreArgs{"rekey", args.store, rotated}, out, err), 0) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("1 conversation re-encrypted"));
  std::ostringstream info;
  EXPECT_EQ(StoreCommand(StoreArgs{"info", args.store, new_only}, info, info_err), 0);
  EXPECT_THAT(info.str(), HasSubstr("1 sealed under the current key"));
  std::ostringstream none;
  EXPECT_EQ(StoreCommand(StoreArgs{"rekey", "", rotated}, none, info_err), kExitBadInput);
  // A key file without the row's key: the row stays as it is, named with its code, and the
  // command fails so that the old key is not retired.
  std::ostringstream k3, lost_out, lost_err;
  ASSERT_EQ(StoreCommand(StoreArgs{"keygen", "", ""}, k3, err), 0);
  const auto unrelated = state.WritePrivate("unrelated.key", k3.str());
  EXPECT_EQ(StoreCommand(StoreArgs{"rekey", args.store, unrelated}, lost_out, lost_err),
            kExitBadInput);
  EXPECT_THAT(lost_out.str(), HasSubstr("0 conversations re-encrypted"));
  EXPECT_THAT(lost_err.str(), HasSubstr("left under its old key [store.wrong_key]"));
  std::ostringstream still;
  EXPECT_EQ(StoreCommand(StoreArgs{"info", args.store, new_only}, still, info_err), 0);
  EXPECT_THAT(still.str(), HasSubstr("1 sealed under the current key"));
}

// keygen --out creates a key file with mode 600 that rekey and info accept, prints its id and
// never the key, and never replaces a file; --out with another action is a usage error.
TEST(StoreCommand, KeygenWritesAPrivateKeyFile) {
  TempDir state;
  const auto file = state.path() / "state.key";
  StoreArgs keygen{"keygen", "", ""};
  keygen.out = file;
  std::ostringstream out, err;
  ASSERT_EQ(StoreCommand(keygen, out, err), 0) << err.str();
  EXPECT_EQ(std::filesystem::status(file).permissions(),
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  const std::string written = ReadText(file);
  EXPECT_THAT(written, ::testing::MatchesRegex("# key id [0-9a-f]{16}\n[0-9a-f]{64}\n"));
  EXPECT_THAT(out.str(), HasSubstr("key " + written.substr(9, 16) + " written to "));
  EXPECT_EQ(out.str().find(written.substr(26, 64)), std::string::npos);
  std::ostringstream again_out, again_err;
  EXPECT_EQ(StoreCommand(keygen, again_out, again_err), kExitBadInput);
  EXPECT_THAT(again_err.str(), HasSubstr("never replaced"));
  EXPECT_EQ(ReadText(file), written);
  const std::string url = "sqlite:" + (state.path() / "s.sqlite3").string();
  ref::OpenStateStore(url, ref::Keyring::FromFile(file))->Suspend("c", ref::ConversationState{}, 0);
  StoreArgs info{"info", url, file};
  std::ostringstream info_out, info_err;
  EXPECT_EQ(StoreCommand(info, info_out, info_err), 0) << info_err.str();
  info.out = state.path() / "other.key";
  EXPECT_EQ(StoreCommand(info, info_out, info_err), kExitBadInput);
  EXPECT_FALSE(std::filesystem::exists(info.out));
}

// A key file others may write is refused by every store command, naming it and its mode.
TEST(StoreCommand, KeyFileOthersMayWriteIsRefused) {
  TempDir state;
  std::ostringstream key, err;
  ASSERT_EQ(StoreCommand(StoreArgs{"keygen", "", ""}, key, err), 0);
  const auto key_file = state.Write("open.key", key.str());
  std::filesystem::permissions(key_file, static_cast<std::filesystem::perms>(0664));
  const std::string url = "sqlite:" + (state.path() / "s.sqlite3").string();
  std::ostringstream out, info_err;
  EXPECT_EQ(StoreCommand(StoreArgs{"info", url, key_file}, out, info_err), kExitBadInput);
  EXPECT_THAT(info_err.str(), HasSubstr("[store.key_exposed]"));
  EXPECT_THAT(info_err.str(), HasSubstr(key_file.string() + ", mode 0664"));
  TempDir dir, reports;
  dir.Write("adr-224/y_good.json", kGoodCase);
  RunArgs args;
  args.store = url;
  args.store_key_file = key_file;
  const Captured c = RunCli(dir, reports.path(), args);
  EXPECT_EQ(c.status, kExitBadInput) << c.out << c.err;
  EXPECT_THAT(c.err, HasSubstr("[store.key_exposed]"));
}

// A conversation left under its old key is named so that an operator can read and paste it:
// quoted, with bytes outside printable ASCII, the quote and the backslash as \xNN.
TEST(StoreCommand, RekeyNamesLeftConversationsPrintably) {
  TempDir state;
  std::ostringstream k1, k2, err;
  ASSERT_EQ(StoreCommand(StoreArgs{"keygen", "", ""}, k1, err), 0);
  ASSERT_EQ(StoreCommand(StoreArgs{"keygen", "", ""}, k2, err), 0);
  const auto other = state.WritePrivate("other.key", k2.str());
  const std::string url = "sqlite:" + (state.path() / "s.sqlite3").string();
  const std::string id = std::string("a\xff\"b\\c\n\0d", 9);
  ref::OpenStateStore(url, ref::Keyring::FromFile(state.WritePrivate("k1.key", k1.str())))
      ->Suspend(id, ref::ConversationState{}, 0);
  std::ostringstream out, rekey_err;
  EXPECT_EQ(StoreCommand(StoreArgs{"rekey", url, other}, out, rekey_err), kExitBadInput);
  EXPECT_THAT(rekey_err.str(),
              HasSubstr(R"(conversation "a\xff\x22b\x5cc\x0a\x00d" left under its old key)"))
      << rekey_err.str();
  EXPECT_EQ(rekey_err.str().find('\xff'), std::string::npos);
}

// info and rekey never create a store: a mistyped path is bad input, and no file appears.
TEST(StoreCommand, MissingSqliteStoreIsNotCreated) {
  TempDir state;
  std::ostringstream key, err;
  ASSERT_EQ(StoreCommand(StoreArgs{"keygen", "", ""}, key, err), 0);
  const auto key_file = state.WritePrivate("k.key", key.str());
  const auto missing = state.path() / "typo.sqlite3";
  for (const std::string action : {"info", "rekey"}) {
    std::ostringstream out, action_err;
    EXPECT_EQ(
        StoreCommand(StoreArgs{action, "sqlite:" + missing.string(), key_file}, out, action_err),
        kExitBadInput);
    EXPECT_THAT(action_err.str(), HasSubstr("[store.not_found]"));
    EXPECT_THAT(action_err.str(), HasSubstr("never creates a store"));
    EXPECT_FALSE(std::filesystem::exists(missing));
  }
}

// Nor do they turn another application's SQLite database into one: refused, and the file's
// bytes (journal mode included) stay as they were, with no WAL file beside it.
TEST(StoreCommand, ForeignSqliteDatabaseIsLeftAsItWas) {
  TempDir state;
  std::ostringstream key, err;
  ASSERT_EQ(StoreCommand(StoreArgs{"keygen", "", ""}, key, err), 0);
  const auto key_file = state.WritePrivate("k.key", key.str());
  const auto foreign = state.path() / "app.sqlite3";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(foreign.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE app_users (name TEXT)", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  const std::string before = ReadText(foreign);
  for (const std::string action : {"info", "rekey"}) {
    std::ostringstream out, action_err;
    EXPECT_EQ(
        StoreCommand(StoreArgs{action, "sqlite:" + foreign.string(), key_file}, out, action_err),
        kExitBadInput);
    EXPECT_THAT(action_err.str(), HasSubstr("[store.not_found]"));
  }
  EXPECT_TRUE(ReadText(foreign) == before);
  EXPECT_FALSE(std::filesystem::exists(foreign.string() + "-wal"));
}

// Flags a must-clause without a case and exits nonzero.
TEST(ClausesCommand, FlagsUncoveredMustClauses) {
  TempDir dir;
  dir.Write("adr-224/y_good.json", kGoodCase);
  ClausesArgs args;
  args.source_root = SourceRoot();
  args.fixtures = dir.path();
  args.mutants_report = dir.path() / "no-mutants.json";
  std::ostringstream out, err;
  EXPECT_EQ(ClausesCommand(args, out, err), kExitConformance);
  EXPECT_THAT(err.str(), HasSubstr("must-clause ADR-226.3 has no case"));
  EXPECT_THAT(out.str(), HasSubstr("| ADR-224.1 | must | 1 |"));
}

// Covers every must-clause of the real corpus (pending ones say why).
TEST(ClausesCommand, RealCorpusCoversEveryMustClause) {
  TempDir dir;
  ClausesArgs args;
  args.source_root = SourceRoot();
  args.fixtures = SourceRoot() / "fixtures";
  args.mutants_report = dir.path() / "no-mutants.json";
  std::ostringstream out, err;
  EXPECT_EQ(ClausesCommand(args, out, err), 0) << err.str();
  // Without a mutation report the faults shown are the catalogued ones, unconfirmed.
  EXPECT_THAT(out.str(), HasSubstr("(not run)"));
  EXPECT_THAT(err.str(), HasSubstr("faults not confirmed"));
}

// Lists the beyond clauses, which gate the reference alone, in a table of their own after the
// ADRs' clauses; REF.B1 counts the cases pinning members outside `contents`, whatever they cite.
TEST(ClausesCommand, ListsBeyondClausesApart) {
  TempDir dir;
  ClausesArgs args;
  args.source_root = SourceRoot();
  args.fixtures = SourceRoot() / "fixtures";
  args.mutants_report = dir.path() / "no-mutants.json";
  std::ostringstream out, err;
  ClausesCommand(args, out, err);
  const std::string text = out.str();
  const auto apart = text.find("Beyond the ADRs");
  ASSERT_NE(apart, std::string::npos) << text;
  EXPECT_GT(text.find("| REF.B1 | beyond |"), apart);
  EXPECT_GT(text.find("| ADR-226.B1 | beyond |"), apart);
  EXPECT_LT(text.find("| ADR-224.12 | must |"), apart);
  EXPECT_EQ(text.find("| REF.B1 | beyond | 0 |"), std::string::npos) << "REF.B1 counts no case";
  std::ostringstream json_out, json_err;
  args.json = true;
  ClausesCommand(args, json_out, json_err);
  for (const auto& row : nlohmann::json::parse(json_out.str())) {
    if (row["id"] == "REF.B1") {
      EXPECT_EQ(row["gates"], "reference");
    } else if (row["id"] == "ADR-224.1") {
      EXPECT_EQ(row["gates"], "all");
    }
  }
}

// A mutation report (Stryker format) whose killed faults prove every must-clause but one.
std::string MutationReport(const std::string& fingerprint, const std::string& left_out) {
  const auto registry = runner::ClauseRegistry::Load(runner::ClausesPath(SourceRoot()));
  nlohmann::json mutants = nlohmann::json::array();
  for (const auto& clause : registry.clauses()) {
    if (clause.level != runner::Level::kMust || clause.id == left_out) continue;
    mutants.push_back({{"id", "builder.proves_" + clause.id},
                       {"status", "Killed"},
                       {"provenClauses", {clause.id}},
                       {"killingClauses", {clause.id}},
                       {"findingClauses", {clause.id}}});
  }
  mutants.push_back({{"id", "builder.survivor"},
                     {"status", "Survived"},
                     {"provenClauses", {left_out}},
                     {"killingClauses", nlohmann::json::array()}});
  nlohmann::json report = {
      {"schemaVersion", "2"},
      {"files", {{"reference_impl/request_builder.cc", {{"mutants", mutants}}}}},
      {"config", {{"fingerprint", fingerprint}, {"whole_catalogue", true}, {"stop_reason", ""}}}};
  return report.dump();
}

// Shows the faults that prove each clause and fails on a must-clause no killed fault proves.
TEST(ClausesCommand, MutationReportProvesClauses) {
  TempDir dir;
  ClausesArgs args;
  args.source_root = SourceRoot();
  args.fixtures = SourceRoot() / "fixtures";
  args.mutants_report = dir.Write(
      "mutants.json",
      MutationReport(mutants::SourceFingerprint(SourceRoot(), SourceRoot() / "fixtures",
                                                SourceRoot() / "mutants" / "catalogue.json"),
                     "ADR-226.3"));
  std::ostringstream out, err;
  EXPECT_EQ(ClausesCommand(args, out, err), kExitConformance) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("builder.proves_ADR-224.1*"));
  EXPECT_THAT(out.str(), HasSubstr("UNPROVEN"));
  EXPECT_THAT(err.str(), HasSubstr("must-clause ADR-226.3 is proven by no killed fault"));
  // A survivor proves nothing, and a pending clause is named as such, not as unproven.
  EXPECT_THAT(out.str(), ::testing::Not(HasSubstr("builder.survivor")));
  EXPECT_THAT(err.str(), ::testing::Not(HasSubstr("ADR-226.18 is proven by no")));

  std::ostringstream json_out, json_err;
  args.json = true;
  ClausesCommand(args, json_out, json_err);
  const auto table = nlohmann::json::parse(json_out.str());
  for (const auto& row : table) {
    if (row["id"] == "ADR-226.3") {
      EXPECT_EQ(row["proof"], "unproven");
    }
    if (row["id"] == "ADR-224.1") {
      EXPECT_EQ(row["proof"], "proven");
    }
  }
}

// A report made from other sources proves nothing: it is named stale and its proofs are not
// shown; found at the default place it is a note, named with --mutants it is an error.
TEST(ClausesCommand, StaleMutationReportIsNotUsed) {
  TempDir dir;
  ClausesArgs args;
  args.source_root = SourceRoot();
  args.fixtures = SourceRoot() / "fixtures";
  args.mutants_report = dir.Write("mutants.json", MutationReport("0000000000000000", "ADR-226.3"));
  std::ostringstream out, err;
  EXPECT_EQ(ClausesCommand(args, out, err), 0) << err.str();
  EXPECT_THAT(err.str(), HasSubstr("stale"));
  EXPECT_THAT(out.str(), ::testing::Not(HasSubstr("UNPROVEN")));
  args.mutants_report_given = true;
  std::ostringstream named_out, named_err;
  EXPECT_EQ(ClausesCommand(args, named_out, named_err), kExitBadInput) << named_err.str();
  args.mutants_report = dir.path() / "missing.json";
  std::ostringstream missing_out, missing_err;
  EXPECT_EQ(ClausesCommand(args, missing_out, missing_err), kExitBadInput);
  EXPECT_THAT(missing_err.str(), HasSubstr("no mutation report"));
}

// Gives a case whose answer never comes in time the timeout verdict, cancels it promptly
// and runs the rest (the per-case limit, with the real reference driver and server).
TEST(RunCommand, SlowCaseTimesOutAndTheRunGoesOn) {
  TempDir dir, reports;
  dir.Write("adr-224/y_good.json", kGoodCase);
  dir.Write("adr-224/y_slow.json", Replace(kGoodCase, R"("response": {"body")",
                                           R"("response": {"delay_ms": 20000, "body")"));
  RunArgs args;
  args.case_timeout = std::chrono::seconds(1);
  args.jobs = 2;
  const auto started = std::chrono::steady_clock::now();
  const Captured c = RunCli(dir, reports.path(), args);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(60));
  EXPECT_EQ(c.status, kExitHarness) << c.out << c.err;
  EXPECT_THAT(c.out, HasSubstr("1 passed, 0 failed, 0 skipped, 0 implementation-defined, "
                               "0 errors (0 bad fixtures), 1 timeouts"));
  EXPECT_THAT(c.err, HasSubstr("timeout: adr-224/y_slow"));
  EXPECT_THAT(ReadText(reports.path() / "junit.xml"), HasSubstr("type=\"timeout\""));
}

// Sets the bad-input bit only in the shard whose reports hold the bad file.
TEST(RunCommand, ShardExitBitsFollowTheirReports) {
  TempDir dir;
  dir.Write("adr-224/y_good.json", kGoodCase);
  dir.Write("adr-224/y_broken.json", "[");
  int with_bad_bit = 0;
  for (std::size_t i = 1; i <= 4; ++i) {
    TempDir reports;
    RunArgs shard;
    shard.shard = std::to_string(i) + "/4";
    const Captured c = RunCli(dir, reports.path(), shard);
    const bool has_bad =
        ReadText(reports.path() / "index.json").find("y_broken") != std::string::npos;
    EXPECT_EQ((c.status & kExitBadInput) != 0, has_bad) << shard.shard << c.out << c.err;
    with_bad_bit += has_bad ? 1 : 0;
  }
  EXPECT_EQ(with_bad_bit, 1);
}

}  // namespace
}  // namespace gemini_oracle::cli
