// The results judge: each functionResponse, identified by id, name and position, judged against
// its call's name, id and result, in one user content (WIRE.1).
#include "tests/oracles/checks/checks_test_support.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {
namespace {

using testing::MakeCase;
using testing::MakeJournal;
using testing::Places;
using testing::Replace;
using testing::Where;

std::vector<Finding> JudgeParallelSecondRequest(const std::string& request2) {
  return testing::OnParallelRun(&JudgeResults, request2);
}

std::vector<Finding> JudgeIdlessSecondRequest(const std::string& request2) {
  return testing::OnIdlessRun(&JudgeResults, request2);
}

// Finds nothing when reversed results come back by native id in one user content.
TEST(Results, AcceptsEchoedIdsInOneContent) {
  const auto findings = JudgeParallelSecondRequest(testing::kParallelRequest2);
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Finds nothing when an ID-less call's text result is wrapped without an id.
TEST(Results, AcceptsIdlessTextResult) {
  const auto findings = JudgeIdlessSecondRequest(testing::kIdlessRequest2);
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Accepts any wrapping key for a text result (ADR-224.5).
TEST(Results, AcceptsOtherWrappingKey) {
  const auto findings =
      JudgeIdlessSecondRequest(Replace(testing::kIdlessRequest2, R"({"output":"sunny and mild"})",
                                       R"({"result":"sunny and mild"})"));
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Reports a functionResponse that omits its call's native id: request 2 is a closing request
// (tool mode NONE), so under ADR-226.17 "Use the same association on closing ... requests";
// the same request without the closing mode is ADR-226.3's.
TEST(Results, ReportsMissingIdEcho) {
  const std::string request2 =
      Replace(testing::kParallelRequest2, R"({"id":"call_A1","name":"lookup","response")",
              R"({"name":"lookup","response")");
  const auto findings = JudgeParallelSecondRequest(request2);
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.17", "/contents/2/parts/0/functionResponse"}}))
      << Describe(findings);
  const std::string not_closing =
      Replace(std::string(testing::kParallelCase), R"({"tool_mode": "NONE",)", "{");
  const auto plain = testing::JudgeWithSecondRequest(
      &JudgeResults, not_closing, testing::kParallelRequest1,
      Replace(request2, R"(,"toolConfig":{"functionCallingConfig":{"mode":"NONE"}})", ""),
      testing::ParallelReport());
  EXPECT_EQ(Where(plain), (Places{{"ADR-226.3", "/contents/2/parts/0/functionResponse"}}))
      << Describe(plain);
}

// Reports both answers when the native ids are swapped between them: identified by id, each
// carries its peer's result (ADR-226.17 on this closing request, ADR-226.3 elsewhere).
TEST(Results, ReportsSwappedIds) {
  std::string request2 =
      Replace(testing::kParallelRequest2, R"({"id":"call_A1","name":"lookup","response")",
              R"({"id":"call_XX","name":"lookup","response")");
  request2 = Replace(request2, R"({"id":"call_B2","name":"lookup","response")",
                     R"({"id":"call_A1","name":"lookup","response")");
  request2 = Replace(request2, R"("call_XX")", R"("call_B2")");
  const auto findings = JudgeParallelSecondRequest(request2);
  EXPECT_EQ(Where(findings),
            (Places{{"ADR-226.17", "/contents/2/parts/0/functionResponse/response"},
                    {"ADR-226.17", "/contents/2/parts/1/functionResponse/response"}}))
      << Describe(findings);
}

// Reports an id made up for an ID-less call (ADR-226.4).
TEST(Results, ReportsMadeUpId) {
  const auto findings = JudgeIdlessSecondRequest(
      Replace(testing::kIdlessRequest2, R"({"functionResponse":{"name":"weather",)",
              R"({"functionResponse":{"id":"weather-1","name":"weather",)"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.4", "/contents/2/parts/0/functionResponse/id"}}))
      << Describe(findings);
}

// Reports answers split over two user contents (one response turn, WIRE.1).
TEST(Results, ReportsResponsesSplitOverTwoContents) {
  const auto findings = JudgeParallelSecondRequest(
      Replace(testing::kParallelRequest2, R"("response":{"found":true}}},{"functionResponse")",
              R"("response":{"found":true}}}]},{"role":"user","parts":[{"functionResponse")"));
  EXPECT_EQ(Where(findings), (Places{{"WIRE.1", "/contents/3"}})) << Describe(findings);
}

// Reports a list result sent as a response list (ADR-224.4).
TEST(Results, ReportsListResultSentAsList) {
  const auto findings = JudgeParallelSecondRequest(Replace(
      testing::kParallelRequest2, R"("response":{"0":1,"1":[2,3]})", R"("response":[1,[2,3]])"));
  EXPECT_EQ(Where(findings),
            (Places{{"ADR-224.4", "/contents/2/parts/1/functionResponse/response"}}))
      << Describe(findings);
}

// Reports a nested list turned into an object inside a list result (ADR-224.6).
TEST(Results, ReportsNestedListTurnedObject) {
  const auto findings = JudgeParallelSecondRequest(
      Replace(testing::kParallelRequest2, R"("1":[2,3])", R"("1":{"0":2,"1":3})"));
  EXPECT_EQ(Where(findings),
            (Places{{"ADR-224.6", "/contents/2/parts/1/functionResponse/response/1"}}))
      << Describe(findings);
}

// Reports an object result whose member changed kind (ADR-224.3).
TEST(Results, ReportsRetypedMember) {
  const auto findings = JudgeParallelSecondRequest(
      Replace(testing::kParallelRequest2, R"({"found":true})", R"({"found":"true"})"));
  EXPECT_EQ(Where(findings),
            (Places{{"ADR-224.3", "/contents/2/parts/0/functionResponse/response/found"}}))
      << Describe(findings);
}

// Reports a text result sent bare instead of wrapped in an object (ADR-224.5 via the root).
TEST(Results, ReportsTextResultWithExtraMember) {
  const auto findings =
      JudgeIdlessSecondRequest(Replace(testing::kIdlessRequest2, R"({"output":"sunny and mild"})",
                                       R"({"output":"sunny and mild","ok":true})"));
  EXPECT_EQ(Where(findings),
            (Places{{"ADR-224.5", "/contents/2/parts/0/functionResponse/response"}}))
      << Describe(findings);
}

// ---------------------------------------------------------------------------------------------
// Item: the initial transcript's tool messages. Turn 1 is owned with bindings and a reordered
// generic list of two same-name calls; turn 2 is a legacy capsule (no bindings) whose native id
// recurs from turn 1, next to an ID-less call; turn 3 is a foreign turn answered with a list.

constexpr std::string_view kTranscriptCase = R"({
  "description": "Carried tool messages are answered by their bound or recovered native ids.",
  "clauses": ["ADR-226.3"],
  "transcript": [
    {"role": "user", "content": "Weather in Paris and London?"},
    {"role": "assistant", "id": "turn_1", "content": "",
     "tool_calls": [{"id": "tc_2", "name": "get_weather", "arguments": {"city": "London"}},
                    {"id": "tc_1", "name": "get_weather", "arguments": {"city": "Paris"}}],
     "provider_state": {"gemini": {"owner": "turn_1", "native_parts": [
       {"functionCall": {"id": "call_a", "name": "get_weather", "args": {"city": "Paris"}}},
       {"functionCall": {"id": "call_b", "name": "get_weather", "args": {"city": "London"}}}],
       "tool_call_bindings": [{"tool_call_id": "tc_1", "native_id": "call_a"},
                              {"tool_call_id": "tc_2", "native_id": "call_b"}]}}},
    {"role": "tool", "tool_call_id": "tc_2", "name": "get_weather",
     "content": "{\"temp_c\": 12}", "is_error": false},
    {"role": "tool", "tool_call_id": "tc_1", "name": "get_weather",
     "content": "{\"temp_c\": 18}", "is_error": false},
    {"role": "user", "content": "And the time and a dice roll?"},
    {"role": "assistant", "id": "turn_2", "content": "",
     "tool_calls": [{"id": "tc_3", "name": "get_time", "arguments": {"tz": "Europe/Paris"}},
                    {"id": "tc_4", "name": "roll", "arguments": {"sides": 6}}],
     "provider_state": {"gemini": {"owner": "turn_2", "native_parts": [
       {"functionCall": {"id": "call_a", "name": "get_time", "args": {"tz": "Europe/Paris"}}},
       {"functionCall": {"name": "roll", "args": {"sides": 6.0}}}]}}},
    {"role": "tool", "tool_call_id": "tc_4", "name": "roll", "content": "4", "is_error": false},
    {"role": "tool", "tool_call_id": "tc_3", "name": "get_time", "content": "clock unavailable",
     "is_error": true},
    {"role": "user", "content": "And Rome?"},
    {"role": "assistant", "id": "turn_3", "content": "",
     "tool_calls": [{"id": "call_x", "name": "get_weather", "arguments": {"city": "Rome"}}],
     "provider_state": {"openai": {"response_id": "resp_1"}}},
    {"role": "tool", "tool_call_id": "call_x", "name": "get_weather",
     "content": "[\"sun\",[1,2]]", "is_error": false}],
  "exchanges": [{"user": "Summarize.",
    "response": {"body": {"candidates": [{"content": {"role": "model",
      "parts": [{"text": "Done."}]}}]}}}],
  "expect": {"outcome": "accept", "requests": 1}
})";

const std::string kTranscriptRequest1 =
    R"({"contents":[{"role":"user","parts":[{"text":"Weather in Paris and London?"}]},)"
    R"({"role":"model","parts":[)"
    R"({"functionCall":{"id":"call_a","name":"get_weather","args":{"city":"Paris"}}},)"
    R"({"functionCall":{"id":"call_b","name":"get_weather","args":{"city":"London"}}}]},)"
    R"({"role":"user","parts":[)"
    R"({"functionResponse":{"id":"call_a","name":"get_weather","response":{"temp_c":18}}},)"
    R"({"functionResponse":{"id":"call_b","name":"get_weather","response":{"temp_c":12}}}]},)"
    R"({"role":"user","parts":[{"text":"And the time and a dice roll?"}]},)"
    R"({"role":"model","parts":[)"
    R"({"functionCall":{"id":"call_a","name":"get_time","args":{"tz":"Europe/Paris"}}},)"
    R"({"functionCall":{"name":"roll","args":{"sides":6.0}}}]},)"
    R"({"role":"user","parts":[)"
    R"({"functionResponse":{"id":"call_a","name":"get_time","response":{"error":"clock unavailable"}}},)"
    R"({"functionResponse":{"name":"roll","response":{"output":4}}}]},)"
    R"({"role":"user","parts":[{"text":"And Rome?"}]},)"
    R"({"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Rome"}}}]},)"
    R"({"role":"user","parts":[{"functionResponse":{"name":"get_weather",)"
    R"("response":{"0":"sun","1":[1,2]}}}]},)"
    R"({"role":"user","parts":[{"text":"Summarize."}]}]})";

std::vector<Finding> JudgeTranscript(const std::string& request1,
                                     std::string_view json = kTranscriptCase) {
  const auto c = MakeCase(json);
  const auto journal = MakeJournal({request1});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange());
  return JudgeResults({c, journal, report});
}

// Finds nothing when carried answers echo the bound, recovered or absent ids by payload.
TEST(TranscriptResults, AcceptsBoundLegacyAndForeignAnswers) {
  const auto findings = JudgeTranscript(kTranscriptRequest1);
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Judges every request, also a later one that still carries the initial turns.
TEST(TranscriptResults, JudgesEveryRequest) {
  const auto c = MakeCase(kTranscriptCase);
  const std::string bad =
      Replace(kTranscriptRequest1, R"("response":{"temp_c":18})", R"("response":{"temp_c":18.5})");
  const auto journal = MakeJournal({kTranscriptRequest1, bad});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange());
  const auto findings = JudgeResults({c, journal, report});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].request, 2u);
  EXPECT_EQ(findings[0].clause, "ADR-224.3");
}

// Reports bound native ids swapped between the answers of a reordered generic list (226.3).
TEST(TranscriptResults, ReportsSwappedBoundIds) {
  std::string request1 =
      Replace(kTranscriptRequest1, R"({"id":"call_a","name":"get_weather","response")",
              R"({"id":"call_XX","name":"get_weather","response")");
  request1 = Replace(request1, R"({"id":"call_b","name":"get_weather","response")",
                     R"({"id":"call_a","name":"get_weather","response")");
  request1 = Replace(request1, R"("call_XX")", R"("call_b")");
  EXPECT_EQ(Where(JudgeTranscript(request1)),
            (Places{{"ADR-226.3", "/contents/2/parts/0/functionResponse/response"},
                    {"ADR-226.3", "/contents/2/parts/1/functionResponse/response"}}));
}

// Reports an answer that names another function than its carried call (226.3).
TEST(TranscriptResults, ReportsWrongName) {
  const auto findings = JudgeTranscript(Replace(kTranscriptRequest1,
                                                R"({"id":"call_b","name":"get_weather","response")",
                                                R"({"id":"call_b","name":"get_time","response")"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.3", "/contents/2/parts/1/functionResponse/name"}}))
      << Describe(findings);
}

// Reports a legacy call's recovered native id missing from its answer (226.3).
TEST(TranscriptResults, ReportsLegacyIdNotEchoed) {
  const auto findings =
      JudgeTranscript(Replace(kTranscriptRequest1, R"({"id":"call_a","name":"get_time","response")",
                              R"({"name":"get_time","response")"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.3", "/contents/5/parts/0/functionResponse"}}))
      << Describe(findings);
}

// Reports a sibling's native id copied onto the answer of an ID-less legacy call: by its id it
// answers the sibling a second time, and the ID-less call goes unanswered (WIRE.1).
TEST(TranscriptResults, ReportsSiblingIdOnIdlessLegacyCall) {
  const auto findings = JudgeTranscript(Replace(kTranscriptRequest1, R"({"name":"roll","response")",
                                                R"({"id":"call_a","name":"roll","response")"));
  EXPECT_EQ(Where(findings), (Places{{"WIRE.1", "/contents/5/parts/1/functionResponse"},
                                     {"WIRE.1", "/contents/4/parts/1/functionCall"}}))
      << Describe(findings);
}

// Reports an id on the answer to a foreign turn's call (226.16).
TEST(TranscriptResults, ReportsIdOnForeignAnswer) {
  const auto findings =
      JudgeTranscript(Replace(kTranscriptRequest1, R"({"functionResponse":{"name":"get_weather",)",
                              R"({"functionResponse":{"id":"call_x","name":"get_weather",)"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.16", "/contents/8/parts/0/functionResponse/id"}}))
      << Describe(findings);
}

// Reports a carried list result sent as a list (224.4) and an error result whose wrapped value
// changed (224.3).
TEST(TranscriptResults, ReportsCarriedPayloadForms) {
  EXPECT_EQ(
      Where(JudgeTranscript(Replace(kTranscriptRequest1, R"("response":{"0":"sun","1":[1,2]})",
                                    R"("response":["sun",[1,2]])"))),
      (Places{{"ADR-224.4", "/contents/8/parts/0/functionResponse/response"}}));
  EXPECT_EQ(Where(JudgeTranscript(Replace(kTranscriptRequest1,
                                          R"("response":{"error":"clock unavailable"})",
                                          R"("response":{"error":"clock down"})"))),
            (Places{{"ADR-224.3", "/contents/5/parts/0/functionResponse/response/error"}}));
}

// Judges a carried result that ParseJson refuses (a number beyond a double, nesting past
// kMaxJsonDepth) as text, as the builder sends it, instead of letting the exception escape.
TEST(TranscriptResults, AcceptsUnreadableJsonResultSentAsText) {
  const std::string deep = std::string(600, '[') + std::string(600, ']');
  for (const std::string& content : {std::string("1e999"), deep}) {
    const std::string c = Replace(std::string(kTranscriptCase), R"("content": "4")",
                                  R"("content": ")" + content + R"(")");
    const std::string request1 = Replace(kTranscriptRequest1, R"("response":{"output":4})",
                                         R"("response":{"output":")" + content + R"("})");
    const auto findings = JudgeTranscript(request1, c);
    EXPECT_TRUE(findings.empty()) << Describe(findings);
  }
}

// Reports a carried call left without an answer (WIRE.1).
TEST(TranscriptResults, ReportsMissingAnswer) {
  const auto findings = JudgeTranscript(Replace(
      kTranscriptRequest1, R"(,{"functionResponse":{"name":"roll","response":{"output":4}}})", ""));
  EXPECT_EQ(Where(findings), (Places{{"WIRE.1", "/contents/4/parts/1/functionCall"}}))
      << Describe(findings);
}

// A legacy turn with identical ID-less calls: no single native part is determinable, so an
// answer may only carry an id its turn had, and this turn had none (226.4).
constexpr std::string_view kIdenticalLegacyCase = R"({
  "description": "Identical ID-less legacy calls are answered without ids.",
  "clauses": ["ADR-226.13"],
  "transcript": [
    {"role": "user", "content": "Roll two dice."},
    {"role": "assistant", "id": "turn_1", "content": "",
     "tool_calls": [{"id": "tc_1", "name": "roll", "arguments": {"sides": 6}},
                    {"id": "tc_2", "name": "roll", "arguments": {"sides": 6}}],
     "provider_state": {"gemini": {"owner": "turn_1", "native_parts": [
       {"functionCall": {"name": "roll", "args": {"sides": 6}}},
       {"functionCall": {"name": "roll", "args": {"sides": 6}}}]}}},
    {"role": "tool", "tool_call_id": "tc_1", "name": "roll", "content": "{\"value\": 5}"},
    {"role": "tool", "tool_call_id": "tc_2", "name": "roll", "content": "{\"value\": 2}"}],
  "exchanges": [{"user": "Sum?",
    "response": {"body": {"candidates": [{"content": {"role": "model",
      "parts": [{"text": "7"}]}}]}}}],
  "expect": {"outcome": "accept", "requests": 1}
})";

const std::string kIdenticalLegacyRequest1 =
    R"({"contents":[{"role":"user","parts":[{"text":"Roll two dice."}]},)"
    R"({"role":"model","parts":[{"functionCall":{"name":"roll","args":{"sides":6}}},)"
    R"({"functionCall":{"name":"roll","args":{"sides":6}}}]},)"
    R"({"role":"user","parts":[{"functionResponse":{"name":"roll","response":{"value":5}}},)"
    R"({"functionResponse":{"name":"roll","response":{"value":2}}}]},)"
    R"({"role":"user","parts":[{"text":"Sum?"}]}]})";

// Finds nothing for ID-less answers to undeterminable legacy calls; reports an id on one (226.4).
TEST(TranscriptResults, ReportsIdOnUndeterminableLegacyCall) {
  EXPECT_TRUE(JudgeTranscript(kIdenticalLegacyRequest1, kIdenticalLegacyCase).empty());
  const auto findings =
      JudgeTranscript(Replace(kIdenticalLegacyRequest1, R"({"name":"roll","response":{"value":2})",
                              R"({"id":"roll-2","name":"roll","response":{"value":2})"),
                      kIdenticalLegacyCase);
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.4", "/contents/2/parts/1/functionResponse/id"}}))
      << Describe(findings);
}

// ---------------------------------------------------------------------------------------------
// Negative controls of the exchange results' name and one-response-turn checks.

// Reports an answer that names another function than the call it answers (226.3).
TEST(Results, ReportsWrongName) {
  const auto findings = JudgeIdlessSecondRequest(
      Replace(testing::kIdlessRequest2, R"({"functionResponse":{"name":"weather",)",
              R"({"functionResponse":{"name":"forecast",)"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.3", "/contents/2/parts/0/functionResponse/name"}}))
      << Describe(findings);
}

// Reports answers carried in a content whose role is not user (WIRE.1).
TEST(Results, ReportsAnswersNotInUserContent) {
  const auto findings = JudgeIdlessSecondRequest(
      Replace(testing::kIdlessRequest2, R"({"role":"user","parts":[{"functionResponse")",
              R"({"role":"function","parts":[{"functionResponse")"));
  EXPECT_EQ(Where(findings), (Places{{"WIRE.1", "/contents/2/role"}})) << Describe(findings);
}

// Reports answers that do not directly follow the model content they answer (WIRE.1).
TEST(Results, ReportsAnswersNotFollowingModelContent) {
  const auto findings = JudgeIdlessSecondRequest(
      Replace(testing::kIdlessRequest2, R"({"role":"user","parts":[{"functionResponse")",
              R"({"role":"user","parts":[{"text":"meanwhile"}]},)"
              R"({"role":"user","parts":[{"functionResponse")"));
  EXPECT_EQ(Where(findings), (Places{{"WIRE.1", "/contents/2"}})) << Describe(findings);
}

// Reports a second functionResponse for the same call (WIRE.1).
TEST(Results, ReportsResponseCountMismatch) {
  const auto findings = JudgeIdlessSecondRequest(
      Replace(testing::kIdlessRequest2, R"("response":{"output":"sunny and mild"}}})",
              R"("response":{"output":"sunny and mild"}}},)"
              R"({"functionResponse":{"name":"weather","response":{"output":"again"}}})"));
  EXPECT_EQ(Where(findings), (Places{{"WIRE.1", "/contents/2/parts/1/functionResponse"}}))
      << Describe(findings);
}


// A call in pieces (INTERPRETING §5.6) is one call: one functionResponse echoing its id answers
// it, whatever its pieces, and nothing else is due for it.
TEST(ResultsOfCallInPieces, AcceptsOneAnswerPerCall) {
  const auto findings = testing::OnPiecesRun(JudgeResults, testing::kPiecesRequest2);
  EXPECT_TRUE(findings.empty()) << Describe(findings);
  // The answers in either order (both calls have native ids).
  const auto reversed = testing::OnPiecesRun(
      JudgeResults, testing::PiecesRequest2(testing::kPiecesModelParts,
                                            testing::kAnswerG + "," + testing::kAnswerF));
  EXPECT_TRUE(reversed.empty()) << Describe(reversed);
}

// Two answers to the call, one answer per piece, or an answer without the call's id: the pieces
// are no calls to answer (WIRE.1), and the answer carries its call's native id (ADR-226.3).
TEST(ResultsOfCallInPieces, ReportsAnswersPerPieceAndMissingId) {
  const std::string base = "/contents/2/parts/";
  const auto twice = testing::OnPiecesRun(
      JudgeResults, testing::PiecesRequest2(testing::kPiecesModelParts,
                                            testing::kAnswerF + "," + testing::kAnswerF + "," +
                                                testing::kAnswerG));
  EXPECT_EQ(Where(twice), (Places{{"WIRE.1", base + "1/functionResponse"}})) << Describe(twice);
  const auto per_piece = testing::OnPiecesRun(
      JudgeResults,
      testing::PiecesRequest2(testing::kPiecesModelParts,
                              testing::kAnswerF + "," + testing::kAnswerF + "," +
                                  testing::kAnswerF + "," + testing::kAnswerF + "," +
                                  testing::kAnswerG));
  EXPECT_EQ(Where(per_piece), (Places{{"WIRE.1", base + "1/functionResponse"},
                                      {"WIRE.1", base + "2/functionResponse"},
                                      {"WIRE.1", base + "3/functionResponse"}}))
      << Describe(per_piece);
  const auto no_id = testing::OnPiecesRun(
      JudgeResults,
      testing::PiecesRequest2(testing::kPiecesModelParts,
                              Replace(testing::kAnswerF, R"("id":"c1",)", "") + "," +
                                  testing::kAnswerG));
  EXPECT_EQ(Where(no_id), (Places{{"ADR-226.3", base + "0/functionResponse"}}))
      << Describe(no_id);
  // The answer to g missing: g is call 1 (the pieces are call 0), pointed at g's part.
  const auto missing = testing::OnPiecesRun(
      JudgeResults, testing::PiecesRequest2(testing::kPiecesModelParts, testing::kAnswerF));
  EXPECT_EQ(Where(missing), (Places{{"WIRE.1", "/contents/1/parts/4/functionCall"}}))
      << Describe(missing);
}

// Selectors count calls, not pieces: `call: 1` is g, and f is selected by its assembled args.
TEST(ResultsOfCallInPieces, SelectorsCountCalls) {
  const auto c = MakeCase(testing::kPiecesCase);
  const Json parts = detail::ScriptedParts(c.exchanges[0]);
  EXPECT_EQ(detail::FunctionCallPositions(parts), (std::vector<std::size_t>{0, 4}));
  EXPECT_EQ(detail::PendingCallPositions(parts), (std::vector<std::size_t>{0, 4}));
  EXPECT_EQ(detail::ResolveSelector(c.exchanges[0].then.results[0].call, parts), 1u);
  EXPECT_EQ(detail::ResolveSelector(c.exchanges[0].then.results[1].call, parts), 0u);
  EXPECT_EQ(detail::ResolveSelector(model::CallSelector{std::size_t{2}}, parts), std::nullopt);
  EXPECT_EQ(detail::ResolveSelector(model::NamedCall{"f", ParseJson(R"({"city":"Par"})")}, parts),
            std::nullopt);
}

// A carried turn whose pieces break the grammar (an orphan piece) has no defined calls: its
// answers are noted as not judged, never a finding.
TEST(ResultsOfCallInPieces, NotesAnswersToABrokenPieceTurnAsNotJudged) {
  const std::string broken_case = Replace(
      std::string(testing::kPiecesCase), R"({"functionCall": {"name": "f", "id": "c1", "willContinue": true}},)",
      R"({"functionCall": {"name": "f", "id": "c1"}},)");
  const auto c = MakeCase(broken_case);
  const auto journal = MakeJournal({testing::kPiecesRequest1, testing::kPiecesRequest2});
  const auto findings = JudgeResults({c, journal, testing::PiecesReport()});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(ReasonTag(findings[0]), kNotJudged);
  // INTERPRETING §5.6 "Levels": what an implementation makes of a call in pieces is ADR-226.B1's.
  EXPECT_EQ(findings[0].clause, "ADR-226.B1");
  EXPECT_EQ(findings[0].level, std::string(kNotJudged));
  // Positive control: the same turn keeping the grammar is judged, and passes.
  const auto good =
      JudgeResults({MakeCase(testing::kPiecesCase), journal, testing::PiecesReport()});
  EXPECT_TRUE(good.empty()) << Describe(good);
}


// On a closing request (tool mode NONE) the call in pieces is answered the same way: its one
// answer echoing c1 passes, an answer without the id is ADR-226.17's ("Use the same association
// on closing ... requests carrying existing state").
TEST(ResultsOfCallInPieces, ClosingRequestAnswersTheCallOnce) {
  const std::string closing_case = Replace(std::string(testing::kPiecesCase),
                                           R"({"response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "18 degrees"}]})",
                                           R"({"tool_mode": "NONE", "response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "18 degrees"}]})");
  const auto c = MakeCase(closing_case);
  const auto closing = [](std::string request) {
    return Replace(request, R"("streamFunctionCallArguments":true})",
                   R"("streamFunctionCallArguments":true,"mode":"NONE"})");
  };
  const auto judge = [&](const std::string& request2) {
    return JudgeResults(
        {c, MakeJournal({testing::kPiecesRequest1, closing(request2)}), testing::PiecesReport()});
  };
  const auto good = judge(testing::kPiecesRequest2);
  EXPECT_TRUE(good.empty()) << Describe(good);
  const auto no_id = judge(testing::PiecesRequest2(
      testing::kPiecesModelParts,
      Replace(testing::kAnswerF, R"("id":"c1",)", "") + "," + testing::kAnswerG));
  EXPECT_EQ(Where(no_id), (Places{{"ADR-226.17", "/contents/2/parts/0/functionResponse"}}))
      << Describe(no_id);
}

// A call whose id arrives only on a later piece (INTERPRETING §5.6 leaves it open, the reference
// refuses it): an implementation that accepts it, binds the id and echoes it passes; one that
// drops the id from the answer fails the echo (ADR-226.3). No id is invented either way.
TEST(ResultsOfCallInPieces, IdOnlyOnALaterPieceIsTheCallsId) {
  const std::string case_json = Replace(
      Replace(std::string(testing::kPiecesCase),
              R"({"functionCall": {"name": "f", "id": "c1", "willContinue": true}},)",
              R"({"functionCall": {"name": "f", "willContinue": true}},)"),
      R"({"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "Par",)",
      R"({"functionCall": {"id": "c1", "partialArgs": [{"jsonPath": "$.city", "stringValue": "Par",)");
  const std::string piece0 = R"({"functionCall":{"name":"f","willContinue":true}})";
  const std::string piece1 = Replace(testing::kPiece1, R"({"functionCall":{)",
                                     R"({"functionCall":{"id":"c1",)");
  const std::string parts = piece0 + "," + piece1 + "," + testing::kPiece2 + "," +
                            testing::kPiece3 + "," + testing::kWholeG;
  const auto c = MakeCase(case_json);
  const auto report = testing::PiecesReport();
  const auto judge = [&](const std::string& answers) {
    const auto journal =
        MakeJournal({testing::kPiecesRequest1, testing::PiecesRequest2(parts, answers)});
    const CaseRun run{c, journal, report};
    auto findings = JudgeResults(run);
    for (auto& f : JudgeIds(run)) findings.push_back(std::move(f));
    return findings;
  };
  const auto bound = judge(testing::kAnswerF + "," + testing::kAnswerG);
  EXPECT_TRUE(bound.empty()) << Describe(bound);
  const auto dropped =
      judge(Replace(testing::kAnswerF, R"("id":"c1",)", "") + "," + testing::kAnswerG);
  EXPECT_EQ(Where(dropped), (Places{{"ADR-226.3", "/contents/2/parts/0/functionResponse"}}))
      << Describe(dropped);
}

}  // namespace
}  // namespace gemini_oracle::checks
