// The ids judge (ADR-226.1, 226.4) and the public-arguments judge (ADR-224.11).
#include <algorithm>

#include "tests/oracles/checks/checks_test_support.h"

namespace gemini_oracle::checks {
namespace {

using testing::Call;
using testing::MakeCase;
using testing::MakeJournal;
using testing::Places;
using testing::Replace;
using testing::Where;

// Finds nothing when every wire id came from the server and public ids are fresh.
TEST(Ids, AcceptsServerIdsAndFreshPublicIds) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  const auto report = testing::ParallelReport();
  const auto findings = JudgeIds({c, journal, report});
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Reports a functionResponse id the server never sent (ADR-226.4).
TEST(Ids, ReportsMadeUpResponseId) {
  const auto c = MakeCase(testing::kIdlessCase);
  const auto journal =
      MakeJournal({testing::kIdlessRequest1,
                   Replace(testing::kIdlessRequest2, R"({"functionResponse":{"name":"weather",)",
                           R"({"functionResponse":{"id":"weather-1","name":"weather",)")});
  const auto report = testing::IdlessReport();
  const auto findings = JudgeIds({c, journal, report});
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.4", "/contents/2/parts/0/functionResponse/id"}}))
      << Describe(findings);
}

// Reports a functionCall id synthesized onto an ID-less replayed call (ADR-226.4).
TEST(Ids, ReportsSynthesizedCallId) {
  const auto c = MakeCase(testing::kIdlessCase);
  const auto journal =
      MakeJournal({testing::kIdlessRequest1,
                   Replace(testing::kIdlessRequest2, R"({"functionCall":{"name":"weather",)",
                           R"({"functionCall":{"id":"tc_1","name":"weather",)")});
  const auto report = testing::IdlessReport();
  const auto findings = JudgeIds({c, journal, report});
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.4", "/contents/1/parts/0/functionCall/id"}}))
      << Describe(findings);
}

// Reports a public id reused in a later exchange (ADR-226.1).
TEST(Ids, ReportsPublicIdReusedAcrossExchanges) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  auto report = testing::ParallelReport();
  report.exchanges[1].calls.push_back(Call("tc_2", "lookup", "{}"));
  const auto findings = JudgeIds({c, journal, report});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].clause, "ADR-226.1");
  EXPECT_EQ(findings[0].pointer, "");
}

// Accepts a public id that is the call's native id: only uniqueness is observable (ADR-226.1).
TEST(Ids, AcceptsNativeIdUsedAsPublicId) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  auto report = testing::ParallelReport();
  report.exchanges[0].calls[1].id = "call_B2";
  const auto findings = JudgeIds({c, journal, report});
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Reports native ids reused as public ids when the native id recurs in a later turn (ADR-226.1:
// unique across the conversation, also when native ids recur).
TEST(Ids, ReportsPublicIdRepeatingRecurringNativeId) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  auto report = testing::ParallelReport();
  report.exchanges[0].calls[0].id = "call_A1";
  report.exchanges[1].calls.push_back(testing::Call("call_A1", "lookup", "{}"));
  const auto findings = JudgeIds({c, journal, report});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].clause, "ADR-226.1");
  EXPECT_EQ(findings[0].message.find("call_A1"), std::string::npos);
}

// Reports a public id that repeats a public id of the initial transcript (ADR-226.1).
TEST(Ids, ReportsPublicIdRepeatingTranscriptId) {
  const auto c = MakeCase(testing::Replace(std::string(testing::kParallelCase), R"("exchanges": [)",
                                           R"("transcript": [{"role": "user", "content": "hi"},
        {"role": "assistant", "id": "t0", "content": "",
         "tool_calls": [{"id": "tc_1", "name": "lookup", "arguments": {}}]},
        {"role": "tool", "tool_call_id": "tc_1", "name": "lookup", "content": "{}"}],
      "exchanges": [)"));
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  const auto report = testing::ParallelReport();
  EXPECT_EQ(Where(JudgeIds({c, journal, report})), (Places{{"ADR-226.1", ""}}));
}

// Reports an empty public id (ADR-226.1).
TEST(Ids, ReportsEmptyPublicId) {
  const auto c = MakeCase(testing::kIdlessCase);
  const auto journal = MakeJournal({testing::kIdlessRequest1, testing::kIdlessRequest2});
  auto report = testing::IdlessReport();
  report.exchanges[0].calls[0].id.clear();
  EXPECT_EQ(Where(JudgeIds({c, journal, report})), (Places{{"ADR-226.1", ""}}));
}

// Finds nothing when public arguments equal the native args, member order free.
TEST(PublicArguments, AcceptsDecodedEqualArguments) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  auto report = testing::ParallelReport();
  report.exchanges[0].calls[0].arguments = ParseJson(R"({"n":1.0,"q":"alpha"})");
  EXPECT_TRUE(JudgePublicArguments({c, journal, report}).empty());
}

// Accepts an integral float handed over as the integer of its value: ADR-226, "This permits the
// inherited 1.0 to 1 and negative-zero to zero normalization". The reverse (3 as 3.0) is no
// such normalization: the open ADR-224.F1 (public_arguments_test has both controls).
TEST(PublicArguments, AcceptsNumericKindOnly) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  auto report = testing::ParallelReport();
  report.exchanges[0].calls[0].arguments = ParseJson(R"({"q":"alpha","n":1})");
  EXPECT_TRUE(JudgePublicArguments({c, journal, report}).empty());
  const auto idless = MakeCase(testing::kIdlessCase);
  const auto idless_journal =
      MakeJournal({testing::kIdlessRequest1, testing::kIdlessRequest2});
  auto idless_report = testing::IdlessReport();
  const auto native =
      MakeCase(Replace(std::string(testing::kIdlessCase), R"("args": {"city": "Paris"})",
                       R"("args": {"city": "Paris", "days": 3})"));
  idless_report.exchanges[0].calls[0].arguments = ParseJson(R"({"city":"Paris","days":3.0})");
  auto findings = JudgePublicArguments({native, idless_journal, idless_report});
  ASSERT_EQ(Where(findings), (Places{{"ADR-224.F1", ""}})) << Describe(findings);
  EXPECT_EQ(findings[0].level, "open");
  idless_report.exchanges[0].calls[0].arguments = ParseJson(R"({"city":"Paris","days":3})");
  EXPECT_TRUE(JudgePublicArguments({native, idless_journal, idless_report}).empty());
  // The same arguments against the case they came from differ in a member: ADR-224.11.
  EXPECT_EQ(Where(JudgePublicArguments({idless, idless_journal, idless_report})),
            (Places{{"ADR-224.11", ""}}));
}

// Reports a public argument whose value differs from the native one (ADR-224.11).
TEST(PublicArguments, ReportsChangedValue) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  auto report = testing::ParallelReport();
  report.exchanges[0].calls[0].arguments = ParseJson(R"({"q":"beta","n":1.0})");
  auto findings = JudgePublicArguments({c, journal, report});
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.11", ""}})) << Describe(findings);
  // A value changed beyond numeric kind stays a must finding even when a kind changed too.
  report.exchanges[0].calls[0].arguments = ParseJson(R"({"q":"alpha","n":1.5})");
  findings = JudgePublicArguments({c, journal, report});
  EXPECT_EQ(Where(findings), (Places{{"ADR-224.11", ""}})) << Describe(findings);
}

// Reports public arguments returned as a list instead of a map (ADR-224.11).
TEST(PublicArguments, ReportsListArguments) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  auto report = testing::ParallelReport();
  report.exchanges[0].calls[1].arguments = Json::array();
  EXPECT_EQ(Where(JudgePublicArguments({c, journal, report})), (Places{{"ADR-224.11", ""}}));
}

// A native "id": null (i_native_id_null_in_response): ADR-226 does not say whether null is an
// absent or a malformed id, so a null kept on replay, and one echoed, come from the server.
constexpr std::string_view kNullIdCase = R"({
  "description": "A functionCall with a null id.",
  "clauses": ["ADR-226.5"],
  "rationale": "open",
  "exchanges": [
    {"user": "weather?",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"id": null, "name": "weather", "args": {"city": "Paris"}}}]}}]}},
     "then": {"results": [{"call": 0, "text": "sunny and mild"}]}},
    {"response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "It is sunny."}]}}]}}}
  ],
  "expect": {"outcome": "implementation_defined", "note": "open", "requests": 2}
})";

const std::string kNullIdRequest2 =
    R"({"contents":[{"role":"user","parts":[{"text":"weather?"}]},)"
    R"({"role":"model","parts":[{"functionCall":{"id":null,"name":"weather",)"
    R"("args":{"city":"Paris"}}}]},)"
    R"({"role":"user","parts":[{"functionResponse":{"name":"weather",)"
    R"("response":{"output":"sunny and mild"}}}]}]})";

// Findings only: the gemini profile's not-judged notes (ADR-224.5 for a text result) left out.
std::vector<Finding> JudgeNullId(JudgeFn judge, const std::string& request2, Profile profile) {
  const auto c = MakeCase(kNullIdCase, "i_case.json");
  const auto journal = MakeJournal({testing::kIdlessRequest1, request2});
  const auto report = testing::IdlessReport();
  auto findings = judge({c, journal, report, nullptr, profile});
  std::erase_if(findings, [](const Finding& f) { return ReasonTag(f) == kNotJudged; });
  return findings;
}

const std::string kNullEchoRequest2 = Replace(kNullIdRequest2, R"({"functionResponse":{"name")",
                                              R"({"functionResponse":{"id":null,"name")");

TEST(Ids, AcceptsNullNativeIdKeptAndEchoedOrNot) {
  for (const Profile profile : {Profile::kAdr, Profile::kGemini}) {
    for (const JudgeFn judge : {&JudgeIds, &JudgeResults, &JudgeReplay}) {
      auto findings = JudgeNullId(judge, kNullIdRequest2, profile);
      EXPECT_TRUE(findings.empty()) << Describe(findings);
      findings = JudgeNullId(judge, kNullEchoRequest2, profile);
      EXPECT_TRUE(findings.empty()) << Describe(findings);
    }
  }
}

// A null id left out on replay: Google reads null as unset, so the part is the same (§8.3);
// not judged, never a finding. A dropped non-null member of the same part still is one.
TEST(Ids, NullNativeIdLeftOutOnReplayIsNotJudged) {
  const std::string dropped = Replace(kNullIdRequest2, R"({"functionCall":{"id":null,)",
                                      R"({"functionCall":{)");
  ASSERT_NE(dropped, kNullIdRequest2);
  for (const Profile profile : {Profile::kAdr, Profile::kGemini}) {
    for (const JudgeFn judge : {&JudgeIds, &JudgeResults, &JudgeReplay}) {
      const auto findings = JudgeNullId(judge, dropped, profile);
      EXPECT_TRUE(findings.empty()) << Describe(findings);
    }
  }
  const auto c = MakeCase(kNullIdCase, "i_case.json");
  const auto notes = JudgeReplay({c, MakeJournal({testing::kIdlessRequest1, dropped}),
                                  testing::IdlessReport()});
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const Finding& f) {
    return ReasonTag(f) == kNotJudged && f.clause == "ADR-224.8";
  })) << Describe(notes);
  const std::string name_dropped = Replace(kNullIdRequest2, R"("name":"weather",)"
                                           R"("args")", R"("args")");
  ASSERT_NE(name_dropped, kNullIdRequest2);
  EXPECT_EQ(Where(JudgeNullId(&JudgeReplay, name_dropped, Profile::kAdr)),
            (Places{{"ADR-224.8", "/contents/1/parts/0/functionCall/name"}}));
}

// A string id on the answer of a null-id call is still an id the server never sent.
TEST(Ids, ReportsStringIdForNullNativeId) {
  const std::string request2 = Replace(kNullIdRequest2, R"({"functionResponse":{"name")",
                                       R"({"functionResponse":{"id":"tc_1","name")");
  EXPECT_EQ(Where(JudgeNullId(&JudgeIds, request2, Profile::kAdr)),
            (Places{{"ADR-226.4", "/contents/2/parts/0/functionResponse/id"}}));
  EXPECT_EQ(Where(JudgeNullId(&JudgeResults, request2, Profile::kAdr)),
            (Places{{"ADR-226.4", "/contents/2/parts/0/functionResponse/id"}}));
}

// A null id where the server sent none is still invented (ADR-226.4).
TEST(Ids, ReportsNullIdTheServerNeverSent) {
  const auto c = MakeCase(testing::kIdlessCase);
  const auto journal =
      MakeJournal({testing::kIdlessRequest1,
                   Replace(testing::kIdlessRequest2, R"({"functionResponse":{"name":"weather",)",
                           R"({"functionResponse":{"id":null,"name":"weather",)")});
  const auto report = testing::IdlessReport();
  EXPECT_EQ(Where(JudgeIds({c, journal, report})),
            (Places{{"ADR-226.4", "/contents/2/parts/0/functionResponse/id"}}));
}

// A carried capsule's null id (i_stored_native_id_null): the same reading.
TEST(Ids, AcceptsStoredNullNativeId) {
  const auto c = MakeCase(R"({
  "description": "A carried native call with a null id.",
  "clauses": ["ADR-226.6"],
  "rationale": "open",
  "transcript": [
    {"role": "user", "content": "Weather in Paris?"},
    {"role": "assistant", "id": "turn_1", "content": "",
     "tool_calls": [{"id": "tc_1", "name": "weather", "arguments": {"city": "Paris"}}],
     "provider_state": {"gemini": {"owner": "turn_1", "native_parts": [
       {"functionCall": {"id": null, "name": "weather", "args": {"city": "Paris"}}}]}}},
    {"role": "tool", "tool_call_id": "tc_1", "name": "weather", "content": "{\"temp_c\": 18}"}],
  "exchanges": [{"response": {"body": {"candidates": [{"content": {"role": "model",
    "parts": [{"text": "18 degrees."}]}}]}}}],
  "expect": {"outcome": "implementation_defined", "note": "open", "requests": 1}
})",
                          "i_case.json");
  const std::string request1 =
      R"({"contents":[{"role":"user","parts":[{"text":"Weather in Paris?"}]},)"
      R"({"role":"model","parts":[{"functionCall":{"id":null,"name":"weather",)"
      R"("args":{"city":"Paris"}}}]},)"
      R"({"role":"user","parts":[{"functionResponse":{"name":"weather",)"
      R"("response":{"temp_c":18}}}]}]})";
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange());
  for (const Profile profile : {Profile::kAdr, Profile::kGemini}) {
    for (const std::string& body :
         {request1, Replace(request1, R"({"functionResponse":{"name")",
                            R"({"functionResponse":{"id":null,"name")")}) {
      const auto journal = MakeJournal({body});
      for (const JudgeFn judge : {&JudgeIds, &JudgeResults, &JudgeReplay}) {
        const auto findings = judge({c, journal, report, nullptr, profile});
        EXPECT_TRUE(findings.empty()) << Describe(findings);
      }
    }
  }
}

// Leaves calls the implementation did not report to the public arguments judge, which fails
// them (ADR-224.11, 226.2, 226.20): no not-judged note here, and the reported ids still judged.
TEST(Ids, LeavesMissingReportedCallsToPublicArguments) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  auto report = testing::ParallelReport();
  report.exchanges[0].calls.pop_back();
  EXPECT_TRUE(JudgeIds({c, journal, report}).empty());
  report.exchanges[0].calls[0].id.clear();
  EXPECT_EQ(Where(JudgeIds({c, journal, report})), (Places{{"ADR-226.1", ""}}));
}

// A call answered inside its own content needs no public id: one reported call is complete.
TEST(Ids, CountsOnlyPendingCalls) {
  const auto c = MakeCase(testing::kServerAnsweredCase);
  const auto journal =
      MakeJournal({testing::kServerAnsweredRequest1, testing::kServerAnsweredRequest2});
  const auto findings = JudgeIds({c, journal, testing::ServerAnsweredReport()});
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// A piece may repeat its call's native id on the wire: an id the server sent, none invented
// (INTERPRETING §5.6); an id on a piece the server never sent is (ADR-226.4).
TEST(IdsOfCallInPieces, AcceptsARepeatedIdAndReportsAnInventedOne) {
  const auto repeated = testing::OnPiecesRun(JudgeIds, testing::kPiecesRequest2);
  EXPECT_TRUE(repeated.empty()) << Describe(repeated);
  const auto invented = testing::OnPiecesRun(
      JudgeIds,
      Replace(testing::kPiecesRequest2, testing::kPiece3, R"({"functionCall":{"id":"tc_1"}})"));
  ASSERT_EQ(invented.size(), 1u) << Describe(invented);
  EXPECT_EQ(invented[0].clause, "ADR-226.4");
}

}  // namespace
}  // namespace gemini_oracle::checks
