// The no-rewrite judge: ADR-224.9 on the driver's transcript snapshots.
#include "tests/oracles/checks/checks_test_support.h"

namespace gemini_oracle::checks {
namespace {

using testing::MakeCase;
using testing::MakeJournal;

// Finds nothing when both snapshots are byte-identical, or when a driver exposes none.
TEST(NoRewrite, AcceptsIdenticalSnapshots) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  const auto report = testing::ParallelReport();
  EXPECT_TRUE(JudgeNoRewrite({c, journal, report}).empty());
}

// A build without both snapshots cannot be judged: a not-judged note, never a silent pass.
// (Before the note existed this run returned no finding at all.)
TEST(NoRewrite, MissingSnapshotsAreNotJudgedNotPassed) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  auto report = testing::ParallelReport();
  report.exchanges[1].transcript_before_build.clear();
  report.exchanges[1].transcript_after_build = "anything";
  const auto findings = JudgeNoRewrite({c, journal, report});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].clause, "ADR-224.9");
  EXPECT_EQ(ReasonTag(findings[0]), kNotJudged);
  EXPECT_EQ(findings[0].level, "not-judged");
  EXPECT_NE(findings[0].message.find("1 of its request builds"), std::string::npos);
}

// Reports a capsule rewritten while building request 1, pointing into the snapshot.
TEST(NoRewrite, ReportsChangedSnapshot) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  auto report = testing::ParallelReport();
  report.exchanges[0].transcript_before_build =
      R"([{"role":"assistant","id":"t","provider_state":{"gemini":{"native_parts":[{"functionCall":{"name":"f","args":[]}}]}}}])";
  report.exchanges[0].transcript_after_build =
      R"([{"role":"assistant","id":"t","provider_state":{"gemini":{"native_parts":[{"functionCall":{"name":"f","args":{}}}]}}}])";
  const auto findings = JudgeNoRewrite({c, journal, report});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].clause, "ADR-224.9");
  EXPECT_EQ(findings[0].request, 1u);
  EXPECT_EQ(findings[0].pointer, "");
  EXPECT_EQ(findings[0].expected["transcript_pointer"],
            "/0/provider_state/gemini/native_parts/0/functionCall/args");
}

// Stored rows equal around every build (or no store at all): nothing to report.
TEST(NoRewrite, AcceptsUnchangedStoredRow) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  auto report = testing::ParallelReport();
  report.exchanges[1].stored_before_build = std::string("row\0bytes", 9);
  report.exchanges[1].stored_after_build = std::string("row\0bytes", 9);
  EXPECT_TRUE(JudgeNoRewrite({c, journal, report}).empty());
  // The same run marked as gone through a store still has its row shown: judged, no finding.
  report.persisted = true;
  EXPECT_TRUE(JudgeNoRewrite({c, journal, report}).empty());
}

// A conversation that went through a store but showed no stored row around any build: the
// stored half of ADR-224.9 is not judged, never passed.
TEST(NoRewrite, PersistedRunWithoutStoredRowsIsNotJudged) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  auto report = testing::ParallelReport();
  report.persisted = true;
  const auto findings = JudgeNoRewrite({c, journal, report});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].clause, "ADR-224.9");
  EXPECT_EQ(ReasonTag(findings[0]), kNotJudged);
}

// A case that suspends, run by a driver that keeps the conversation in memory: the stored half
// could not be judged.
TEST(NoRewrite, SuspendingCaseKeptInMemoryIsNotJudged) {
  auto c = MakeCase(testing::kParallelCase);
  c.stored = true;
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  const auto report = testing::ParallelReport();
  const auto findings = JudgeNoRewrite({c, journal, report});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(ReasonTag(findings[0]), kNotJudged);
  EXPECT_NE(findings[0].message.find("kept it in memory"), std::string::npos);
}

// A stored conversation refused before its first build built nothing whose stored row could be
// rewritten: no note. The same run with one build shown and no row is the note above.
TEST(NoRewrite, PersistedRunRefusedBeforeAnyBuildHasNothingToJudge) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({});
  model::DriverReport report;
  report.persisted = true;
  report.exchanges.emplace_back();
  report.refusal = model::Refusal{"binding.call_mismatch", "build", 1, "refused", {}, {}};
  EXPECT_TRUE(JudgeNoRewrite({c, journal, report}).empty());
  report.exchanges[0].request_built = true;
  report.exchanges[0].transcript_before_build = "[]";
  report.exchanges[0].transcript_after_build = "[]";
  const auto findings = JudgeNoRewrite({c, journal, report});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(ReasonTag(findings[0]), kNotJudged);
}

// A stored row sealed anew during a build is a rewrite (ADR-224.9), reported with lengths
// only, never the bytes.
TEST(NoRewrite, ReportsStoredRowRewrittenByBuild) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  auto report = testing::ParallelReport();
  report.exchanges[1].stored_before_build = "sealed-once";
  report.exchanges[1].stored_after_build = "sealed-twice";
  const auto findings = JudgeNoRewrite({c, journal, report});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].clause, "ADR-224.9");
  EXPECT_EQ(findings[0].request, 2u);
  EXPECT_EQ(findings[0].expected["stored_bytes"], 11);
  EXPECT_EQ(findings[0].actual["stored_bytes"], 12);
  EXPECT_EQ(Describe(findings).find("sealed"), std::string::npos);
}

}  // namespace
}  // namespace gemini_oracle::checks
