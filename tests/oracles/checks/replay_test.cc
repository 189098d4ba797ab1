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
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, request2});
  const auto report = testing::ParallelReport();
  return JudgeReplay({c, journal, report});
}

std::vector<Finding> JudgeCarried(const std::string& request1) {
  const auto c = MakeCase(kCarriedCase);
  const auto journal = MakeJournal({request1});
  runner::DriverReport report;
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

// Reports an integral float replayed as an integer only as open finding ADR-224.F1.
TEST(Replay, ReportsNumericKindDriftAsOpen) {
  const auto findings =
      JudgeParallelSecondRequest(Replace(testing::kParallelRequest2, R"("n":1.0)", R"("n":1)"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.F1", "/contents/1/parts/0/functionCall/args/n"}}))
      << Describe(findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].level, "open");
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

// Reports a dropped carried turn as a model-turn count mismatch (ADR-224.8).
TEST(Replay, ReportsDroppedTurn) {
  const auto findings = JudgeCarried(
      Replace(kCarriedRequest1,
              R"({"role":"model","parts":[{"functionCall":{"name":"echo","args":{}}}]},)", ""));
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0].clause, "ADR-224.8");
  EXPECT_EQ(findings[0].pointer, "/contents");
}

}  // namespace
}  // namespace gemini_oracle::checks
