// The pieces generated case files are made of: literal controls.
#include <gtest/gtest.h>

#include "generators/case_writing.h"

#include <algorithm>

namespace gemini_oracle::generators {
namespace {

TEST(CaseWriting, SignaturesAreDistinctBase64) {
  const std::string a = SignatureOf(0), b = SignatureOf(1), c = SignatureOf(12);
  EXPECT_NE(a, b);
  EXPECT_NE(b, c);
  for (const std::string& s : {a, b, c}) {
    EXPECT_EQ(s.size() % 4, 0u) << s;
    EXPECT_EQ(s.find_first_not_of(
                  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"),
              std::string::npos)
        << s;
  }
  EXPECT_EQ(SignatureOf(1), "Z2VuZXJhdGVkIHNpZ25hdHVyZSAx");  // "generated signature 1"
}

TEST(CaseWriting, StreamedAnswerDividesThePartsAndEndsTheLastEvent) {
  const Json parts = Json::array({Json{{"text", "a"}}, Json{{"text", "b"}}, Json{{"text", "c"}}});
  const Json answer = StreamedAnswer(parts, {2, 1});
  const Json& events = answer["stream"]["events"];
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0]["candidates"][0]["content"]["parts"].size(), 2u);
  EXPECT_FALSE(events[0]["candidates"][0].contains("finishReason"));
  EXPECT_EQ(events[1]["candidates"][0]["content"]["parts"][0]["text"], "c");
  EXPECT_EQ(events[1]["candidates"][0]["finishReason"], "STOP");
}

// split_at counts the stream's bytes: "data: " + the compact event + CRLF CRLF per event.
TEST(CaseWriting, StreamCutsFallInsideTheStreamInOrder) {
  const Json parts = Json::array({Json{{"text", "a"}}, Json{{"text", "b"}}});
  const Json answer = StreamedAnswer(parts, {1, 1}, {900, 1, 500, 500});
  std::size_t length = 0;
  for (const Json& event : answer["stream"]["events"]) length += 6 + DumpJson(event).size() + 4;
  const Json& cuts = answer["stream"]["split_at"];
  ASSERT_EQ(cuts.size(), 3u);  // 500 twice is one cut
  EXPECT_EQ(cuts[0], std::max<std::size_t>(1, length / 1000));  // never 0: inside the stream
  EXPECT_EQ(cuts[1], length * 500 / 1000);
  EXPECT_EQ(cuts[2], length * 900 / 1000);
  EXPECT_LT(cuts[2].get<std::size_t>(), length);
  EXPECT_FALSE(StreamedAnswer(parts, {2})["stream"].contains("split_at"));
}

TEST(CaseWriting, ResultsInTheirCaseForms) {
  ToolResult object{ToolResult::Shape::kObject, Json{{"a", 1.0}}, ""};
  EXPECT_EQ(DumpJson(object.CaseResult(2)), R"({"call":2,"json":{"a":1.0}})");
  EXPECT_EQ(object.Content(), R"({"a":1.0})");
  ToolResult text{ToolResult::Shape::kInvalidText, nullptr, "{\"a\": "};
  EXPECT_EQ(DumpJson(text.CaseResult(0)), R"({"call":0,"text":"{\"a\": "})");
  ToolResult error{ToolResult::Shape::kError, nullptr, "failed"};
  EXPECT_EQ(DumpJson(error.CaseResult(1)), R"({"call":1,"error":"failed"})");
  EXPECT_TRUE(error.IsError());
  EXPECT_EQ(error.Content(), "failed");
}

}  // namespace
}  // namespace gemini_oracle::generators
