// The leaks judge: ADR-226.19 on refusal messages.
#include "tests/oracles/checks/checks_test_support.h"

namespace gemini_oracle::checks {
namespace {

using testing::MakeCase;
using testing::MakeJournal;
using testing::Places;
using testing::Where;

constexpr std::string_view kSentinelCase = R"({
  "description": "A duplicate native id is refused without exposing content.",
  "clauses": ["ADR-226.19", "ADR-226.5"],
  "exchanges": [{"user": "go",
    "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
      {"functionCall": {"id": "SENTINEL-d41d8-id", "name": "f",
                        "args": {"secret": "hunter2-arg"}},
       "thoughtSignature": "c2lnbmF0dXJlLXNlbnRpbmVs"},
      {"functionCall": {"id": "SENTINEL-d41d8-id", "name": "f", "args": {}}}]}}]}}}],
  "expect": {"outcome": "refuse", "error": "native_id.duplicate", "phase": "parse",
             "exchange": 1}
})";

std::vector<Finding> JudgeMessage(std::string message) {
  const auto c = MakeCase(kSentinelCase, "n_leak.json");
  const auto journal = MakeJournal({R"({"contents":[]})"});
  model::DriverReport report;
  report.refusal = model::Refusal{"native_id.duplicate", "parse", 1, std::move(message)};
  return JudgeLeaks({c, journal, report});
}

// Finds nothing in a message that names only positions and fields.
TEST(Leaks, AcceptsPositionalMessage) {
  EXPECT_TRUE(JudgeMessage("native_id.duplicate: part 1, field id").empty());
}

// Ignores a native id that only occurs inside a longer field name.
TEST(Leaks, IgnoresIdInsideLongerName) {
  const auto c = MakeCase(R"({
    "description": "A malformed binding field is refused.",
    "clauses": ["ADR-226.15"],
    "transcript": [{"role": "assistant", "id": "turn_1",
      "provider_state": {"gemini": {"owner": "turn_1", "native_parts": [
        {"functionCall": {"id": "call_b", "name": "f", "args": {}}}],
        "tool_call_bindings": null}}}],
    "exchanges": [{"response": {"body": {}}}],
    "expect": {"outcome": "refuse", "error": "binding.malformed", "phase": "build",
               "exchange": 1}
  })",
                          "n_bindings.json");
  const auto journal = MakeJournal({});
  model::DriverReport report;
  report.refusal = model::Refusal{"binding.malformed", "build", 1,
                                   "tool_call_bindings is not a list (field tool_call_bindings)"};
  EXPECT_TRUE(JudgeLeaks({c, journal, report}).empty());
  report.refusal->message = "binding for call_b is malformed";
  EXPECT_EQ(Where(JudgeLeaks({c, journal, report})), (Places{{"ADR-226.19", ""}}));
}

// Reports a message that quotes the native id, naming its kind but not its content.
TEST(Leaks, ReportsLeakedSentinel) {
  const auto findings = JudgeMessage("duplicate id SENTINEL-d41d8-id at part 1");
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.19", ""}})) << Describe(findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].message.find("SENTINEL"), std::string::npos);
  EXPECT_EQ(findings[0].request, std::nullopt);
}

// Reports a message that quotes an argument value.
TEST(Leaks, ReportsLeakedArgument) {
  const auto findings = JudgeMessage("call f(secret=hunter2-arg) repeats an id");
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_NE(findings[0].message.find("argument"), std::string::npos);
  EXPECT_EQ(findings[0].message.find("hunter2"), std::string::npos);
}

// Reports a message that quotes a thought signature.
TEST(Leaks, ReportsLeakedSignature) {
  const auto findings = JudgeMessage("bad part c2lnbmF0dXJlLXNlbnRpbmVs");
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_NE(findings[0].message.find("thought signature"), std::string::npos);
}

}  // namespace
}  // namespace gemini_oracle::checks
