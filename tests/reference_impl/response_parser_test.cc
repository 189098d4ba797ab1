#include "reference_impl/response_parser.h"

#include <gtest/gtest.h>

#include <set>

#include "reference_impl/provider_error.h"
#include "tests/reference_impl/test_support.h"

namespace gemini_oracle::ref {
namespace {

using testing::Capsule;
using testing::ResponseWithParts;

std::string RefusalCode(const std::string& parts) {
  try {
    ParseResponse(ResponseWithParts(parts), Transcript{});
  } catch (const ProviderError& e) {
    return e.code();
  }
  return "accepted";
}

// Keeps native parts exactly as received and binds each populated native ID (ADR-226.2).
TEST(ResponseParser, BindsNativeIdsAndKeepsPartsVerbatim) {
  const std::string parts =
      R"([{"functionCall":{"id":"call_9","name":"f","args":{"x":1.0}},"thoughtSignature":"c2ln"},)"
      R"({"functionCall":{"id":"call_8","name":"f","args":{"x":1.0}}}])";
  const Json response = ResponseWithParts(parts);
  Message turn = ParseResponse(response, Transcript{});
  ASSERT_EQ(turn.tool_calls.size(), 2u);
  EXPECT_EQ(DumpJson(Capsule(turn)["native_parts"]), DumpJson(ParseJson(parts)));
  EXPECT_EQ(Capsule(turn)["owner"], turn.id);
  const Json expected_bindings = ParseJson(R"([{"tool_call_id":")" + turn.tool_calls[0].id +
                                           R"(","native_id":"call_9"},{"tool_call_id":")" +
                                           turn.tool_calls[1].id + R"(","native_id":"call_8"}])");
  EXPECT_TRUE(KindExactEqual(Capsule(turn)["tool_call_bindings"], expected_bindings));
  EXPECT_TRUE(turn.tool_calls[0].arguments["x"].is_number_float());
}

// Binds nothing for Gemini 2.x calls without IDs, and says so with an empty list.
TEST(ResponseParser, IdLessCallsGetAnEmptyBindingList) {
  Message turn = ParseResponse(
      ResponseWithParts(
          R"([{"functionCall":{"name":"f","args":{}}},{"functionCall":{"name":"g"}}])"),
      Transcript{});
  EXPECT_EQ(DumpJson(Capsule(turn)["tool_call_bindings"]), "[]");
  EXPECT_TRUE(turn.tool_calls[1].arguments.is_object());
  EXPECT_TRUE(turn.tool_calls[1].arguments.empty());
}

// Synthesizes public IDs unique across the conversation although native IDs recur (226.1, 226.9).
TEST(ResponseParser, PublicIdsStayUniqueWhenNativeIdsRecur) {
  Transcript conversation;
  std::set<std::string> seen;
  for (int round = 0; round < 3; ++round) {
    Message turn =
        ParseResponse(ResponseWithParts(R"([{"functionCall":{"id":"tc_1","name":"f","args":{}}},)"
                                        R"({"functionCall":{"id":"tc_2","name":"f","args":{}}}])"),
                      conversation);
    for (const auto& call : turn.tool_calls) {
      EXPECT_TRUE(seen.insert(call.id).second) << "public id reused: " << call.id;
      EXPECT_NE(call.id, "tc_1");
      EXPECT_NE(call.id, "tc_2");
    }
    EXPECT_TRUE(seen.insert(turn.id).second);
    conversation.messages.push_back(std::move(turn));
    for (const auto& call : conversation.messages.back().tool_calls) {
      conversation.messages.push_back(ToolResultMessage(call.id, call.name, "{}"));
    }
  }
}

// A signed text capture is kept as native parts and manufactures no calls (ADR-226.14).
TEST(ResponseParser, SignedTextMakesNoCalls) {
  Message turn =
      ParseResponse(ResponseWithParts(R"([{"text":"thinking","thought":true},{"text":"Hi"},)"
                                      R"({"text":"","thoughtSignature":"c2ln"}])"),
                    Transcript{});
  EXPECT_TRUE(turn.tool_calls.empty());
  EXPECT_EQ(turn.content, "Hi");
  EXPECT_EQ(Capsule(turn)["native_parts"].size(), 3u);
}

// Refuses malformed and duplicate native IDs at parse time (ADR-226.5).
TEST(ResponseParser, RefusesMalformedOrDuplicateNativeIds) {
  EXPECT_EQ(RefusalCode(R"([{"functionCall":{"id":"","name":"f","args":{}}}])"),
            "native_id.malformed");
  EXPECT_EQ(RefusalCode(R"([{"functionCall":{"id":7,"name":"f","args":{}}}])"),
            "native_id.malformed");
  EXPECT_EQ(RefusalCode(R"([{"functionCall":{"id":null,"name":"f","args":{}}}])"),
            "native_id.malformed");
  EXPECT_EQ(RefusalCode(R"([{"functionCall":{"id":"a","name":"f","args":{}}},)"
                        R"({"functionCall":{"id":"a","name":"g","args":{}}}])"),
            "native_id.duplicate");
  EXPECT_EQ(RefusalCode(R"([{"functionCall":{"id":"a","name":"f","args":{}}},)"
                        R"({"functionCall":{"id":"b","name":"f","args":{}}}])"),
            "accepted");
}

// Refuses calls without a name or with a non-object args root, and bodies without a candidate.
TEST(ResponseParser, RefusesMalformedResponses) {
  EXPECT_EQ(RefusalCode(R"([{"functionCall":{"args":{}}}])"), "response.function_call_malformed");
  EXPECT_EQ(RefusalCode(R"([{"functionCall":{"name":"","args":{}}}])"),
            "response.function_call_malformed");
  EXPECT_EQ(RefusalCode(R"([{"functionCall":{"name":"f","args":[]}}])"),
            "response.function_call_malformed");
  EXPECT_EQ(RefusalCode(R"([7])"), "response.malformed");
  for (const char* body : {R"({})", R"({"candidates":[]})", R"({"candidates":[{}]})",
                           R"({"candidates":[{"content":{"parts":{}}}]})", R"([])"}) {
    EXPECT_THROW(ParseResponse(ParseJson(body), Transcript{}), ProviderError) << body;
  }
}

}  // namespace
}  // namespace gemini_oracle::ref
