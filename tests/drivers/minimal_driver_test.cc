// drivers/examples/minimal_driver.py through the driver protocol on the whole corpus: the run
// completes with no error or timeout (a driver of another language works end to end), cases
// needing a capability it lacks are skipped, fresh conversations it gets right pass, and the
// cases that demand a refusal, which it never raises, fail.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <map>

#include "oracles/runner/case_loader.h"
#include "oracles/runner/process_driver.h"
#include "oracles/runner/suite_runner.h"
#include "tests/required_tool.h"
#include "tests/source_root.h"

namespace gemini_oracle::runner {
namespace {

using gemini_oracle::testing::SourceRoot;

TEST(MinimalDriver, RunsTheCorpusEndToEnd) {
  GEMINI_ORACLE_REQUIRE_TOOL("python3");
  const auto loader = CaseLoader::FromSourceRoot(SourceRoot());
  const auto corpus = CheckCorpus(SourceRoot() / "fixtures", loader);
  ProcessDriver::Options driver_options;
  driver_options.command =
      "python3 " + (SourceRoot() / "drivers" / "examples" / "minimal_driver.py").string();
  ProcessDriver probe(driver_options);
  SuiteOptions options;
  options.capabilities = probe.Hello().capabilities;
  driver_options.capabilities = options.capabilities;
  options.jobs = 2;
  const auto results = RunSuite(
      corpus.cases, loader.registry(),
      [driver_options] { return std::make_unique<ProcessDriver>(driver_options); }, options);
  std::map<std::string, std::size_t> counts;
  std::map<std::string, std::string> verdict_of;
  for (const auto& r : results) {
    ++counts[r["verdict"].get<std::string>()];
    verdict_of[r["id"].get<std::string>()] = r["verdict"];
    EXPECT_NE(r["verdict"], "error") << r["id"] << ": " << r["reason"];
    EXPECT_NE(r["verdict"], "timeout") << r["id"];
  }
  for (const auto& [verdict, count] : counts) std::cout << verdict << " " << count << "\n";
  EXPECT_GT(counts["skipped"], 0u);
  EXPECT_GT(counts["pass"], 20u);
  EXPECT_EQ(verdict_of["adr-226/y_gemini3_single_call_native_id_echoed"], "pass");
  EXPECT_EQ(verdict_of["adr-226/n_native_id_duplicate_refused"], "fail");
}

}  // namespace
}  // namespace gemini_oracle::runner
