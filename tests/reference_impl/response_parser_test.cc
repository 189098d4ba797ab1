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

// ADR-226.B2: a functionCall the server answered inside the same content (server-side
// tools) is no public ToolCall and gets no binding; its parts stay in the capsule as received.
TEST(ResponseParser, ServerAnsweredCallIsNotAToolCall) {
  const std::string parts =
      R"([{"functionCall":{"id":"s1","name":"search","args":{"q":"x"}}},)"
      R"({"functionResponse":{"id":"s1","name":"search","response":{"hits":1}}},)"
      R"({"functionCall":{"name":"beep","args":{}}},)"
      R"({"functionResponse":{"name":"beep","response":{"ok":true}}},)"
      R"({"functionCall":{"id":"c7","name":"print","args":{"t":"a"}}},)"
      R"({"text":"done"}])";
  Message turn = ParseResponse(ResponseWithParts(parts), Transcript{});
  ASSERT_EQ(turn.tool_calls.size(), 1u);
  EXPECT_EQ(turn.tool_calls[0].name, "print");
  EXPECT_EQ(DumpJson(Capsule(turn)["native_parts"]), DumpJson(ParseJson(parts)));
  ASSERT_EQ(Capsule(turn)["tool_call_bindings"].size(), 1u);
  EXPECT_EQ(Capsule(turn)["tool_call_bindings"][0]["native_id"], "c7");
  // A response with another id, or an ID-less response for an ID'd call, answers nothing.
  Message other = ParseResponse(
      ResponseWithParts(R"([{"functionCall":{"id":"s1","name":"f","args":{}}},)"
                        R"({"functionResponse":{"name":"f","response":{}}},)"
                        R"({"functionResponse":{"id":"s2","name":"f","response":{}}}])"),
      Transcript{});
  EXPECT_EQ(other.tool_calls.size(), 1u);
  // An answered call's id is still checked (ADR-226.5).
  EXPECT_EQ(RefusalCode(R"([{"functionCall":{"id":"s1","name":"f","args":{}}},)"
                        R"({"functionCall":{"id":"s1","name":"g","args":{}}},)"
                        R"({"functionResponse":{"id":"s1","name":"f","response":{}}}])"),
            "native_id.duplicate");
}

// Refuses args holding an integer literal no int64, uint64 or double holds exactly, rather than
// hand a rounded value to the tool and replay it (ADR-226: "without accepting rounded
// large-integer mismatches"); the same literal elsewhere is kept as the double it reads as.
TEST(ResponseParser, RefusesArgsWithInexactIntegers) {
  const auto parse = [](const std::string& parts) {
    return ParseResponse(
        ParseJsonMarkingInexactIntegers(R"({"candidates":[{"content":{"role":"model","parts":)" +
                                        parts + "}}]}"),
        Transcript{});
  };
  try {
    parse(R"([{"functionCall":{"name":"f","args":{"n":{"m":[123456789012345678901234567890]}}}}])");
    ADD_FAILURE() << "accepted";
  } catch (const ProviderError& e) {
    EXPECT_EQ(e.code(), "response.function_call_malformed");
    EXPECT_EQ(std::string(e.what()).find("1234567"), std::string::npos);
  }
  // Controls: uint64 max and 2^64 (exactly a double) are held exactly.
  EXPECT_EQ(parse(R"([{"functionCall":{"name":"f","args":{"n":18446744073709551615}}}])")
                .tool_calls.size(),
            1u);
  EXPECT_EQ(parse(R"([{"functionCall":{"name":"f","args":{"n":18446744073709551616}}}])")
                .tool_calls.size(),
            1u);
  Message text = parse(R"([{"text":"a","extra":123456789012345678901234567890}])");
  const Json& extra = Capsule(text)["native_parts"][0]["extra"];
  EXPECT_TRUE(extra.is_number_float());
  EXPECT_EQ(extra.get<double>(), 123456789012345678901234567890.0);
}

// Refuses calls without a name or with a non-object args root, and bodies without a candidate.
TEST(ResponseParser, RefusesMalformedResponses) {
  // A call without a name while no call is open is a piece of no call (INTERPRETING §5.6).
  EXPECT_EQ(RefusalCode(R"([{"functionCall":{"args":{}}}])"), "response.call_piece_orphan");
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

// A stored counter keeps new public ids past those issued before the transcript was trimmed.
TEST(ResponseParser, NumbersPastTheStoredCounter) {
  const Transcript empty;
  const Message turn = ParseResponse(
      testing::ResponseWithParts(R"([{"functionCall":{"name":"f","args":{}}}])"), empty, 7);
  ASSERT_EQ(turn.tool_calls.size(), 1u);
  EXPECT_EQ(turn.tool_calls[0].id, "tc_8");
  EXPECT_EQ(ParseResponse(testing::ResponseWithParts(R"([{"functionCall":{"name":"f","args":{}}}])"),
                          empty)
                .tool_calls[0]
                .id,
            "tc_1");
}

// A function call in pieces (INTERPRETING §5.6): Gemini 3's streamed arguments.
constexpr const char* kPiecesTurn =
    R"([{"text":"Checking."},)"
    R"({"functionCall":{"id":"n7","name":"book","willContinue":true},"thoughtSignature":"c2ln"},)"
    R"({"functionCall":{"partialArgs":[{"jsonPath":"$.city","stringValue":"Zü","willContinue":true}],)"
    R"("willContinue":true}},)"
    R"({"functionCall":{"partialArgs":[{"jsonPath":"$.city","stringValue":"rich"},)"
    R"({"jsonPath":"$.nights","numberValue":2},{"jsonPath":"$.rate","numberValue":50.0}],)"
    R"("willContinue":true},"thoughtSignature":"c2lnMg=="},)"
    R"({"functionCall":{}}])";

// One public call with the assembled arguments, one binding, the pieces kept verbatim.
TEST(ResponseParser, CallInPiecesIsOneCall) {
  Message turn = ParseResponse(ResponseWithParts(kPiecesTurn), Transcript{});
  ASSERT_EQ(turn.tool_calls.size(), 1u);
  EXPECT_EQ(turn.content, "Checking.");
  EXPECT_EQ(turn.tool_calls[0].name, "book");
  EXPECT_EQ(DumpJson(turn.tool_calls[0].arguments), R"({"city":"Zürich","nights":2,"rate":50.0})");
  EXPECT_TRUE(turn.tool_calls[0].arguments["nights"].is_number_integer());
  EXPECT_TRUE(turn.tool_calls[0].arguments["rate"].is_number_float());
  EXPECT_EQ(DumpJson(Capsule(turn)["native_parts"]), DumpJson(ParseJson(kPiecesTurn)));
  const Json expected =
      ParseJson(R"([{"tool_call_id":")" + turn.tool_calls[0].id + R"(","native_id":"n7"}])");
  EXPECT_TRUE(KindExactEqual(Capsule(turn)["tool_call_bindings"], expected));
  EXPECT_NE(turn.tool_calls[0].id, "n7");
}

TEST(ResponseParser, TwoCallsInPiecesOneAfterTheOther) {
  Message turn = ParseResponse(
      ResponseWithParts(
          R"([{"functionCall":{"id":"a","name":"f","willContinue":true}},)"
          R"({"functionCall":{"partialArgs":[{"jsonPath":"$.x","numberValue":1}]}},)"
          R"({"functionCall":{"name":"f","willContinue":true}},)"
          R"({"functionCall":{"partialArgs":[{"jsonPath":"$.x","numberValue":2}],"willContinue":true}},)"
          R"({"functionCall":{}}])"),
      Transcript{});
  ASSERT_EQ(turn.tool_calls.size(), 2u);
  EXPECT_EQ(DumpJson(turn.tool_calls[0].arguments), R"({"x":1})");
  EXPECT_EQ(DumpJson(turn.tool_calls[1].arguments), R"({"x":2})");
  EXPECT_EQ(Capsule(turn)["tool_call_bindings"].size(), 1u);  // only the first has an id
  EXPECT_EQ(Capsule(turn)["native_parts"].size(), 5u);
}

// A whole call carrying both args and partialArgs giving the same value is one call.
TEST(ResponseParser, WholeCallWithArgsAndTheSamePartialArgs) {
  Message turn = ParseResponse(
      ResponseWithParts(
          R"([{"functionCall":{"name":"get_weather","args":{"city":"Paris"},)"
          R"("willContinue":false,"partialArgs":[{"jsonPath":"$.city","stringValue":"Paris"}]}}])"),
      Transcript{});
  ASSERT_EQ(turn.tool_calls.size(), 1u);
  EXPECT_EQ(DumpJson(turn.tool_calls[0].arguments), R"({"city":"Paris"})");
}

TEST(ResponseParser, RefusesMalformedPieces) {
  EXPECT_EQ(RefusalCode(R"([{"functionCall":{"partialArgs":[]}}])"), "response.call_piece_orphan");
  EXPECT_EQ(RefusalCode(R"([{"functionCall":{"name":"f","willContinue":true}},{"text":"x"},)"
                        R"({"functionCall":{}}])"),
            "response.call_pieces_interleaved");
  EXPECT_EQ(RefusalCode(R"([{"functionCall":{"name":"f","willContinue":true}},)"
                        R"({"functionCall":{"name":"f"}}])"),
            "response.call_name_repeated");
  EXPECT_EQ(
      RefusalCode(R"([{"functionCall":{"name":"f","willContinue":true}},)"
                  R"({"functionCall":{"partialArgs":[{"jsonPath":"$.a[*]","numberValue":1}]}}])"),
      "response.partial_arg_path");
  EXPECT_EQ(RefusalCode(R"([{"functionCall":{"name":"f","willContinue":true}},)"
                        R"({"functionCall":{"partialArgs":[{"jsonPath":"$.a","numberValue":1},)"
                        R"({"jsonPath":"$.a","numberValue":2}]}}])"),
            "response.partial_arg_conflict");
  EXPECT_EQ(RefusalCode(R"([{"functionCall":{"name":"f","willContinue":true}}])"),
            "response.call_unfinished");
  EXPECT_EQ(RefusalCode(R"([{"functionCall":{"id":"a","name":"f","willContinue":true}},)"
                        R"({"functionCall":{"id":"b"}}])"),
            "native_id.malformed");
  EXPECT_EQ(RefusalCode(R"([{"functionCall":{"id":"a","name":"f","willContinue":true}},)"
                        R"({"functionCall":{"id":"a"}},)"
                        R"({"functionCall":{"id":"a","name":"g","willContinue":true}},)"
                        R"({"functionCall":{}}])"),
            "native_id.duplicate");
  // A name present but empty is malformed, as before.
  EXPECT_EQ(RefusalCode(R"([{"functionCall":{"name":"","args":{}}}])"),
            "response.function_call_malformed");
}

// A refusal about a piece names the answer's part, never its content.
TEST(ResponseParser, PieceRefusalsNamePartsOnly) {
  try {
    ParseResponse(
        ResponseWithParts(
            R"([{"text":"NEEDLE_TEXT"},{"functionCall":{"id":"NEEDLE_ID","name":"NEEDLE_FN",)"
            R"("willContinue":true},"thoughtSignature":"TkVFRExF"},)"
            R"({"functionCall":{"partialArgs":[{"jsonPath":"$.NEEDLE_PATH",)"
            R"("stringValue":"NEEDLE_V","willContinue":true}]}}])"),
        Transcript{});
    FAIL() << "accepted";
  } catch (const ProviderError& e) {
    EXPECT_EQ(e.code(), "response.call_unfinished");
    EXPECT_EQ(e.position().part, 2u);
    EXPECT_EQ(std::string(e.what()).find("NEEDLE"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("TkVFRExF"), std::string::npos) << e.what();
    EXPECT_FALSE(e.location().has_value());
  }
}

}  // namespace
}  // namespace gemini_oracle::ref
