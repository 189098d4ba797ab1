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

// Under the gemini profile an assertion inside functionResponse.response pins the adr encoding
// of a result: it is listed as not judged (the results judge checks the value), while the
// other assertions still apply, so a correct framework's own wrapping does not fail it.
TEST(WireAssertions, LeavesResultEncodingPinsToTheAdrProfile) {
  const auto c = MakeCase(testing::kParallelCase);
  const std::string wrapped =
      Replace(testing::kParallelRequest2, R"("response":{"0":1,"1":[2,3]})",
              R"("response":{"name":"lookup","content":[1,[2,3]]})");
  const auto journal = MakeJournal({testing::kParallelRequest1, wrapped});
  const auto report = testing::ParallelReport();
  CaseRun gemini{c, journal, report};
  gemini.profile = Profile::kGemini;
  const auto notes = JudgeWireAssertions(gemini);
  ASSERT_EQ(notes.size(), 1u) << Describe(notes);
  EXPECT_EQ(ReasonTag(notes[0]), kNotJudged);
  EXPECT_EQ(Where(JudgeWireAssertions({c, journal, report})),
            (Places{{"ADR-226.3", "/contents/2/parts/1/functionResponse/response/1"}}));
  // An assertion on an enclosing value (the whole part) pins the encoding just the same.
  auto whole_part = c;
  whole_part.expect.wire.resize(1);
  whole_part.expect.wire[0].pointer = "/contents/2/parts/1";
  whole_part.expect.wire[0].equals = ParseJson(
      R"({"functionResponse":{"id":"call_B2","name":"lookup","response":{"0":1,"1":[2,3]}}})");
  CaseRun enclosing{whole_part, journal, report};
  enclosing.profile = Profile::kGemini;
  const auto enclosing_notes = JudgeWireAssertions(enclosing);
  ASSERT_EQ(enclosing_notes.size(), 1u) << Describe(enclosing_notes);
  EXPECT_EQ(ReasonTag(enclosing_notes[0]), kNotJudged);
}

// Reports a member that must be absent but is present.
TEST(WireAssertions, ReportsPresentMember) {
  const auto findings = JudgeParallel(
      Replace(testing::kParallelRequest1, R"("tools":[)", R"("toolConfig":{},"tools":[)"),
      testing::kParallelRequest2);
  // `toolConfig` is outside `contents`: the ADRs do not govern it, the case cites ADR-226.3.
  EXPECT_EQ(Where(findings), (Places{{"REF.B1", "/toolConfig"}})) << Describe(findings);
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

// Cites the clause an assertion names instead of the case's first clause.
TEST(WireAssertions, CitesTheAssertionsOwnClause) {
  const auto c = MakeCase(Replace(std::string(testing::kParallelCase),
                                  R"("equals": "call_A1"})",
                                  R"("equals": "call_A1", "clause": "ADR-226.20"})"));
  const auto journal = MakeJournal(
      {testing::kParallelRequest1,
       Replace(testing::kParallelRequest2, R"({"id":"call_A1","name":"lookup","response")",
               R"({"id":"call_B9","name":"lookup","response")")});
  const auto report = testing::ParallelReport();
  EXPECT_EQ(Where(JudgeWireAssertions({c, journal, report})),
            (Places{{"ADR-226.20", "/contents/2/parts/0/functionResponse/id"}}));
}

// A member outside `contents` is no ADR's: its assertion fails under REF.B1 (reference only),
// whatever clause the case wrote, never under the written must-clause.
TEST(WireAssertions, CitesRecordingFidelityOutsideContents) {
  const auto c = MakeCase(Replace(std::string(testing::kParallelCase),
                                  R"("pointer": "/toolConfig", "absent": true)",
                                  R"("pointer": "/toolConfig", "absent": true,
                                     "clause": "ADR-226.17")"));
  const auto journal = MakeJournal(
      {Replace(testing::kParallelRequest1, R"("tools":[)", R"("toolConfig":{},"tools":[)"),
       testing::kParallelRequest2});
  const auto report = testing::ParallelReport();
  EXPECT_EQ(Where(JudgeWireAssertions({c, journal, report})), (Places{{"REF.B1", "/toolConfig"}}));
  model::WireAssertion a;
  a.pointer = "/generationConfig";
  EXPECT_TRUE(PinsUngovernedMembers(a));
  a.pointer = "/contents/1/parts/0";
  EXPECT_FALSE(PinsUngovernedMembers(a));
  a.pointer = "/contentsX";
  EXPECT_TRUE(PinsUngovernedMembers(a));
  a.pointer = "";
  a.equals = ParseJson(R"({"contents":[]})");
  EXPECT_FALSE(PinsUngovernedMembers(a));
  a.equals = ParseJson(R"({"contents":[],"tools":[]})");
  EXPECT_TRUE(PinsUngovernedMembers(a));
}

// The parallel case pinning its requests as the reference sends them, as the recording cases
// do: `tools` of request 1, and request 2 whole.
std::string RecordingCase() {
  return Replace(std::string(testing::kParallelCase),
                 R"({"request": 1, "pointer": "/toolConfig", "absent": true}]})",
                 R"({"request": 1, "pointer": "/toolConfig", "absent": true},
    {"request": 1, "pointer": "/tools", "clause": "ADR-224.12",
     "equals": [{"functionDeclarations": [{"name": "lookup"}]}]},
    {"request": 2, "pointer": "", "clause": "ADR-224.7", "equals": )" +
                     testing::kParallelRequest2 + "}]}");
}

// A framework rendering its own declarations: OpenAPI `parameters` with "OBJECT",
// "description": "", every declaration in one tools object, its own generationConfig.
std::string FrameworkRendering(const std::string& request) {
  return Replace(request, R"("tools":[{"functionDeclarations":[{"name":"lookup"}]}])",
                 R"("tools":[{"functionDeclarations":[{"name":"lookup","description":"",)"
                 R"("parameters":{"type":"OBJECT","properties":{}}},{"name":"other",)"
                 R"("description":""}]}],"generationConfig":{"candidateCount":1})");
}

std::vector<std::pair<std::string, std::string>> GatingPlaces(const std::vector<Finding>& all) {
  std::vector<Finding> kept;
  for (const auto& f : all) {
    if (f.clause != "REF.B1" && ReasonTag(f) != kNotJudged) kept.push_back(f);
  }
  return Where(kept);
}

// The reference's own rendering passes; a framework's own rendering of the members the ADRs do
// not govern fails only REF.B1 (which gates the reference alone) and passes every governed
// check; the same framework request with an args root turned list still fails under the
// governed clauses, the whole body's contents under the clause the case wrote.
TEST(WireAssertions, FrameworkRenderingFailsOnlyRecordingFidelity) {
  const auto c = MakeCase(RecordingCase());
  const auto report = testing::ParallelReport();
  const auto reference = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  EXPECT_TRUE(JudgeAll({c, reference, report}).empty())
      << Describe(JudgeAll({c, reference, report}));

  const std::string framework2 = FrameworkRendering(testing::kParallelRequest2);
  const auto framework =
      MakeJournal({FrameworkRendering(testing::kParallelRequest1), framework2});
  EXPECT_EQ(Where(JudgeWireAssertions({c, framework, report})),
            (Places{{"REF.B1", "/tools"}, {"REF.B1", ""}}))
      << Describe(JudgeWireAssertions({c, framework, report}));
  EXPECT_EQ(GatingPlaces(JudgeAll({c, framework, report})), Places{})
      << Describe(JudgeAll({c, framework, report}));

  const auto list_root = MakeJournal(
      {FrameworkRendering(testing::kParallelRequest1),
       Replace(framework2, R"("name":"lookup","args":{}})", R"("name":"lookup","args":[]})")});
  const auto places = GatingPlaces(JudgeAll({c, list_root, report}));
  EXPECT_NE(std::find(places.begin(), places.end(),
                      std::pair<std::string, std::string>{"ADR-224.7", "/contents"}),
            places.end())
      << Describe(JudgeAll({c, list_root, report}));
  EXPECT_NE(std::find_if(places.begin(), places.end(),
                         [](const auto& p) { return p.first == "ADR-224.1"; }),
            places.end())
      << Describe(JudgeAll({c, list_root, report}));
}

// Under the gemini profile a whole body's contents holding a result pins its adr encoding (not
// judged); the members beside contents are still judged, under REF.B1.
TEST(WireAssertions, WholeBodySplitsUnderTheGeminiProfile) {
  const auto c = MakeCase(RecordingCase());
  const auto report = testing::ParallelReport();
  const auto framework = MakeJournal({testing::kParallelRequest1,
                                      FrameworkRendering(testing::kParallelRequest2)});
  CaseRun gemini{c, framework, report};
  gemini.profile = Profile::kGemini;
  std::vector<std::string> tags;
  const auto findings = JudgeWireAssertions(gemini);
  for (const auto& f : findings) tags.push_back(f.clause + " " + std::string(ReasonTag(f)));
  EXPECT_EQ(tags, (std::vector<std::string>{"ADR-226.3 " + std::string(kNotJudged),
                                            "ADR-224.7 " + std::string(kNotJudged),
                                            "REF.B1 " + std::string(kWireViolation)}))
      << Describe(findings);
}

// A case addressing the answer to each call instead of a part position.
constexpr std::string_view kAnsweringCase = R"({
  "description": "Answers are addressed by the call they answer.",
  "clauses": ["ADR-226.3"],
  "exchanges": [
    {"user": "look both up",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"id": "call_A1", "name": "lookup", "args": {"q": "a"}}},
       {"functionCall": {"id": "call_B2", "name": "lookup", "args": {}}}]}}]}},
     "then": {"results": [{"call": 1, "json": [1]}, {"call": 0, "json": {"found": true}}]}},
    {"response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "ok"}]}}]}}}
  ],
  "expect": {"outcome": "accept", "requests": 2, "wire": [
    {"request": 2, "answering": {"turn": 1, "call": 0}, "pointer": "/id", "equals": "call_A1",
     "clause": "ADR-226.3"},
    {"request": 2, "answering": {"turn": 1, "call": 1}, "pointer": "/response/0", "equals": 1,
     "clause": "ADR-224.4"}]}
})";

const std::string kAnswering1 =
    R"({"contents":[{"role":"user","parts":[{"text":"look both up"}]}]})";
const std::string kAnswering2 =
    R"({"contents":[{"role":"user","parts":[{"text":"look both up"}]},)"
    R"({"role":"model","parts":[)"
    R"({"functionCall":{"id":"call_A1","name":"lookup","args":{"q":"a"}}},)"
    R"({"functionCall":{"id":"call_B2","name":"lookup","args":{}}}]},)"
    R"({"role":"user","parts":[)"
    R"({"functionResponse":{"id":"call_B2","name":"lookup","response":{"0":1}}},)"
    R"({"functionResponse":{"id":"call_A1","name":"lookup","response":{"found":true}}}]}]})";

std::vector<Finding> JudgeAnswering(const std::string& request2,
                                    std::string_view case_json = kAnsweringCase) {
  const auto c = MakeCase(case_json);
  const auto journal = MakeJournal({kAnswering1, request2});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange());
  report.exchanges.push_back(testing::Exchange());
  return JudgeWireAssertions({c, journal, report});
}

// Resolves `answering` to the functionResponse that answers the call, wherever it sits.
TEST(WireAssertions, ResolvesAnsweringWhateverTheOrder) {
  const auto findings = JudgeAnswering(kAnswering2);
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Reports a failing `answering` assertion at the resolved pointer, under its own clause.
TEST(WireAssertions, ReportsFailingAnsweringAssertion) {
  const auto findings =
      JudgeAnswering(Replace(kAnswering2, R"("response":{"0":1})", R"("response":{"0":2})"));
  EXPECT_EQ(Where(findings),
            (Places{{"ADR-224.4", "/contents/2/parts/0/functionResponse/response/0"}}))
      << Describe(findings);
}

// Reports an `answering` address that no functionResponse resolves.
TEST(WireAssertions, ReportsUnresolvableAnswering) {
  const auto findings = JudgeAnswering(
      kAnswering2, Replace(std::string(kAnsweringCase), R"("answering": {"turn": 1, "call": 0})",
                           R"("answering": {"turn": 3, "call": 0})"));
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].clause, "ADR-226.3");
  EXPECT_NE(findings[0].message.find("answering"), std::string::npos) << findings[0].message;
}

}  // namespace
}  // namespace gemini_oracle::checks
