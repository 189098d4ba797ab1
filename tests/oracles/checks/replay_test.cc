// The replay judge: model contents replay native parts exactly; generic turns carry no ids.
#include "tests/oracles/checks/checks_test_support.h"

namespace gemini_oracle::checks {
namespace {

using testing::MakeCase;
using testing::MakeJournal;
using testing::Places;
using testing::Replace;
using testing::Where;

// An owned carried turn whose native args are a list, and a foreign turn without a capsule.
constexpr std::string_view kCarriedCase = R"({
  "description": "Carried owned and foreign turns replay by their own rules.",
  "clauses": ["ADR-224.7"],
  "transcript": [
    {"role": "user", "content": "start"},
    {"role": "assistant", "id": "turn_1",
     "tool_calls": [{"id": "tc_1", "name": "sum", "arguments": [4, 5]}],
     "provider_state": {"gemini": {"owner": "turn_1",
       "native_parts": [{"functionCall": {"id": "call_S1", "name": "sum", "args": [4, 5]},
                         "thoughtSignature": "c2lnLXN1bQ=="}],
       "tool_call_bindings": [{"tool_call_id": "tc_1", "native_id": "call_S1"}]}}},
    {"role": "tool", "tool_call_id": "tc_1", "name": "sum", "content": "9"},
    {"role": "assistant", "id": "turn_2",
     "tool_calls": [{"id": "tc_2", "name": "echo", "arguments": {}}],
     "provider_state": {"openai": {"id": "call_foreign"}}},
    {"role": "tool", "tool_call_id": "tc_2", "name": "echo", "content": "ok"}],
  "exchanges": [{"user": "go on",
    "response": {"body": {"candidates": [{"content": {"role": "model",
      "parts": [{"text": "done"}]}}]}}}],
  "expect": {"outcome": "accept", "requests": 1}
})";

const std::string kCarriedRequest1 =
    R"({"contents":[{"role":"user","parts":[{"text":"start"}]},)"
    R"({"role":"model","parts":[{"functionCall":{"id":"call_S1","name":"sum",)"
    R"("args":{"0":4,"1":5}},"thoughtSignature":"c2lnLXN1bQ=="}]},)"
    R"({"role":"user","parts":[{"functionResponse":{"id":"call_S1","name":"sum",)"
    R"("response":{"output":9}}}]},)"
    R"({"role":"model","parts":[{"functionCall":{"name":"echo","args":{}}}]},)"
    R"({"role":"user","parts":[{"functionResponse":{"name":"echo","response":{"output":"ok"}}}]},)"
    R"({"role":"user","parts":[{"text":"go on"}]}]})";

std::vector<Finding> JudgeParallelSecondRequest(const std::string& request2) {
  return testing::OnParallelRun(&JudgeReplay, request2);
}

std::vector<Finding> JudgeCarried(const std::string& request1) {
  const auto c = MakeCase(kCarriedCase);
  const auto journal = MakeJournal({request1});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange());
  return JudgeReplay({c, journal, report});
}

// Finds nothing when fresh parts replay with signature, ids and floats intact.
TEST(Replay, AcceptsExactFreshReplay) {
  const auto findings = JudgeParallelSecondRequest(testing::kParallelRequest2);
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Finds nothing when carried list args become the numeric-key object and foreign turns lose ids.
TEST(Replay, AcceptsCarriedListArgsAsNumericKeys) {
  const auto findings = JudgeCarried(kCarriedRequest1);
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Reports a dropped thought signature at its part (ADR-224.8).
TEST(Replay, ReportsDroppedSignature) {
  const auto findings = JudgeParallelSecondRequest(
      Replace(testing::kParallelRequest2, R"(,"thoughtSignature":"c2lnLWFscGhh")", ""));
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.8", "/contents/1/parts/0/thoughtSignature"}}))
      << Describe(findings);
}

// Reports a signature copied onto the sibling call (ADR-224.8).
TEST(Replay, ReportsSignatureCopiedToSibling) {
  const auto findings = JudgeParallelSecondRequest(
      Replace(testing::kParallelRequest2, R"("name":"lookup","args":{}}})",
              R"("name":"lookup","args":{}},"thoughtSignature":"c2lnLWFscGhh"})"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.8", "/contents/1/parts/1/thoughtSignature"}}))
      << Describe(findings);
}

// Reports a dropped native functionCall.id on replay (ADR-224.8).
TEST(Replay, ReportsDroppedNativeId) {
  const auto findings = JudgeParallelSecondRequest(
      Replace(testing::kParallelRequest2, R"({"id":"call_B2","name":"lookup","args")",
              R"({"name":"lookup","args")"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.8", "/contents/1/parts/1/functionCall/id"}}))
      << Describe(findings);
}

// Reports a dropped part as a count mismatch (ADR-224.8).
TEST(Replay, ReportsDroppedPart) {
  const auto findings = JudgeParallelSecondRequest(
      Replace(testing::kParallelRequest2,
              R"(,{"functionCall":{"id":"call_B2","name":"lookup","args":{}}}]})", "]}"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.8", "/contents/1/parts"}})) << Describe(findings);
}

// Reports an integral float replayed as an integer under ADR-224.8 (must): ADR-226 "freshly
// captured native parts retain floats", and ADR-224 "Preserve native order, signatures and
// every other member".
TEST(Replay, ReportsNumericKindDriftInNativeArgs) {
  const auto findings =
      JudgeParallelSecondRequest(Replace(testing::kParallelRequest2, R"("n":1.0)", R"("n":1)"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.8", "/contents/1/parts/0/functionCall/args/n"}}))
      << Describe(findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].level, "must");
}

// Reports a replayed argument value that changed (ADR-224.8).
TEST(Replay, ReportsChangedArgument) {
  const auto findings = JudgeParallelSecondRequest(
      Replace(testing::kParallelRequest2, R"("q":"alpha")", R"("q":"beta")"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.8", "/contents/1/parts/0/functionCall/args/q"}}))
      << Describe(findings);
}

// Reports carried list args replayed as a list (ADR-224.7).
TEST(Replay, ReportsCarriedListArgsSentAsList) {
  const auto findings =
      JudgeCarried(Replace(kCarriedRequest1, R"("args":{"0":4,"1":5})", R"("args":[4,5])"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.7", "/contents/1/parts/0/functionCall/args"}}))
      << Describe(findings);
}

// Reports an id on a foreign turn's rebuilt call (ADR-226.16).
TEST(Replay, ReportsIdOnForeignTurn) {
  const auto findings = JudgeCarried(Replace(kCarriedRequest1, R"({"name":"echo","args":{}})",
                                             R"({"id":"call_foreign","name":"echo","args":{}})"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.16", "/contents/3/parts/0/functionCall/id"}}))
      << Describe(findings);
}

// A foreign turn rebuilt as a call in pieces is judged as its assembled call (wire_view.h,
// INTERPRETING §5.6): args set by a later piece differ from the generic call's arguments
// (ADR-224.10), and an id on a later piece is an id all the same (ADR-226.16). Positive
// control: pieces that assemble the call's own arguments, without ids, pass.
TEST(Replay, JudgesAForeignTurnInPiecesAsItsAssembledCall) {
  const std::string whole = R"({"functionCall":{"name":"echo","args":{}}})";
  const auto pieces = [&](const std::string& later) {
    return JudgeCarried(Replace(kCarriedRequest1, whole,
                                R"({"functionCall":{"name":"echo","args":{},"willContinue":true}},)"
                                R"({"functionCall":{)" + later + "}}"));
  };
  const auto same = pieces(R"("args":{})");
  EXPECT_TRUE(same.empty()) << Describe(same);
  const auto later_args =
      pieces(R"("partialArgs":[{"jsonPath":"$.x","stringValue":"y"}])");
  EXPECT_EQ(Where(later_args), (Places{{"ADR-224.10", "/contents/3/parts/0/functionCall/args/x"}}))
      << Describe(later_args);
  const auto later_id = pieces(R"("id":"call_foreign")");
  EXPECT_EQ(Where(later_id), (Places{{"ADR-226.16", "/contents/3/parts/1/functionCall/id"}}))
      << Describe(later_id);
}

// Reports a dropped carried turn as a model-turn count mismatch (ADR-224.8).
TEST(Replay, ReportsDroppedTurn) {
  const auto findings = JudgeCarried(
      Replace(kCarriedRequest1,
              R"({"role":"model","parts":[{"functionCall":{"name":"echo","args":{}}}]},)", ""));
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0].clause, "ADR-224.8");
  EXPECT_EQ(findings[0].pointer, "/contents");
}

// ---------------------------------------------------------------------------------------------
// A fresh call whose native args nest an object, a list and an integral float, and a call
// without args (Google itself sends `args: {}` for calls without arguments).

constexpr std::string_view kNestedCase = R"({
  "description": "Nested native args and an argument-less call replay as received.",
  "clauses": ["ADR-224.8"],
  "exchanges": [
    {"user": "go",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"name": "f", "args": {"box": {}, "dims": [1, 2], "n": 2.0}}},
       {"functionCall": {"name": "g"}}]}}]}},
     "then": {"results": [{"call": 0, "json": {"f": 1}}, {"call": 1, "json": {"g": 1}}]}},
    {"response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "done"}]}}]}}}],
  "expect": {"outcome": "accept", "requests": 2}
})";

const std::string kNestedRequest2 =
    R"({"contents":[{"role":"user","parts":[{"text":"go"}]},)"
    R"({"role":"model","parts":[{"functionCall":{"name":"f",)"
    R"("args":{"box":{},"dims":[1,2],"n":2.0}}},{"functionCall":{"name":"g"}}]},)"
    R"({"role":"user","parts":[{"functionResponse":{"name":"f","response":{"f":1}}},)"
    R"({"functionResponse":{"name":"g","response":{"g":1}}}]}]})";

std::vector<Finding> JudgeNested(const std::string& request2) {
  const auto c = MakeCase(kNestedCase);
  const auto journal =
      MakeJournal({R"({"contents":[{"role":"user","parts":[{"text":"go"}]}]})", request2});
  model::DriverReport report;
  return JudgeReplay({c, journal, report});
}

// Finds nothing for an exact replay, and for a call without args replayed with `args: {}`
// (the same empty Struct).
TEST(Replay, AcceptsEmptyArgsAddedToArglessCall) {
  EXPECT_TRUE(JudgeNested(kNestedRequest2).empty()) << Describe(JudgeNested(kNestedRequest2));
  const auto findings = JudgeNested(Replace(kNestedRequest2, R"({"functionCall":{"name":"g"}})",
                                            R"({"functionCall":{"name":"g","args":{}}})"));
  EXPECT_TRUE(findings.empty()) << Describe(findings);
  // Arguments the native call did not have are another matter (ADR-224.8).
  EXPECT_EQ(Where(JudgeNested(Replace(kNestedRequest2, R"({"functionCall":{"name":"g"}})",
                                      R"({"functionCall":{"name":"g","args":{"x":1}}})"))),
            (Places{{"ADR-224.8", "/contents/1/parts/1/functionCall/args"}}));
}

// Reports a nested {} replayed as [] under the open ADR-224.F1, a nested list cast into an
// object under ADR-224.6, and an integral float replayed as an integer under ADR-224.8, also
// when an open drift comes first in the document.
TEST(Replay, ReportsNestedKindDriftsByOneRule) {
  EXPECT_EQ(Where(JudgeNested(Replace(kNestedRequest2, R"("box":{})", R"("box":[])"))),
            (Places{{"ADR-224.F1", "/contents/1/parts/0/functionCall/args/box"}}));
  EXPECT_EQ(
      Where(JudgeNested(Replace(kNestedRequest2, R"("dims":[1,2])", R"("dims":{"0":1,"1":2})"))),
      (Places{{"ADR-224.6", "/contents/1/parts/0/functionCall/args/dims"}}));
  EXPECT_EQ(Where(JudgeNested(Replace(kNestedRequest2, R"("n":2.0)", R"("n":2)"))),
            (Places{{"ADR-224.8", "/contents/1/parts/0/functionCall/args/n"}}));
  std::string both = Replace(kNestedRequest2, R"("box":{})", R"("box":[])");
  both = Replace(both, R"("n":2.0)", R"("n":2)");
  EXPECT_EQ(Where(JudgeNested(both)),
            (Places{{"ADR-224.8", "/contents/1/parts/0/functionCall/args/n"}}));
}

// ---------------------------------------------------------------------------------------------
// An ID-less fresh call after a carried owned turn whose native id the server did send.

constexpr std::string_view kIdlessAfterOwnedCase = R"({
  "description": "An ID-less fresh call replays without the earlier turn's native id.",
  "clauses": ["ADR-226.4"],
  "transcript": [
    {"role": "user", "content": "start"},
    {"role": "assistant", "id": "turn_1",
     "tool_calls": [{"id": "tc_1", "name": "sum", "arguments": {"a": 4}}],
     "provider_state": {"gemini": {"owner": "turn_1",
       "native_parts": [{"functionCall": {"id": "call_S1", "name": "sum", "args": {"a": 4}}}],
       "tool_call_bindings": [{"tool_call_id": "tc_1", "native_id": "call_S1"}]}}},
    {"role": "tool", "tool_call_id": "tc_1", "name": "sum", "content": "4"}],
  "exchanges": [
    {"user": "again",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"name": "sum", "args": {"a": 5}}}]}}]}},
     "then": {"results": [{"call": 0, "json": {"total": 5}}]}},
    {"response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "done"}]}}]}}}],
  "expect": {"outcome": "accept", "requests": 2}
})";

const std::string kIdlessAfterOwnedRequest1 =
    R"({"contents":[{"role":"user","parts":[{"text":"start"}]},)"
    R"({"role":"model","parts":[{"functionCall":{"id":"call_S1","name":"sum","args":{"a":4}}}]},)"
    R"({"role":"user","parts":[{"functionResponse":{"id":"call_S1","name":"sum",)"
    R"("response":{"output":4}}}]},)"
    R"({"role":"user","parts":[{"text":"again"}]}]})";

const std::string kIdlessAfterOwnedRequest2 =
    R"({"contents":[{"role":"user","parts":[{"text":"start"}]},)"
    R"({"role":"model","parts":[{"functionCall":{"id":"call_S1","name":"sum","args":{"a":4}}}]},)"
    R"({"role":"user","parts":[{"functionResponse":{"id":"call_S1","name":"sum",)"
    R"("response":{"output":4}}}]},)"
    R"({"role":"user","parts":[{"text":"again"}]},)"
    R"({"role":"model","parts":[{"functionCall":{"name":"sum","args":{"a":5}}}]},)"
    R"({"role":"user","parts":[{"functionResponse":{"name":"sum","response":{"total":5}}}]}]})";

// Reports an earlier turn's native id added to a replayed ID-less call (226.4), which the ids
// judge cannot tell from a legitimate echo because the server did send that id.
TEST(Replay, ReportsEarlierTurnIdAddedToIdlessCall) {
  const auto c = MakeCase(kIdlessAfterOwnedCase);
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange({testing::Call("tc_2", "sum", R"({"a":5})")}));
  report.exchanges.push_back(testing::Exchange());
  const auto good = MakeJournal({kIdlessAfterOwnedRequest1, kIdlessAfterOwnedRequest2});
  EXPECT_TRUE(JudgeReplay({c, good, report}).empty()) << Describe(JudgeReplay({c, good, report}));
  const auto bad = MakeJournal(
      {kIdlessAfterOwnedRequest1,
       Replace(kIdlessAfterOwnedRequest2, R"({"functionCall":{"name":"sum","args":{"a":5}}})",
               R"({"functionCall":{"id":"call_S1","name":"sum","args":{"a":5}}})")});
  const auto findings = JudgeReplay({c, bad, report});
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.4", "/contents/4/parts/0/functionCall/id"}}))
      << Describe(findings);
  EXPECT_TRUE(JudgeIds({c, bad, report}).empty());
}

// Reports a sibling's native id added to an ID-less parallel call (226.4).
TEST(Replay, ReportsSiblingIdAddedToIdlessCall) {
  constexpr std::string_view kCase = R"({
    "description": "An ID-less parallel call replays without its sibling's id.",
    "clauses": ["ADR-226.4"],
    "exchanges": [
      {"user": "both",
       "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
         {"functionCall": {"id": "call_A1", "name": "f", "args": {}}},
         {"functionCall": {"name": "g", "args": {}}}]}}]}},
       "then": {"results": [{"call": 0, "json": {"f": 1}}, {"call": 1, "json": {"g": 1}}]}},
      {"response": {"body": {"candidates": [{"content": {"role": "model",
         "parts": [{"text": "done"}]}}]}}}],
    "expect": {"outcome": "accept", "requests": 2}
  })";
  const std::string request2 =
      R"({"contents":[{"role":"user","parts":[{"text":"both"}]},)"
      R"({"role":"model","parts":[{"functionCall":{"id":"call_A1","name":"f","args":{}}},)"
      R"({"functionCall":{"id":"call_A1","name":"g","args":{}}}]},)"
      R"({"role":"user","parts":[{"functionResponse":{"id":"call_A1","name":"f",)"
      R"("response":{"f":1}}},{"functionResponse":{"name":"g","response":{"g":1}}}]}]})";
  const auto c = MakeCase(kCase);
  const auto journal =
      MakeJournal({R"({"contents":[{"role":"user","parts":[{"text":"both"}]}]})", request2});
  model::DriverReport report;
  const auto findings = JudgeReplay({c, journal, report});
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.4", "/contents/1/parts/1/functionCall/id"}}))
      << Describe(findings);
}

// ---------------------------------------------------------------------------------------------
// A generic turn (no capsule) with text, a list argument holding a nested list, and an object
// argument with a nested list and a nested empty object.

constexpr std::string_view kGenericCase = R"({
  "description": "A generic turn is rebuilt from its tool calls.",
  "clauses": ["ADR-224.10"],
  "transcript": [
    {"role": "user", "content": "start"},
    {"role": "assistant", "id": "turn_1", "content": "Let me check.",
     "tool_calls": [{"id": "tc_1", "name": "pick", "arguments": ["apple", ["x", "y"]]},
                    {"id": "tc_2", "name": "scale", "arguments": {"w": 2, "dims": [1, 0], "box": {}}}]},
    {"role": "tool", "tool_call_id": "tc_1", "name": "pick", "content": "{\"basket\": 2}"},
    {"role": "tool", "tool_call_id": "tc_2", "name": "scale", "content": "scaled"}],
  "exchanges": [{"user": "go on",
    "response": {"body": {"candidates": [{"content": {"role": "model",
      "parts": [{"text": "done"}]}}]}}}],
  "expect": {"outcome": "accept", "requests": 1}
})";

const std::string kGenericRequest1 =
    R"({"contents":[{"role":"user","parts":[{"text":"start"}]},)"
    R"({"role":"model","parts":[{"text":"Let me check."},)"
    R"({"functionCall":{"name":"pick","args":{"0":"apple","1":["x","y"]}}},)"
    R"({"functionCall":{"name":"scale","args":{"w":2,"dims":[1,0],"box":{}}}}]},)"
    R"({"role":"user","parts":[{"functionResponse":{"name":"pick","response":{"basket":2}}},)"
    R"({"functionResponse":{"name":"scale","response":{"output":"scaled"}}}]},)"
    R"({"role":"user","parts":[{"text":"go on"}]}]})";

std::vector<Finding> JudgeGeneric(const std::string& request1) {
  const auto c = MakeCase(kGenericCase);
  const auto journal = MakeJournal({request1});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange());
  return JudgeReplay({c, journal, report});
}

// Finds nothing when the generic calls are rebuilt in order, a list argument as numeric keys.
TEST(GenericReplay, AcceptsRebuiltCalls) {
  const auto findings = JudgeGeneric(kGenericRequest1);
  EXPECT_TRUE(findings.empty()) << Describe(findings);
  // ADR-226.8: an integral float equals the integer argument.
  EXPECT_TRUE(JudgeGeneric(Replace(kGenericRequest1, R"("w":2,)", R"("w":2.0,)")).empty());
  // The results judge finds the carried answers of the generic turn, without ids, too.
  const auto c = MakeCase(kGenericCase);
  const auto journal = MakeJournal({kGenericRequest1});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange());
  EXPECT_TRUE(JudgeResults({c, journal, report}).empty())
      << Describe(JudgeResults({c, journal, report}));
}

// Reports a list argument sent as a list instead of the numeric-key object (224.10).
TEST(GenericReplay, ReportsListArgsNotObject) {
  const auto findings = JudgeGeneric(Replace(
      kGenericRequest1, R"("args":{"0":"apple","1":["x","y"]})", R"("args":["apple",["x","y"]])"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.10", "/contents/1/parts/1/functionCall/args"}}))
      << Describe(findings);
}

// Reports a dropped generic call as a count mismatch (224.10).
TEST(GenericReplay, ReportsDroppedCall) {
  const auto findings = JudgeGeneric(
      Replace(kGenericRequest1,
              R"(,{"functionCall":{"name":"scale","args":{"w":2,"dims":[1,0],"box":{}}}})", ""));
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.10", "/contents/1/parts"}})) << Describe(findings);
}

// Reports generic calls rebuilt out of order, by name (224.10).
TEST(GenericReplay, ReportsCallsOutOfOrder) {
  std::string request1 =
      Replace(kGenericRequest1,
              R"({"functionCall":{"name":"pick","args":{"0":"apple","1":["x","y"]}}})", "PICK");
  request1 =
      Replace(request1, R"({"functionCall":{"name":"scale","args":{"w":2,"dims":[1,0],"box":{}}}})",
              R"({"functionCall":{"name":"pick","args":{"0":"apple","1":["x","y"]}}})");
  request1 = Replace(request1, "PICK",
                     R"({"functionCall":{"name":"scale","args":{"w":2,"dims":[1,0],"box":{}}}})");
  EXPECT_EQ(Where(JudgeGeneric(request1)),
            (Places{{"ADR-224.10", "/contents/1/parts/1/functionCall/name"},
                    {"ADR-224.10", "/contents/1/parts/2/functionCall/name"}}));
}

// Reports a renamed generic call (224.10).
TEST(GenericReplay, ReportsRenamedCall) {
  const auto findings = JudgeGeneric(
      Replace(kGenericRequest1, R"({"name":"scale","args")", R"({"name":"resize","args")"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.10", "/contents/1/parts/2/functionCall/name"}}))
      << Describe(findings);
}

// Reports changed, dropped and re-typed argument values (224.10, ADR-226.8 rule).
TEST(GenericReplay, ReportsChangedArguments) {
  EXPECT_EQ(Where(JudgeGeneric(Replace(kGenericRequest1, R"("w":2,)", R"("w":3,)"))),
            (Places{{"ADR-224.10", "/contents/1/parts/2/functionCall/args/w"}}));
  EXPECT_EQ(Where(JudgeGeneric(Replace(kGenericRequest1, R"("w":2,)", R"("w":"2",)"))),
            (Places{{"ADR-224.10", "/contents/1/parts/2/functionCall/args/w"}}));
  EXPECT_EQ(Where(JudgeGeneric(Replace(kGenericRequest1, R"(,"box":{})", ""))),
            (Places{{"ADR-224.10", "/contents/1/parts/2/functionCall/args/box"}}));
  EXPECT_EQ(Where(JudgeGeneric(Replace(kGenericRequest1, R"("0":"apple")", R"("0":"pear")"))),
            (Places{{"ADR-224.10", "/contents/1/parts/1/functionCall/args/0"}}));
}

// Reports a nested {} rebuilt as [] in a generic turn under the open ADR-224.F1 (one rule for
// every judge), not ADR-224.10.
TEST(GenericReplay, ReportsNestedObjectTurnedListAsOpen) {
  const auto findings = JudgeGeneric(Replace(kGenericRequest1, R"("box":{})", R"("box":[])"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.F1", "/contents/1/parts/2/functionCall/args/box"}}))
      << Describe(findings);
}

// Reports nested lists cast into objects, in an object and in a list argument (224.6).
TEST(GenericReplay, ReportsNestedListTurnedObject) {
  EXPECT_EQ(
      Where(JudgeGeneric(Replace(kGenericRequest1, R"("dims":[1,0])", R"("dims":{"0":1,"1":0})"))),
      (Places{{"ADR-224.6", "/contents/1/parts/2/functionCall/args/dims"}}));
  EXPECT_EQ(Where(JudgeGeneric(
                Replace(kGenericRequest1, R"("1":["x","y"])", R"("1":{"0":"x","1":"y"})"))),
            (Places{{"ADR-224.6", "/contents/1/parts/1/functionCall/args/1"}}));
}

// A native args root that is a string (i_function_call_args_string) has no defined replay form:
// only the object root is judged (ADR-224.7); the exact comparison is a not-judged note.
constexpr std::string_view kStringArgsCase = R"({
  "description": "A functionCall whose args is a string.",
  "clauses": ["ADR-224.7"],
  "rationale": "open",
  "exchanges": [
    {"user": "go",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"name": "weather", "args": "{\"city\": \"Paris\"}"}}]}}]}},
     "then": {"results": [{"call": 0, "json": {"ok": true}}]}},
    {"response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "done"}]}}]}}}],
  "expect": {"outcome": "implementation_defined", "note": "open", "requests": 2}
})";

std::vector<Finding> JudgeStringArgs(std::string_view replayed_args) {
  const auto c = MakeCase(kStringArgsCase, "i_case.json");
  const auto journal =
      MakeJournal({R"({"contents":[{"role":"user","parts":[{"text":"go"}]}]})",
                   R"({"contents":[{"role":"user","parts":[{"text":"go"}]},)"
                   R"({"role":"model","parts":[{"functionCall":{"name":"weather","args":)" +
                       std::string(replayed_args) +
                       R"(}}]},{"role":"user","parts":[{"functionResponse":{"name":"weather",)"
                       R"("response":{"ok":true}}}]}]})"});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange({testing::Call("tc_1", "weather", "{}")}));
  report.exchanges.push_back(testing::Exchange());
  return JudgeReplay({c, journal, report});
}

TEST(Replay, DoesNotJudgeExactReplayOfScalarArgsRoot) {
  for (const std::string_view replayed : {R"({"city":"Paris"})", "{}", R"({"0":"x"})"}) {
    const auto findings = JudgeStringArgs(replayed);
    ASSERT_EQ(findings.size(), 1u) << Describe(findings);
    EXPECT_EQ(findings[0].clause, "ADR-224.8");
    EXPECT_EQ(ReasonTag(findings[0]), kNotJudged);
  }
}

TEST(Replay, ReportsScalarArgsRootReplayedAsNonObject) {
  EXPECT_EQ(Where(JudgeStringArgs(R"("{\"city\": \"Paris\"}")")),
            (Places{{"ADR-224.7", "/contents/1/parts/0/functionCall/args"}}));
  EXPECT_EQ(Where(JudgeStringArgs(R"(["Paris"])")),
            (Places{{"ADR-224.7", "/contents/1/parts/0/functionCall/args"}}));
}

// A call in pieces is replayed as its pieces, verbatim and in order (INTERPRETING §5.6: "Every
// piece, verbatim, in its place").
TEST(ReplayOfCallInPieces, AcceptsThePiecesVerbatim) {
  const auto findings = testing::OnPiecesRun(JudgeReplay, testing::kPiecesRequest2);
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// One assembled part instead of the pieces is a part Gemini never sent (ADR-224.8), and so are
// pieces out of order or a piece dropped.
TEST(ReplayOfCallInPieces, ReportsAssembledOrReorderedPieces) {
  const std::string answers = testing::kAnswerF + "," + testing::kAnswerG;
  const std::string assembled =
      R"({"functionCall":{"name":"f","id":"c1","args":{"city":"Paris"}}},)" + testing::kWholeG;
  for (const std::string& parts :
       {assembled,
        testing::kPiece0 + "," + testing::kPiece2 + "," + testing::kPiece1 + "," +
            testing::kPiece3 + "," + testing::kWholeG,
        testing::kPiece0 + "," + testing::kPiece1 + "," + testing::kPiece2 + "," +
            testing::kWholeG}) {
    const auto findings =
        testing::OnPiecesRun(JudgeReplay, testing::PiecesRequest2(parts, answers));
    ASSERT_FALSE(findings.empty()) << parts;
    for (const auto& f : findings) EXPECT_EQ(f.clause, "ADR-224.8") << Describe(findings);
  }
}

}  // namespace
}  // namespace gemini_oracle::checks
