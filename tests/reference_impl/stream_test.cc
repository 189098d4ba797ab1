// The streamed answer's two readers: the SSE parser (framing, pieces cut anywhere) and the
// accumulator (events folded into the one response a non-streaming call returns).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference_impl/json.h"
#include "reference_impl/provider_error.h"
#include "reference_impl/response_parser.h"
#include "reference_impl/sse_parser.h"
#include "reference_impl/stream_accumulator.h"

namespace gemini_oracle::ref {
namespace {

std::vector<SseEvent> ReadAll(const std::vector<std::string>& pieces, bool* inside = nullptr) {
  SseParser parser;
  std::vector<SseEvent> events;
  for (const auto& piece : pieces) parser.Feed(piece, events);
  if (inside != nullptr) *inside = parser.InsideEvent();
  return events;
}

std::vector<std::string> Data(const std::vector<SseEvent>& events) {
  std::vector<std::string> data;
  for (const auto& e : events) data.push_back(e.data);
  return data;
}

// LF, CRLF and CR end lines alike; a blank line ends each event.
TEST(SseParser, ReadsEveryLineEnding) {
  for (const std::string eol : {"\n", "\r\n", "\r"}) {
    const auto events = ReadAll({"data: {\"a\":1}" + eol + eol + "data: {}" + eol + eol});
    EXPECT_EQ(Data(events), (std::vector<std::string>{"{\"a\":1}", "{}"}));
  }
}

// The same stream cut at every byte, a CRLF between two pieces and a UTF-8 sequence split in
// two included, reads the same events.
TEST(SseParser, PiecesCutAnywhereReadTheSame) {
  const std::string stream = "data: {\"t\":\"h\xc3\xa9\xe2\x9c\x93\"}\r\n\r\n: keep-alive\r\n"
                             "data: {}\r\n\r\n";
  const auto whole = ReadAll({stream});
  ASSERT_EQ(whole.size(), 2u);
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    for (std::size_t second = cut; second <= stream.size(); second += 7) {
      const auto events = ReadAll(
          {stream.substr(0, cut), stream.substr(cut, second - cut), stream.substr(second)});
      EXPECT_EQ(Data(events), Data(whole)) << cut << " " << second;
    }
  }
}

// Several data lines join with a newline; one space after the colon is dropped, no more;
// comments, id, retry and unknown fields carry nothing; an event without data is none.
TEST(SseParser, FieldRules) {
  const auto events = ReadAll({"data:a\ndata:  b\nid: 7\nretry: 10\nfoo: bar\n\n: comment\n\n"
                               "event: x\n\ndata\n\nevent: ping\ndata: p\n\ndata: q\n\n"});
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].data, "a\n b");
  EXPECT_EQ(events[0].type, "");
  EXPECT_EQ(events[1].data, "");  // a bare `data` field is an empty data line
  EXPECT_EQ(events[1].type, "");  // `event: x` went with the event that had no data
  EXPECT_EQ(events[2].type, "ping");
  EXPECT_EQ(events[3].type, "");
}

// A byte order mark may open the stream, even cut in pieces; elsewhere it is text.
TEST(SseParser, ByteOrderMarkAtTheStartOnly) {
  EXPECT_EQ(Data(ReadAll({"\xEF", "\xBB", "\xBF" "data: x\n\n"})), std::vector<std::string>{"x"});
  EXPECT_EQ(Data(ReadAll({"data: \xEF\xBB\xBFx\n\n"})),
            std::vector<std::string>{"\xEF\xBB\xBFx"});
  EXPECT_EQ(Data(ReadAll({"\xEF", "data: x\n\n"})).size(), 0u);  // "\xEF" is a field name
}

// Where a stream stops inside an event (no closing blank line, or half a line), the parser
// says so; after a whole event it does not.
TEST(SseParser, KnowsWhenItStopsInsideAnEvent) {
  bool inside = true;
  ReadAll({"data: {}\n\n"}, &inside);
  EXPECT_FALSE(inside);
  ReadAll({"data: {}\n\n: trailing comment\n"}, &inside);
  EXPECT_FALSE(inside);
  ReadAll({"data: {}\n"}, &inside);
  EXPECT_TRUE(inside);
  ReadAll({"data: {\"a\""}, &inside);
  EXPECT_TRUE(inside);
}

Json Parse(const std::string& text) { return ParseJson(text); }

// Parts of every event in arrival order, each as received; everything else the last event's.
TEST(StreamAccumulator, FoldsEventsIntoOneResponse) {
  StreamAccumulator acc;
  acc.Add(R"({"candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]},"index":0}],)"
          R"("usageMetadata":{"totalTokenCount":3},"modelVersion":"m"})");
  acc.Add(R"({"candidates":[{"content":{"role":"model","parts":[{"text":"lo"},)"
          R"({"functionCall":{"id":"c1","name":"f","args":{"n":1.0}}}]},"index":0}],)"
          R"("usageMetadata":{"totalTokenCount":9}})");
  acc.Add(R"({"candidates":[{"content":{"role":"model","parts":[{"text":"","thoughtSignature":"c2ln"}]},)"
          R"("finishReason":"STOP","index":0}],"usageMetadata":{"totalTokenCount":12}})");
  EXPECT_EQ(acc.events(), 3u);
  const Json expected = Parse(
      R"({"candidates":[{"content":{"role":"model","parts":[{"text":"Hel"},{"text":"lo"},)"
      R"({"functionCall":{"id":"c1","name":"f","args":{"n":1.0}}},)"
      R"({"text":"","thoughtSignature":"c2ln"}]},"index":0,"finishReason":"STOP"}],)"
      R"("usageMetadata":{"totalTokenCount":12},"modelVersion":"m"})");
  EXPECT_TRUE(KindExactEqual(acc.Response(), expected)) << DumpJson(acc.Response());
}

// An absent index is index 0 (proto3 JSON leaves the default out): events with and without it
// continue one candidate, and another candidate listed first takes nothing of it.
TEST(StreamAccumulator, AbsentIndexIsIndexZero) {
  StreamAccumulator acc;
  acc.Add(R"({"candidates":[{"content":{"parts":[{"text":"Hel"}]}}]})");
  acc.Add(R"({"candidates":[{"content":{"parts":[{"text":"x"}]},"index":1},)"
          R"({"content":{"parts":[{"text":"lo"}]},"finishReason":"STOP","index":0}]})");
  const Json response = acc.Response();
  ASSERT_EQ(response["candidates"].size(), 2u);
  EXPECT_EQ(DumpJson(response["candidates"][0]["content"]["parts"]),
            R"([{"text":"Hel"},{"text":"lo"}])");
  EXPECT_EQ(response["candidates"][0]["finishReason"], "STOP");
  EXPECT_EQ(DumpJson(response["candidates"][1]["content"]["parts"]), R"([{"text":"x"}])");
}

// Candidates are kept apart by index, whatever order their events come in.
TEST(StreamAccumulator, KeepsCandidatesApartByIndex) {
  StreamAccumulator acc;
  acc.Add(R"({"candidates":[{"content":{"parts":[{"text":"a"}]},"index":0},)"
          R"({"content":{"parts":[{"text":"x"}]},"index":1}]})");
  acc.Add(R"({"candidates":[{"content":{"parts":[{"text":"y"}]},"index":1}]})");
  acc.Add(R"({"candidates":[{"content":{"parts":[{"text":"b"}]},"index":0}]})");
  const Json response = acc.Response();
  ASSERT_EQ(response["candidates"].size(), 2u);
  EXPECT_EQ(DumpJson(response["candidates"][0]["content"]["parts"]),
            R"([{"text":"a"},{"text":"b"}])");
  EXPECT_EQ(DumpJson(response["candidates"][1]["content"]["parts"]),
            R"([{"text":"x"},{"text":"y"}])");
}

std::string CodeOf(const std::string& data) {
  StreamAccumulator acc;
  try {
    acc.Add(data);
  } catch (const ProviderError& e) {
    return e.code();
  }
  return "";
}

// An error object mid-stream is http.stream; an event that is no JSON object is http.body;
// neither message quotes the event.
TEST(StreamAccumulator, RefusesErrorObjectsAndNonObjects) {
  EXPECT_EQ(CodeOf(R"({"error":{"code":500,"message":"NEEDLE","status":"INTERNAL"}})"),
            "http.stream");
  EXPECT_EQ(CodeOf("[1]"), "http.body");
  EXPECT_EQ(CodeOf("data NEEDLE"), "http.body");
  EXPECT_EQ(CodeOf(R"({"a":1,"a":2})"), "http.body");
  try {
    StreamAccumulator acc;
    acc.Add(R"({"error":{"code":500,"message":"NEEDLE","status":"INTERNAL"}})");
    FAIL() << "an error object was folded";
  } catch (const ProviderError& e) {
    EXPECT_EQ(std::string(e.what()).find("NEEDLE"), std::string::npos) << e.what();
    ASSERT_TRUE(e.http().has_value());
    EXPECT_EQ(e.http()->google_status, "INTERNAL");
  }
}

// The folded response parses into the same turn as the same content sent whole, native ids,
// signatures and number kinds included (the property test tries every way of splitting it).
TEST(StreamAccumulator, ParsesLikeTheWholeResponse) {
  const Json whole = Parse(
      R"({"candidates":[{"content":{"role":"model","parts":[)"
      R"({"functionCall":{"id":"a","name":"f","args":{"x":1.0}},"thoughtSignature":"c2ln"},)"
      R"({"functionCall":{"id":"b","name":"f","args":{"x":1.0}}}]},"finishReason":"STOP"}]})");
  StreamAccumulator acc;
  acc.Add(R"({"candidates":[{"content":{"role":"model","parts":[)"
          R"({"functionCall":{"id":"a","name":"f","args":{"x":1.0}},"thoughtSignature":"c2ln"}]}}]})");
  acc.Add(R"({"candidates":[{"content":{"role":"model","parts":[)"
          R"({"functionCall":{"id":"b","name":"f","args":{"x":1.0}}}]},"finishReason":"STOP"}]})");
  const Transcript none;
  EXPECT_TRUE(KindExactEqual(ToJson(ParseResponse(acc.Response(), none)),
                             ToJson(ParseResponse(whole, none))));
}

// A call whose arguments stream over events (INTERPRETING §5.6) folds into its pieces, each as
// received, and parses into one call like the same pieces sent whole.
TEST(StreamAccumulator, CallInPiecesOverEvents) {
  const char* events[] = {
      R"({"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"c9","name":"f",)"
      R"("willContinue":true},"thoughtSignature":"c2ln"}]}}]})",
      R"({"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":)"
      R"([{"jsonPath":"$.q","stringValue":"Kö","willContinue":true}],"willContinue":true}}]}}]})",
      R"({"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":)"
      R"([{"jsonPath":"$.q","stringValue":"ln"}],"willContinue":true}}]}}]})",
      R"({"candidates":[{"content":{"role":"model","parts":[{"functionCall":{}}]},)"
      R"("finishReason":"STOP"}]})"};
  StreamAccumulator acc;
  std::string whole_parts = "[";
  for (const char* event : events) {
    acc.Add(event);
    whole_parts += DumpJson(Parse(event)["candidates"][0]["content"]["parts"][0]) + ",";
  }
  whole_parts.back() = ']';
  const Json folded = acc.Response();
  EXPECT_EQ(DumpJson(folded["candidates"][0]["content"]["parts"]), DumpJson(Parse(whole_parts)));
  const Message turn = ParseResponse(folded, Transcript{});
  ASSERT_EQ(turn.tool_calls.size(), 1u);
  EXPECT_EQ(DumpJson(turn.tool_calls[0].arguments), R"({"q":"Köln"})");
  EXPECT_EQ(turn.provider_state["gemini"]["native_parts"].size(), 4u);
}

}  // namespace
}  // namespace gemini_oracle::ref
