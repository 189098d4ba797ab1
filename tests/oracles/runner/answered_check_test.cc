#include "oracles/runner/answered_check.h"

#include <gtest/gtest.h>

namespace gemini_oracle::runner {
namespace {

// Two calls of one name that differ by a nested {} and []: results [0] answers call 0 ({}),
// [1] answers call 1 ([]).
model::Case NestedKindCase() {
  model::Case c;
  c.id = "adr-226/y_nested_kinds";
  model::Exchange exchange;
  exchange.user = "go";
  exchange.response.body = ParseJson(
      R"({"candidates":[{"content":{"role":"model","parts":[)"
      R"({"functionCall":{"name":"f","args":{"a":{}}}},)"
      R"({"functionCall":{"name":"f","args":{"a":[]}}}]}}]})");
  model::Result first;
  first.call = std::size_t{0};
  first.value = ParseJson(R"({"r":0})");
  model::Result second;
  second.call = std::size_t{1};
  second.value = ParseJson(R"({"r":1})");
  exchange.then.results = {first, second};
  c.exchanges.push_back(exchange);
  return c;
}

model::DriverReport Answered(std::vector<model::ParsedCall> calls,
                             std::vector<model::AnsweredCall> answered) {
  model::DriverReport report;
  auto& exchange = report.exchanges.emplace_back();
  exchange.request_built = exchange.response_parsed = true;
  exchange.calls = std::move(calls);
  exchange.answered = std::move(answered);
  return report;
}

// Each reported call is the part it equals, listed in either order: results handed to those
// calls are right, and a result handed to the other call (which only drifts from the selected
// one by an open kind, so is not identical to it) is the driver's error, said in positions.
TEST(AnsweredCalls, PairsByThePartEachCallIs) {
  const auto c = NestedKindCase();
  const model::ParsedCall object{"tc_1", "f", ParseJson(R"({"a":{}})")};
  const model::ParsedCall list{"tc_2", "f", ParseJson(R"({"a":[]})")};
  EXPECT_FALSE(CheckAnsweredCalls(c, Answered({object, list}, {{0, "tc_1"}, {1, "tc_2"}})));
  EXPECT_FALSE(CheckAnsweredCalls(c, Answered({list, object}, {{0, "tc_1"}, {1, "tc_2"}})));
  const auto crossed = CheckAnsweredCalls(c, Answered({object, list}, {{0, "tc_2"}}));
  ASSERT_TRUE(crossed.has_value());
  EXPECT_NE(crossed->find("the case selects call 0"), std::string::npos) << *crossed;
  EXPECT_EQ(crossed->find("tc_"), std::string::npos) << *crossed;
  // Calls handed over alike (both []) are identical: either may take either result.
  const model::ParsedCall list_too{"tc_1", "f", ParseJson(R"({"a":[]})")};
  EXPECT_FALSE(CheckAnsweredCalls(c, Answered({list_too, list}, {{0, "tc_2"}, {1, "tc_1"}})));
}


// A call in pieces (INTERPRETING §5.6) then a whole call of the same name: `call: 1` selects the
// whole call, not the second piece. Results handed to the calls they select are right, and
// handing the whole call's result to the call in pieces is the driver's error.
TEST(AnsweredCalls, SelectorsCountACallInPiecesOnce) {
  model::Case c;
  c.id = "streaming/y_pieces";
  model::Exchange exchange;
  exchange.user = "go";
  exchange.response.body = ParseJson(
      R"({"candidates":[{"content":{"role":"model","parts":[)"
      R"({"functionCall":{"name":"f","willContinue":true}},)"
      R"({"functionCall":{"partialArgs":[{"jsonPath":"$.a","numberValue":1}]}},)"
      R"({"functionCall":{"name":"f","args":{"a":2}}}]}}]})");
  model::Result first;
  first.call = std::size_t{0};
  first.value = ParseJson(R"({"r":0})");
  model::Result second;
  second.call = std::size_t{1};
  second.value = ParseJson(R"({"r":1})");
  exchange.then.results = {first, second};
  c.exchanges.push_back(exchange);
  const model::ParsedCall pieces{"tc_1", "f", ParseJson(R"({"a":1})")};
  const model::ParsedCall whole{"tc_2", "f", ParseJson(R"({"a":2})")};
  EXPECT_FALSE(CheckAnsweredCalls(c, Answered({pieces, whole}, {{0, "tc_1"}, {1, "tc_2"}})));
  EXPECT_FALSE(CheckAnsweredCalls(c, Answered({whole, pieces}, {{0, "tc_1"}, {1, "tc_2"}})));
  const auto crossed = CheckAnsweredCalls(c, Answered({pieces, whole}, {{1, "tc_1"}}));
  ASSERT_TRUE(crossed.has_value());
  EXPECT_NE(crossed->find("the case selects call 1"), std::string::npos) << *crossed;
}

}  // namespace
}  // namespace gemini_oracle::runner
