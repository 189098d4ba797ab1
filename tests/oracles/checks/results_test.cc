// The results judge: each result's functionResponse, found by payload, in one user content.
#include "tests/oracles/checks/checks_test_support.h"

namespace gemini_oracle::checks {
namespace {

using testing::MakeCase;
using testing::MakeJournal;
using testing::Places;
using testing::Replace;
using testing::Where;

std::vector<Finding> JudgeParallelSecondRequest(const std::string& request2) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, request2});
  const auto report = testing::ParallelReport();
  return JudgeResults({c, journal, report});
}

std::vector<Finding> JudgeIdlessSecondRequest(const std::string& request2) {
  const auto c = MakeCase(testing::kIdlessCase);
  const auto journal = MakeJournal({testing::kIdlessRequest1, request2});
  const auto report = testing::IdlessReport();
  return JudgeResults({c, journal, report});
}

// Finds nothing when reversed results come back by native id in one user content.
TEST(Results, AcceptsEchoedIdsInOneContent) {
  const auto findings = JudgeParallelSecondRequest(testing::kParallelRequest2);
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Finds nothing when an ID-less call's text result is wrapped without an id.
TEST(Results, AcceptsIdlessTextResult) {
  const auto findings = JudgeIdlessSecondRequest(testing::kIdlessRequest2);
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Accepts any wrapping key for a text result (ADR-224.5).
TEST(Results, AcceptsOtherWrappingKey) {
  const auto findings =
      JudgeIdlessSecondRequest(Replace(testing::kIdlessRequest2, R"({"output":"sunny and mild"})",
                                       R"({"result":"sunny and mild"})"));
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Reports a functionResponse that omits its call's native id (ADR-226.3).
TEST(Results, ReportsMissingIdEcho) {
  const auto findings = JudgeParallelSecondRequest(
      Replace(testing::kParallelRequest2, R"({"id":"call_A1","name":"lookup","response")",
              R"({"name":"lookup","response")"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.3", "/contents/2/parts/0/functionResponse"}}))
      << Describe(findings);
}

// Reports both answers when the native ids are swapped between them (ADR-226.3).
TEST(Results, ReportsSwappedIds) {
  std::string request2 =
      Replace(testing::kParallelRequest2, R"({"id":"call_A1","name":"lookup","response")",
              R"({"id":"call_XX","name":"lookup","response")");
  request2 = Replace(request2, R"({"id":"call_B2","name":"lookup","response")",
                     R"({"id":"call_A1","name":"lookup","response")");
  request2 = Replace(request2, R"("call_XX")", R"("call_B2")");
  const auto findings = JudgeParallelSecondRequest(request2);
  // Findings follow the listed results, which answer call 1 first.
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.3", "/contents/2/parts/1/functionResponse/id"},
                                     {"ADR-226.3", "/contents/2/parts/0/functionResponse/id"}}))
      << Describe(findings);
}

// Reports an id made up for an ID-less call (ADR-226.4).
TEST(Results, ReportsMadeUpId) {
  const auto findings = JudgeIdlessSecondRequest(
      Replace(testing::kIdlessRequest2, R"({"functionResponse":{"name":"weather",)",
              R"({"functionResponse":{"id":"weather-1","name":"weather",)"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.4", "/contents/2/parts/0/functionResponse/id"}}))
      << Describe(findings);
}

// Reports answers split over two user contents (one response turn, ADR-226.20).
TEST(Results, ReportsResponsesSplitOverTwoContents) {
  const auto findings = JudgeParallelSecondRequest(
      Replace(testing::kParallelRequest2, R"("response":{"found":true}}},{"functionResponse")",
              R"("response":{"found":true}}}]},{"role":"user","parts":[{"functionResponse")"));
  EXPECT_EQ(Where(findings),
            (Places{{"ADR-226.20", "/contents/3"}, {"ADR-226.20", "/contents/2/parts"}}))
      << Describe(findings);
}

// Reports a list result sent as a response list (ADR-224.4).
TEST(Results, ReportsListResultSentAsList) {
  const auto findings = JudgeParallelSecondRequest(Replace(
      testing::kParallelRequest2, R"("response":{"0":1,"1":[2,3]})", R"("response":[1,[2,3]])"));
  EXPECT_EQ(Where(findings),
            (Places{{"ADR-224.4", "/contents/2/parts/1/functionResponse/response"}}))
      << Describe(findings);
}

// Reports a nested list turned into an object inside a list result (ADR-224.6).
TEST(Results, ReportsNestedListTurnedObject) {
  const auto findings = JudgeParallelSecondRequest(
      Replace(testing::kParallelRequest2, R"("1":[2,3])", R"("1":{"0":2,"1":3})"));
  EXPECT_EQ(Where(findings),
            (Places{{"ADR-224.6", "/contents/2/parts/1/functionResponse/response/1"}}))
      << Describe(findings);
}

// Reports an object result whose member changed kind (ADR-224.3).
TEST(Results, ReportsRetypedMember) {
  const auto findings = JudgeParallelSecondRequest(
      Replace(testing::kParallelRequest2, R"({"found":true})", R"({"found":"true"})"));
  EXPECT_EQ(Where(findings),
            (Places{{"ADR-224.3", "/contents/2/parts/0/functionResponse/response/found"}}))
      << Describe(findings);
}

// Reports a text result sent bare instead of wrapped in an object (ADR-224.5 via the root).
TEST(Results, ReportsTextResultWithExtraMember) {
  const auto findings =
      JudgeIdlessSecondRequest(Replace(testing::kIdlessRequest2, R"({"output":"sunny and mild"})",
                                       R"({"output":"sunny and mild","ok":true})"));
  EXPECT_EQ(Where(findings),
            (Places{{"ADR-224.5", "/contents/2/parts/0/functionResponse/response"}}))
      << Describe(findings);
}

}  // namespace
}  // namespace gemini_oracle::checks
