// The results judge identifies the call each functionResponse answers without its payload (by
// id, then name, then position among same-name calls) and judges every request (WIRE.1/2).
#include "tests/oracles/checks/checks_test_support.h"

namespace gemini_oracle::checks {
namespace {

using testing::MakeCase;
using testing::MakeJournal;
using testing::Places;
using testing::Replace;
using testing::Where;

/// Gating and open findings only: not-judged notes left out.
std::vector<Finding> Judged(std::vector<Finding> findings) {
  findings.erase(std::remove_if(findings.begin(), findings.end(),
                                [](const Finding& f) { return ReasonTag(f) == kNotJudged; }),
                 findings.end());
  return findings;
}

std::vector<Finding> OnParallel(const std::string& request2, Profile profile) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, request2});
  const auto report = testing::ParallelReport();
  return JudgeResults({c, journal, report, nullptr, profile});
}

// A real client's answers: every result wrapped as {"name": ..., "content": ...}.
const std::string kWrappedRequest2 = Replace(
    Replace(testing::kParallelRequest2, R"("response":{"found":true})",
            R"("response":{"name":"lookup","content":{"found":true}})"),
    R"("response":{"0":1,"1":[2,3]})", R"("response":{"name":"lookup","content":[1,[2,3]]})");

// Accepts a real client's {"name", "content"} wrapping under the gemini profile and notes the
// ADR encodings it leaves unjudged.
TEST(Answers, AcceptsRealClientWrappingUnderGeminiProfile) {
  const auto findings = OnParallel(kWrappedRequest2, Profile::kGemini);
  EXPECT_TRUE(Judged(findings).empty()) << Describe(findings);
  std::vector<std::string> notes;
  for (const auto& f : findings) {
    if (ReasonTag(f) == kNotJudged) notes.push_back(f.clause);
  }
  EXPECT_EQ(notes, (std::vector<std::string>{"ADR-224.4"}));
}

// A json result carried as the compact JSON text the runner handed over (§5.4), as tools that
// return text do: preserved under the gemini profile, not the adr encoding.
TEST(Answers, AcceptsJsonResultCarriedAsItsTextUnderGeminiProfile) {
  const std::string as_text = Replace(testing::kParallelRequest2, R"("response":{"found":true})",
                                      R"("response":{"content":"{\"found\":true}"})");
  const auto gemini = OnParallel(as_text, Profile::kGemini);
  EXPECT_TRUE(Judged(gemini).empty()) << Describe(gemini);
  // Another spelling of the same JSON (spaces) preserves it too; another value does not.
  const std::string spaced =
      Replace(testing::kParallelRequest2, R"("response":{"found":true})",
              R"("response":{"content":"{ \"found\" : true }"})");
  const auto spaced_findings = OnParallel(spaced, Profile::kGemini);
  EXPECT_TRUE(Judged(spaced_findings).empty()) << Describe(spaced_findings);
  const std::string other =
      Replace(testing::kParallelRequest2, R"("response":{"found":true})",
              R"("response":{"content":"{\"found\":false}"})");
  EXPECT_FALSE(Judged(OnParallel(other, Profile::kGemini)).empty());
  EXPECT_EQ(Where(OnParallel(as_text, Profile::kAdr)),
            (Places{{"ADR-224.3", "/contents/2/parts/0/functionResponse/response"}}));
}

// Refuses the same wrapping under the adr profile: the object is not the root (224.3), the list
// is not at numeric keys (224.4).
TEST(Answers, RefusesRealClientWrappingUnderAdrProfile) {
  const auto findings = OnParallel(kWrappedRequest2, Profile::kAdr);
  EXPECT_EQ(Where(findings),
            (Places{{"ADR-224.3", "/contents/2/parts/0/functionResponse/response"},
                    {"ADR-224.4", "/contents/2/parts/1/functionResponse/response"}}))
      << Describe(findings);
}

// Swaps the native ids of the two wrapped answers: identified by id, each payload is its peer's
// result (226.17, the association on this closing request), in both profiles.
TEST(Answers, ReportsSwappedIdsOfWrappedAnswers) {
  std::string swapped = Replace(kWrappedRequest2, R"("id":"call_A1","name":"lookup","response")",
                                R"("id":"call_XX","name":"lookup","response")");
  swapped = Replace(swapped, R"("id":"call_B2","name":"lookup","response")",
                    R"("id":"call_A1","name":"lookup","response")");
  swapped = Replace(swapped, R"("call_XX")", R"("call_B2")");
  for (const Profile profile : {Profile::kGemini, Profile::kAdr}) {
    const auto findings = Judged(OnParallel(swapped, profile));
    EXPECT_EQ(Where(findings),
              (Places{{"ADR-226.17", "/contents/2/parts/0/functionResponse/response"},
                      {"ADR-226.17", "/contents/2/parts/1/functionResponse/response"}}))
        << ToString(profile) << ": " << Describe(findings);
  }
}

// Accepts a list result whose numeric keys come in another member order (member order is free).
TEST(Answers, AcceptsListKeysInAnyMemberOrder) {
  const auto findings = OnParallel(
      Replace(testing::kParallelRequest2, R"({"0":1,"1":[2,3]})", R"({"1":[2,3],"0":1})"),
      Profile::kAdr);
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Reports a numeric-kind-only drift in a result under the open ADR-224.F1, not 224.3.
TEST(Answers, ReportsNumericKindDriftInResultAsOpen) {
  const auto findings = OnParallel(
      Replace(testing::kParallelRequest2, R"({"0":1,"1":[2,3]})", R"({"0":1.0,"1":[2,3]})"),
      Profile::kAdr);
  EXPECT_EQ(Where(findings),
            (Places{{"ADR-224.F1", "/contents/2/parts/1/functionResponse/response/0"}}))
      << Describe(findings);
}

// ---------------------------------------------------------------------------------------------
// Results carried past the next request: exchange 1 has two ID'd calls, exchange 2 answers with
// text, exchange 3 is a closing request. Request 3 still carries exchange 1's answers.

constexpr std::string_view kCarriedCase = R"({
  "description": "Two ID'd calls and an ID-less one are answered; the answers travel on.",
  "clauses": ["ADR-226.3"],
  "exchanges": [
    {"user": "look both up",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"id": "call_A1", "name": "lookup", "args": {"q": "a"}}},
       {"functionCall": {"id": "call_B2", "name": "lookup", "args": {"q": "b"}}},
       {"functionCall": {"name": "clock", "args": {}}}]}}]}},
     "then": {"results": [{"call": 0, "json": {"v": 1}}, {"call": 1, "json": {"v": 2}},
                          {"call": 2, "text": "noon"}]}},
    {"response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"name": "weather", "args": {}}}]}}]}},
     "then": {"results": [{"call": 0, "text": "sunny"}]}},
    {"tool_mode": "NONE", "response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "done"}]}}]}}}
  ],
  "expect": {"outcome": "accept", "requests": 3}
})";

const std::string kCarried1 = R"({"contents":[{"role":"user","parts":[{"text":"look both up"}]}]})";
const std::string kCarriedTurn1 =
    R"({"role":"model","parts":[)"
    R"({"functionCall":{"id":"call_A1","name":"lookup","args":{"q":"a"}}},)"
    R"({"functionCall":{"id":"call_B2","name":"lookup","args":{"q":"b"}}},)"
    R"({"functionCall":{"name":"clock","args":{}}}]},)"
    R"({"role":"user","parts":[)"
    R"({"functionResponse":{"id":"call_A1","name":"lookup","response":{"v":1}}},)"
    R"({"functionResponse":{"id":"call_B2","name":"lookup","response":{"v":2}}},)"
    R"({"functionResponse":{"name":"clock","response":{"output":"noon"}}}]})";
const std::string kCarried2 =
    R"({"contents":[{"role":"user","parts":[{"text":"look both up"}]},)" + kCarriedTurn1 + "]}";
const std::string kCarried3 =
    R"({"contents":[{"role":"user","parts":[{"text":"look both up"}]},)" + kCarriedTurn1 +
    R"(,{"role":"model","parts":[{"functionCall":{"name":"weather","args":{}}}]},)"
    R"({"role":"user","parts":[{"functionResponse":{"name":"weather",)"
    R"("response":{"output":"sunny"}}}]}],)"
    R"("toolConfig":{"functionCallingConfig":{"mode":"NONE"}}})";

std::vector<Finding> OnCarried(const std::string& request3) {
  const auto c = MakeCase(kCarriedCase);
  const auto journal = MakeJournal({kCarried1, kCarried2, request3});
  model::DriverReport report;
  for (int i = 0; i < 3; ++i) report.exchanges.push_back(testing::Exchange());
  return JudgeResults({c, journal, report});
}

// Finds nothing when every request carries the answers as sent first.
TEST(Answers, AcceptsCarriedAnswers) {
  const auto findings = OnCarried(kCarried3);
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Reports native ids swapped between two answers in request 3, a closing request (226.17).
TEST(Answers, ReportsIdsSwappedInRequestThree) {
  std::string request3 = Replace(kCarried3, R"({"id":"call_A1","name":"lookup","response")",
                                 R"({"id":"call_XX","name":"lookup","response")");
  request3 = Replace(request3, R"({"id":"call_B2","name":"lookup","response")",
                     R"({"id":"call_A1","name":"lookup","response")");
  request3 = Replace(request3, R"("call_XX")", R"("call_B2")");
  const auto findings = OnCarried(request3);
  EXPECT_EQ(Where(findings),
            (Places{{"ADR-226.17", "/contents/2/parts/0/functionResponse/response"},
                    {"ADR-226.17", "/contents/2/parts/1/functionResponse/response"}}))
      << Describe(findings);
  for (const auto& f : findings) EXPECT_EQ(f.request, 3u);
}

// Reports an id invented, in request 3 only (a closing request: 226.17 rather than 226.4), on
// the answer to exchange 1's ID-less call.
TEST(Answers, ReportsIdInventedInRequestThree) {
  const auto findings =
      OnCarried(Replace(kCarried3, R"({"functionResponse":{"name":"clock",)",
                        R"({"functionResponse":{"id":"clock-1","name":"clock",)"));
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.17", "/contents/2/parts/2/functionResponse/id"}}))
      << Describe(findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].request, 3u);
}

// ---------------------------------------------------------------------------------------------
// Transcript tool messages with identical payloads: only id and name tell the answers apart.

constexpr std::string_view kSamePayloadCase = R"({
  "description": "Two bound calls of different names are answered with equal payloads.",
  "clauses": ["ADR-226.3"],
  "transcript": [
    {"role": "user", "content": "Time and weather?"},
    {"role": "assistant", "id": "turn_1", "content": "",
     "tool_calls": [{"id": "tc_1", "name": "get_time", "arguments": {}},
                    {"id": "tc_2", "name": "get_weather", "arguments": {}}],
     "provider_state": {"gemini": {"owner": "turn_1", "native_parts": [
       {"functionCall": {"id": "call_a", "name": "get_time", "args": {}}},
       {"functionCall": {"id": "call_b", "name": "get_weather", "args": {}}}],
       "tool_call_bindings": [{"tool_call_id": "tc_1", "native_id": "call_a"},
                              {"tool_call_id": "tc_2", "native_id": "call_b"}]}}},
    {"role": "tool", "tool_call_id": "tc_1", "name": "get_time", "content": "{}"},
    {"role": "tool", "tool_call_id": "tc_2", "name": "get_weather", "content": "{}"}],
  "exchanges": [{"user": "Thanks.",
    "response": {"body": {"candidates": [{"content": {"role": "model",
      "parts": [{"text": "ok"}]}}]}}}],
  "expect": {"outcome": "accept", "requests": 1}
})";

const std::string kSamePayloadRequest1 =
    R"({"contents":[{"role":"user","parts":[{"text":"Time and weather?"}]},)"
    R"({"role":"model","parts":[)"
    R"({"functionCall":{"id":"call_a","name":"get_time","args":{}}},)"
    R"({"functionCall":{"id":"call_b","name":"get_weather","args":{}}}]},)"
    R"({"role":"user","parts":[)"
    R"({"functionResponse":{"id":"call_a","name":"get_time","response":{}}},)"
    R"({"functionResponse":{"id":"call_b","name":"get_weather","response":{}}}]},)"
    R"({"role":"user","parts":[{"text":"Thanks."}]}]})";

std::vector<Finding> OnTranscript(std::string_view case_json, const std::string& request1,
                                  Profile profile = Profile::kAdr) {
  const auto c = MakeCase(case_json);
  const auto journal = MakeJournal({request1});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange());
  return JudgeResults({c, journal, report, nullptr, profile});
}

// Finds nothing when equal payloads carry their own names and ids.
TEST(Answers, AcceptsEqualPayloadsWithOwnNamesAndIds) {
  const auto findings = OnTranscript(kSamePayloadCase, kSamePayloadRequest1);
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Reports answers that keep their own names but carry each other's ids (226.3).
TEST(Answers, ReportsOwnNameWithPeerId) {
  std::string request1 = Replace(kSamePayloadRequest1, R"({"id":"call_a","name":"get_time","r)",
                                 R"({"id":"call_XX","name":"get_time","r)");
  request1 = Replace(request1, R"({"id":"call_b","name":"get_weather","r)",
                     R"({"id":"call_a","name":"get_weather","r)");
  request1 = Replace(request1, R"("call_XX")", R"("call_b")");
  const auto findings = OnTranscript(kSamePayloadCase, request1);
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.3", "/contents/2/parts/0/functionResponse/name"},
                                     {"ADR-226.3", "/contents/2/parts/1/functionResponse/name"}}))
      << Describe(findings);
}

// ---------------------------------------------------------------------------------------------
// An older owned turn without bindings mixing an ID'd and an ID-less call, with a generic call
// (and a tool message) only for the ID'd one.

constexpr std::string_view kMixedLegacyCase = R"({
  "description": "A legacy turn mixing an ID'd and an ID-less call is answered in part.",
  "clauses": ["ADR-226.13"],
  "transcript": [
    {"role": "user", "content": "Time and a dice roll?"},
    {"role": "assistant", "id": "turn_1", "content": "",
     "tool_calls": [{"id": "tc_1", "name": "get_time", "arguments": {}}],
     "provider_state": {"gemini": {"owner": "turn_1", "native_parts": [
       {"functionCall": {"id": "call_a", "name": "get_time", "args": {}}},
       {"functionCall": {"name": "roll", "args": {"sides": 6}}}]}}},
    {"role": "tool", "tool_call_id": "tc_1", "name": "get_time", "content": "{\"h\": 9}"}],
  "exchanges": [{"user": "Go on.",
    "response": {"body": {"candidates": [{"content": {"role": "model",
      "parts": [{"text": "ok"}]}}]}}}],
  "expect": {"outcome": "accept", "requests": 1}
})";

const std::string kMixedLegacyRequest1 =
    R"({"contents":[{"role":"user","parts":[{"text":"Time and a dice roll?"}]},)"
    R"({"role":"model","parts":[)"
    R"({"functionCall":{"id":"call_a","name":"get_time","args":{}}},)"
    R"({"functionCall":{"name":"roll","args":{"sides":6}}}]},)"
    R"({"role":"user","parts":[)"
    R"({"functionResponse":{"id":"call_a","name":"get_time","response":{"h":9}}}]},)"
    R"({"role":"user","parts":[{"text":"Go on."}]}]})";

// Reports the replayed ID-less call left without a functionResponse (WIRE.1).
TEST(Answers, ReportsCarriedMixedLegacyTurnAnsweredInPart) {
  const auto findings = OnTranscript(kMixedLegacyCase, kMixedLegacyRequest1);
  EXPECT_EQ(Where(findings), (Places{{"WIRE.1", "/contents/1/parts/1/functionCall"}}))
      << Describe(findings);
}

// ---------------------------------------------------------------------------------------------
// Two ID-less calls of different names: Gemini pairs their answers by position.

constexpr std::string_view kTwoIdlessCase = R"({
  "description": "Two ID-less calls are answered in the order of the calls.",
  "clauses": ["WIRE.2"],
  "exchanges": [
    {"user": "weather and time?",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"name": "weather", "args": {}}},
       {"functionCall": {"name": "time", "args": {}}}]}}]}},
     "then": {"results": [{"call": 1, "json": {"h": 9}}, {"call": 0, "json": {"c": 18}}]}},
    {"response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "ok"}]}}]}}}
  ],
  "expect": {"outcome": "accept", "requests": 2}
})";

const std::string kTwoIdless1 =
    R"({"contents":[{"role":"user","parts":[{"text":"weather and time?"}]}]})";
const std::string kTwoIdless2 =
    R"({"contents":[{"role":"user","parts":[{"text":"weather and time?"}]},)"
    R"({"role":"model","parts":[{"functionCall":{"name":"weather","args":{}}},)"
    R"({"functionCall":{"name":"time","args":{}}}]},)"
    R"({"role":"user","parts":[)"
    R"({"functionResponse":{"name":"weather","response":{"c":18}}},)"
    R"({"functionResponse":{"name":"time","response":{"h":9}}}]}]})";

std::vector<Finding> OnTwoIdless(const std::string& request2) {
  const auto c = MakeCase(kTwoIdlessCase);
  const auto journal = MakeJournal({kTwoIdless1, request2});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange());
  report.exchanges.push_back(testing::Exchange());
  return JudgeResults({c, journal, report});
}

// Finds nothing when ID-less answers follow their calls; reports them out of order (WIRE.2).
TEST(Answers, ReportsIdlessAnswersOutOfOrder) {
  EXPECT_TRUE(OnTwoIdless(kTwoIdless2).empty()) << Describe(OnTwoIdless(kTwoIdless2));
  const auto findings =
      OnTwoIdless(R"({"contents":[{"role":"user","parts":[{"text":"weather and time?"}]},)"
                  R"({"role":"model","parts":[{"functionCall":{"name":"weather","args":{}}},)"
                  R"({"functionCall":{"name":"time","args":{}}}]},)"
                  R"({"role":"user","parts":[)"
                  R"({"functionResponse":{"name":"time","response":{"h":9}}},)"
                  R"({"functionResponse":{"name":"weather","response":{"c":18}}}]}]})");
  EXPECT_EQ(Where(findings), (Places{{"WIRE.2", "/contents/2/parts/1/functionResponse"}}))
      << Describe(findings);
}

// ---------------------------------------------------------------------------------------------
// A server-side tool (ADR-226.B2): the model content holds a call and its answer; only the other
// call needs an answer in the next user content.

constexpr std::string_view kServerSideCase = R"({
  "description": "A call answered by the server inside its model content needs no answer.",
  "clauses": ["ADR-226.B2"],
  "exchanges": [
    {"user": "search and look up",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"id": "s1", "name": "mcp_search", "args": {}}},
       {"functionResponse": {"id": "s1", "name": "mcp_search", "response": {"hits": 1}}},
       {"functionCall": {"id": "c2", "name": "lookup", "args": {}}}]}}]}},
     "then": {"results": [{"call": 1, "json": {"ok": true}}]}},
    {"response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "ok"}]}}]}}}
  ],
  "expect": {"outcome": "accept", "requests": 2}
})";

// Finds nothing when only the pending call is answered after a server-answered call.
TEST(Answers, AcceptsServerAnsweredCallWithoutAnswer) {
  const auto c = MakeCase(kServerSideCase);
  const auto journal = MakeJournal(
      {R"({"contents":[{"role":"user","parts":[{"text":"search and look up"}]}]})",
       R"({"contents":[{"role":"user","parts":[{"text":"search and look up"}]},)"
       R"({"role":"model","parts":[{"functionCall":{"id":"s1","name":"mcp_search","args":{}}},)"
       R"({"functionResponse":{"id":"s1","name":"mcp_search","response":{"hits":1}}},)"
       R"({"functionCall":{"id":"c2","name":"lookup","args":{}}}]},)"
       R"({"role":"user","parts":[)"
       R"({"functionResponse":{"id":"c2","name":"lookup","response":{"ok":true}}}]}]})"});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange());
  report.exchanges.push_back(testing::Exchange());
  const auto findings = JudgeResults({c, journal, report});
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Accepts a JSON-text tool message carried as its original text under the gemini profile; the
// adr profile wants the decoded object as the root (224.3).
TEST(Answers, AcceptsJsonTextCarriedAsTextUnderGeminiProfile) {
  std::string request1 = Replace(kSamePayloadRequest1, R"("name":"get_time","response":{})",
                                 R"("name":"get_time","response":{"content":"{}"})");
  EXPECT_TRUE(OnTranscript(kSamePayloadCase, request1, Profile::kGemini).empty());
  EXPECT_EQ(Where(OnTranscript(kSamePayloadCase, request1, Profile::kAdr)),
            (Places{{"ADR-224.3", "/contents/2/parts/0/functionResponse/response"}}));
}

// A tool message holding an integer beyond 64 bits: its exact text in the fallback wrapper, or
// the exact literal, preserves it; the rounded double does not (ADR-224.3, 224.5).
TEST(Answers, BigIntegerResultIsPreservedOnlyExactly) {
  const std::string big_case =
      Replace(std::string(kSamePayloadCase),
              R"("tool_call_id": "tc_1", "name": "get_time", "content": "{}")",
              R"("tool_call_id": "tc_1", "name": "get_time",)"
              R"( "content": "{\"n\": 123456789012345678901234567890}")");
  const auto with = [&](const std::string& response) {
    return Replace(kSamePayloadRequest1, R"("name":"get_time","response":{})",
                   R"("name":"get_time","response":)" + response);
  };
  for (const auto profile : {Profile::kAdr, Profile::kGemini}) {
    const auto text = OnTranscript(
        big_case, with(R"({"output":"{\"n\": 123456789012345678901234567890}"})"), profile);
    EXPECT_TRUE(text.empty()) << Describe(text);
    const auto exact = OnTranscript(big_case, with(R"({"n":123456789012345678901234567890})"),
                                    profile);
    EXPECT_TRUE(exact.empty()) << Describe(exact);
    const auto rounded =
        OnTranscript(big_case, with(R"({"n":1.2345678901234568e+29})"), profile);
    EXPECT_EQ(Where(rounded),
              (Places{{"ADR-224.3", "/contents/2/parts/0/functionResponse/response/n"}}))
        << Describe(rounded);
  }
}

// Two identical parallel calls, ID'd or ID-less, answered with distinct results.
constexpr std::string_view kIdenticalCase = R"({
  "description": "Identical parallel calls are answered with their own results.",
  "clauses": ["ADR-226.20"],
  "exchanges": [
    {"user": "roll twice",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"id": "X1", "name": "roll", "args": {}}},
       {"functionCall": {"id": "X2", "name": "roll", "args": {}}}]}}]}},
     "then": {"results": [{"call": 0, "json": {"n": 1}}, {"call": 1, "json": {"n": 2}}]}},
    {"response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "ok"}]}}]}}}
  ],
  "expect": {"outcome": "accept", "requests": 2}
})";

std::vector<Finding> OnIdentical(std::string_view case_json, const std::string& request2) {
  const auto c = MakeCase(case_json);
  const auto journal =
      MakeJournal({R"({"contents":[{"role":"user","parts":[{"text":"roll twice"}]}]})", request2});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange());
  report.exchanges.push_back(testing::Exchange());
  return JudgeResults({c, journal, report});
}

// Reports identical parallel calls whose results are exchanged between their ids (226.20), and
// accepts the same exchange when the calls are ID-less: nothing tells them apart.
TEST(Answers, ReportsExchangedResultsOfIdenticalIdCallsOnly) {
  const std::string request2 =
      R"({"contents":[{"role":"user","parts":[{"text":"roll twice"}]},)"
      R"({"role":"model","parts":[{"functionCall":{"id":"X1","name":"roll","args":{}}},)"
      R"({"functionCall":{"id":"X2","name":"roll","args":{}}}]},)"
      R"({"role":"user","parts":[{"functionResponse":{"id":"X1","name":"roll",)"
      R"("response":{"n":2}}},{"functionResponse":{"id":"X2","name":"roll",)"
      R"("response":{"n":1}}}]}]})";
  EXPECT_EQ(Where(OnIdentical(kIdenticalCase, request2)),
            (Places{{"ADR-226.20", "/contents/2/parts/0/functionResponse/response"},
                    {"ADR-226.20", "/contents/2/parts/1/functionResponse/response"}}));
  std::string idless_case = Replace(std::string(kIdenticalCase), R"("id": "X1", )", "");
  idless_case = Replace(idless_case, R"("id": "X2", )", "");
  std::string idless =
      Replace(request2, R"({"id":"X1","name":"roll","args":{}})", R"({"name":"roll","args":{}})");
  idless =
      Replace(idless, R"({"id":"X2","name":"roll","args":{}})", R"({"name":"roll","args":{}})");
  idless = Replace(idless, R"({"id":"X1","name":"roll",)", R"({"name":"roll",)");
  idless = Replace(idless, R"({"id":"X2","name":"roll",)", R"({"name":"roll",)");
  const auto findings = OnIdentical(idless_case, idless);
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// ---------------------------------------------------------------------------------------------
// Wrappings judged by whether every value of the result survives (INTERPRETING §9.1).

// The transcript's error tool message (tool message 3, "clock unavailable") answered with
// `response` on the wire.
std::string WithErrorResponse(const std::string& response) {
  return Replace(kSamePayloadRequest1, R"("name":"get_time","response":{})",
                 R"("name":"get_time","response":)" + response);
}

const std::string kErrorCase =
    Replace(std::string(kSamePayloadCase),
            R"("tool_call_id": "tc_1", "name": "get_time", "content": "{}")",
            R"("tool_call_id": "tc_1", "name": "get_time", "content": "clock unavailable",)"
            R"( "is_error": true)");

// Accepts under gemini an error result one level down, as LangChain sends it, or inside a list
// of content blocks; the adr profile keeps its one-member wrapper (224.3).
TEST(Answers, AcceptsErrorResultNestedUnderGeminiProfile) {
  for (const std::string response : {R"({"error":{"details":"clock unavailable"}})",
                                     R"({"content":[{"type":"text","text":"clock unavailable"}]})"}) {
    const auto findings = Judged(OnTranscript(kErrorCase, WithErrorResponse(response),
                                              Profile::kGemini));
    EXPECT_TRUE(findings.empty()) << response << ": " << Describe(findings);
  }
  EXPECT_EQ(Where(OnTranscript(kErrorCase,
                               WithErrorResponse(R"({"error":{"details":"clock unavailable"}})"))),
            (Places{{"ADR-224.3", "/contents/2/parts/0/functionResponse/response/error"}}));
}

// Reports under gemini a nested error whose value changed or went missing at every depth (224.3).
TEST(Answers, ReportsNestedErrorValueLostUnderGeminiProfile) {
  for (const std::string response :
       {R"({"error":{"details":"clock down"}})", R"({"error":{"details":{}}})",
        R"({"error":{"details":"Clock unavailable"}})", R"({"error":{}})"}) {
    const auto findings = Judged(OnTranscript(kErrorCase, WithErrorResponse(response),
                                              Profile::kGemini));
    ASSERT_EQ(findings.size(), 1u) << response << ": " << Describe(findings);
    EXPECT_EQ(findings[0].clause, "ADR-224.3") << response;
  }
}

// Reports under gemini a wrapper that holds its own result and, apart from it, another call's
// result (a misassociation: 226.17 on this closing request); accepts one that adds only its
// own metadata.
TEST(Answers, ReportsWrapperHoldingAnotherCallsResult) {
  const auto with = [](const std::string& response) {
    return Replace(testing::kParallelRequest2, R"("response":{"found":true})",
                   R"("response":)" + response);
  };
  const auto both =
      Judged(OnParallel(with(R"({"result":{"found":true},"peer":{"content":[1,[2,3]]}})"),
                        Profile::kGemini));
  EXPECT_EQ(Where(both),
            (Places{{"ADR-226.17", "/contents/2/parts/0/functionResponse/response"}}))
      << Describe(both);
  const auto as_text = Judged(OnParallel(
      with(R"({"result":{"found":true},"peer":"[1,[2,3]]"})"), Profile::kGemini));
  EXPECT_EQ(Where(as_text),
            (Places{{"ADR-226.17", "/contents/2/parts/0/functionResponse/response"}}))
      << Describe(as_text);
  const auto own = Judged(OnParallel(
      with(R"({"name":"lookup","result":{"found":true},"ok":true,"n":1})"), Profile::kGemini));
  EXPECT_TRUE(own.empty()) << Describe(own);
}

// One ID'd call whose json result holds an integral float.
constexpr std::string_view kFloatResultCase = R"({
  "description": "A result's integral float travels as a value or as JSON text.",
  "clauses": ["ADR-224.F1"],
  "exchanges": [
    {"user": "total?",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"id": "S1", "name": "sum", "args": {}}}]}}]}},
     "then": {"results": [{"call": 0, "json": {"total": 3.0}}]}},
    {"response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "3"}]}}]}}}
  ],
  "expect": {"outcome": "accept", "requests": 2}
})";

std::vector<Finding> OnFloatResult(const std::string& response, Profile profile) {
  const auto c = MakeCase(kFloatResultCase);
  const auto journal = MakeJournal(
      {R"({"contents":[{"role":"user","parts":[{"text":"total?"}]}]})",
       R"({"contents":[{"role":"user","parts":[{"text":"total?"}]},)"
       R"({"role":"model","parts":[{"functionCall":{"id":"S1","name":"sum","args":{}}}]},)"
       R"({"role":"user","parts":[{"functionResponse":{"id":"S1","name":"sum","response":)" +
           response + "}}]}]}"});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange({testing::Call("tc_1", "sum", "{}")}));
  report.exchanges.push_back(testing::Exchange());
  return Judged(JudgeResults({c, journal, report, nullptr, profile}));
}

// One rule for a numeric kind (INTERPRETING §8.3): 3.0 sent as 3 is the open 224.F1 whether the
// result travels as a value or as JSON text; another number is 224.3 either way.
TEST(Answers, NumericKindInJsonTextResultIsOpenLikeInValue) {
  const std::string base = "/contents/2/parts/0/functionResponse/response";
  EXPECT_TRUE(OnFloatResult(R"({"content":"{\"total\":3.0}"})", Profile::kGemini).empty());
  EXPECT_EQ(Where(OnFloatResult(R"({"content":"{\"total\":3}"})", Profile::kGemini)),
            (Places{{"ADR-224.F1", base + "/content"}}));
  EXPECT_EQ(Where(OnFloatResult(R"({"content":{"total":3}})", Profile::kGemini)),
            (Places{{"ADR-224.F1", base + "/content/total"}}));
  EXPECT_EQ(Where(OnFloatResult(R"({"total":3})", Profile::kAdr)),
            (Places{{"ADR-224.F1", base + "/total"}}));
  EXPECT_EQ(Where(OnFloatResult(R"({"content":"{\"total\":4}"})", Profile::kGemini)),
            (Places{{"ADR-224.3", base + "/total"}}));
  EXPECT_EQ(Where(OnFloatResult(R"({"total":4.0})", Profile::kAdr)),
            (Places{{"ADR-224.3", base + "/total"}}));
}

// Two ID'd calls of different names whose results differ only by a nested {} against [].
constexpr std::string_view kKindTwinsCase = R"({
  "description": "Results that differ only by a nested object or list kind.",
  "clauses": ["ADR-224.F1"],
  "exchanges": [
    {"user": "both",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"id": "K1", "name": "first", "args": {}}},
       {"functionCall": {"id": "K2", "name": "second", "args": {}}}]}}]}},
     "then": {"results": [{"call": 0, "json": {"v": {}}}, {"call": 1, "json": SECOND}]}},
    {"response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "ok"}]}}]}}}
  ],
  "expect": {"outcome": "accept", "requests": 2}
})";

std::vector<Finding> OnKindTwins(const std::string& second, const std::string& first_sent) {
  const auto c = MakeCase(Replace(std::string(kKindTwinsCase), "SECOND", second));
  const auto journal = MakeJournal(
      {R"({"contents":[{"role":"user","parts":[{"text":"both"}]}]})",
       R"({"contents":[{"role":"user","parts":[{"text":"both"}]},)"
       R"({"role":"model","parts":[{"functionCall":{"id":"K1","name":"first","args":{}}},)"
       R"({"functionCall":{"id":"K2","name":"second","args":{}}}]},)"
       R"({"role":"user","parts":[{"functionResponse":{"id":"K1","name":"first","response":)" +
           first_sent + R"(}},{"functionResponse":{"id":"K2","name":"second","response":)" +
           second + "}}]}]}"});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange());
  report.exchanges.push_back(testing::Exchange());
  return JudgeResults({c, journal, report});
}

// An answer identified by its own id and name whose nested {} became [] is the open 224.F1,
// even though its payload then equals another call's result; a payload that is another call's
// result beyond such a kind is still misassociated (226.3).
TEST(Answers, KindDriftEqualToPeerResultIsOpenNotMisassociation) {
  const std::string at = "/contents/2/parts/0/functionResponse/response";
  EXPECT_EQ(Where(OnKindTwins(R"({"v":[]})", R"({"v":[]})")),
            (Places{{"ADR-224.F1", at + "/v"}}));
  EXPECT_EQ(Where(OnKindTwins(R"({"v":[],"w":1})", R"({"v":[],"w":1})")),
            (Places{{"ADR-226.3", at}}));
  EXPECT_TRUE(OnKindTwins(R"({"v":[]})", R"({"v":{}})").empty());
}

// A tool result text naming a member twice has no one value per member (RFC 8259: names
// "SHOULD be unique"; JSON.parse keeps the last): the text fallback preserves it, and an object
// keeping the first or the last of the values is one decoder's reading, noted as not judged.
// A value that is neither, or lost, is not preserved (224.3).
TEST(Answers, RepeatedMemberTextResultIsTextOrEitherReading) {
  const std::string repeated_case = Replace(
      std::string(kSamePayloadCase),
      R"("tool_call_id": "tc_1", "name": "get_time", "content": "{}")",
      R"("tool_call_id": "tc_1", "name": "get_time", "content": "{\"a\":1,\"a\":2,\"a\":3}")");
  const auto with = [&](const std::string& response) {
    return Replace(kSamePayloadRequest1, R"("name":"get_time","response":{})",
                   R"("name":"get_time","response":)" + response);
  };
  const auto notes = [](const std::vector<Finding>& findings) {
    std::vector<std::string> out;
    for (const auto& f : findings) {
      if (ReasonTag(f) == kNotJudged) out.push_back(f.clause);
    }
    return out;
  };
  for (const auto profile : {Profile::kAdr, Profile::kGemini}) {
    const auto text = OnTranscript(
        repeated_case, with(R"({"output":"{\"a\":1,\"a\":2,\"a\":3}"})"), profile);
    EXPECT_TRUE(Judged(text).empty()) << Describe(text);
    for (const std::string reading : {R"({"a":3})", R"({"a":1})"}) {
      const auto read = OnTranscript(repeated_case, with(reading), profile);
      EXPECT_TRUE(Judged(read).empty()) << reading << ": " << Describe(read);
      const auto noted = notes(read);
      EXPECT_EQ(std::count(noted.begin(), noted.end(), "ADR-224.3"), 1) << reading;
    }
    for (const std::string lost : {R"({"a":2})", R"({"b":1})"}) {
      const auto findings = Judged(OnTranscript(repeated_case, with(lost), profile));
      ASSERT_EQ(findings.size(), 1u) << lost << ": " << Describe(findings);
      EXPECT_EQ(findings[0].clause, "ADR-224.3") << lost;
    }
  }
  // Under gemini a reading may travel inside a wrapper, as any JSON result.
  const auto wrapped =
      OnTranscript(repeated_case, with(R"({"content":{"a":3}})"), Profile::kGemini);
  EXPECT_TRUE(Judged(wrapped).empty()) << Describe(wrapped);
}

// Identical ID-less calls answered with distinct results: either order carries each result once;
// one result sent twice leaves the other unsent (226.20), whichever it is.
TEST(Answers, IdenticalIdlessCallsCarryEachResultOnce) {
  std::string idless_case = Replace(std::string(kIdenticalCase), R"("id": "X1", )", "");
  idless_case = Replace(idless_case, R"("id": "X2", )", "");
  const auto request = [](const std::string& first, const std::string& second) {
    return R"({"contents":[{"role":"user","parts":[{"text":"roll twice"}]},)"
           R"({"role":"model","parts":[{"functionCall":{"name":"roll","args":{}}},)"
           R"({"functionCall":{"name":"roll","args":{}}}]},)"
           R"({"role":"user","parts":[{"functionResponse":{"name":"roll","response":)" +
           first + R"(}},{"functionResponse":{"name":"roll","response":)" + second + "}}]}]}";
  };
  EXPECT_TRUE(OnIdentical(idless_case, request(R"({"n":1})", R"({"n":2})")).empty());
  EXPECT_TRUE(OnIdentical(idless_case, request(R"({"n":2})", R"({"n":1})")).empty());
  const std::string second = "/contents/2/parts/1/functionResponse/response";
  EXPECT_EQ(Where(OnIdentical(idless_case, request(R"({"n":1})", R"({"n":1})"))),
            (Places{{"ADR-226.20", second}}));
  EXPECT_EQ(Where(OnIdentical(idless_case, request(R"({"n":2})", R"({"n":2})"))),
            (Places{{"ADR-226.20", second}}));
  // A result carried once and the other drifting only in kind: the drift is judged against the
  // result no answer carries (224.F1), not as a repetition.
  EXPECT_EQ(Where(OnIdentical(idless_case, request(R"({"n":2.0})", R"({"n":1})"))),
            (Places{{"ADR-224.F1", "/contents/2/parts/0/functionResponse/response/n"}}));
}

// Under adr, identical ID-less calls answered in a framework's own wrapping ({name, content})
// in either order: each answer keeps a result, so the findings are the encoding's (224.3), never
// a swap (226.20); a wrapped result that drifts by an open kind only is the encoding's finding
// and 224.F1, not a lost value.
TEST(Answers, IdenticalIdlessCallsInAnotherWrappingAreEncodingFindingsOnly) {
  std::string idless_case = Replace(std::string(kIdenticalCase), R"("id": "X1", )", "");
  idless_case = Replace(idless_case, R"("id": "X2", )", "");
  const auto request = [](const std::string& first, const std::string& second) {
    return R"({"contents":[{"role":"user","parts":[{"text":"roll twice"}]},)"
           R"({"role":"model","parts":[{"functionCall":{"name":"roll","args":{}}},)"
           R"({"functionCall":{"name":"roll","args":{}}}]},)"
           R"({"role":"user","parts":[{"functionResponse":{"name":"roll","response":)" +
           first + R"(}},{"functionResponse":{"name":"roll","response":)" + second + "}}]}]}";
  };
  const std::string first = "/contents/2/parts/0/functionResponse/response";
  const std::string second = "/contents/2/parts/1/functionResponse/response";
  for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{
           {R"({"name":"roll","content":{"n":1}})", R"({"name":"roll","content":{"n":2}})"},
           {R"({"name":"roll","content":{"n":2}})", R"({"name":"roll","content":{"n":1}})"}}) {
    EXPECT_EQ(Where(OnIdentical(idless_case, request(a, b))),
              (Places{{"ADR-224.3", first}, {"ADR-224.3", second}}))
        << a << " " << b;
  }
  const std::string kind_case = Replace(idless_case, R"({"call": 0, "json": {"n": 1}})",
                                        R"({"call": 0, "json": {"n": 1.0}})");
  EXPECT_EQ(Where(OnIdentical(kind_case, request(R"({"name":"roll","content":{"n":1}})",
                                                 R"({"name":"roll","content":{"n":2}})"))),
            (Places{{"ADR-224.3", first},
                    {"ADR-224.F1", first + "/content/n"},
                    {"ADR-224.3", second}}));
}

// Identical ID-less calls whose results differ only in an ADR-224.F1 kind: an answer that keeps
// the result no answer carries up to such a kind is that open finding, not a repetition.
TEST(Answers, IdenticalIdlessCallsKindOnlyDriftIsOpenNotRepetition) {
  const auto request = [](const std::string& first, const std::string& second) {
    return R"({"contents":[{"role":"user","parts":[{"text":"roll twice"}]},)"
           R"({"role":"model","parts":[{"functionCall":{"name":"roll","args":{}}},)"
           R"({"functionCall":{"name":"roll","args":{}}}]},)"
           R"({"role":"user","parts":[{"functionResponse":{"name":"roll","response":)" +
           first + R"(}},{"functionResponse":{"name":"roll","response":)" + second + "}}]}]}";
  };
  const auto results = [](const std::string& one, const std::string& two) {
    std::string idless = Replace(std::string(kIdenticalCase), R"("id": "X1", )", "");
    idless = Replace(idless, R"("id": "X2", )", "");
    return Replace(Replace(idless, R"({"call": 0, "json": {"n": 1}})",
                           R"({"call": 0, "json": )" + one + "}"),
                   R"({"call": 1, "json": {"n": 2}})", R"({"call": 1, "json": )" + two + "}");
  };
  const std::string second = "/contents/2/parts/1/functionResponse/response";
  EXPECT_EQ(Where(OnIdentical(results(R"({"v": 1.0})", R"({"v": 1})"),
                              request(R"({"v":1})", R"({"v":1})"))),
            (Places{{"ADR-224.F1", second + "/v"}}));
  EXPECT_EQ(Where(OnIdentical(results(R"({"x": {}})", R"({"x": []})"),
                              request(R"({"x":[]})", R"({"x":[]})"))),
            (Places{{"ADR-224.F1", second + "/x"}}));
  // A repetition beyond such a kind still leaves a result unsent (226.20).
  EXPECT_EQ(Where(OnIdentical(results(R"({"v": 2})", R"({"v": 1})"),
                              request(R"({"v":1})", R"({"v":1})"))),
            (Places{{"ADR-226.20", second}}));
}

// One ID'd call whose result is RESULT, every finding (not-judged notes too).
std::vector<Finding> OnSingleResultAll(const std::string& result, const std::string& response,
                                       Profile profile) {
  const auto c = MakeCase(Replace(std::string(kFloatResultCase), R"({"total": 3.0})", result));
  const auto journal = MakeJournal(
      {R"({"contents":[{"role":"user","parts":[{"text":"total?"}]}]})",
       R"({"contents":[{"role":"user","parts":[{"text":"total?"}]},)"
       R"({"role":"model","parts":[{"functionCall":{"id":"S1","name":"sum","args":{}}}]},)"
       R"({"role":"user","parts":[{"functionResponse":{"id":"S1","name":"sum","response":)" +
           response + "}}]}]}"});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange({testing::Call("tc_1", "sum", "{}")}));
  report.exchanges.push_back(testing::Exchange());
  return JudgeResults({c, journal, report, nullptr, profile});
}

// The same, gating and open findings only.
std::vector<Finding> OnSingleResult(const std::string& result, const std::string& response,
                                    Profile profile) {
  return Judged(OnSingleResultAll(result, response, profile));
}

// Whether `findings` are not-judged notes only, one of them under `clause` saying `says`.
bool OnlyNotJudged(const std::vector<Finding>& findings, const std::string& clause,
                   const std::string& says) {
  const bool noted = std::any_of(findings.begin(), findings.end(), [&](const Finding& f) {
    return f.clause == clause && f.message.find(says) != std::string::npos;
  });
  return noted && Judged(findings).empty();
}

// Under gemini a value that proves nothing (false, 0, null, "", {}, [], the function's name)
// counts only as a top-level member with no distinctive member beside it. Found only where it
// does not count, it may be the result or the wrapper's own flag: not judged (ADR-224.3). Found
// nowhere, the result is lost: ADR-224.3.
TEST(Answers, NonDistinctiveResultOnlyAtTopLevelUnderGeminiProfile) {
  const std::string base = "/contents/2/parts/0/functionResponse/response";
  EXPECT_TRUE(OnSingleResult("false", R"({"output":false})", Profile::kGemini).empty());
  EXPECT_TRUE(
      OnSingleResult("false", R"({"isError":false,"output":false})", Profile::kGemini).empty());
  const auto flag =
      OnSingleResultAll("false", R"({"isError":false,"output":"x"})", Profile::kGemini);
  EXPECT_TRUE(OnlyNotJudged(flag, "ADR-224.3", "proves nothing")) << Describe(flag);
  const auto lost = OnSingleResult("false", R"({"isError":true,"output":"x"})", Profile::kGemini);
  ASSERT_EQ(lost.size(), 1u) << Describe(lost);
  EXPECT_EQ(lost[0].clause, "ADR-224.3");
  const auto deep =
      OnSingleResultAll("0", R"({"meta":{"count":0},"output":"x"})", Profile::kGemini);
  EXPECT_TRUE(OnlyNotJudged(deep, "ADR-224.3", "proves nothing")) << Describe(deep);
  const auto other_count =
      OnSingleResult("0", R"({"meta":{"count":1},"output":"x"})", Profile::kGemini);
  ASSERT_EQ(other_count.size(), 1u) << Describe(other_count);
  EXPECT_EQ(other_count[0].clause, "ADR-224.3");
  // A number equal up to its kind (ADR-224.F1) deep inside a wrapper, or as JSON text there, is
  // as undecidable as the exact value: not judged; another number there is lost (ADR-224.3).
  for (const char* wrapped :
       {R"({"output":"x","meta":{"count":3}})", R"({"content":[{"type":"text","text":"3"}]})"}) {
    const auto count = OnSingleResultAll("3.0", wrapped, Profile::kGemini);
    EXPECT_TRUE(OnlyNotJudged(count, "ADR-224.3", "proves nothing")) << Describe(count);
  }
  // The same at the top level beside a distinctive member, where such a value does not count.
  for (const char* beside : {R"({"output":"x","count":3})", R"({"output":"x","count":"3"})",
                             R"({"output":"x","count":3.0})"}) {
    const auto count = OnSingleResultAll("3.0", beside, Profile::kGemini);
    EXPECT_TRUE(OnlyNotJudged(count, "ADR-224.3", "proves nothing")) << beside << "\n"
                                                                      << Describe(count);
  }
  const auto other = OnSingleResult("3.0", R"({"output":"x","meta":{"count":4}})", Profile::kGemini);
  ASSERT_EQ(other.size(), 1u) << Describe(other);
  EXPECT_EQ(other[0].clause, "ADR-224.3");
  EXPECT_EQ(Where(OnSingleResult("3.0", R"({"output":3})", Profile::kGemini)),
            (Places{{"ADR-224.F1", base + "/output"}}));
  // A distinctive value is still found at any depth.
  EXPECT_TRUE(OnSingleResult(R"({"total": 3.0})", R"({"a":{"b":[{"total":3.0}]}})",
                             Profile::kGemini)
                  .empty());
  // Text equal to the function's name proves nothing: the result "sum" of the call sum is not
  // carried by the wrapper's name member beside a lost output, and is by a lone one.
  const auto named =
      OnSingleResult(R"("sum")", R"({"name":"sum","output":"<lost>"})", Profile::kGemini);
  ASSERT_EQ(named.size(), 1u) << Describe(named);
  EXPECT_EQ(named[0].clause, "ADR-224.3");
  EXPECT_TRUE(OnSingleResult(R"("sum")", R"({"output":"sum"})", Profile::kGemini).empty());
  const auto only_name =
      OnSingleResult(R"("sum")", R"({"name":"sum","output":null})", Profile::kGemini);
  ASSERT_EQ(only_name.size(), 1u) << Describe(only_name);
  EXPECT_EQ(only_name[0].clause, "ADR-224.3");
  // A one-member object is ADR-224.5's own form whatever its key ("the key is
  // implementation-defined"), `name` included.
  EXPECT_TRUE(OnSingleResult(R"("sum")", R"({"name":"sum"})", Profile::kGemini).empty());
  const auto gone = OnSingleResult(R"("sum")", R"({"output":"<lost>"})", Profile::kGemini);
  ASSERT_EQ(gone.size(), 1u) << Describe(gone);
  EXPECT_EQ(gone[0].clause, "ADR-224.3");
}

// Under gemini a short text result of a parallel call ("ok") is no proof that another call's
// wrapper carries it: {"status": "ok", "result": ...} answers its own call only. A nonempty
// object result of the other call beside its own is still a misassociation (226.3).
TEST(Answers, ShortTextOfPeerIsNoSecondResultUnderGeminiProfile) {
  const auto with_results = [](const std::string& time) {
    std::string out = Replace(std::string(kSamePayloadCase),
                              R"("tool_call_id": "tc_1", "name": "get_time", "content": "{}")",
                              R"("tool_call_id": "tc_1", "name": "get_time", "content": )" + time);
    return Replace(out, R"("tool_call_id": "tc_2", "name": "get_weather", "content": "{}")",
                   R"("tool_call_id": "tc_2", "name": "get_weather", "content": "{\"temp\":18}")");
  };
  const auto request = [](const std::string& time, const std::string& weather) {
    return Replace(Replace(kSamePayloadRequest1, R"("name":"get_time","response":{})",
                           R"("name":"get_time","response":)" + time),
                   R"("name":"get_weather","response":{})",
                   R"("name":"get_weather","response":)" + weather);
  };
  const auto status = OnTranscript(with_results(R"("ok")"),
                                    request(R"({"output":"ok"})",
                                            R"({"status":"ok","result":{"temp":18}})"),
                                    Profile::kGemini);
  EXPECT_TRUE(Judged(status).empty()) << Describe(status);
  const auto both = OnTranscript(
      with_results(R"("{\"time\":\"noon\"}")"),
      request(R"({"time":"noon"})", R"({"result":{"temp":18},"peer":{"time":"noon"}})"),
      Profile::kGemini);
  EXPECT_EQ(Where(Judged(both)),
            (Places{{"ADR-226.3", "/contents/2/parts/1/functionResponse/response"}}))
      << Describe(both);
}

// `call: 0` selects the first pending call (INTERPRETING §5.4): print, not the beep the server
// answered inside its own content (ADR-226.B2). The whole run is clean.
TEST(Answers, SelectsAmongPendingCalls) {
  const auto c = MakeCase(testing::kServerAnsweredCase);
  const auto journal =
      MakeJournal({testing::kServerAnsweredRequest1, testing::kServerAnsweredRequest2});
  const auto report = testing::ServerAnsweredReport();
  const auto findings = JudgeAll({c, journal, report});
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// A wrong payload for print, selected with `call: 0`, is judged against print's result.
TEST(Answers, JudgesPayloadOfSelectedPendingCall) {
  const auto c = MakeCase(testing::kServerAnsweredCase);
  const auto journal =
      MakeJournal({testing::kServerAnsweredRequest1,
                   Replace(testing::kServerAnsweredRequest2, R"("response":{"printed":1})",
                           R"("response":{"printed":2})")});
  const auto report = testing::ServerAnsweredReport();
  const auto findings = JudgeResults({c, journal, report});
  EXPECT_EQ(Where(findings),
            (Places{{"ADR-224.3", "/contents/2/parts/0/functionResponse/response/printed"}}))
      << Describe(findings);
}

// A functionResponse without id inside the content never answers a call that has one
// (INTERPRETING §4): that call is still pending and needs its answer (WIRE.1).
TEST(Answers, IdlessInsideResponseDoesNotAnswerCallWithId) {
  const auto c = MakeCase(R"({
  "description": "An inside response without id leaves the call with an id pending.",
  "clauses": ["ADR-226.B2"],
  "exchanges": [
    {"user": "go",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"id": "call_B", "name": "beep", "args": {}}},
       {"functionResponse": {"name": "beep", "response": {"ok": true}}}]}}]}},
     "then": {"results": [{"call": 0, "json": {"beeped": 1}}]}},
    {"response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "done"}]}}]}}}
  ],
  "expect": {"outcome": "accept", "requests": 2}
})");
  const std::string model =
      R"({"contents":[{"role":"user","parts":[{"text":"go"}]},)"
      R"({"role":"model","parts":[{"functionCall":{"id":"call_B","name":"beep","args":{}}},)"
      R"({"functionResponse":{"name":"beep","response":{"ok":true}}}]})";
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange({testing::Call("tc_1", "beep", "{}")}));
  report.exchanges.push_back(testing::Exchange());
  const auto unanswered = MakeJournal({testing::kServerAnsweredRequest1, model + "]}"});
  EXPECT_EQ(Where(JudgeResults({c, unanswered, report})),
            (Places{{"WIRE.1", "/contents/1/parts/0/functionCall"}}));
  const auto answered = MakeJournal(
      {testing::kServerAnsweredRequest1,
       model + R"(,{"role":"user","parts":[{"functionResponse":{"id":"call_B","name":"beep",)"
               R"("response":{"beeped":1}}}]}]})"});
  const auto findings = JudgeAll({c, answered, report});
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}
}  // namespace
}  // namespace gemini_oracle::checks
