// Generated parallel-call scenarios (generators/parallel_calls.h) are ordinary cases: each
// passes `check`, and the reference implementation, through the capture server and the judges,
// passes it or refuses before contact with exactly the code the construction predicts. The
// expectation comes from how the scenario was built, never from running the implementation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "apps/gemini-oracle/commands.h"
#include "generators/json_values.h"
#include "generators/parallel_calls.h"
#include "oracles/runner/case_loader.h"
#include "oracles/runner/reference_driver.h"
#include "oracles/runner/suite_runner.h"
#include "reports/index.h"
#include "tests/property_support.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::generators {
namespace {

using gemini_oracle::testing::CheckProperty;
using gemini_oracle::testing::ReadText;
using gemini_oracle::testing::SourceRoot;
using gemini_oracle::testing::TempDir;

// Writes the scenario as a case file, loads it like the corpus, runs it against the reference.
nlohmann::json RunScenario(const ParallelCallsScenario& scenario, std::uint64_t seed,
                           std::size_t index, std::string& problems,
                           runner::ReferenceDriver::RequestHook hook = nullptr) {
  static const runner::CaseLoader loader = runner::CaseLoader::FromSourceRoot(SourceRoot());
  TempDir dir;
  const auto file =
      dir.path() / "parallel_calls" / (ParallelCallsStem(scenario, seed, index) + ".json");
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file) << ParallelCallsCase(scenario, seed, index).dump(2) << "\n";
  const runner::CorpusCheck corpus = runner::CheckCorpus(dir.path(), loader);
  for (const auto& d : corpus.diagnostics) problems += runner::FormatDiagnostic(d) + "\n";
  if (corpus.cases.size() != 1) return nlohmann::json::array();
  runner::SuiteOptions options;
  options.beyond_gates = true;
  return runner::RunSuite(
      corpus.cases, loader.registry(),
      [&hook] { return std::make_unique<runner::ReferenceDriver>(hook); }, options);
}

// The property: the reference passes the drawn scenario with the outcome its construction
// predicts, every request sent through `hook` (none: as built).
void PassesWithPredictedOutcome(runner::ReferenceDriver::RequestHook hook) {
  const auto scenario = *genParallelCallsScenario();
  std::string problems;
  const nlohmann::json results = RunScenario(scenario, 1, 0, problems, hook);
  RC_ASSERT(problems.empty());
  RC_ASSERT(results.size() == 1u);
  const auto& r = results[0];
  if (r["verdict"] != "pass") RC_FAIL(r.dump(2));
  RC_ASSERT(r["expected"] == (ExpectedErrorCode(scenario).empty() ? "accept" : "refuse"));
}

TEST(ParallelCallsProperty, ReferencePassesEveryGeneratedScenario) {
  CheckProperty([] { PassesWithPredictedOutcome(nullptr); });
}

// Negative controls: the same property falsified where the wire is broken on purpose, answers
// that drop their call's native id (ADR-226.3), answers reversed (ADR-226.20, WIRE.2).
TEST(ParallelCallsProperty, BrokenWireIsFalsified) {
  EXPECT_TRUE(gemini_oracle::testing::Falsifies([] {
    PassesWithPredictedOutcome([](Json& request) {
      for (auto& content : request["contents"]) {
        for (auto& part : content["parts"]) {
          if (part.contains("functionResponse")) part["functionResponse"].erase("id");
        }
      }
    });
  }));
  EXPECT_TRUE(gemini_oracle::testing::Falsifies([] {
    PassesWithPredictedOutcome([](Json& request) {
      for (auto& content : request["contents"]) {
        auto& parts = content["parts"];
        if (parts.size() > 1 && parts[0].contains("functionResponse")) {
          std::reverse(parts.begin(), parts.end());
        }
      }
    });
  }));
}

// Every numeric edge can be drawn, -0.0 (which arbitrary<double> never yields) included.
TEST(JsonValues, EveryNumericEdgeIsDrawn) {
  const auto gen = genNumber();
  std::size_t negative_zero = 0, uint64_max = 0, edges = 0;
  for (std::uint64_t i = 0; i < 3000; ++i) {
    const Json n = gen(rc::Random(i), 30).value();
    if (n.is_number_float() && n.get<double>() == 0.0 && std::signbit(n.get<double>())) {
      ++negative_zero;
    }
    if (n.is_number_unsigned() && n.get<std::uint64_t>() == UINT64_MAX) ++uint64_max;
    for (const Json& edge : NumericEdges()) {
      if (DumpJson(edge) == DumpJson(n)) {
        ++edges;
        break;
      }
    }
  }
  EXPECT_GT(negative_zero, 0u);
  EXPECT_GT(uint64_max, 0u);
  EXPECT_GT(edges, 300u);
}

// Numeric-key maps of 11 or more members, so that key order and numeric order differ.
TEST(JsonValues, NumericKeyMapsGrowPastTen) {
  const auto gen = genNumericKeyMap();
  std::size_t long_maps = 0, empty = 0;
  for (std::uint64_t i = 0; i < 500; ++i) {
    const Json map = gen(rc::Random(i), 30).value();
    ASSERT_TRUE(map.is_object());
    long_maps += map.size() >= 11 ? 1 : 0;
    empty += map.empty() ? 1 : 0;
  }
  EXPECT_GT(long_maps, 0u);
  EXPECT_GT(empty, 0u);
}

// The same seed writes the same bytes; another seed other cases; every file passes `check`.
TEST(Generate, SameSeedSameBytes) {
  TempDir a, b, c;
  std::ostringstream out, err;
  cli::GenerateArgs args;
  args.seed = 7;
  args.count = 40;
  args.out = a.path();
  ASSERT_EQ(cli::GenerateCommand(args, out, err), 0) << err.str();
  args.out = b.path();
  ASSERT_EQ(cli::GenerateCommand(args, out, err), 0) << err.str();
  args.seed = 8;
  args.out = c.path();
  ASSERT_EQ(cli::GenerateCommand(args, out, err), 0) << err.str();
  std::size_t files = 0, differ = 0;
  for (const auto& entry : std::filesystem::directory_iterator(a.path() / "parallel_calls")) {
    ++files;
    const auto name = entry.path().filename();
    EXPECT_EQ(ReadText(entry.path()), ReadText(b.path() / "parallel_calls" / name)) << name;
    EXPECT_NE(ReadText(entry.path()).find("\"source\": \"generator parallel_calls, seed 7"),
              std::string::npos);
  }
  for (const auto& entry : std::filesystem::directory_iterator(c.path() / "parallel_calls")) {
    const std::string text = ReadText(entry.path());
    differ += text.find("seed 8") != std::string::npos ? 1 : 0;
  }
  EXPECT_EQ(files, 40u);
  EXPECT_EQ(differ, 40u);
  const auto loader = runner::CaseLoader::FromSourceRoot(SourceRoot());
  const runner::CorpusCheck corpus = runner::CheckCorpus(a.path(), loader);
  EXPECT_TRUE(corpus.ok()) << (corpus.diagnostics.empty()
                                   ? std::string()
                                   : runner::FormatDiagnostic(corpus.diagnostics.front()));
  EXPECT_EQ(corpus.cases.size(), 40u);
  args.family = "no_such_family";
  EXPECT_EQ(cli::GenerateCommand(args, out, err), cli::kExitBadInput);
}

}  // namespace
}  // namespace gemini_oracle::generators
