// Generated parallel-call scenarios (generators/parallel_calls.h) are ordinary cases: each
// passes `check`, and the reference implementation, through the capture server and the judges,
// passes it or refuses before contact with exactly the code the construction predicts. The
// expectation comes from how the scenario was built, never from running the implementation.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <cmath>
#include <sstream>

#include "apps/gemini-oracle/commands.h"
#include "generators/json_values.h"
#include "generators/parallel_calls.h"
#include "oracles/runner/case_loader.h"
#include "oracles/runner/reference_driver.h"
#include "oracles/runner/suite_runner.h"
#include "reports/index.h"
#include "tests/generators/generated_case.h"
#include "tests/property_support.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::generators {
namespace {

using gemini_oracle::testing::CheckProperty;
using gemini_oracle::testing::EnvNumber;
using gemini_oracle::testing::kDefaultSeed;
using gemini_oracle::testing::ReadText;
using gemini_oracle::testing::SourceRoot;
using gemini_oracle::testing::TempDir;

// The property: the reference passes the drawn scenario with the outcome its construction
// predicts, every request sent through `hook` (none: as built).
void PassesWithPredictedOutcome(runner::ReferenceDriver::RequestHook hook, bool keep = true) {
  const auto scenario = *genParallelCallsScenario();
  const std::uint64_t seed = EnvNumber("GEMINI_ORACLE_PROPERTY_SEED", kDefaultSeed);
  RC_TAG(ExpectedErrorCode(scenario).empty() ? "accept" : ExpectedErrorCode(scenario));
  gemini_oracle::testing::PassesWithPredictedOutcome(
      "parallel_calls", ParallelCallsStem(scenario, seed, 0), ParallelCallsCase(scenario, seed, 0),
      ExpectedErrorCode(scenario), std::move(hook), keep);
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
    }, false);
  }));
  EXPECT_TRUE(gemini_oracle::testing::Falsifies([] {
    PassesWithPredictedOutcome([](Json& request) {
      for (auto& content : request["contents"]) {
        auto& parts = content["parts"];
        if (parts.size() > 1 && parts[0].contains("functionResponse")) {
          std::reverse(parts.begin(), parts.end());
        }
      }
    }, false);
  }));
}

// Every numeric edge and every neighbour can be drawn, -0.0 (which arbitrary<double> never
// yields) included.
TEST(JsonValues, EveryNumericEdgeIsDrawn) {
  const auto gen = genNumber();
  std::size_t negative_zero = 0, uint64_max = 0, edges = 0;
  std::set<std::string> drawn;
  for (std::uint64_t i = 0; i < 3000; ++i) {
    const Json n = gen(rc::Random(i), 30).value();
    drawn.insert(DumpJson(n));
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
  for (const Json& value : NumericEdges()) EXPECT_EQ(drawn.count(DumpJson(value)), 1u) << value;
  for (const Json& value : EdgeNeighbours()) EXPECT_EQ(drawn.count(DumpJson(value)), 1u) << value;
}

// The parallel-calls family draws every id mode, ids of every kind that is not a string, and
// arguments six levels deep.
TEST(ParallelCallsGenerator, DrawsEveryIdModeAndDepth) {
  std::set<std::string> seen;
  const auto gen = genParallelCallsScenario();
  for (std::uint64_t i = 0; i < 1500; ++i) {
    const ParallelCallsScenario s = gen(rc::Random(i), 30).value();
    seen.insert("mode " + std::to_string(static_cast<int>(s.ids)));
    if (s.ids == IdMode::kNotString) seen.insert("id " + DumpJson(s.not_string_id));
    for (const Json& args : s.args_of_group) {
      const std::function<int(const Json&)> depth = [&depth](const Json& v) {
        int below = 0;
        if (!v.is_object() && !v.is_array()) return 1;
        for (const auto& item : v) below = std::max(below, depth(item));
        return below + 1;
      };
      if (depth(args) >= 7) seen.insert("depth 6");
    }
  }
  for (const std::string region : {"mode 0", "mode 1", "mode 2", "mode 3", "mode 4", "mode 5",
                                   "id 7", "id true", "id {\"v\":1}", "id [\"call_1\"]",
                                   "id 1.5", "depth 6"}) {
    EXPECT_EQ(seen.count(region), 1u) << region;
  }
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

}  // namespace
}  // namespace gemini_oracle::generators
