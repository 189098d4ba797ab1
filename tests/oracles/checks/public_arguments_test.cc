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

// Finds nothing when an integral float is handed over as its integer (2.0 as 2, in a nested
// list too): ADR-226 "This permits the inherited 1.0 to 1 and negative-zero to zero
// normalization".
TEST(PublicArgumentKinds, AcceptsFloatNormalizedToInteger) {
  const auto findings = JudgeArgs(R"({"n":2,"k":7,"box":{},"dims":[1,2],"s":"x"})");
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Reports an integer handed over as a float (7 as 7.0, at the root or in a nested list) under
// the open ADR-224.F1: the text permits only the inherited float-to-integer normalization
// (ADR-226: "without inventing lost JSON kinds").
TEST(PublicArgumentKinds, ReportsIntegerTurnedFloatAsOpen) {
  for (const char* drifted : {R"({"n":2.0,"k":7.0,"box":{},"dims":[1,2],"s":"x"})",
                              R"({"n":2.0,"k":7,"box":{},"dims":[1.0,2],"s":"x"})"}) {
    const auto findings = JudgeArgs(drifted);
    EXPECT_EQ(Where(findings), (Places{{"ADR-224.F1", ""}})) << Describe(findings);
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].level, "open");
    EXPECT_NE(findings[0].message.find("integer into a float"), std::string::npos);
  }
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

// ---------------------------------------------------------------------------------------------
// A native args root that is not an object (i_function_call_args_list, _string): an accepting
// implementation must not be failed by the judges (INTERPRETING §7.3).

std::vector<Finding> JudgeRootArgs(std::string_view native_args, std::string_view arguments) {
  const std::string case_json = R"({
  "description": "A functionCall whose args root is not an object.",
  "clauses": ["ADR-224.7"],
  "rationale": "open",
  "exchanges": [
    {"user": "go",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"name": "pick", "args": )" +
                                std::string(native_args) + R"(}}]}}]}}}],
  "expect": {"outcome": "implementation_defined", "note": "open", "requests": 1}
})";
  const auto c = MakeCase(case_json, "i_case.json");
  const auto journal = MakeJournal({R"({"contents":[{"role":"user","parts":[{"text":"go"}]}]})"});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange({testing::Call("tc_1", "pick", arguments)}));
  return JudgePublicArguments({c, journal, report});
}

constexpr std::string_view kListArgs = R"(["apple", {"k": [1]}])";

// A list args root is handed over as its numeric-key object or as the list itself: ADR-224,
// "Public ToolCall arguments remain arrays", and an associative decoder cannot tell them apart.
TEST(PublicArgumentKinds, AcceptsListRootAsNumericKeyObjectOrList) {
  auto findings = JudgeRootArgs(kListArgs, R"({"0": "apple", "1": {"k": [1]}})");
  EXPECT_TRUE(findings.empty()) << Describe(findings);
  findings = JudgeRootArgs(kListArgs, R"({"1": {"k": [1]}, "0": "apple"})");
  EXPECT_TRUE(findings.empty()) << Describe(findings);
  findings = JudgeRootArgs(kListArgs, R"(["apple", {"k": [1]}])");
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Members of a list args root are still compared, nested kinds included.
TEST(PublicArgumentKinds, ReportsChangedMembersOfListRoot) {
  EXPECT_EQ(Where(JudgeRootArgs(kListArgs, R"({"0": "pear", "1": {"k": [1]}})")),
            (Places{{"ADR-224.11", ""}}));
  EXPECT_EQ(Where(JudgeRootArgs(kListArgs, R"(["pear", {"k": [1]}])")),
            (Places{{"ADR-224.11", ""}}));
  EXPECT_EQ(Where(JudgeRootArgs(kListArgs, R"({"0": "apple"})")), (Places{{"ADR-224.11", ""}}));
  EXPECT_EQ(Where(JudgeRootArgs(kListArgs, R"({"0": "apple", "1": {"k": {"0": 1}}})")),
            (Places{{"ADR-224.6", ""}}));
  EXPECT_EQ(Where(JudgeRootArgs(kListArgs, R"(["apple", {"k": {"0": 1}}])")),
            (Places{{"ADR-224.6", ""}}));
  EXPECT_EQ(Where(JudgeRootArgs(kListArgs, R"("apple")")), (Places{{"ADR-224.11", ""}}));
}

// A string args root has no defined public form: a not-judged note, never a finding.
TEST(PublicArgumentKinds, DoesNotJudgeScalarRoot) {
  for (const std::string_view arguments : {R"({"city": "Paris"})", "{}", R"("x")", "[]"}) {
    const auto findings = JudgeRootArgs(R"("{\"city\": \"Paris\"}")", arguments);
    ASSERT_EQ(findings.size(), 1u) << Describe(findings);
    EXPECT_EQ(findings[0].clause, "ADR-224.11");
    EXPECT_EQ(ReasonTag(findings[0]), kNotJudged);
    EXPECT_EQ(findings[0].level, kNotJudged);
  }
}

// ---------------------------------------------------------------------------------------------
// A call answered inside its own content (ADR-226.B2) is no public call: reported calls pair
// with the pending functionCall parts.

std::vector<Finding> JudgeServerAnswered(std::vector<model::ParsedCall> calls) {
  const auto c = MakeCase(testing::kServerAnsweredCase);
  const auto journal =
      MakeJournal({testing::kServerAnsweredRequest1, testing::kServerAnsweredRequest2});
  auto report = testing::ServerAnsweredReport();
  report.exchanges[0].calls = std::move(calls);
  return JudgePublicArguments({c, journal, report});
}

// Pairs the one reported call with print, the pending call, not with the answered beep.
TEST(PublicArgumentKinds, PairsReportedCallsWithPendingCalls) {
  auto findings = JudgeServerAnswered({testing::Call("tc_1", "print", R"({"text":"hi"})")});
  EXPECT_TRUE(findings.empty()) << Describe(findings);
  findings = JudgeServerAnswered({testing::Call("tc_1", "print", R"({"text":"ho"})")});
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.11", ""}})) << Describe(findings);
}

// Reports a public call made for the call the server answered inside its content (ADR-226.B2),
// and, without such a call, a public call the model never made (ADR-224.11).
TEST(PublicArgumentKinds, ReportsPublicCallsBeyondThePendingOnes) {
  auto findings = JudgeServerAnswered({testing::Call("tc_1", "beep", "{}"),
                                       testing::Call("tc_2", "print", R"({"text":"hi"})")});
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0].clause, "ADR-226.B2") << Describe(findings);
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  auto report = testing::ParallelReport();
  report.exchanges[0].calls.push_back(report.exchanges[0].calls.back());
  const auto extra = JudgePublicArguments({c, journal, report});
  ASSERT_EQ(extra.size(), 1u) << Describe(extra);
  EXPECT_EQ(extra[0].clause, "ADR-224.11");
}

// Fails fewer reported calls than pending calls (a parse that lost calls), gating, never a
// check left undone: ADR-224.11 for a lost ID-less call, ADR-226.2 for a lost call with a
// native id.
TEST(PublicArgumentKinds, FailsMissingReportedCalls) {
  const auto findings = JudgeServerAnswered({});
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.11", ""}})) << Describe(findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(ReasonTag(findings[0]), kWireViolation);
  EXPECT_EQ(findings[0].level, "must");

  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  auto report = testing::ParallelReport();
  EXPECT_TRUE(JudgePublicArguments({c, journal, report}).empty());  // positive control
  report.exchanges[0].calls.pop_back();
  const auto partial = JudgePublicArguments({c, journal, report});
  EXPECT_EQ(Where(partial), (Places{{"ADR-226.2", ""}})) << Describe(partial);
  ASSERT_EQ(partial.size(), 1u);
  EXPECT_EQ(ReasonTag(partial[0]), kWireViolation);
}

// A lost first call leaves the second judged at its own part: one finding for the lost call,
// none for arguments that are right; a wrong second call is still reported.
TEST(PublicArgumentKinds, PairsTheCallsLeftWithTheirParts) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  auto report = testing::ParallelReport();
  report.exchanges[0].calls.erase(report.exchanges[0].calls.begin());
  auto findings = JudgePublicArguments({c, journal, report});
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.2", ""}})) << Describe(findings);
  report.exchanges[0].calls[0].arguments = ParseJson(R"({"q":"beta"})");
  findings = JudgePublicArguments({c, journal, report});
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.2", ""}, {"ADR-224.11", ""}})) << Describe(findings);
}

// Fails identical parallel calls taken as one (ADR-226.20), with or without native ids.
TEST(PublicArgumentKinds, FailsIdenticalCallsMerged) {
  const std::string identical =
      Replace(std::string(testing::kParallelCase),
              R"({"id": "call_B2", "name": "lookup", "args": {}})",
              R"({"id": "call_B2", "name": "lookup", "args": {"q": "alpha", "n": 1.0}})");
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  auto report = testing::ParallelReport();
  report.exchanges[0].calls[1].arguments = report.exchanges[0].calls[0].arguments;
  const auto c = MakeCase(identical);
  EXPECT_TRUE(JudgePublicArguments({c, journal, report}).empty());  // positive control
  report.exchanges[0].calls.pop_back();
  const auto merged = JudgePublicArguments({c, journal, report});
  EXPECT_EQ(Where(merged), (Places{{"ADR-226.20", ""}})) << Describe(merged);
  const auto idless = MakeCase(Replace(Replace(identical, R"("id": "call_B2", )", ""),
                                       R"("id": "call_A1", )", ""));
  EXPECT_EQ(Where(JudgePublicArguments({idless, journal, report})),
            (Places{{"ADR-226.20", ""}}));
}

// A public call under another name than its part's is not that call (ADR-224.11); the same
// calls under their own names are no finding.
TEST(PublicArgumentKinds, ReportsRenamedCall) {
  const auto c = MakeCase(kNestedCase);
  const auto journal = MakeJournal({R"({"contents":[{"role":"user","parts":[{"text":"go"}]}]})"});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange(
      {testing::Call("tc_1", "f", kExact), testing::Call("tc_2", "g", "{}")}));
  EXPECT_TRUE(JudgePublicArguments({c, journal, report}).empty());  // positive control
  report.exchanges[0].calls[1].name = "h";
  const auto renamed = JudgePublicArguments({c, journal, report});
  EXPECT_EQ(Where(renamed), (Places{{"ADR-224.11", ""}})) << Describe(renamed);
  ASSERT_EQ(renamed.size(), 1u);
  EXPECT_NE(renamed[0].message.find("public name of call 1"), std::string::npos)
      << renamed[0].message;
}

// Calls listed in another order than their parts (ADR-226 expects "their generic list is
// reordered") are each judged against the part they are: nothing when right, the altered one
// alone when one is wrong, and a call with an open drift still found at its own part.
TEST(PublicArgumentKinds, JudgesReorderedCallsAtTheirParts) {
  const auto c = MakeCase(kNestedCase);
  const auto journal = MakeJournal({R"({"contents":[{"role":"user","parts":[{"text":"go"}]}]})"});
  const auto judge = [&](std::string_view f_arguments) {
    model::DriverReport report;
    report.exchanges.push_back(testing::Exchange(
        {testing::Call("tc_2", "g", "{}"), testing::Call("tc_1", "f", f_arguments)}));
    return JudgePublicArguments({c, journal, report});
  };
  EXPECT_TRUE(judge(kExact).empty()) << Describe(judge(kExact));
  const auto drifted = judge(R"({"n":2.0,"k":7,"box":[],"dims":[1,2],"s":"x"})");
  EXPECT_EQ(Where(drifted), (Places{{"ADR-224.F1", ""}})) << Describe(drifted);
  const auto altered = judge(R"({"n":2.0,"k":8,"box":{},"dims":[1,2],"s":"x"})");
  EXPECT_EQ(Where(altered), (Places{{"ADR-224.11", ""}})) << Describe(altered);
  ASSERT_EQ(altered.size(), 1u);
  EXPECT_NE(altered[0].message.find("public arguments of call 1"), std::string::npos)
      << altered[0].message;
}

// Two calls of one name, one with a nested {} and one with a nested [], listed in reverse: each
// is matched to the part it equals first, so neither is judged against the other's part
// (which would find the open {} -> [] drift, or worse the must ADR-224.6 [] -> {}).
TEST(PublicArgumentKinds, MatchesExactPartsBeforeDriftedOnes) {
  const auto c = MakeCase(R"({
    "description": "Two calls of one name differ by a nested object and list.",
    "clauses": ["ADR-224.11"],
    "exchanges": [
      {"user": "go",
       "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
         {"functionCall": {"name": "f", "args": {"a": {}}}},
         {"functionCall": {"name": "f", "args": {"a": []}}}]}}]}}}],
    "expect": {"outcome": "accept", "requests": 1}
  })");
  const auto journal = MakeJournal({R"({"contents":[{"role":"user","parts":[{"text":"go"}]}]})"});
  const auto judge = [&](std::string_view first, std::string_view second) {
    model::DriverReport report;
    report.exchanges.push_back(testing::Exchange(
        {testing::Call("tc_1", "f", first), testing::Call("tc_2", "f", second)}));
    return JudgePublicArguments({c, journal, report});
  };
  EXPECT_TRUE(judge(R"({"a":[]})", R"({"a":{}})").empty())
      << Describe(judge(R"({"a":[]})", R"({"a":{}})"));
  EXPECT_TRUE(judge(R"({"a":{}})", R"({"a":[]})").empty());
  const auto both_lists = judge(R"({"a":[]})", R"({"a":[]})");
  EXPECT_EQ(Where(both_lists), (Places{{"ADR-224.F1", ""}})) << Describe(both_lists);
}

// A refused parse leaves no calls to judge and nothing to note.
TEST(PublicArgumentKinds, NoNoteWhenTheResponseWasRefused) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange());
  report.exchanges[0].response_parsed = false;
  report.refusal = model::Refusal{"native_id.malformed", "parse", 1, "refused", {}, {}};
  const auto findings = JudgePublicArguments({c, journal, report});
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}


// A call in pieces (INTERPRETING §5.6) is one public call whose arguments are the assembled
// ones: {"city": "Paris"} passes.
TEST(PublicArgumentsOfCallInPieces, AcceptsAssembledArguments) {
  const auto findings = testing::OnPiecesRun(JudgePublicArguments, testing::kPiecesRequest2);
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// The first piece's string alone ({"city": "Par"}) is another value (ADR-224.11); one public
// call per piece is more public calls than pending calls (ADR-224.11).
TEST(PublicArgumentsOfCallInPieces, ReportsAPieceTakenForTheArguments) {
  const auto partial = testing::OnPiecesRun(JudgePublicArguments, testing::kPiecesRequest2,
                                            testing::PiecesReport(R"({"city":"Par"})"));
  EXPECT_EQ(Where(partial), (Places{{"ADR-224.11", ""}})) << Describe(partial);
  model::DriverReport per_piece = testing::PiecesReport();
  auto& calls = per_piece.exchanges[0].calls;
  calls.insert(calls.begin() + 1, {testing::Call("tc_p1", "f", R"({"city":"Par"})"),
                                   testing::Call("tc_p2", "f", R"({"city":"is"})")});
  const auto findings =
      testing::OnPiecesRun(JudgePublicArguments, testing::kPiecesRequest2, per_piece);
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.11", ""}})) << Describe(findings);
}

// A turn whose pieces break the grammar (here f closes at once, so its next piece is an
// orphan) has no calls (INTERPRETING §5.6): its public calls are noted as not judged at
// ADR-226.B1, never compared with arguments the turn does not define. The same report on the
// turn that keeps the grammar is judged (negative control: a changed argument is found).
TEST(PublicArgumentsOfCallInPieces, NotesABrokenPieceTurnAsNotJudged) {
  const std::string broken_case =
      Replace(std::string(testing::kPiecesCase),
              R"({"functionCall": {"name": "f", "id": "c1", "willContinue": true}},)",
              R"({"functionCall": {"name": "f", "id": "c1"}},)");
  const auto c = MakeCase(broken_case);
  const auto journal = MakeJournal({testing::kPiecesRequest1, testing::kPiecesRequest2});
  for (const char* f_arguments : {R"({"city":"Paris"})", R"({"city":"Rome"})"}) {
    const auto findings = JudgePublicArguments({c, journal, testing::PiecesReport(f_arguments)});
    ASSERT_EQ(findings.size(), 1u) << Describe(findings);
    EXPECT_EQ(ReasonTag(findings[0]), kNotJudged);
    EXPECT_EQ(findings[0].clause, "ADR-226.B1");
    EXPECT_NE(findings[0].message.find("response.call_piece_orphan"), std::string::npos)
        << findings[0].message;
  }
  const auto changed = testing::OnPiecesRun(JudgePublicArguments, testing::kPiecesRequest2,
                                            testing::PiecesReport(R"({"city":"Rome"})"));
  EXPECT_EQ(Where(changed), (Places{{"ADR-224.11", ""}})) << Describe(changed);
}

}  // namespace
}  // namespace gemini_oracle::checks
