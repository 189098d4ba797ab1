// The stream-equivalence judge (INTERPRETING §5.5): a streamed twin against its original run
// with every answer sent whole. Literal controls: the same contents pass, whatever the method
// and the other members; each kind of difference is one finding under the twin's clause.
#include <memory>

#include "oracles/model/streamed_twin.h"
#include "tests/oracles/checks/checks_test_support.h"

namespace gemini_oracle::checks {
namespace {

using testing::MakeCase;
using testing::MakeJournal;
using testing::Places;
using testing::Replace;
using testing::Where;

std::vector<capture::JournalEntry> Streaming(std::vector<capture::JournalEntry> journal) {
  for (auto& entry : journal) {
    entry.path = "/v1beta/models/gemini-2.5-flash:streamGenerateContent";
    entry.query = "alt=sse";
  }
  return journal;
}

struct Runs {
  model::Case twin;
  std::vector<capture::JournalEntry> whole =
      MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  std::vector<capture::JournalEntry> streamed =
      Streaming(MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2}));
  model::DriverReport whole_report = testing::ParallelReport();
  model::DriverReport streamed_report = testing::ParallelReport();

  explicit Runs(model::TwinKind kind) {
    const auto original = std::make_shared<const model::Case>(MakeCase(testing::kParallelCase));
    twin = *original;
    twin.id += kind == model::TwinKind::kEveryAnswer ? ".streamed" : ".streaming-request";
    twin.twin = model::TwinOrigin{original, kind};
  }

  std::vector<Finding> Judge() const {
    CaseRun run{twin, streamed, streamed_report};
    run.whole_journal = &whole;
    run.whole_report = &whole_report;
    return JudgeStreamEquivalence(run);
  }
};

// Positive control: the same contents to the same model by the streaming method, and other
// members that differ (a streaming request may configure itself otherwise).
TEST(StreamEquivalence, AcceptsTheSameContentsByAnotherMethod) {
  Runs runs(model::TwinKind::kStreamingRequest);
  runs.streamed[1].body = Replace(runs.streamed[1].body, R"("mode":"NONE")",
                                  R"("mode":"NONE"},"generationConfig":{"temperature":0)");
  EXPECT_TRUE(runs.Judge().empty()) << Describe(runs.Judge());
}

// The turn replayed one content per part reads as one content: no difference here (where the
// division lies is the replay judge's ADR-224.F2).
TEST(StreamEquivalence, ReadsATurnSentAsSeveralContentsAsOne) {
  Runs runs(model::TwinKind::kStreamingRequest);
  runs.streamed[1].body = Replace(runs.streamed[1].body, R"("thoughtSignature":"c2lnLWFscGhh"},)",
                                  R"("thoughtSignature":"c2lnLWFscGhh"}]},{"role":"model","parts":[)");
  EXPECT_TRUE(runs.Judge().empty()) << Describe(runs.Judge());
}

// Negative controls on a streaming-request twin: an answer's id (ADR-226.17), a replayed part
// (ADR-224.8), a replayed args root (ADR-224.7), the outcome and the count (ADR-226.17),
// another model (ADR-226.17); a refusal of the streamed answer itself (ADR-226.B1).
TEST(StreamEquivalence, ReportsEachDifferenceUnderItsClause) {
  {
    Runs runs(model::TwinKind::kStreamingRequest);
    runs.streamed[1].body = Replace(runs.streamed[1].body, R"({"id":"call_A1","name":"lookup","response")",
                                    R"({"name":"lookup","response")");
    EXPECT_EQ(Where(runs.Judge()), (Places{{"ADR-226.17", "/contents/2/parts/0/functionResponse/id"}}));
  }
  {
    Runs runs(model::TwinKind::kStreamingRequest);
    runs.streamed[1].body =
        Replace(runs.streamed[1].body, R"("thoughtSignature":"c2lnLWFscGhh")", R"("x":1)");
    const auto findings = runs.Judge();
    ASSERT_FALSE(findings.empty());
    EXPECT_EQ(findings.front().clause, "ADR-224.8");
  }
  {
    Runs runs(model::TwinKind::kStreamingRequest);
    runs.streamed[1].body =
        Replace(runs.streamed[1].body, R"("args":{"q":"alpha","n":1.0})", R"("args":["alpha",1.0])");
    EXPECT_EQ(Where(runs.Judge()), (Places{{"ADR-224.7", "/contents/1/parts/0/functionCall/args"}}));
  }
  {
    Runs runs(model::TwinKind::kStreamingRequest);
    runs.streamed_report.refusal = model::Refusal{"http.stream", "http", 2, "", {}, {}};
    EXPECT_EQ(Where(runs.Judge()), (Places{{"ADR-226.B1", ""}}));
  }
  {
    Runs runs(model::TwinKind::kStreamingRequest);
    runs.streamed.pop_back();
    runs.streamed_report.refusal = model::Refusal{"replay.native_id_duplicate", "build", 2, "", {}, {}};
    const auto findings = runs.Judge();
    EXPECT_EQ(Where(findings), (Places{{"ADR-226.17", ""}, {"ADR-226.17", ""}}));
  }
  {
    Runs runs(model::TwinKind::kStreamingRequest);
    runs.streamed[1].path = "/v1beta/models/gemini-other:streamGenerateContent";
    EXPECT_EQ(Where(runs.Judge()), (Places{{"ADR-226.17", ""}}));
  }
}

// On a twin whose state is captured from streams, every difference is ADR-226.B1's.
TEST(StreamEquivalence, CitesTheBeyondClauseForCaptureFromStreams) {
  Runs runs(model::TwinKind::kEveryAnswer);
  runs.streamed[1].body =
      Replace(runs.streamed[1].body, R"("thoughtSignature":"c2lnLWFscGhh")", R"("x":1)");
  const auto findings = runs.Judge();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings.front().clause, "ADR-226.B1");
}

// Silent for a case that is no twin; not judged (never a pass) when the whole run is missing.
TEST(StreamEquivalence, SilentForOriginalsAndNotJudgedWithoutTheWholeRun) {
  Runs runs(model::TwinKind::kStreamingRequest);
  const model::Case original = *runs.twin.twin->original;
  EXPECT_TRUE(JudgeStreamEquivalence({original, runs.whole, runs.whole_report}).empty());
  const auto findings = JudgeStreamEquivalence({runs.twin, runs.streamed, runs.streamed_report});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(ReasonTag(findings.front()), kNotJudged);
}

}  // namespace
}  // namespace gemini_oracle::checks
