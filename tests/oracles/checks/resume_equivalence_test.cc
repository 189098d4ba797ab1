// The resume-equivalence judge: ADR-226.18 from a run through a store and the same case kept in
// memory. Literal controls: identical runs pass, each kind of difference is one finding.
#include "tests/oracles/checks/checks_test_support.h"

namespace gemini_oracle::checks {
namespace {

using testing::MakeCase;
using testing::MakeJournal;
using testing::Replace;

struct Runs {
  model::Case c = MakeCase(testing::kParallelCase);
  std::vector<capture::JournalEntry> memory =
      MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  std::vector<capture::JournalEntry> stored =
      MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  model::DriverReport memory_report = testing::ParallelReport();
  model::DriverReport stored_report = testing::ParallelReport();

  Runs() { stored_report.persisted = true; }

  std::vector<Finding> Judge() const {
    CaseRun run{c, stored, stored_report};
    run.baseline_journal = &memory;
    run.baseline_report = &memory_report;
    return JudgeResumeEquivalence(run);
  }
};

// Positive control: the same bytes and the same outcome.
TEST(ResumeEquivalence, AcceptsIdenticalRuns) {
  const Runs runs;
  EXPECT_TRUE(runs.Judge().empty()) << Describe(runs.Judge());
}

// Without a baseline run there is nothing to compare: silent (the run kept no store).
TEST(ResumeEquivalence, SilentWithoutBaseline) {
  const Runs runs;
  EXPECT_TRUE(JudgeResumeEquivalence({runs.c, runs.stored, runs.stored_report}).empty());
}

// A case that suspends, run by a driver that never goes through a store: not judged, never a
// silent pass of ADR-226.18.
TEST(ResumeEquivalence, SuspendingCaseKeptInMemoryIsNotJudged) {
  Runs runs;
  runs.c.stored = true;
  runs.stored_report.persisted = false;
  const auto findings = JudgeResumeEquivalence({runs.c, runs.stored, runs.stored_report});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(ReasonTag(findings[0]), kNotJudged);
  EXPECT_EQ(findings[0].clause, "ADR-226.18");
}

// A transport failure in either run decides no outcome: outcomes and request counts are not
// compared (a not-judged note), the requests both runs sent still are.
TEST(ResumeEquivalence, TransportFailureInEitherRunComparesOnlyWhatWasSent) {
  for (const bool in_memory_broken : {true, false}) {
    Runs runs;
    auto& broken_report = in_memory_broken ? runs.memory_report : runs.stored_report;
    auto& broken_journal = in_memory_broken ? runs.memory : runs.stored;
    broken_report.refusal =
        model::Refusal{"http.transport", "http", 2, "cut", std::nullopt, std::nullopt};
    broken_journal = MakeJournal({testing::kParallelRequest1});
    auto findings = runs.Judge();
    ASSERT_EQ(findings.size(), 1u) << Describe(findings);
    EXPECT_EQ(ReasonTag(findings[0]), kNotJudged);
    // A difference in a request both sent is still found.
    broken_journal = MakeJournal(
        {Replace(testing::kParallelRequest1, R"("text":"look both up")", R"("text":"look")")});
    findings = runs.Judge();
    ASSERT_EQ(findings.size(), 2u) << Describe(findings);
    EXPECT_EQ(ReasonTag(findings[1]), kWireViolation);
    EXPECT_EQ(findings[1].request, 1u);
  }
  // Both runs cut at the same exchange, one after journaling its request and one before: the
  // outcomes read alike, and still the request counts are not compared.
  Runs runs;
  for (auto* report : {&runs.memory_report, &runs.stored_report}) {
    report->refusal = model::Refusal{"http.transport", "http", 2, "cut", std::nullopt, std::nullopt};
  }
  runs.stored = MakeJournal({testing::kParallelRequest1});
  const auto findings = runs.Judge();
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(ReasonTag(findings[0]), kNotJudged);
}

// The endpoint is part of the request: another model or method after resume is a finding.
TEST(ResumeEquivalence, ReportsAnotherEndpointAfterResume) {
  Runs runs;
  runs.stored[1].path = "/v1beta/models/gemini-2.5-pro:generateContent";
  auto findings = runs.Judge();
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].clause, "ADR-226.18");
  EXPECT_EQ(findings[0].request, 2u);
  runs.stored[1].path = runs.memory[1].path;
  runs.stored[1].query = "alt=sse";
  findings = runs.Judge();
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_NE(findings[0].message.find("in its query"), std::string::npos);
}

// A native call without `args` and the same call with `args: {}` are one empty Struct (§8.3).
TEST(ResumeEquivalence, AbsentArgsEqualEmptyArgs) {
  Runs runs;
  runs.stored = MakeJournal({testing::kParallelRequest1,
                             Replace(testing::kParallelRequest2,
                                     R"("name":"lookup","args":{}})", R"("name":"lookup"})")});
  EXPECT_TRUE(runs.Judge().empty()) << Describe(runs.Judge());
}

// A nested list in memory that is an object after resume is no finding here: either run may be
// the one that lost a kind, and the replay judge decides on the stored run's own requests.
TEST(ResumeEquivalence, NestedListBecomingObjectIsLeftToTheReplayJudge) {
  Runs runs;
  const std::string nested = Replace(testing::kParallelRequest2, R"("args":{"q":"alpha","n":1.0})",
                                     R"("args":{"q":"alpha","n":1.0,"o":[]})");
  runs.memory = MakeJournal({testing::kParallelRequest1, nested});
  runs.stored = MakeJournal({testing::kParallelRequest1, Replace(nested, R"("o":[])", R"("o":{})")});
  EXPECT_TRUE(runs.Judge().empty()) << Describe(runs.Judge());
  // At the root it is ADR-226.18: a known Struct object that changed kind.
  runs.memory = MakeJournal({testing::kParallelRequest1,
                             Replace(testing::kParallelRequest2, R"("args":{}})", R"("args":[]})")});
  runs.stored = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  const auto findings = runs.Judge();
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].clause, "ADR-226.18");
}

// A driver that says it suspends but never did cannot be judged: a not-judged note.
TEST(ResumeEquivalence, UnsuspendedRunIsNotJudged) {
  Runs runs;
  runs.stored_report.persisted = false;
  const auto findings = runs.Judge();
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(ReasonTag(findings[0]), kNotJudged);
  EXPECT_EQ(findings[0].clause, "ADR-226.18");
}

// Member order inside an object carries no meaning: reordered members are no finding.
TEST(ResumeEquivalence, AcceptsReorderedObjectMembers) {
  Runs runs;
  runs.stored = MakeJournal(
      {testing::kParallelRequest1,
       Replace(testing::kParallelRequest2, R"("args":{"q":"alpha","n":1.0})",
               R"("args":{"n":1.0,"q":"alpha"})")});
  EXPECT_TRUE(runs.Judge().empty()) << Describe(runs.Judge());
}

// A number whose kind alone changed inside a Struct is left to the judges that compare each
// request with its source (the replay judge for native parts, the results judge for results):
// either run may be the one that changed it. Anywhere else it is ADR-226.18.
TEST(ResumeEquivalence, NumberKindInArgumentsIsLeftToTheReplayJudge) {
  Runs runs;
  runs.stored = MakeJournal(
      {testing::kParallelRequest1,
       Replace(testing::kParallelRequest2, R"("q":"alpha","n":1.0})", R"("q":"alpha","n":1})")});
  EXPECT_TRUE(runs.Judge().empty()) << Describe(runs.Judge());
}

TEST(ResumeEquivalence, NumberKindInResultIsLeftToTheResultsJudge) {
  Runs runs;
  const std::string with_float =
      Replace(testing::kParallelRequest2, R"("response":{"0":1,)", R"("response":{"0":1.0,)");
  runs.memory = MakeJournal({testing::kParallelRequest1, with_float});
  runs.stored = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  EXPECT_TRUE(runs.Judge().empty()) << Describe(runs.Judge());
  std::swap(runs.memory, runs.stored);
  EXPECT_TRUE(runs.Judge().empty()) << Describe(runs.Judge());
}

// Negative control: a float outside any Struct that came back from the store as an integer.
TEST(ResumeEquivalence, ReportsNumberKindChangedOutsideStructs) {
  Runs runs;
  const std::string with_float =
      Replace(testing::kParallelRequest2, R"("mode":"NONE"}})",
              R"("mode":"NONE"}},"generationConfig":{"temperature":1.0})");
  runs.memory = MakeJournal({testing::kParallelRequest1, with_float});
  runs.stored = MakeJournal(
      {testing::kParallelRequest1, Replace(with_float, R"("temperature":1.0)", R"("temperature":1)")});
  const auto findings = runs.Judge();
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].clause, "ADR-226.18");
  EXPECT_EQ(findings[0].request, 2u);
  EXPECT_EQ(findings[0].pointer, "/generationConfig/temperature");
  EXPECT_TRUE(findings[0].expected.is_number_float());
  EXPECT_TRUE(findings[0].actual.is_number_integer());
}

// A kind change inside arguments does not hide a must-difference in the same request.
TEST(ResumeEquivalence, MustDifferenceReportedBesideNumberKind) {
  Runs runs;
  runs.stored = MakeJournal(
      {testing::kParallelRequest1,
       Replace(Replace(testing::kParallelRequest2, R"("q":"alpha","n":1.0})",
                       R"("q":"alpha","n":1})"),
               R"(,"thoughtSignature":"c2lnLWFscGhh")", "")});
  const auto findings = runs.Judge();
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].clause, "ADR-226.18");
  EXPECT_EQ(findings[0].pointer, "/contents/1/parts/0/thoughtSignature");
}

// The twin meant to be kept in memory went through the store as well: nothing can be compared.
TEST(ResumeEquivalence, PersistedBaselineIsNotJudged) {
  Runs runs;
  runs.memory_report.persisted = true;
  const auto findings = runs.Judge();
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(ReasonTag(findings[0]), kNotJudged);
}

// An empty object inside a Struct that is an empty list in the other run is no finding here, in
// either direction (the replay judge finds the open ADR-224.F1 on the stored run's own request
// when the store lost the kind); at the root it is ADR-226.18.
TEST(ResumeEquivalence, NestedEmptyKindsAreLeftToTheReplayJudge) {
  Runs runs;
  const std::string nested = Replace(testing::kParallelRequest2, R"("args":{"q":"alpha","n":1.0})",
                                     R"("args":{"q":"alpha","n":1.0,"o":{"p":{}}})");
  runs.memory = MakeJournal({testing::kParallelRequest1, nested});
  runs.stored = MakeJournal({testing::kParallelRequest1, Replace(nested, R"("p":{})", R"("p":[])")});
  auto findings = runs.Judge();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
  std::swap(runs.memory, runs.stored);
  findings = runs.Judge();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
  runs.memory = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  runs.stored = MakeJournal({testing::kParallelRequest1,
                             Replace(testing::kParallelRequest2, R"("args":{}})", R"("args":[]})")});
  findings = runs.Judge();
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].clause, "ADR-226.18");
}

// Negative control: a thought signature lost on resume.
TEST(ResumeEquivalence, ReportsSignatureLostOnResume) {
  Runs runs;
  runs.stored = MakeJournal({testing::kParallelRequest1,
                             Replace(testing::kParallelRequest2,
                                     R"(,"thoughtSignature":"c2lnLWFscGhh")", "")});
  const auto findings = runs.Judge();
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].request, 2u);
  EXPECT_EQ(findings[0].pointer, "/contents/1/parts/0/thoughtSignature");
  EXPECT_EQ(findings[0].actual, "absent");
}

// Negative controls: a request missing after resume, and a different outcome.
TEST(ResumeEquivalence, ReportsFewerRequestsAndOtherOutcome) {
  Runs runs;
  runs.stored = MakeJournal({testing::kParallelRequest1});
  runs.stored_report.refusal =
      model::Refusal{"binding.incomplete", "build", 2, "refused", std::nullopt, std::nullopt};
  const auto findings = runs.Judge();
  ASSERT_EQ(findings.size(), 2u) << Describe(findings);
  EXPECT_EQ(findings[0].expected["outcome"], "acceptance");
  EXPECT_EQ(findings[0].actual["outcome"], "refusal binding.incomplete at build of exchange 2");
  EXPECT_EQ(findings[1].expected["requests"], 2);
  EXPECT_EQ(findings[1].actual["requests"], 1);
}

}  // namespace
}  // namespace gemini_oracle::checks
