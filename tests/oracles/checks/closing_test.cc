// The closing judge: REF.B1 (reference only) on requests the case gives a tool mode.
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

// Reports, under the reference-only REF.B1, a closing request that still declares its tools
// without tool mode NONE: function calling stays enabled, as the case did not ask.
TEST(Closing, ReportsMissingMode) {
  const auto findings = JudgeParallelSecondRequest(
      Replace(testing::kParallelRequest2,
              R"(,"toolConfig":{"functionCallingConfig":{"mode":"NONE"}})", ""));
  EXPECT_EQ(Where(findings), (Places{{"REF.B1", "/toolConfig/functionCallingConfig/mode"}}))
      << Describe(findings);
}

// Google documents NONE as "Model behavior is same as when not passing any function
// declarations": a closing request that sends no tools, with or without the mode, disables
// calling as asked: no "drops the declared tools" finding (ADR-226.17).
TEST(Closing, AcceptsNoneExpressedBySendingNoDeclarations) {
  const std::string no_tools = Replace(
      testing::kParallelRequest2, R"("tools":[{"functionDeclarations":[{"name":"lookup"}]}],)", "");
  EXPECT_TRUE(JudgeParallelSecondRequest(no_tools).empty())
      << Describe(JudgeParallelSecondRequest(no_tools));
  const std::string nothing =
      Replace(no_tools, R"(,"toolConfig":{"functionCallingConfig":{"mode":"NONE"}})", "");
  EXPECT_TRUE(JudgeParallelSecondRequest(nothing).empty())
      << Describe(JudgeParallelSecondRequest(nothing));
  // Tools that declare no function (an empty declaration list) disable calling just the same.
  const std::string none_declared =
      Replace(Replace(testing::kParallelRequest2,
                      R"("tools":[{"functionDeclarations":[{"name":"lookup"}]}],)",
                      R"("tools":[{"functionDeclarations":[]}],)"),
              R"(,"toolConfig":{"functionCallingConfig":{"mode":"NONE"}})", "");
  EXPECT_TRUE(JudgeParallelSecondRequest(none_declared).empty());
}

// A framework's own rendering of tools (every declaration in one tools object, OpenAPI
// `parameters` with "OBJECT", "description": "", snake_case field names) with mode NONE is a
// closing request as asked.
TEST(Closing, AcceptsTheFrameworksOwnRenderingOfToolsAndMode) {
  const std::string framework =
      Replace(Replace(testing::kParallelRequest2,
                      R"("tools":[{"functionDeclarations":[{"name":"lookup"}]}],)",
                      R"("tools":[{"functionDeclarations":[{"name":"lookup","description":"",)"
                      R"("parameters":{"type":"OBJECT","properties":{}}},{"name":"other"}]}],)"),
              R"("toolConfig":{"functionCallingConfig":{"mode":"NONE"}})",
              R"("tool_config":{"function_calling_config":{"mode":"NONE"}})");
  EXPECT_TRUE(JudgeParallelSecondRequest(framework).empty())
      << Describe(JudgeParallelSecondRequest(framework));
  // The negative control: the same rendering without the mode leaves calling enabled.
  const auto enabled = JudgeParallelSecondRequest(
      Replace(framework, R"(,"tool_config":{"function_calling_config":{"mode":"NONE"}})", ""));
  EXPECT_EQ(Where(enabled), (Places{{"REF.B1", "/toolConfig/functionCallingConfig/mode"}}))
      << Describe(enabled);
}

// A mode other than the one asked for, with functions declared, is reported under REF.B1.
TEST(Closing, ReportsAnotherMode) {
  const auto findings = JudgeParallelSecondRequest(
      Replace(testing::kParallelRequest2, R"("mode":"NONE")", R"("mode":"AUTO")"));
  EXPECT_EQ(Where(findings), (Places{{"REF.B1", "/toolConfig/functionCallingConfig/mode"}}))
      << Describe(findings);
}

}  // namespace
}  // namespace gemini_oracle::checks
