// The gemini-oracle executable itself: what only main() decides (option checks, buffering).

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>

#include "tests/temp_dir.h"

namespace gemini_oracle {
namespace {

using ::testing::HasSubstr;
using testing::TempDir;

constexpr const char* kSlowCase = R"({
  "description": "A model that answers after 20 s",
  "clauses": ["ADR-224.1"],
  "exchanges": [{"user": "go", "response": {"delay_ms": 20000,
    "body": {"candidates": [{"content": {"role": "model", "parts": [{"text": "late"}]}}]}}}],
  "expect": {"outcome": "accept", "requests": 1}
}
)";

struct Output {
  int status;
  std::string text;
};

// Runs a shell command line and returns its exit status and standard output.
Output Shell(const std::string& command) {
  Output output{-1, {}};
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return output;
  char buffer[4096];
  std::size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.text.append(buffer, n);
  const int status = pclose(pipe);
  output.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return output;
}

std::string Binary() { return GEMINI_ORACLE_BINARY; }

// Refuses --max-fail 0 with a short message, not the range of a double.
TEST(Binary, MaxFailZeroIsAShortUsageError) {
  const Output out = Shell(Binary() + " run --max-fail 0 2>&1");
  EXPECT_EQ(out.status, 4);
  EXPECT_THAT(out.text, HasSubstr("--max-fail: takes a number of at least 1"));
  EXPECT_LT(out.text.size(), 200u) << out.text;
}

// Refuses a --case-timeout that is not whole seconds.
TEST(Binary, CaseTimeoutTakesWholeSeconds) {
  const Output out = Shell(Binary() + " run --case-timeout 1.5 2>&1");
  EXPECT_EQ(out.status, 4);
  EXPECT_THAT(out.text, HasSubstr("--case-timeout: takes whole seconds"));
}

// Shows the seed of a run that is killed mid-case, although its output goes to a pipe:
// standard output is line-buffered.
TEST(Binary, KilledRunStillShowsItsSeed) {
  TempDir fixtures, reports;
  fixtures.Write("adr-224/y_slow.json", kSlowCase);
  const Output out =
      Shell("timeout -s KILL 3 " + Binary() + " run --seed 99 --fixtures " +
            fixtures.path().string() + " --report-dir " + reports.path().string() + " 2>/dev/null");
  EXPECT_THAT(out.text, HasSubstr("1 cases, seed 99"));
  EXPECT_THAT(out.text, ::testing::Not(HasSubstr("in all")));  // it was killed mid-case
}

// Prints progress lines into a log (not a terminal), counted in cases.
TEST(Binary, ProgressLinesWhenNotOnATerminal) {
  TempDir reports;
  const Output out = Shell(Binary() + " run --jobs 2 --report-dir " + reports.path().string() +
                           " 2>&1 >/dev/null");
  EXPECT_EQ(out.status, 0) << out.text;
  // The last line of a run counts every case: "progress: N/N cases".
  EXPECT_TRUE(std::regex_search(out.text, std::regex(R"(progress: (\d+)/\1 cases, 0 gating)")))
      << out.text;
}

// Refuses a --count past the documented limit (CLI11 would saturate it to SIZE_MAX and the
// command would write without end) and an empty --out (the working folder), writing nothing.
TEST(Binary, GenerateRefusesAHugeCountAndAnEmptyOut) {
  TempDir work;
  const std::string in_work = "cd '" + work.path().string() + "' && timeout -s KILL 60 ";
  Output out = Shell(in_work + Binary() + " generate --count 99999999999999999999999 --out gen 2>&1");
  EXPECT_EQ(out.status, 4) << out.text;
  EXPECT_THAT(out.text, HasSubstr("--count: takes a number from 1 to 100000"));
  out = Shell(in_work + Binary() + " generate --count 100001 --out gen 2>&1");
  EXPECT_EQ(out.status, 4) << out.text;
  out = Shell(in_work + Binary() + " generate --count 1 --out '' 2>&1");
  EXPECT_EQ(out.status, 4) << out.text;
  EXPECT_THAT(out.text, HasSubstr("--out: needs a path"));
  EXPECT_TRUE(std::filesystem::is_empty(work.path()));
  // A count within the limit, written with leading zeros, still runs.
  out = Shell(in_work + Binary() + " generate --count 0001 --family conversation --out gen 2>&1");
  EXPECT_EQ(out.status, 0) << out.text;
}

// Uses a name in the README's "Add a case" example that no case of the corpus has.
TEST(Binary, ReadmeExampleNameIsNew) {
  const Output out = Shell("grep -o 'fixtures/adr-224/y_[a-z0-9_]*\\.json' '" +
                           testing::SourceRoot().string() + "/README.md' | sort -u");
  ASSERT_FALSE(out.text.empty());
  std::size_t start = 0;
  while (start < out.text.size()) {
    const std::size_t end = out.text.find('\n', start);
    const std::string name = out.text.substr(start, end - start);
    EXPECT_FALSE(std::filesystem::exists(testing::SourceRoot() / name)) << name;
    start = end == std::string::npos ? out.text.size() : end + 1;
  }
}

}  // namespace
}  // namespace gemini_oracle
