// A model turn sent as several model contents (INTERPRETING §8.5): read as one by every judge;
// divided where its streamed events ended it is accepted, anywhere else it is the open
// ADR-224.F2; findings point into the request as it was sent.
#include "tests/oracles/checks/checks_test_support.h"

namespace gemini_oracle::checks {
namespace {

using testing::MakeCase;
using testing::MakeJournal;
using testing::Places;
using testing::Replace;
using testing::Where;

// Exchange 1 streams a turn of five parts over four events: two text pieces, an empty text part
// with the signature, then two calls with native ids, each in its own event.
constexpr std::string_view kStreamedCase = R"({
  "description": "A turn streamed over four events is replayed.",
  "clauses": ["ADR-226.B1"],
  "features": ["streaming"],
  "options": {"tools": [{"functionDeclarations": [{"name": "f"}]}]},
  "exchanges": [
    {"user": "go",
     "response": {"stream": {"events": [
       {"candidates": [{"content": {"role": "model", "parts": [{"text": "a"}, {"text": "b"}]}}]},
       {"candidates": [{"content": {"role": "model",
         "parts": [{"text": "", "thoughtSignature": "c2ln"}]}}]},
       {"candidates": [{"content": {"role": "model",
         "parts": [{"functionCall": {"id": "n1", "name": "f", "args": {"k": 1.0}}}]}}]},
       {"candidates": [{"content": {"role": "model",
         "parts": [{"functionCall": {"id": "n2", "name": "f", "args": {}}}]},
         "finishReason": "STOP"}]}]}},
     "then": {"results": [{"call": 0, "json": {"ok": true}}, {"call": 1, "json": {"ok": 2}}]}},
    {"response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "done"}]}, "finishReason": "STOP"}]}}}],
  "expect": {"outcome": "accept", "requests": 2,
    "wire": [{"request": 2, "pointer": "/contents/1/parts/2/thoughtSignature",
              "equals": "c2ln", "clause": "ADR-226.B1"}]}
})";

const std::string kUser = R"({"role":"user","parts":[{"text":"go"}]})";
const std::string kAnswer =
    R"({"role":"user","parts":[{"functionResponse":{"id":"n1","name":"f","response":{"ok":true}}},)"
    R"({"functionResponse":{"id":"n2","name":"f","response":{"ok":2}}}]})";
const std::string kTextA = R"({"text":"a"})";
const std::string kTextB = R"({"text":"b"})";
const std::string kSigned = R"({"text":"","thoughtSignature":"c2ln"})";
const std::string kCall1 = R"({"functionCall":{"id":"n1","name":"f","args":{"k":1.0}}})";
const std::string kCall2 = R"({"functionCall":{"id":"n2","name":"f","args":{}}})";

// Exchange 1 streams a text turn of four parts over three events: two pieces, a third piece,
// then an empty text part with the signature.
constexpr std::string_view kTextCase = R"({
  "description": "A text turn streamed over three events is replayed.",
  "clauses": ["ADR-226.B1"],
  "features": ["streaming", "stream-capture"],
  "exchanges": [
    {"user": "go",
     "response": {"stream": {"events": [
       {"candidates": [{"content": {"role": "model", "parts": [{"text": "a"}, {"text": "b"}]}}]},
       {"candidates": [{"content": {"role": "model", "parts": [{"text": "c"}]}}]},
       {"candidates": [{"content": {"role": "model",
         "parts": [{"text": "", "thoughtSignature": "c2ln"}]}, "finishReason": "STOP"}]}]}}},
    {"user": "more", "response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "done"}]}, "finishReason": "STOP"}]}}}],
  "expect": {"outcome": "accept", "requests": 2,
    "wire": [{"request": 2, "pointer": "/contents/1/parts/3/thoughtSignature",
              "equals": "c2ln", "clause": "ADR-226.B1"}]}
})";
const std::string kTextC = R"({"text":"c"})";
const std::string kMore = R"({"role":"user","parts":[{"text":"more"}]})";

std::string Model(std::initializer_list<std::string> parts) {
  std::string text = R"({"role":"model","parts":[)";
  bool first = true;
  for (const auto& p : parts) {
    text += (first ? "" : ",") + p;
    first = false;
  }
  return text + "]}";
}

// Request 2: the user turn, the model turn sent as `models` (each a model content), then `after`.
std::string Request2(std::initializer_list<std::string> models, const std::string& after) {
  std::string text = R"({"contents":[)" + kUser;
  for (const auto& m : models) text += "," + m;
  return text + "," + after + "]}";
}

struct Judged {
  std::vector<Finding> all;
  Places gating;  // must and open findings (clause, pointer)
};

// Every judge on the case's two requests, its first request plain and the second `request2`.
Judged JudgeOn(const model::Case& c, const model::DriverReport& report,
               const std::string& request2) {
  const auto journal = MakeJournal({R"({"contents":[)" + kUser + "]}", request2});
  Judged judged;
  judged.all = JudgeAll({c, journal, report});
  for (const auto& f : judged.all) {
    if (ReasonTag(f) == kNotJudged) continue;
    judged.gating.emplace_back(f.clause, f.pointer);
  }
  return judged;
}

// The turn with calls: request 2 as given.
Judged JudgeRequest2(const std::string& request2) {
  static const model::Case c = MakeCase(kStreamedCase);
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange(
      {testing::Call("tc_1", "f", R"({"k":1.0})"), testing::Call("tc_2", "f", "{}")}));
  report.exchanges.push_back(testing::Exchange());
  return JudgeOn(c, report, request2);
}

// The turn with calls sent as `models`, then its answers.
std::string Request2(std::initializer_list<std::string> models) {
  return Request2(models, kAnswer);
}

// The text turn sent as `models`, then the next user turn.
Judged JudgeText(std::initializer_list<std::string> models) {
  static const model::Case c = MakeCase(kTextCase);
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange());
  report.exchanges.push_back(testing::Exchange());
  return JudgeOn(c, report, Request2(models, kMore));
}

// A text turn in one content, kept per event, or with whole events joined: nothing to find, the
// case's pointer reaching the signature in each.
TEST(SplitTurns, AcceptsTheContentsAsReceivedOrJoined) {
  EXPECT_EQ(JudgeText({Model({kTextA, kTextB, kTextC, kSigned})}).gating, Places{});
  EXPECT_EQ(JudgeText({Model({kTextA, kTextB}), Model({kTextC}), Model({kSigned})}).gating,
            Places{});
  EXPECT_EQ(JudgeText({Model({kTextA, kTextB, kTextC}), Model({kSigned})}).gating, Places{});
  // The turn with calls, in one content.
  EXPECT_EQ(JudgeRequest2(Request2({Model({kTextA, kTextB, kSigned, kCall1, kCall2})})).gating,
            Places{});
}

// A turn holding pending calls divided at its events, kept per event or with events joined:
// the open ADR-224.F2, at its first call as sent.
TEST(SplitTurns, ReportsATurnWithCallsDividedAtItsEventsAsOpen) {
  const auto per_event = JudgeRequest2(Request2(
      {Model({kTextA, kTextB}), Model({kSigned}), Model({kCall1}), Model({kCall2})}));
  EXPECT_EQ(per_event.gating, (Places{{"ADR-224.F2", "/contents/3/parts/0"}}));
  for (const auto& f : per_event.all) {
    if (f.clause == "ADR-224.F2") {
      EXPECT_EQ(f.level, "open");
    }
  }
  const auto joined =
      JudgeRequest2(Request2({Model({kTextA, kTextB, kSigned}), Model({kCall1, kCall2})}));
  EXPECT_EQ(joined.gating, (Places{{"ADR-224.F2", "/contents/2/parts/0"}}));
}

// Divided inside an event, or with an empty content: contents Gemini never sent, ADR-224.8 at
// the turn's first content as sent, and nothing else.
TEST(SplitTurns, ReportsADivisionInsideAnEvent) {
  const auto inside =
      JudgeRequest2(Request2({Model({kTextA}), Model({kTextB, kSigned, kCall1, kCall2})}));
  EXPECT_EQ(inside.gating, (Places{{"ADR-224.8", "/contents/1"}}));
  const auto empty = JudgeRequest2(
      Request2({Model({kTextA, kTextB, kSigned}), Model({kCall1, kCall2}), Model({})}));
  EXPECT_EQ(empty.gating, (Places{{"ADR-224.8", "/contents/1"}}));
}

// What the parts must be is judged in either form, and the finding points at the part as sent:
// the signature dropped from the third content's part, text pieces joined.
TEST(SplitTurns, JudgesPartsInEitherFormAndPointsAtThePartAsSent) {
  const auto dropped =
      JudgeText({Model({kTextA, kTextB}), Model({kTextC}), Model({R"({"text":""})"})});
  EXPECT_EQ(dropped.gating, (Places{{"ADR-224.8", "/contents/3/parts/0/thoughtSignature"},
                                    {"ADR-226.B1", "/contents/3/parts/0/thoughtSignature"}}));
  const auto joined = JudgeText({Model({R"({"text":"ab"})"}), Model({kTextC}), Model({kSigned})});
  EXPECT_NE(std::find_if(joined.gating.begin(), joined.gating.end(),
                         [](const auto& place) { return place.first == "ADR-224.8"; }),
            joined.gating.end())
      << Describe(joined.all);
}

// `view: "sent"` (INTERPRETING §7.1): the pointer addresses the request as sent, a turn kept as
// one content per event included, and a failure points there as written. Sent as one content,
// the fourth content is the next user turn: the same pointer finds no signature.
TEST(SplitTurns, SentViewAddressesTheRequestAsSent) {
  const model::Case c = MakeCase(
      Replace(std::string(kTextCase), R"({"request": 2, "pointer": "/contents/1/parts/3/)",
              R"({"request": 2, "view": "sent", "pointer": "/contents/3/parts/0/)"));
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange());
  report.exchanges.push_back(testing::Exchange());
  const auto per_event = JudgeOn(
      c, report, Request2({Model({kTextA, kTextB}), Model({kTextC}), Model({kSigned})}, kMore));
  EXPECT_EQ(per_event.gating, Places{}) << Describe(per_event.all);
  const auto one = JudgeOn(c, report, Request2({Model({kTextA, kTextB, kTextC, kSigned})}, kMore));
  EXPECT_EQ(one.gating, (Places{{"ADR-226.B1", "/contents/3/parts/0/thoughtSignature"}}))
      << Describe(one.all);
  // Per event with another signature: the replay judge's joined pointer is mapped to the part
  // as sent, the assertion's is already there.
  const auto other = JudgeOn(c, report,
                             Request2({Model({kTextA, kTextB}), Model({kTextC}),
                                       Model({R"({"text":"","thoughtSignature":"eHh4"})"})},
                                      kMore));
  EXPECT_EQ(other.gating, (Places{{"ADR-224.8", "/contents/3/parts/0/thoughtSignature"},
                                  {"ADR-226.B1", "/contents/3/parts/0/thoughtSignature"}}))
      << Describe(other.all);
}

// The answers follow the whole turn: an answer placed between the turn's contents splits the
// run, so nothing is grouped and the turn count is reported.
TEST(SplitTurns, AnswersBetweenTheContentsOfATurnAreReported) {
  const std::string between = R"({"contents":[)" + kUser + "," + Model({kTextA, kTextB}) + "," +
                              kAnswer + "," + Model({kSigned, kCall1, kCall2}) + "]}";
  const auto judged = JudgeRequest2(between);
  EXPECT_NE(std::find(judged.gating.begin(), judged.gating.end(),
                      std::make_pair(std::string("ADR-224.8"), std::string("/contents"))),
            judged.gating.end())
      << Describe(judged.all);
}


// A call in pieces streamed one piece per event (INTERPRETING §5.6), pending (answered by
// request 2) or answered by the server inside the turn (ADR-226.B2).
std::string PiecesStreamCase(bool server_answered) {
  std::string events = R"(
       {"candidates": [{"content": {"role": "model", "parts": [P0]}}]},
       {"candidates": [{"content": {"role": "model", "parts": [P1]}}]},
       {"candidates": [{"content": {"role": "model", "parts": [P2]}}]},
       {"candidates": [{"content": {"role": "model", "parts": [P3]}LAST}]})";
  const auto put = [&events](const std::string& from, const std::string& to) {
    events = Replace(events, from, to);
  };
  put("P0", testing::kPiece0);
  put("P1", testing::kPiece1);
  put("P2", testing::kPiece2);
  put("P3", testing::kPiece3);
  if (server_answered) {
    put("LAST", R"(}]},
       {"candidates": [{"content": {"role": "model", "parts": [)"
                R"({"functionResponse": {"id": "c1", "name": "f", "response": {"t": 1}}}]},)"
                R"( "finishReason": "STOP")");
  } else {
    put("LAST", R"(, "finishReason": "STOP")");
  }
  return R"({"description": "A call in pieces streamed one piece per event is replayed.",
  "clauses": ["ADR-226.B1"], "features": ["streaming"],
  "exchanges": [
    {"user": "go", "response": {"stream": {"events": [)" + events + R"(]}})" +
         (server_answered ? std::string("}")
                          : std::string(R"(, "then": {"results": [{"call": 0, "json": {"temp": 18}}]}})")) +
         R"(,
    {)" + (server_answered ? std::string(R"("user": "more", )") : std::string()) +
         R"("response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "done"}]}, "finishReason": "STOP"}]}}}],
  "expect": {"outcome": "accept", "requests": 2}})";
}

const std::string kServerAnswer =
    R"({"functionResponse":{"id":"c1","name":"f","response":{"t":1}}})";

Judged JudgePieces(bool server_answered, std::initializer_list<std::string> models) {
  const model::Case c = MakeCase(PiecesStreamCase(server_answered));
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange(
      server_answered ? std::vector<model::ParsedCall>{}
                      : std::vector<model::ParsedCall>{
                            testing::Call("tc_1", "f", R"({"city":"Paris"})")}));
  report.exchanges.push_back(testing::Exchange());
  return JudgeOn(c, report,
                 Request2(models, server_answered ? kMore : R"({"role":"user","parts":[)" +
                                                                 testing::kAnswerF + "]}"));
}

// A call in pieces kept in one content is replayed as received; its pieces divided between
// contents at their events are one call kept in several contents: the open ADR-224.F2, as for a
// pending call, also when the server answered the call itself.
TEST(SplitTurns, ReportsACallInPiecesDividedAtItsEventsAsOpen) {
  using testing::kPiece0, testing::kPiece1, testing::kPiece2, testing::kPiece3;
  EXPECT_EQ(JudgePieces(false, {Model({kPiece0, kPiece1, kPiece2, kPiece3})}).gating, Places{});
  EXPECT_EQ(JudgePieces(false, {Model({kPiece0}), Model({kPiece1}), Model({kPiece2}),
                                Model({kPiece3})})
                .gating,
            (Places{{"ADR-224.F2", "/contents/1/parts/0"}}));
  EXPECT_EQ(
      JudgePieces(true, {Model({kPiece0, kPiece1, kPiece2, kPiece3, kServerAnswer})}).gating,
      Places{});
  EXPECT_EQ(
      JudgePieces(true, {Model({kPiece0, kPiece1, kPiece2, kPiece3}), Model({kServerAnswer})})
          .gating,
      Places{});
  EXPECT_EQ(
      JudgePieces(true, {Model({kPiece0, kPiece1}), Model({kPiece2, kPiece3, kServerAnswer})})
          .gating,
      (Places{{"ADR-224.F2", "/contents/1/parts/0"}}));
}

}  // namespace
}  // namespace gemini_oracle::checks
