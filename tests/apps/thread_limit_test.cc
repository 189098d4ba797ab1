// `run --jobs 16` where threads or processes cannot start (a pids limit, `ulimit -u`), made
// deterministic by an LD_PRELOAD library (thread_limit_shim.cc): the run goes on with what it
// has, writes its reports and says what it lacked; with threads enough for one worker its
// verdicts are the unlimited run's.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/temp_dir.h"

namespace gemini_oracle {
namespace {

using ::testing::HasSubstr;
using testing::TempDir;

struct Output {
  int status = -1;
  std::string text;
};

// A shell command line: its exit status and its standard output and error.
Output Shell(const std::string& command) {
  Output output;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return output;
  char buffer[4096];
  std::size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.text.append(buffer, n);
  const int status = pclose(pipe);
  output.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return output;
}

// Each case's verdict in the run's index.json (empty when there is none).
std::map<std::string, std::string> Verdicts(const std::filesystem::path& report_dir) {
  std::map<std::string, std::string> verdicts;
  std::ifstream in(report_dir / "index.json");
  if (!in) return verdicts;
  const nlohmann::json index = nlohmann::json::parse(in);
  for (const auto& result : index["results"]) {
    verdicts[result["id"].get<std::string>()] = result["verdict"].get<std::string>();
  }
  return verdicts;
}

// The suspending cases: the loader, the store and the capture server all take part.
Output RunOracle(const std::string& environment, const std::filesystem::path& report_dir,
                 const std::string& extra = "--jobs 16") {
  return Shell(environment + " " + GEMINI_ORACLE_BINARY + " --source-root " +
               GEMINI_ORACLE_TEST_SOURCE_DIR + " run --seed 7 --filter 'persistence/*'" +
               " --report-dir " + report_dir.string() + " " + extra);
}

// Under AddressSanitizer linked dynamically (GCC), a library preloaded ahead of the runtime makes
// it abort ("runtime does not come first in initial library list"); the order is harmless here
// (the shim intercepts thread and process starts, nothing ASan tracks), so the check is off.
std::string Shim() {
  return std::string(
             "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0\" "
             "LD_PRELOAD=") +
         GEMINI_ORACLE_THREAD_LIMIT_SHIM;
}

TEST(ThreadLimit, TheRunGoesOnWithTheThreadsItGets) {
  TempDir reports;
  const Output unlimited = RunOracle("", reports.path() / "unlimited");
  const auto expected = Verdicts(reports.path() / "unlimited");
  ASSERT_GE(expected.size(), 10u) << unlimited.text;
  ASSERT_THAT(unlimited.text, ::testing::Not(HasSubstr("note:")));
  // Threads alive at once besides the main one: 3 are the least for one worker (signals, the
  // capture server's listener, the worker's connection); fewer, and no case can run.
  for (const int threads : {0, 1, 2, 3, 4, 5, 8}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    const auto dir = reports.path() / ("threads-" + std::to_string(threads));
    const Output out = RunOracle(Shim() + " GEMINI_TEST_THREADS=" + std::to_string(threads), dir);
    EXPECT_NE(out.status, -1) << out.text;  // ended, not killed
    EXPECT_THAT(out.text, HasSubstr("gemini-oracle: note: ")) << out.text;
    EXPECT_THAT(out.text, HasSubstr("reports: ")) << out.text;
    const auto verdicts = Verdicts(dir);
    ASSERT_EQ(verdicts.size(), expected.size()) << out.text;
    if (threads >= 3) {
      EXPECT_EQ(verdicts, expected) << out.text;
    } else {
      for (const auto& [id, verdict] : verdicts) EXPECT_EQ(verdict, "error") << id;
      EXPECT_EQ(out.status & 2, 2) << out.text;  // the harness bit
    }
  }
}

TEST(ThreadLimit, ADriverThatCannotStartIsEachCasesError) {
  TempDir reports;
  // The probe's start is the one process allowed: every worker's driver is refused.
  const Output out = RunOracle(Shim() + " GEMINI_TEST_SPAWNS=1", reports.path(),
                               std::string("--jobs 2 --impl ") + GEMINI_ORACLE_REFERENCE_DRIVER);
  const auto verdicts = Verdicts(reports.path());
  ASSERT_GE(verdicts.size(), 10u) << out.text;
  for (const auto& [id, verdict] : verdicts) EXPECT_EQ(verdict, "error") << id;
  std::ifstream in(reports.path() / "index.json");
  const nlohmann::json index = nlohmann::json::parse(in);
  for (const auto& result : index["results"]) {
    EXPECT_THAT(result["reason"].get<std::string>(), HasSubstr("cannot start the driver"));
  }
  EXPECT_EQ(out.status & 2, 2) << out.text;
}

}  // namespace
}  // namespace gemini_oracle
