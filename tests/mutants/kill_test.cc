// Every catalogued fault is killed by the corpus (mutants build only): with the fault active,
// at least one case fails (a gating finding or a failed expected outcome); a crash, a hang or a
// harness error is no kill. The baseline (no fault) passes everything.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "oracles/runner/case_loader.h"
#include "oracles/runner/reference_driver.h"
#include "oracles/runner/suite_runner.h"
#include "reference_impl/fault.h"
#include "reports/index.h"
#include "tests/source_root.h"

namespace gemini_oracle {
namespace {

using testing::SourceRoot;

std::vector<std::string> FaultIds() {
  std::ifstream in(SourceRoot() / "mutants" / "catalogue.json", std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> ids;
  for (const auto& fault : ParseJson(text.str())) ids.push_back(fault.at("id").get<std::string>());
  return ids;
}

class Mutants : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() {
    loader_ = new runner::CaseLoader(runner::CaseLoader::FromSourceRoot(SourceRoot()));
    corpus_ = new runner::CorpusCheck(runner::CheckCorpus(SourceRoot() / "fixtures", *loader_));
  }
  static void TearDownTestSuite() {
    delete corpus_;
    delete loader_;
  }
  static nlohmann::json RunWith(const std::string& fault) {
    ref::fault::SetActive(fault);
    runner::SuiteOptions options;
    options.jobs = 2;
    options.seed = 7;
    options.beyond_gates = true;
    auto results = runner::RunSuite(
        corpus_->cases, loader_->registry(),
        [] { return std::make_unique<runner::ReferenceDriver>(); }, options);
    ref::fault::SetActive("");
    return results;
  }
  static runner::CaseLoader* loader_;
  static runner::CorpusCheck* corpus_;
};

runner::CaseLoader* Mutants::loader_ = nullptr;
runner::CorpusCheck* Mutants::corpus_ = nullptr;

// The fault points are compiled in, and without an active fault the corpus passes.
TEST_F(Mutants, BaselinePasses) {
  ASSERT_TRUE(ref::fault::kCompiledIn);
  for (const auto& r : RunWith("")) EXPECT_FALSE(reports::Gates(r)) << r.dump(2);
}

// Killed: at least one case fails; errors and timeouts are not kills and are reported.
TEST_P(Mutants, FaultIsKilled) {
  std::vector<std::string> killers;
  std::size_t errors = 0;
  for (const auto& r : RunWith(GetParam())) {
    if (r["verdict"] == "fail") killers.push_back(r["id"].get<std::string>());
    if (r["verdict"] == "error" || r["verdict"] == "timeout") ++errors;
  }
  EXPECT_FALSE(killers.empty()) << GetParam() << " survived the corpus (" << errors
                                << " harness errors or timeouts)";
}

INSTANTIATE_TEST_SUITE_P(Catalogue, Mutants, ::testing::ValuesIn(FaultIds()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (auto& ch : name) {
                             if (ch == '.') ch = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace gemini_oracle
