// The reference implementation through the driver protocol gives exactly the in-process
// verdicts on the whole corpus, streamed twins included.
#include <gtest/gtest.h>

#include <iostream>
#include <map>

#include "oracles/model/streamed_twin.h"
#include "oracles/runner/case_loader.h"
#include "oracles/runner/process_driver.h"
#include "oracles/runner/reference_driver.h"
#include "oracles/runner/suite_runner.h"
#include "tests/source_root.h"

namespace gemini_oracle::runner {
namespace {

using gemini_oracle::testing::SourceRoot;

TEST(ReferenceDriverProcess, SameVerdictsAsInProcessOnTheWholeCorpus) {
  const auto loader = CaseLoader::FromSourceRoot(SourceRoot());
  const auto corpus = CheckCorpus(SourceRoot() / "fixtures", loader);
  ASSERT_TRUE(corpus.ok());
  const auto cases = model::WithStreamedTwins(corpus.cases);
  SuiteOptions options;
  options.beyond_gates = true;
  options.jobs = 2;
  const auto in_process = RunSuite(
      cases, loader.registry(), [] { return std::make_unique<ReferenceDriver>(); }, options);

  ProcessDriver::Options driver_options;
  driver_options.command = GEMINI_ORACLE_REFERENCE_DRIVER;
  ProcessDriver probe(driver_options);
  options.capabilities = probe.Hello().capabilities;
  driver_options.capabilities = options.capabilities;
  const auto through_driver = RunSuite(
      cases, loader.registry(),
      [driver_options] { return std::make_unique<ProcessDriver>(driver_options); }, options);

  ASSERT_EQ(in_process.size(), through_driver.size());
  // The same verdict, findings, clauses left not judged and requests: a driver process that
  // lost a baseline run (ADR-226.18) or a snapshot would show here even where it still passes.
  std::map<std::string, nlohmann::json> in_process_by_id;
  for (const auto& r : in_process) in_process_by_id[r["id"].get<std::string>()] = r;
  std::size_t same = 0;
  for (const auto& r : through_driver) {
    const std::string id = r["id"];
    const auto& own = in_process_by_id[id];
    EXPECT_EQ(r["verdict"], own["verdict"]) << id << ": " << r["reason"];
    EXPECT_EQ(r["findings"], own["findings"]) << id;
    EXPECT_EQ(r["not_judged"], own["not_judged"]) << id;
    EXPECT_EQ(r["requests"], own["requests"]) << id;
    same += r["verdict"] == own["verdict"] && r["findings"] == own["findings"] &&
                    r["not_judged"] == own["not_judged"]
                ? 1
                : 0;
  }
  std::cout << same << " of " << through_driver.size()
            << " results the same (verdict, findings, not judged)" << std::endl;
}

}  // namespace
}  // namespace gemini_oracle::runner
