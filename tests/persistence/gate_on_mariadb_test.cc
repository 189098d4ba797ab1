// The gate with every conversation suspended into MariaDB (a real server, InnoDB) and resumed
// after every turn: the reference implementation passes the whole corpus, each conversation
// compared with its run kept in memory (ADR-226.18) and its stored row unchanged by every
// request build (ADR-224.9).
#include <gtest/gtest.h>

#include "oracles/runner/case_loader.h"
#include "oracles/runner/reference_driver.h"
#include "oracles/runner/suite_runner.h"
#include "reports/index.h"
#include "tests/mariadb_settings.h"
#include "tests/source_root.h"

namespace gemini_oracle::runner {
namespace {

// Passes every case through the store, as `gemini-oracle run --store mariadb://...` does.
TEST(GateOnMariaDb, ReferenceImplementationPassesWithEveryConversationStored) {
  std::string why;
  const auto settings = testing::LoadMariaDbSettings(&why);
  if (!settings) {
    if (testing::MariaDbRequired()) FAIL() << testing::kMariaDbRequiredHint << " (" << why << ")";
    GTEST_SKIP() << why << ". " << testing::kMariaDbRequiredHint;
  }
  settings->ExportPassword();
  const CaseLoader loader = CaseLoader::FromSourceRoot(testing::SourceRoot());
  const CorpusCheck corpus = CheckCorpus(testing::SourceRoot() / "fixtures", loader);
  ASSERT_TRUE(corpus.ok());
  SuiteOptions options;
  options.jobs = 2;
  options.seed = 17;
  options.beyond_gates = true;
  ReferenceDriver::StoreSettings store;
  store.url = settings->StoreUrl();
  const nlohmann::json results = RunSuite(
      corpus.cases, loader.registry(),
      [store] { return std::make_unique<ReferenceDriver>(store); }, options);
  ASSERT_EQ(results.size(), corpus.cases.size());
  std::size_t passed = 0;
  for (const auto& r : results) {
    EXPECT_FALSE(reports::Gates(r)) << r.dump(2);
    if (r["verdict"] == "pass") ++passed;
    for (const auto& note : r.value("not_judged", nlohmann::json::array())) {
      EXPECT_NE(note["clause"], "ADR-226.18") << r.dump(2);
    }
  }
  EXPECT_GE(passed, 150u);
}

}  // namespace
}  // namespace gemini_oracle::runner
