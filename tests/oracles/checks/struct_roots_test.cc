// The struct-roots judge: ADR-224.1 and ADR-224.2 on every journaled request.
#include "tests/oracles/checks/checks_test_support.h"

namespace gemini_oracle::checks {
namespace {

using testing::MakeCase;
using testing::MakeJournal;
using testing::Places;
using testing::Replace;
using testing::Where;

// Finds nothing when empty args and a list result travel as objects.
TEST(StructRoots, AcceptsObjectRoots) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  const auto report = testing::ParallelReport();
  EXPECT_TRUE(JudgeStructRoots({c, journal, report}).empty());
}

// Reports empty args sent as a list at the args pointer.
TEST(StructRoots, ReportsEmptyArgsSentAsList) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal =
      MakeJournal({testing::kParallelRequest1,
                   Replace(testing::kParallelRequest2, R"("name":"lookup","args":{}})",
                           R"("name":"lookup","args":[]})")});
  const auto report = testing::ParallelReport();
  const auto findings = JudgeStructRoots({c, journal, report});
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.1", "/contents/1/parts/1/functionCall/args"}}))
      << Describe(findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].request, 2u);
  EXPECT_EQ(findings[0].level, "must");
}

// Reports a list result sent as a response list at the response pointer.
TEST(StructRoots, ReportsResponseSentAsList) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal =
      MakeJournal({testing::kParallelRequest1,
                   Replace(testing::kParallelRequest2, R"("response":{"0":1,"1":[2,3]})",
                           R"("response":[1,[2,3]])")});
  const auto report = testing::ParallelReport();
  const auto findings = JudgeStructRoots({c, journal, report});
  EXPECT_EQ(Where(findings),
            (Places{{"ADR-224.2", "/contents/2/parts/1/functionResponse/response"}}))
      << Describe(findings);
}

// Reports a functionResponse without any response member.
TEST(StructRoots, ReportsMissingResponse) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal =
      MakeJournal({testing::kParallelRequest1,
                   Replace(testing::kParallelRequest2, R"(,"response":{"found":true})", "")});
  const auto report = testing::ParallelReport();
  EXPECT_EQ(Where(JudgeStructRoots({c, journal, report})),
            (Places{{"ADR-224.2", "/contents/2/parts/0/functionResponse"}}));
}


// Pieces of a call in pieces without `args` hold no Struct root to judge: absent args is no
// finding (INTERPRETING §5.6); a piece whose `args` is a list still is (ADR-224.1).
TEST(StructRoots, PiecesWithoutArgsAreNoFinding) {
  const auto findings = testing::OnPiecesRun(JudgeStructRoots, testing::kPiecesRequest2);
  EXPECT_TRUE(findings.empty()) << Describe(findings);
  const auto listed = testing::OnPiecesRun(
      JudgeStructRoots,
      Replace(testing::kPiecesRequest2, testing::kPiece3, R"({"functionCall":{"args":[]}})"));
  EXPECT_EQ(Where(listed), (Places{{"ADR-224.1", "/contents/1/parts/3/functionCall/args"}}));
}

}  // namespace
}  // namespace gemini_oracle::checks
