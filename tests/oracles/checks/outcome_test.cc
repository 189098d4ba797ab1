// The outcome judge: the case's verdict facts and their reason tags.
#include "tests/oracles/checks/checks_test_support.h"

namespace gemini_oracle::checks {
namespace {

using testing::MakeCase;
using testing::MakeJournal;

constexpr std::string_view kBuildRefusalCase = R"({
  "description": "A carried duplicate native id is refused before contact.",
  "clauses": ["ADR-224.8", "ADR-226.6"],
  "transcript": [
    {"role": "user", "content": "start"},
    {"role": "assistant", "id": "turn_1",
     "provider_state": {"gemini": {"owner": "turn_1", "native_parts": [
       {"functionCall": {"id": "dup_id_9", "name": "f", "args": {}}},
       {"functionCall": {"id": "dup_id_9", "name": "f", "args": {}}}]}}}],
  "exchanges": [{"user": "go",
    "response": {"body": {"candidates": [{"content": {"role": "model",
      "parts": [{"text": "never sent"}]}}]}}}],
  "expect": {"outcome": "refuse", "error": "replay.native_id_duplicate", "phase": "build",
             "exchange": 1}
})";

constexpr std::string_view kParseRefusalCase = R"({
  "description": "An empty native id is refused when the response is parsed.",
  "clauses": ["ADR-226.5"],
  "exchanges": [{"user": "go",
    "response": {"body": {"candidates": [{"content": {"role": "model",
      "parts": [{"functionCall": {"id": "", "name": "f", "args": {}}}]}}]}}}],
  "expect": {"outcome": "refuse", "error": "native_id.malformed", "phase": "parse",
             "exchange": 1}
})";

model::DriverReport Refused(std::string code, std::string phase, std::size_t exchange) {
  model::DriverReport report;
  report.refusal = model::Refusal{std::move(code), std::move(phase), exchange,
                                  "refused",       std::nullopt,     std::nullopt};
  return report;
}

// Finds nothing when an accept case completes with the expected request count.
TEST(Outcome, AcceptsCompletedConversation) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  const auto report = testing::ParallelReport();
  EXPECT_TRUE(JudgeOutcome({c, journal, report}).empty());
}

// Finds nothing when a build refusal comes with the right code and no contact.
TEST(Outcome, AcceptsBuildRefusalWithoutContact) {
  const auto c = MakeCase(kBuildRefusalCase, "n_dup.json");
  const auto journal = MakeJournal({});
  const auto report = Refused("replay.native_id_duplicate", "build", 1);
  EXPECT_TRUE(JudgeOutcome({c, journal, report}).empty());
}

// A build refusal case that names the refused message and native part (§7.2).
std::string LocatedCase() {
  std::string text(kBuildRefusalCase);
  const std::string tail = R"("exchange": 1)";
  text.replace(text.rfind(tail), tail.size(), R"("exchange": 1, "message": 1, "part": 1)");
  return text;
}

model::DriverReport RefusedAt(std::optional<std::size_t> message, std::optional<std::size_t> part) {
  model::DriverReport report = Refused("replay.native_id_duplicate", "build", 1);
  report.refusal->message_index = message;
  report.refusal->part_index = part;
  return report;
}

// Finds nothing when the refusal names the message and part the case states.
TEST(Outcome, AcceptsRefusalAtTheStatedLocation) {
  const auto c = MakeCase(LocatedCase(), "n_dup.json");
  ASSERT_EQ(c.expect.message, 1u);
  ASSERT_EQ(c.expect.part, 1u);
  EXPECT_TRUE(JudgeOutcome({c, MakeJournal({}), RefusedAt(1, 1)}).empty());
  // A case that states no location ignores what the implementation reports.
  EXPECT_TRUE(
      JudgeOutcome({MakeCase(kBuildRefusalCase, "n_dup.json"), MakeJournal({}), RefusedAt(7, 7)})
          .empty());
}

// Tags a refusal naming another message or part wrong-error under the refusing clause.
TEST(Outcome, ReportsRefusalAtAnotherLocation) {
  const auto c = MakeCase(LocatedCase(), "n_dup.json");
  for (const auto& [message, part] :
       {std::pair<std::size_t, std::size_t>{1, 0}, std::pair<std::size_t, std::size_t>{2, 1}}) {
    const auto findings = JudgeOutcome({c, MakeJournal({}), RefusedAt(message, part)});
    ASSERT_EQ(findings.size(), 1u) << Describe(findings);
    EXPECT_EQ(ReasonTag(findings[0]), kWrongError);
    EXPECT_EQ(findings[0].clause, "ADR-226.6");
  }
}

// Notes, never passes or fails, a stated location the implementation does not report.
TEST(Outcome, UnreportedLocationIsNotJudged) {
  const auto c = MakeCase(LocatedCase(), "n_dup.json");
  const auto findings = JudgeOutcome({c, MakeJournal({}), RefusedAt(std::nullopt, 1)});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(ReasonTag(findings[0]), kNotJudged);
  EXPECT_EQ(findings[0].clause, "ADR-226.6");
  // Another code: the location is not compared at all, only the code is wrong.
  model::DriverReport other = Refused("capsule.malformed", "build", 1);
  const auto wrong = JudgeOutcome({c, MakeJournal({}), other});
  ASSERT_EQ(wrong.size(), 1u) << Describe(wrong);
  EXPECT_EQ(ReasonTag(wrong[0]), kWrongError);
}

// Finds nothing when a parse refusal follows exactly one request.
TEST(Outcome, AcceptsParseRefusalAfterOneRequest) {
  const auto c = MakeCase(kParseRefusalCase, "n_empty.json");
  const auto journal = MakeJournal({R"({"contents":[{"role":"user","parts":[{"text":"go"}]}]})"});
  const auto report = Refused("native_id.malformed", "parse", 1);
  EXPECT_TRUE(JudgeOutcome({c, journal, report}).empty());
}

// Tags a refused accept case should-have-accepted under the case's first clause.
TEST(Outcome, ReportsRefusedAcceptCase) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1});
  const auto report = Refused("binding.incomplete", "build", 2);
  const auto findings = JudgeOutcome({c, journal, report});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].clause, "ADR-226.3");
  EXPECT_EQ(ReasonTag(findings[0]), kShouldHaveAccepted);
}

// Tags an accept case that stops early without a refusal should-have-accepted.
TEST(Outcome, ReportsMissingRequests) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1});
  const auto report = testing::ParallelReport();
  const auto findings = JudgeOutcome({c, journal, report});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(ReasonTag(findings[0]), kShouldHaveAccepted);
}

// Tags an accepted refuse case should-have-refused under its refusing clause.
TEST(Outcome, ReportsAcceptedRefuseCase) {
  const auto c = MakeCase(kBuildRefusalCase, "n_dup.json");
  const auto journal = MakeJournal({R"({"contents":[]})"});
  const model::DriverReport report;
  const auto findings = JudgeOutcome({c, journal, report});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].clause, "ADR-226.6");
  EXPECT_EQ(ReasonTag(findings[0]), kShouldHaveRefused);
}

// Tags another error code wrong-error, with both codes as expected and actual.
TEST(Outcome, ReportsWrongCode) {
  const auto c = MakeCase(kBuildRefusalCase, "n_dup.json");
  const auto journal = MakeJournal({});
  const auto report = Refused("capsule.malformed", "build", 1);
  const auto findings = JudgeOutcome({c, journal, report});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(ReasonTag(findings[0]), kWrongError);
  EXPECT_EQ(findings[0].expected, "replay.native_id_duplicate");
  EXPECT_EQ(findings[0].actual, "capsule.malformed");
}

// Tags an untyped refusal (no code) wrong-error.
TEST(Outcome, ReportsUntypedRefusal) {
  const auto c = MakeCase(kParseRefusalCase, "n_empty.json");
  const auto journal = MakeJournal({R"({"contents":[]})"});
  const auto report = Refused("", "parse", 1);
  const auto findings = JudgeOutcome({c, journal, report});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(ReasonTag(findings[0]), kWrongError);
}

// Tags a request journaled before a build refusal contacted-before-refusal at request 1.
TEST(Outcome, ReportsContactBeforeBuildRefusal) {
  const auto c = MakeCase(kBuildRefusalCase, "n_dup.json");
  const auto journal = MakeJournal({R"({"contents":[]})"});
  const auto report = Refused("replay.native_id_duplicate", "build", 1);
  const auto findings = JudgeOutcome({c, journal, report});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].clause, "ADR-226.6");
  EXPECT_EQ(findings[0].request, 1u);
  EXPECT_EQ(ReasonTag(findings[0]), kContactedBeforeRefusal);
}

// Stays silent on an implementation-defined case, whatever happened.
TEST(Outcome, SilentOnImplementationDefinedCase) {
  const auto c = MakeCase(R"({
    "description": "A null native id is left to the implementation.",
    "clauses": ["ADR-226.5"],
    "exchanges": [{"response": {"body": {"candidates": [{"content": {"role": "model",
      "parts": [{"functionCall": {"id": null, "name": "f"}}]}}]}}}],
    "expect": {"outcome": "implementation_defined", "note": "either way"}
  })",
                          "i_null.json");
  const auto journal = MakeJournal({R"({"contents":[]})", R"({"contents":[]})"});
  const auto report = Refused("native_id.malformed", "parse", 1);
  EXPECT_TRUE(JudgeOutcome({c, journal, report}).empty());
}

}  // namespace
}  // namespace gemini_oracle::checks
