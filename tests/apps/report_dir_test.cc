// What `run` leaves in its report folder: one run's whole reports even when two runs name the
// same folder, only the files written announced, and one result per id.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "apps/gemini-oracle/commands.h"
#include "apps/gemini-oracle/report_commands.h"
#include "tests/captured_output.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::cli {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using gemini_oracle::testing::Captured;
using gemini_oracle::testing::ReadText;
using gemini_oracle::testing::SourceRoot;
using gemini_oracle::testing::TempDir;
using nlohmann::json;

constexpr const char* kCase = R"({
  "description": "A model that answers at once",
  "clauses": ["ADR-224.1"],
  "exchanges": [{"user": "go", "response": {
    "body": {"candidates": [{"content": {"role": "model", "parts": [{"text": "hi"}]}}]}}}],
  "expect": {"outcome": "accept", "requests": 1}
}
)";

// A driver that says it started (touches $1), waits for $2 before its hello, then skips every
// case: while it waits, its run holds the report folder.
constexpr const char* kWaitingDriver = R"(#!/usr/bin/env bash
touch "$1"
while [ ! -e "$2" ]; do sleep 0.05; done
while IFS= read -r line; do
  case "$line" in
    *'"type":"start"'*)
      echo '{"type":"hello","protocol":1,"name":"waiting","version":"0","language":"bash","capabilities":[]}' ;;
    *'"type":"run_case"'*)
      seq=$(printf '%s' "$line" | sed -n 's/.*"seq":\([0-9]*\).*/\1/p')
      echo "{\"type\":\"skipped\",\"seq\":$seq,\"reason\":\"waits only\"}" ;;
    *'"type":"stop"'*) exit 0 ;;
  esac
done
)";

// Waits for `file` to exist; a bound that proves "happens at all", not a timing.
bool AppearsWithin(const fs::path& file, std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (!fs::exists(file)) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

std::string Quoted(const fs::path& path) { return "'" + path.string() + "'"; }

std::vector<std::string> VisibleFiles(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.front() != '.') names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Two runs into one folder (two processes): the one that comes second exits 4 at once with a
// message naming the folder, and the folder ends up with the whole reports of the first.
// Before the lock, both exited 0 and one run's reports silently replaced the other's.
TEST(ReportDir, TwoRunsIntoOneFolderOneIsRefused) {
  TempDir fixtures, work;
  fixtures.Write("adr-224/y_hi.json", kCase);
  const fs::path driver = work.Write("driver.sh", kWaitingDriver);
  const fs::path reports = work.path() / "reports";
  const fs::path started = work.path() / "started", go = work.path() / "go";
  const std::string common = std::string(GEMINI_ORACLE_BINARY) + " run --fixtures " +
                             Quoted(fixtures.path()) + " --report-dir " + Quoted(reports);
  // The first run, in the background: it holds the folder while its driver waits.
  const std::string first = common + " --seed 111 --impl " +
                            Quoted("bash " + driver.string() + " " + started.string() + " " +
                                   go.string());
  const std::string background = "(" + first + " >" + Quoted(work.path() / "first.out") +
                                 " 2>&1; echo $? >" + Quoted(work.path() / "first.rc") + ") &";
  ASSERT_EQ(std::system(background.c_str()), 0);
  ASSERT_TRUE(AppearsWithin(started, std::chrono::seconds(60)));
  // The second run's driver never waits (its "go" is the driver script itself).
  const std::string second = common + " --seed 222 --impl " +
                             Quoted("bash " + driver.string() + " " +
                                    (work.path() / "second-started").string() + " " +
                                    driver.string());
  const int second_status = std::system((second + " >" + Quoted(work.path() / "second.out") +
                                         " 2>&1")
                                            .c_str());
  work.Write("go", "");
  ASSERT_TRUE(AppearsWithin(work.path() / "first.rc", std::chrono::seconds(60)));
  EXPECT_EQ(WEXITSTATUS(second_status), kExitBadInput) << ReadText(work.path() / "second.out");
  EXPECT_THAT(ReadText(work.path() / "second.out"),
              HasSubstr("gemini-oracle run: --report-dir: " + reports.generic_string() +
                        ": another gemini-oracle process is writing its reports in this folder"));
  EXPECT_EQ(ReadText(work.path() / "first.rc"), "0\n") << ReadText(work.path() / "first.out");
  // What is left is the first run's, whole.
  EXPECT_EQ(VisibleFiles(reports),
            (std::vector<std::string>{"index.json", "junit.xml", "summary.html", "summary.md"}));
  const json index = json::parse(ReadText(reports / "index.json"));
  EXPECT_EQ(index["context"]["seed"], 111);
  EXPECT_GE(index["results"].size(), 1u);
  EXPECT_THAT(ReadText(reports / "junit.xml"), HasSubstr("adr-224/y_hi"));
  EXPECT_THAT(ReadText(reports / "summary.html"), HasSubstr("</html>"));
}

RunArgs Args(const fs::path& fixtures, const fs::path& reports) {
  RunArgs args;
  args.source_root = SourceRoot();
  args.fixtures = fixtures;
  args.report_dir = reports;
  args.seed = 7;
  return args;
}

// A write that fails mid-way (a folder where summary.html's temporary file goes stops root
// too, as a full disk would): exit 2, and the reports line names exactly the files present.
// Before, it named all four.
TEST(ReportDir, RunAnnouncesOnlyTheFilesWritten) {
  TempDir fixtures, work;
  fixtures.Write("adr-224/y_hi.json", kCase);
  const fs::path reports = work.path() / "reports";
  work.Write("reports/.summary.html.partial/blocker", "x");
  const Captured c = gemini_oracle::testing::Capture(RunCommand, Args(fixtures.path(), reports));
  EXPECT_EQ(c.status, kExitHarness) << c.out << c.err;
  EXPECT_THAT(c.err, HasSubstr("summary.html: cannot write the file"));
  EXPECT_THAT(c.out, HasSubstr("reports: " + DisplayPath(reports) + "/{junit.xml,summary.md}\n"));
  EXPECT_EQ(VisibleFiles(reports), (std::vector<std::string>{"junit.xml", "summary.md"}));
}

// y_twin.json, y_twin.JSON and y_twin.txt in one folder: one result per id (three ids), so
// JUnit has one test case of each name and compare and merge read the report. Before, all
// three had the id adr-226/y_twin and both refused the report.
TEST(ReportDir, MisnamedTwinsGiveOneResultPerId) {
  TempDir fixtures, work;
  for (const char* name : {"adr-224/y_twin.json", "adr-224/y_twin.JSON", "adr-224/y_twin.txt"}) {
    fixtures.Write(name, kCase);
  }
  const fs::path reports = work.path() / "reports";
  const Captured run = gemini_oracle::testing::Capture(RunCommand, Args(fixtures.path(), reports));
  EXPECT_EQ(run.status, kExitBadInput) << run.out << run.err;
  const json index = json::parse(ReadText(reports / "index.json"));
  std::multiset<std::string> ids;
  for (const auto& result : index["results"]) ids.insert(result["id"].get<std::string>());
  EXPECT_EQ(ids.count("adr-224/y_twin"), 1u);
  EXPECT_EQ(ids.count("adr-224/y_twin.JSON"), 1u);
  EXPECT_EQ(ids.count("adr-224/y_twin.txt"), 1u);
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());
  const std::string junit = ReadText(reports / "junit.xml");
  const std::regex testcase("<testcase name=\"adr-224/y_twin\"");
  EXPECT_EQ(std::distance(std::sregex_iterator(junit.begin(), junit.end(), testcase),
                          std::sregex_iterator()),
            1);
  CompareArgs compare;
  compare.reports = {reports, reports};
  compare.out = work.path() / "compare";
  const Captured compared = gemini_oracle::testing::Capture(CompareCommand, compare);
  EXPECT_EQ(compared.status, 0) << compared.err;
  MergeArgs merge;
  merge.reports = {reports};
  merge.report_dir = work.path() / "merged";
  const Captured merged = gemini_oracle::testing::Capture(MergeCommand, merge);
  EXPECT_EQ(merged.err, "");
  EXPECT_EQ(merged.status, run.status);
}

// A driver that contacts nothing and reports every case as an empty conversation.
constexpr const char* kIdleDriver = R"(#!/usr/bin/env bash
while IFS= read -r line; do
  case "$line" in
    *'"type":"start"'*)
      echo '{"type":"hello","protocol":1,"name":"idle","version":"0","language":"bash","capabilities":[]}' ;;
    *'"type":"run_case"'*)
      seq=$(printf '%s' "$line" | sed -n 's/.*"seq":\([0-9]*\).*/\1/p')
      echo "{\"type\":\"report\",\"seq\":$seq,\"exchanges\":[]}" ;;
    *'"type":"stop"'*) exit 0 ;;
  esac
done
)";

// The corpus's two cases whose only clause is open passed under a driver that contacted
// nothing: a case not run is an error (exit bit 2), never a pass.
TEST(RunWithAnIdleDriver, OpenOnlyCasesAreNotPassed) {
  TempDir work;
  const fs::path driver = work.Write("idle.sh", kIdleDriver);
  RunArgs args = Args(SourceRoot() / "fixtures", work.path() / "reports");
  args.impl = "bash " + driver.string();
  args.filter = "y_nested_empty_object_in_*";
  const Captured c = gemini_oracle::testing::Capture(RunCommand, args);
  EXPECT_EQ(c.status, kExitHarness) << c.out << c.err;
  const json index = json::parse(ReadText(work.path() / "reports" / "index.json"));
  std::size_t judged = 0;
  for (const auto& result : index["results"]) {
    if (result["verdict"] == "skipped") continue;  // twins needing a capability it lacks
    ++judged;
    EXPECT_EQ(result["verdict"], "error") << result.dump(2);
    EXPECT_EQ(result["reason"].get<std::string>().rfind("not run: ", 0), 0u) << result.dump(2);
  }
  EXPECT_EQ(judged, 2u) << index["results"].dump(2);
}

}  // namespace
}  // namespace gemini_oracle::cli
