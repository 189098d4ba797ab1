// The wire-assertions judge: each expect.wire entry, kind-exact.
#include "tests/oracles/checks/checks_test_support.h"

namespace gemini_oracle::checks {
namespace {

using testing::MakeCase;
using testing::MakeJournal;
using testing::Places;
using testing::Replace;
using testing::Where;

std::vector<Finding> JudgeParallel(const std::string& request1, const std::string& request2) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({request1, request2});
  const auto report = testing::ParallelReport();
  return JudgeWireAssertions({c, journal, report});
}

// Finds nothing when every equals and absent assertion holds.
TEST(WireAssertions, AcceptsHoldingAssertions) {
  EXPECT_TRUE(JudgeParallel(testing::kParallelRequest1, testing::kParallelRequest2).empty());
}

// Reports a value that differs from equals, under the case's first clause.
TEST(WireAssertions, ReportsDifferentValue) {
  const auto findings = JudgeParallel(
      testing::kParallelRequest1,
      Replace(testing::kParallelRequest2, R"({"id":"call_A1","name":"lookup","response")",
              R"({"id":"call_B9","name":"lookup","response")"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.3", "/contents/2/parts/0/functionResponse/id"}}))
      << Describe(findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].request, 2u);
}

// Reports a nested list that became an object, because equals is kind-exact.
TEST(WireAssertions, ReportsKindChange) {
  const auto findings =
      JudgeParallel(testing::kParallelRequest1,
                    Replace(testing::kParallelRequest2, R"("1":[2,3])", R"("1":{"0":2,"1":3})"));
  EXPECT_EQ(Where(findings),
            (Places{{"ADR-226.3", "/contents/2/parts/1/functionResponse/response/1"}}))
      << Describe(findings);
}

// Reports a member that must be absent but is present.
TEST(WireAssertions, ReportsPresentMember) {
  const auto findings = JudgeParallel(
      Replace(testing::kParallelRequest1, R"("tools":[)", R"("toolConfig":{},"tools":[)"),
      testing::kParallelRequest2);
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.3", "/toolConfig"}})) << Describe(findings);
}

// Reports an assertion on a request that was never sent.
TEST(WireAssertions, ReportsMissingRequest) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1});
  const auto report = testing::ParallelReport();
  const auto findings = JudgeWireAssertions({c, journal, report});
  ASSERT_EQ(findings.size(), 2u) << Describe(findings);
  EXPECT_EQ(findings[0].request, 2u);
}

}  // namespace
}  // namespace gemini_oracle::checks
