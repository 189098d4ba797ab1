#include "oracles/runner/call_matching.h"

#include <gtest/gtest.h>

namespace gemini_oracle::runner {
namespace {

using model::Exchange;
using model::NamedCall;
using model::ParsedCall;

// An exchange whose answer holds these functionCall parts (JSON text of the parts list).
Exchange Answering(const std::string& parts) {
  Exchange exchange;
  exchange.user = "go";
  exchange.response.body =
      ParseJson(R"({"candidates":[{"content":{"role":"model","parts":)" + parts + "}}]}");
  return exchange;
}

std::vector<std::string> Ids(const std::vector<ParsedCall>& calls) {
  std::vector<std::string> ids;
  for (const auto& call : calls) ids.push_back(call.id);
  return ids;
}

// A reordered list is taken in the order of the parts each call is (ADR-226: "even when their
// generic list is reordered"); a list already in part order is kept; a list with a call lost
// or renamed is left as reported.
TEST(CallsInPartOrder, TakesEachCallForThePartItIs) {
  const Exchange ex = Answering(
      R"([{"functionCall":{"name":"f","args":{"a":1}}},{"functionCall":{"name":"g","args":{}}}])");
  const std::vector<ParsedCall> in_order = {{"tc_1", "f", ParseJson(R"({"a":1})")},
                                            {"tc_2", "g", Json::object()}};
  EXPECT_EQ(Ids(CallsInPartOrder(ex, in_order)), (std::vector<std::string>{"tc_1", "tc_2"}));
  const std::vector<ParsedCall> reordered = {{"tc_2", "g", Json::object()},
                                             {"tc_1", "f", ParseJson(R"({"a":1})")}};
  EXPECT_EQ(Ids(CallsInPartOrder(ex, reordered)), (std::vector<std::string>{"tc_1", "tc_2"}));
  const std::vector<ParsedCall> renamed = {{"tc_2", "h", Json::object()},
                                           {"tc_1", "f", ParseJson(R"({"a":1})")}};
  EXPECT_EQ(Ids(CallsInPartOrder(ex, renamed)), (std::vector<std::string>{"tc_2", "tc_1"}));
  const std::vector<ParsedCall> lost = {{"tc_2", "g", Json::object()}};
  EXPECT_EQ(Ids(CallsInPartOrder(ex, lost)), (std::vector<std::string>{"tc_2"}));
}

// Calls of one name that differ by a nested {} and [] take the part each equals, listed either
// way; two calls handed over alike (both []: the open ADR-224.F1 drift of one) keep parse order.
TEST(CallsInPartOrder, PrefersExactPartsAndKeepsAlikeCallsInOrder) {
  const Exchange ex = Answering(
      R"([{"functionCall":{"name":"f","args":{"a":{}}}},)"
      R"({"functionCall":{"name":"f","args":{"a":[]}}}])");
  const std::vector<ParsedCall> reversed = {{"tc_1", "f", ParseJson(R"({"a":[]})")},
                                            {"tc_2", "f", ParseJson(R"({"a":{}})")}};
  EXPECT_EQ(Ids(CallsInPartOrder(ex, reversed)), (std::vector<std::string>{"tc_2", "tc_1"}));
  const std::vector<ParsedCall> alike = {{"tc_1", "f", ParseJson(R"({"a":[]})")},
                                         {"tc_2", "f", ParseJson(R"({"a":[]})")}};
  EXPECT_EQ(Ids(CallsInPartOrder(ex, alike)), (std::vector<std::string>{"tc_1", "tc_2"}));
}

// Selectors fit a reordered list and an integer handed over as a float (ADR-226.8 finds 1 and
// 1.0 equal); they do not fit a lost call, a renamed one, or, for an `args` selector, a nested
// {} handed over as [].
TEST(SelectorsFit, ReadsTheCallsAsTheSelectorsDo) {
  Exchange ex = Answering(
      R"([{"functionCall":{"name":"f","args":{"a":1,"b":{}}}},{"functionCall":{"name":"g"}}])");
  model::Result by_args;
  by_args.call = NamedCall{"f", ParseJson(R"({"a":1,"b":{}})")};
  model::Result by_index;
  by_index.call = std::size_t{1};
  ex.then.results = {by_args, by_index};
  const ParsedCall f{"tc_1", "f", ParseJson(R"({"a":1,"b":{}})")};
  const ParsedCall g{"tc_2", "g", Json::object()};
  EXPECT_TRUE(SelectorsFit(ex, {f, g}));
  EXPECT_TRUE(SelectorsFit(ex, {g, f}));
  EXPECT_TRUE(SelectorsFit(ex, {{"tc_1", "f", ParseJson(R"({"a":1.0,"b":{}})")}, g}));
  EXPECT_FALSE(SelectorsFit(ex, {f}));
  EXPECT_FALSE(SelectorsFit(ex, {{"tc_1", "h", f.arguments}, g}));
  EXPECT_FALSE(SelectorsFit(ex, {{"tc_1", "f", ParseJson(R"({"a":1,"b":[]})")}, g}));
  model::CallOrder order;
  order.indices = {1, 0};
  ex.then.call_order = order;
  EXPECT_TRUE(SelectorsFit(ex, {f, g}));
  ex.then.results.clear();
  EXPECT_FALSE(SelectorsFit(ex, {f}));
}


// A call in pieces is one call with its assembled args (INTERPRETING §5.6): selectors and the
// part order read it so, `call: 1` being the call after it.
TEST(SelectorsFit, ReadsACallInPiecesAsOneCall) {
  Exchange ex = Answering(R"([)" R"PIECES({"functionCall": {"name": "f", "id": "c1", "willContinue": true}},
      {"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "Par",
                                         "willContinue": true}], "willContinue": true}},
      {"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "is"}],
                        "willContinue": true}},
      {"functionCall": {}},
      {"functionCall": {"name": "g", "args": {}}}])PIECES");
  const std::vector<ParsedCall> reordered = {{"tc_2", "g", Json::object()},
                                             {"tc_1", "f", ParseJson(R"({"city":"Paris"})")}};
  EXPECT_EQ(Ids(CallsInPartOrder(ex, reordered)), (std::vector<std::string>{"tc_1", "tc_2"}));
  ex.then.results.push_back(model::Result{});
  ex.then.results.back().call = NamedCall{"f", ParseJson(R"({"city":"Paris"})")};
  EXPECT_TRUE(SelectorsFit(ex, reordered));
  ex.then.results.back().call = std::size_t{1};
  EXPECT_TRUE(SelectorsFit(ex, reordered));
  // A parse that took the first piece's string for the arguments fits no {name, args} selector.
  ex.then.results.back().call = NamedCall{"f", ParseJson(R"({"city":"Paris"})")};
  const std::vector<ParsedCall> partial = {{"tc_1", "f", ParseJson(R"({"city":"Par"})")},
                                           {"tc_2", "g", Json::object()}};
  EXPECT_FALSE(SelectorsFit(ex, partial));
}

}  // namespace
}  // namespace gemini_oracle::runner
