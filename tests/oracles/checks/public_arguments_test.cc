// The public arguments judge: ADR-224.11 with one F1/kind rule shared by every judge.
#include "tests/oracles/checks/checks_test_support.h"

namespace gemini_oracle::checks {
namespace {

using testing::MakeCase;
using testing::MakeJournal;
using testing::Places;
using testing::Replace;
using testing::Where;

// One call whose native args hold an integral float, a nested object, a nested list and an
// integer; and one call without args.
constexpr std::string_view kNestedCase = R"({
  "description": "Public arguments keep the values of nested native args.",
  "clauses": ["ADR-224.11"],
  "exchanges": [
    {"user": "go",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"name": "f",
                         "args": {"n": 2.0, "k": 7, "box": {}, "dims": [1, 2], "s": "x"}}},
       {"functionCall": {"name": "g"}}]}}]}}}],
  "expect": {"outcome": "accept", "requests": 1}
})";

std::vector<Finding> JudgeArgs(std::string_view f_arguments, std::string_view g_arguments = "{}") {
  const auto c = MakeCase(kNestedCase);
  const auto journal = MakeJournal({R"({"contents":[{"role":"user","parts":[{"text":"go"}]}]})"});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange(
      {testing::Call("tc_1", "f", f_arguments), testing::Call("tc_2", "g", g_arguments)}));
  return JudgePublicArguments({c, journal, report});
}

constexpr std::string_view kExact = R"({"n":2.0,"k":7,"box":{},"dims":[1,2],"s":"x"})";

// Finds nothing for arguments equal kind-exactly, member order free, and {} for absent args.
TEST(PublicArgumentKinds, AcceptsExactArguments) {
  EXPECT_TRUE(JudgeArgs(kExact).empty()) << Describe(JudgeArgs(kExact));
  EXPECT_TRUE(JudgeArgs(R"({"s":"x","dims":[1,2],"box":{},"k":7,"n":2.0})").empty());
}

// Finds nothing when only numeric kinds changed (2.0 handed over as 2, 7 as 7.0): ADR-226
// "This permits the inherited 1.0 to 1 and negative-zero to zero normalization".
TEST(PublicArgumentKinds, AcceptsNumericKindOnly) {
  const auto findings = JudgeArgs(R"({"n":2,"k":7.0,"box":{},"dims":[1,2],"s":"x"})");
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Reports a nested {} handed over as [] under the open ADR-224.F1, not ADR-224.11.
TEST(PublicArgumentKinds, ReportsNestedObjectTurnedListAsOpen) {
  const auto findings = JudgeArgs(Replace(std::string(kExact), R"("box":{})", R"("box":[])"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.F1", ""}})) << Describe(findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].level, "open");
}

// Reports a nested list handed over as a numeric-key object under ADR-224.6.
TEST(PublicArgumentKinds, ReportsNestedListTurnedObject) {
  const auto findings =
      JudgeArgs(Replace(std::string(kExact), R"("dims":[1,2])", R"("dims":{"0":1,"1":2})"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.6", ""}})) << Describe(findings);
}

// Reports a changed value under ADR-224.11 also when a kind drift comes with it.
TEST(PublicArgumentKinds, ReportsChangedValue) {
  EXPECT_EQ(Where(JudgeArgs(Replace(std::string(kExact), R"("s":"x")", R"("s":"y")"))),
            (Places{{"ADR-224.11", ""}}));
  EXPECT_EQ(Where(JudgeArgs(R"({"n":2,"k":7,"box":[],"dims":[1,2],"s":1})")),
            (Places{{"ADR-224.11", ""}}));
  EXPECT_EQ(Where(JudgeArgs(Replace(std::string(kExact), R"("n":2.0)", R"("n":2.5)"))),
            (Places{{"ADR-224.11", ""}}));
  EXPECT_EQ(Where(JudgeArgs(kExact, R"({"x":1})")), (Places{{"ADR-224.11", ""}}));
  EXPECT_EQ(Where(JudgeArgs(kExact, "[]")), (Places{{"ADR-224.11", ""}}));
}

}  // namespace
}  // namespace gemini_oracle::checks
