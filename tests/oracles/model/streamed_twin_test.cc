// Streamed twins (INTERPRETING §5.5): which cases get which twin, and that every streamed answer
// of every twin of the corpus, read by an SSE reader from its chunks and folded, is exactly the
// answer sent whole.
#include "oracles/model/streamed_twin.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "oracles/runner/case_loader.h"
#include "reference_impl/sse_parser.h"
#include "reference_impl/stream_accumulator.h"
#include "tests/source_root.h"

namespace gemini_oracle::model {
namespace {

using gemini_oracle::testing::SourceRoot;

// Member order free, kinds kept (1.0 stays a float): the plain nlohmann form sorts members.
std::string Canonical(const Json& value) { return nlohmann::json::parse(DumpJson(value)).dump(); }

// The answer a reader makes of the stream's chunks, as the server sends them.
Json Fold(const StreamScript& stream) {
  const std::string bytes = stream.Bytes();
  std::vector<std::size_t> cuts = stream.split_at;
  cuts.push_back(bytes.size());
  ref::SseParser parser;
  ref::StreamAccumulator accumulator;
  std::vector<ref::SseEvent> events;
  std::size_t at = 0;
  for (const std::size_t cut : cuts) {
    parser.Feed(std::string_view(bytes).substr(at, cut - at), events);
    at = cut;
  }
  EXPECT_FALSE(parser.InsideEvent());
  for (const auto& event : events) accumulator.Add(event.data);
  EXPECT_EQ(accumulator.events(), stream.events.size());
  return accumulator.Response();
}

class TwinCorpus : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const auto loader = runner::CaseLoader::FromSourceRoot(SourceRoot());
    corpus_ = new runner::CorpusCheck(runner::CheckCorpus(SourceRoot() / "fixtures", loader));
  }
  static void TearDownTestSuite() { delete corpus_; }
  static runner::CorpusCheck* corpus_;
};

runner::CorpusCheck* TwinCorpus::corpus_ = nullptr;

// Every streamed answer of every twin folds back into its original's answer, kind-exactly, and
// is cut inside lines, between CR and LF, and between events.
TEST_F(TwinCorpus, EveryStreamedAnswerFoldsBackIntoTheWholeAnswer) {
  ASSERT_TRUE(corpus_->ok());
  std::size_t streamed = 0, multi_event = 0;
  for (const Case& twin : WithStreamedTwins(corpus_->cases)) {
    if (!twin.twin) continue;
    const Case& original = *twin.twin->original;
    ASSERT_EQ(twin.exchanges.size(), original.exchanges.size()) << twin.id;
    for (std::size_t k = 0; k < twin.exchanges.size(); ++k) {
      const auto& stream = twin.exchanges[k].response.stream;
      if (!stream) continue;
      ++streamed;
      multi_event += stream->events.size() > 1 ? 1 : 0;
      EXPECT_EQ(stream->eol, "\r\n");
      // Cut anywhere where the stream's reading is judged (ADR-226.B1); one chunk per event
      // where only the request is (INTERPRETING §5.5).
      EXPECT_EQ(stream->split_at.empty(), twin.twin->kind == TwinKind::kStreamingRequest)
          << twin.id;
      EXPECT_EQ(Canonical(Fold(*stream)), Canonical(original.exchanges[k].response.body))
          << twin.id << " exchange " << k + 1;
      // What the judges read of the twin: the events, one after the other.
      EXPECT_EQ(twin.exchanges[k].response.body.size(), stream->events.size());
    }
  }
  EXPECT_GT(streamed, 300u);
  EXPECT_GT(multi_event, 30u);
}

// The two kinds: a streaming-request twin streams only its last answer, holding no call, and
// cites ADR-224.7 and 226.17 beside its original's clauses; a streamed twin cites ADR-226.B1
// only. A case that streams already, or a twin, gets none.
TEST_F(TwinCorpus, KindsClausesAndFeatures) {
  for (const Case& c : corpus_->cases) {
    const auto twins = StreamedTwins(std::make_shared<const Case>(c));
    const bool streams = std::any_of(c.exchanges.begin(), c.exchanges.end(),
                                     [](const Exchange& ex) { return ex.response.stream.has_value(); });
    if (streams) {
      EXPECT_TRUE(twins.empty()) << c.id;
      continue;
    }
    for (const Case& twin : twins) {
      EXPECT_TRUE(twin.HasFeature("streaming"));
      EXPECT_TRUE(StreamedTwins(std::make_shared<const Case>(twin)).empty()) << twin.id;
      EXPECT_EQ(twin.expect.outcome, c.expect.outcome);
      if (twin.twin->kind == TwinKind::kEveryAnswer) {
        EXPECT_EQ(twin.id, c.id + ".streamed");
        EXPECT_TRUE(twin.HasFeature("stream-capture"));
        EXPECT_EQ(twin.clauses, std::vector<std::string>{"ADR-226.B1"});
        continue;
      }
      EXPECT_EQ(twin.id, c.id + ".streaming-request");
      for (std::size_t k = 0; k + 1 < twin.exchanges.size(); ++k) {
        EXPECT_FALSE(twin.exchanges[k].response.stream.has_value()) << twin.id;
      }
      ASSERT_TRUE(twin.exchanges.back().response.stream.has_value()) << twin.id;
      for (const Json& event : twin.exchanges.back().response.body) {
        EXPECT_EQ(DumpJson(event).find("functionCall"), std::string::npos) << twin.id;
      }
      EXPECT_NE(std::find(twin.clauses.begin(), twin.clauses.end(), "ADR-226.17"),
                twin.clauses.end());
      EXPECT_NE(std::find(twin.clauses.begin(), twin.clauses.end(), "ADR-224.7"),
                twin.clauses.end());
    }
  }
}

// An answer without finishReason, with two candidates, an error or a raw body stays whole.
TEST(StreamedAnswer, LeavesWholeWhatCannotBeStreamed) {
  ScriptedResponse plain;
  plain.body = ParseJson(
      R"({"candidates":[{"content":{"role":"model","parts":[{"text":"a"},{"text":"é"}]},)"
      R"("finishReason":"STOP"}],"usageMetadata":{"totalTokenCount":3}})");
  const auto stream = StreamedAnswer(plain);
  ASSERT_TRUE(stream.has_value());
  ASSERT_EQ(stream->events.size(), 2u);
  EXPECT_EQ(DumpJson(stream->events[0]["usageMetadata"]), R"({"totalTokenCount":3})");
  EXPECT_FALSE(stream->events[0]["candidates"][0].contains("finishReason"));
  EXPECT_EQ(stream->events[1]["candidates"][0]["finishReason"], "STOP");

  ScriptedResponse unfinished = plain;
  unfinished.body["candidates"][0].erase("finishReason");
  EXPECT_FALSE(StreamedAnswer(unfinished).has_value());
  ScriptedResponse two = plain;
  two.body["candidates"].push_back(two.body["candidates"][0]);
  EXPECT_FALSE(StreamedAnswer(two).has_value());
  ScriptedResponse error = plain;
  error.status = 429;
  EXPECT_FALSE(StreamedAnswer(error).has_value());
  ScriptedResponse raw = plain;
  raw.raw_body = "not json";
  EXPECT_FALSE(StreamedAnswer(raw).has_value());
}


// An answer holding a call in pieces (INTERPRETING §5.6) gets its `.streamed` twin: one piece per
// event, as Vertex AI streams a call's arguments, folding back into the answer exactly (§5.5).
TEST(StreamedTwins, StreamsACallInPiecesOnePiecePerEvent) {
  const Case c = CaseFromJson(ParseJson(R"({
    "description": "A call in pieces.", "clauses": ["ADR-226.3"],
    "exchanges": [
      {"user": "go", "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "f", "id": "c1", "willContinue": true}},
        {"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "Par",
                                           "willContinue": true}], "willContinue": true}},
        {"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "is"}],
                          "willContinue": true}},
        {"functionCall": {}}]}, "finishReason": "STOP"}]}},
       "then": {"results": [{"call": 0, "json": {"temp": 18}}]}},
      {"response": {"body": {"candidates": [{"content": {"role": "model",
        "parts": [{"text": "18"}]}, "finishReason": "STOP"}]}}}],
    "expect": {"outcome": "accept", "requests": 2}})"),
                              "adr-226/y_pieces", "y_pieces.json");
  const auto twins = StreamedTwins(std::make_shared<const Case>(c));
  const auto streamed = std::find_if(twins.begin(), twins.end(),
                                     [](const Case& t) { return t.id.ends_with(".streamed"); });
  ASSERT_NE(streamed, twins.end());
  const auto& stream = streamed->exchanges[0].response.stream;
  ASSERT_TRUE(stream.has_value());
  ASSERT_EQ(stream->events.size(), 4u);
  for (const Json& event : stream->events) {
    EXPECT_EQ(event["candidates"][0]["content"]["parts"].size(), 1u);
  }
  EXPECT_EQ(Canonical(Fold(*stream)), Canonical(c.exchanges[0].response.body));
}

}  // namespace
}  // namespace gemini_oracle::model
