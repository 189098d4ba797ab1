// The process driver: a crash, a garbled line, a hang, another seq are each that case's error
// and the driver is started again for the next case; `skipped` and `errored` are passed on;
// a case needing a capability the driver lacks is skipped with the reason.
#include "oracles/runner/process_driver.h"

#include <gtest/gtest.h>

#include <fstream>
#include <thread>

#include "oracles/runner/case_loader.h"
#include "oracles/runner/reference_driver.h"
#include "oracles/runner/suite_runner.h"
#include "tests/source_root.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::runner {
namespace {

using gemini_oracle::testing::SourceRoot;
using gemini_oracle::testing::TempDir;

const Case& AnyCase() {
  static const Case c = [] {
    const auto loader = CaseLoader::FromSourceRoot(SourceRoot());
    auto corpus = CheckCorpus(SourceRoot() / "fixtures" / "adr-224", loader);
    return corpus.cases.front();
  }();
  return c;
}

TEST(ProcessDriver, EveryMisbehaviourIsThatCasesErrorAndTheDriverRestarts) {
  TempDir dir;
  ProcessDriver::Options options;
  options.command = "FAKE_DRIVER_STATE=" + (dir.path() / "count").string() + " " +
                    (SourceRoot() / "tests" / "drivers" / "fake_driver.sh").string();
  options.reply_timeout = std::chrono::milliseconds(1500);
  ProcessDriver driver(options);
  EXPECT_EQ(driver.Hello().name, "fake");
  EXPECT_TRUE(driver.Hello().capabilities.empty());
  const auto run = [&] { return driver.Run(AnyCase(), "http://127.0.0.1:1"); };

  const auto crashed = run();
  ASSERT_TRUE(crashed.harness_error);
  EXPECT_NE(crashed.harness_error->find("ended while running the case"), std::string::npos);
  const auto garbled = run();
  ASSERT_TRUE(garbled.harness_error);
  EXPECT_NE(garbled.harness_error->find("not JSON"), std::string::npos);
  // Never the line itself: a driver's output may hold native content.
  EXPECT_EQ(garbled.harness_error->find("this is not"), std::string::npos);
  const auto hung = run();
  ASSERT_TRUE(hung.harness_error);
  EXPECT_NE(hung.harness_error->find("no answer within 1.5 s"), std::string::npos);
  const auto skipped = run();
  EXPECT_FALSE(skipped.harness_error);
  ASSERT_TRUE(skipped.skipped);
  EXPECT_EQ(*skipped.skipped, "not supported here");
  const auto errored = run();
  ASSERT_TRUE(errored.harness_error);
  EXPECT_EQ(*errored.harness_error, "driver errored: the adapter threw");
  const auto foreign = run();
  ASSERT_TRUE(foreign.harness_error);
  EXPECT_NE(foreign.harness_error->find("seq"), std::string::npos);
  const auto answered_then_ended = run();
  EXPECT_FALSE(answered_then_ended.harness_error);
  // Ended between cases (well before the next one): started again without blaming it.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto fine = run();
  EXPECT_FALSE(fine.harness_error);
  EXPECT_FALSE(fine.skipped);
  // Started once, then again after the crash, the garbled line, the hang, the foreign seq and
  // the end between cases.
  EXPECT_EQ(driver.Starts(), 6u);
}

// A driver whose libraries log to standard output speaks the protocol on the descriptor it
// inherits (protocol::kReplyFd): its hello there chooses it, and what it writes on standard
// output, before and after, is no protocol line (logs, for people). A driver speaking on
// standard output may log lines that are not JSON before its hello.
TEST(ProcessDriver, AReplyDescriptorApartFromStandardOutput) {
  const std::string answer_cases =
      R"(while read line; do echo "log: got a case {"; )"
      R"(seq=$(echo "$line" | sed -n 's/.*"seq":\([0-9]*\).*/\1/p'); )"
      R"(echo "{\"type\":\"skipped\",\"seq\":$seq,\"reason\":\"not here\"}" >&OUT; done)";
  const auto driver_on = [&](const std::string& out, int protocol) {
    std::string cases = answer_cases;
    cases.replace(cases.find("OUT"), 3, out);
    // On standard output, after the hello, every line is a protocol line: no log there.
    if (out == "1") cases.replace(cases.find(R"(echo "log: got a case {"; )"), 26, "");
    return R"(read start; echo 'booting the framework'; echo '{ a: 1 }'; echo '{"type":"log"}'; )"
           R"(echo '{"type":"hello","protocol":)" +
           std::to_string(protocol) + R"(,"name":"n","capabilities":[]}' >&)" + out + "; " +
           cases;
  };
  for (const auto& [out, protocol] : {std::pair<std::string, int>{"3", 2}, {"1", 1}}) {
    ProcessDriver::Options options;
    options.command = driver_on(out, protocol);
    options.reply_timeout = std::chrono::milliseconds(5000);
    ProcessDriver driver(options);
    EXPECT_EQ(driver.Hello().protocol, protocol) << out;
    for (int k = 0; k < 2; ++k) {
      const auto report = driver.Run(AnyCase(), "http://127.0.0.1:1");
      EXPECT_FALSE(report.harness_error) << out << ": " << *report.harness_error;
      ASSERT_TRUE(report.skipped) << out;
      EXPECT_EQ(*report.skipped, "not here");
    }
    EXPECT_EQ(driver.Starts(), 1u) << out;
  }
  // Started again after it ended, a driver chooses its channel anew.
  ProcessDriver::Options once;
  once.command = driver_on("3", 2) + "; exit 0";
  once.command.replace(once.command.find("while read line"), 15, "read line; for x in 1");
  once.reply_timeout = std::chrono::milliseconds(5000);
  ProcessDriver restarted(once);
  for (int k = 0; k < 2; ++k) {
    const auto report = restarted.Run(AnyCase(), "http://127.0.0.1:1");
    EXPECT_FALSE(report.harness_error) << *report.harness_error;
    ASSERT_TRUE(report.skipped);
    EXPECT_EQ(*report.skipped, "not here");
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // it ends after one case
  }
  EXPECT_EQ(restarted.Starts(), 2u);
}

// Cancel() (the runner's time limit) ends a hanging driver at once.
TEST(ProcessDriver, CancelEndsAHangingDriver) {
  TempDir dir;
  std::ofstream(dir.path() / "count") << "2";  // its next case is the hang
  ProcessDriver::Options options;
  options.command = "FAKE_DRIVER_STATE=" + (dir.path() / "count").string() + " " +
                    (SourceRoot() / "tests" / "drivers" / "fake_driver.sh").string();
  ProcessDriver driver(options);
  driver.Hello();
  std::thread watchdog([&driver] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    driver.Cancel();
  });
  const auto started = std::chrono::steady_clock::now();
  const auto report = driver.Run(AnyCase(), "http://127.0.0.1:1");
  watchdog.join();
  EXPECT_TRUE(report.harness_error);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
}

// A command that does not start, or does not greet, is refused with the reason.
TEST(ProcessDriver, ADriverThatDoesNotGreetIsRefused) {
  ProcessDriver::Options options;
  options.command = "echo hello";
  ProcessDriver silent(options);
  EXPECT_THROW(silent.Hello(), std::runtime_error);
  options.command = "exit 1";
  ProcessDriver gone(options);
  EXPECT_THROW(gone.Hello(), std::runtime_error);
  const auto report = gone.Run(AnyCase(), "http://127.0.0.1:1");
  ASSERT_TRUE(report.harness_error);
}

TEST(ProcessDriver, CasesNeedingMissingCapabilitiesAreSkipped) {
  const auto loader = CaseLoader::FromSourceRoot(SourceRoot());
  auto corpus = CheckCorpus(SourceRoot() / "fixtures", loader);
  std::vector<Case> carried;
  for (const auto& c : corpus.cases) {
    if (c.transcript.is_array() && !c.transcript.empty()) carried.push_back(c);
    if (carried.size() == 3) break;
  }
  ASSERT_EQ(carried.size(), 3u);
  SuiteOptions options;
  options.capabilities = std::set<std::string>{};
  const auto results = RunSuite(carried, loader.registry(),
                                [] { return std::make_unique<ReferenceDriver>(); }, options);
  for (const auto& r : results) {
    EXPECT_EQ(r["verdict"], "skipped");
    EXPECT_EQ(r["reason"], "the driver lacks the capability carried-state");
  }
}

}  // namespace
}  // namespace gemini_oracle::runner
