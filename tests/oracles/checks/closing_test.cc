// The closing judge: ADR-226.17 on requests with a tool mode.
#include "tests/oracles/checks/checks_test_support.h"

namespace gemini_oracle::checks {
namespace {

using testing::Places;
using testing::Replace;
using testing::Where;

std::vector<Finding> JudgeParallelSecondRequest(const std::string& request2) {
  return testing::OnParallelRun(&JudgeClosing, request2);
}

// Finds nothing when the closing request sets NONE and still declares its tools.
TEST(Closing, AcceptsNoneWithTools) {
  EXPECT_TRUE(JudgeParallelSecondRequest(testing::kParallelRequest2).empty());
}

// Reports a closing request without its tool mode.
TEST(Closing, ReportsMissingMode) {
  const auto findings = JudgeParallelSecondRequest(
      Replace(testing::kParallelRequest2,
              R"(,"toolConfig":{"functionCallingConfig":{"mode":"NONE"}})", ""));
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.17", "/toolConfig/functionCallingConfig/mode"}}))
      << Describe(findings);
}

// Reports a closing request that drops the declared tools.
TEST(Closing, ReportsDroppedTools) {
  const auto findings = JudgeParallelSecondRequest(
      Replace(testing::kParallelRequest2,
              R"("tools":[{"functionDeclarations":[{"name":"lookup"}]}],)", ""));
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.17", "/tools"}})) << Describe(findings);
}

}  // namespace
}  // namespace gemini_oracle::checks
