#include "reference_impl/request_builder.h"

#include <gtest/gtest.h>

#include "reference_impl/provider_error.h"
#include "reference_impl/response_parser.h"
#include "tests/reference_impl/test_support.h"

namespace gemini_oracle::ref {
namespace {

using testing::Conversation;
using testing::OwnedTurn;

// Kind-exact comparison of a request fragment with a literal.
::testing::AssertionResult WireIs(const Json& request, const char* pointer, const char* literal) {
  const Json::json_pointer ptr(pointer);
  if (!request.contains(ptr)) {
    return ::testing::AssertionFailure() << pointer << " absent in " << DumpJson(request);
  }
  const Json& actual = request.at(ptr);
  if (KindExactEqual(actual, ParseJson(literal))) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << pointer << " is " << DumpJson(actual) << ", expected " << literal;
}

std::string Build(const std::string& messages_json, Json* out = nullptr) {
  try {
    const Json request = BuildRequest(Conversation(messages_json), RequestOptions{});
    if (out) *out = request;
  } catch (const ProviderError& e) {
    return e.code();
  }
  return "built";
}

// Turns a tool result's content into the response root (ADR-224.2/4/5/6).
TEST(ResultToResponseObject, WrapsEveryKindIntoAnObject) {
  EXPECT_EQ(DumpJson(ResultToResponseObject(R"({"a":[1,[]],"b":{}})", false)),
            R"({"a":[1,[]],"b":{}})");
  EXPECT_EQ(DumpJson(ResultToResponseObject("{}", false)), "{}");
  EXPECT_EQ(DumpJson(ResultToResponseObject("[]", false)), "{}");
  EXPECT_EQ(DumpJson(ResultToResponseObject(R"(["a",[1,2],[],{}])", false)),
            R"({"0":"a","1":[1,2],"2":[],"3":{}})");
  EXPECT_EQ(DumpJson(ResultToResponseObject("1.0", false)), R"({"output":1.0})");
  EXPECT_EQ(DumpJson(ResultToResponseObject("-0.0", false)), R"({"output":-0.0})");
  EXPECT_EQ(DumpJson(ResultToResponseObject("null", false)), R"({"output":null})");
  EXPECT_EQ(DumpJson(ResultToResponseObject(R"("quoted")", false)), R"({"output":"quoted"})");
  EXPECT_EQ(DumpJson(ResultToResponseObject("sunny, 21 C", false)), R"({"output":"sunny, 21 C"})");
  EXPECT_EQ(DumpJson(ResultToResponseObject("{broken", false)), R"({"output":"{broken"})");
  // A repeated member would be collapsed by a decoder: the text goes as it is.
  EXPECT_EQ(DumpJson(ResultToResponseObject(R"({"a":1,"a":2})", false)),
            R"({"output":"{\"a\":1,\"a\":2}"})");
  EXPECT_EQ(DumpJson(ResultToResponseObject(R"({"a":1})", true)), R"({"error":"{\"a\":1}"})");
  // Negative control: nothing here ever yields a list root.
  EXPECT_FALSE(ResultToResponseObject("[1]", false).is_array());
}

// Sends as text a result that ParseJson refuses: nesting past kMaxJsonDepth (which once
// reached the recursive dump and overflowed the stack) and numbers beyond a double.
TEST(ResultToResponseObject, SendsUnreadableJsonAsText) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const Json wrapped = ResultToResponseObject(deep, false);
  ASSERT_TRUE(wrapped.contains("output"));
  EXPECT_EQ(wrapped["output"].get<std::string>(), deep);
  EXPECT_NO_THROW(DumpJson(wrapped));
  EXPECT_EQ(DumpJson(ResultToResponseObject("1e999", false)), R"({"output":"1e999"})");
  const std::string digits(400, '9');
  EXPECT_EQ(DumpJson(ResultToResponseObject("[" + digits + "]", false)),
            R"({"output":"[)" + digits + R"(]"})");
}

// Sends as text, never as a rounded double, a result holding an integer literal that no int64,
// uint64 or double holds exactly (ADR-224 "Preserve their member values"); literals a double
// holds exactly, and every 64-bit integer, stay numbers.
TEST(ResultToResponseObject, SendsInexactIntegersAsText) {
  const std::string big = R"({"n":123456789012345678901234567890})";
  EXPECT_EQ(DumpJson(ResultToResponseObject(big, false)),
            R"({"output":"{\"n\":123456789012345678901234567890}"})");
  EXPECT_EQ(DumpJson(ResultToResponseObject("18446744073709551617", false)),
            R"({"output":"18446744073709551617"})");
  EXPECT_EQ(DumpJson(ResultToResponseObject("[-9223372036854775809]", false)),
            R"({"output":"[-9223372036854775809]"})");
  // Controls: uint64 max stays an integer; 2^64 is exactly a double and stays a number.
  EXPECT_EQ(DumpJson(ResultToResponseObject(R"({"n":18446744073709551615})", false)),
            R"({"n":18446744073709551615})");
  EXPECT_TRUE(ResultToResponseObject(R"({"n":18446744073709551616})", false)["n"].is_number());
  EXPECT_TRUE(ResultToResponseObject(R"({"n":1.5e300})", false)["n"].is_number_float());
}

// Sends options.tool_config as written, the exchange's mode set on top of it (INTERPRETING
// §5.2): allowedFunctionNames and other members survive.
TEST(RequestBuilder, SendsToolConfigWithModeOnTop) {
  const Transcript t = Conversation(R"([{"role":"user","content":"go"}])");
  RequestOptions options;
  options.tool_config =
      ParseJson(R"({"functionCallingConfig":{"mode":"AUTO","allowedFunctionNames":["print"]},)"
                R"("retrievalConfig":{"languageCode":"en"}})");
  EXPECT_TRUE(WireIs(BuildRequest(t, options), "/toolConfig",
                     R"({"functionCallingConfig":{"mode":"AUTO","allowedFunctionNames":["print"]},)"
                     R"("retrievalConfig":{"languageCode":"en"}})"));
  options.tool_mode = "ANY";
  EXPECT_TRUE(WireIs(BuildRequest(t, options), "/toolConfig",
                     R"({"functionCallingConfig":{"mode":"ANY","allowedFunctionNames":["print"]},)"
                     R"("retrievalConfig":{"languageCode":"en"}})"));
  options.tool_config = ParseJson(R"({"retrievalConfig":{}})");
  EXPECT_TRUE(WireIs(BuildRequest(t, options), "/toolConfig",
                     R"({"retrievalConfig":{},"functionCallingConfig":{"mode":"ANY"}})"));
  // Neither: no toolConfig at all.
  EXPECT_FALSE(BuildRequest(t, RequestOptions{}).contains("toolConfig"));
}

// ADR-226.B2: a call the server answered in its own content is replayed as received and
// answered by nobody; the pending call beside it gets the only functionResponse.
TEST(RequestBuilder, ReplaysServerAnsweredCallWithoutAnsweringIt) {
  Transcript t = Conversation(R"([{"role":"user","content":"go"}])");
  const char* parts =
      R"([{"functionCall":{"name":"lookup","args":{"q":"a"}},"thoughtSignature":"c2ln"},)"
      R"({"functionResponse":{"name":"lookup","response":{"hits":[]}}},)"
      R"({"functionCall":{"name":"print","args":{"text":"hi"}}}])";
  t.messages.push_back(ParseResponse(testing::ResponseWithParts(parts), t));
  ASSERT_EQ(t.messages[1].tool_calls.size(), 1u);
  t.messages.push_back(ToolResultMessage(t.messages[1].tool_calls[0].id, "print", "{\"ok\":1}"));
  const Json request = BuildRequest(t, RequestOptions{});
  EXPECT_TRUE(WireIs(request, "/contents/1/parts", parts));
  EXPECT_TRUE(WireIs(request, "/contents/2",
                     R"({"role":"user","parts":[{"functionResponse":)"
                     R"({"name":"print","response":{"ok":1}}}]})"));
  EXPECT_EQ(request["contents"].size(), 3u);
}

// Replays owned native parts verbatim: order, signatures, unknown members (ADR-224.8).
TEST(RequestBuilder, ReplaysNativePartsVerbatim) {
  const std::string parts =
      R"([{"text":"plan","thought":true},{"functionCall":{"id":"n1","name":"f","args":{"x":1.0,"e":{}}},)"
      R"("thoughtSignature":"c2lnMQ==","futureMember":{"k":[]}},{"functionCall":{"id":"n2","name":"g","args":{}}}])";
  Json request;
  ASSERT_EQ(
      Build(R"([{"role":"user","content":"go"},)" +
                OwnedTurn("t1",
                          R"([{"id":"tc_1","name":"f","arguments":{"x":1.0,"e":{}}},
                                    {"id":"tc_2","name":"g","arguments":{}}])",
                          parts,
                          R"([{"tool_call_id":"tc_1","native_id":"n1"},
                                    {"tool_call_id":"tc_2","native_id":"n2"}])") +
                R"(,{"role":"tool","tool_call_id":"tc_1","name":"f","content":"{\"ok\":true}"},
                         {"role":"tool","tool_call_id":"tc_2","name":"g","content":"[]"}])",
            &request),
      "built");
  EXPECT_EQ(DumpJson(request["contents"][1]["parts"]), DumpJson(ParseJson(parts)));
  EXPECT_TRUE(WireIs(request, "/contents/1/role", R"("model")"));
  EXPECT_TRUE(WireIs(request, "/contents/2",
                     R"({"role":"user","parts":[
                       {"functionResponse":{"id":"n1","name":"f","response":{"ok":true}}},
                       {"functionResponse":{"id":"n2","name":"g","response":{}}}]})"));
}

// Repairs degraded list roots in carried state on the wire copy only (ADR-224.1/7/9).
TEST(RequestBuilder, RepairsListArgsOnTheWireCopyOnly) {
  const Transcript t = Conversation(
      R"([{"role":"user","content":"go"},)" +
      OwnedTurn(
          "t1",
          R"([{"id":"tc_1","name":"f","arguments":[]},{"id":"tc_2","name":"g","arguments":["a",[]]}])",
          R"([{"functionCall":{"name":"f","args":[]}},{"functionCall":{"name":"g","args":["a",[]]}}])",
          "[]") +
      R"(,{"role":"tool","tool_call_id":"tc_1","name":"f","content":"1"},
         {"role":"tool","tool_call_id":"tc_2","name":"g","content":"2"}])");
  const std::string before = DumpJson(ToJson(t));
  const Json request = BuildRequest(t, RequestOptions{});
  EXPECT_EQ(DumpJson(ToJson(t)), before);
  EXPECT_TRUE(WireIs(request, "/contents/1/parts/0/functionCall/args", "{}"));
  EXPECT_TRUE(WireIs(request, "/contents/1/parts/1/functionCall/args", R"({"0":"a","1":[]})"));
  EXPECT_TRUE(WireIs(request, "/contents/2/parts/0/functionResponse/response", R"({"output":1})"));
  EXPECT_FALSE(request.contains(Json::json_pointer("/contents/2/parts/0/functionResponse/id")));
}

// Rebuilds foreign turns from generic calls with object roots and no IDs (224.10, 226.16).
TEST(RequestBuilder, RebuildsForeignTurnsWithoutIds) {
  Json request;
  ASSERT_EQ(Build(R"([{"role":"user","content":"go"},
      {"role":"assistant","id":"m1","content":"Let me check.","tool_calls":[
        {"id":"call_abc","name":"f","arguments":[]}],"provider_state":{"openai":{"id":"resp_1"}}},
      {"role":"tool","tool_call_id":"call_abc","name":"f","content":"[[1,2],[]]"}])",
                  &request),
            "built");
  EXPECT_TRUE(WireIs(request, "/contents/1",
                     R"({"role":"model","parts":[{"text":"Let me check."},
                        {"functionCall":{"name":"f","args":{}}}]})"));
  EXPECT_TRUE(WireIs(request, "/contents/2/parts/0/functionResponse",
                     R"({"name":"f","response":{"0":[1,2],"1":[]}})"));
}

// Echoes each bound native ID although results and the generic list are reversed (226.3/20).
TEST(RequestBuilder, IdenticalParallelCallsReversedKeepTheirIds) {
  Transcript t = Conversation(R"([{"role":"user","content":"twice"}])");
  Message turn = ParseResponse(
      testing::ResponseWithParts(
          R"([{"functionCall":{"id":"a1","name":"roll","args":{"sides":6.0}},"thoughtSignature":"c2ln"},)"
          R"({"functionCall":{"id":"a2","name":"roll","args":{"sides":6.0}}}])"),
      t);
  const std::string first = turn.tool_calls[0].id;
  const std::string second = turn.tool_calls[1].id;
  std::reverse(turn.tool_calls.begin(), turn.tool_calls.end());
  for (auto& call : turn.tool_calls) call.arguments["sides"] = 6;  // framework renormalized
  t.messages.push_back(turn);
  t.messages.push_back(ToolResultMessage(second, "roll", R"({"value":"second"})"));
  t.messages.push_back(ToolResultMessage(first, "roll", R"({"value":"first"})"));
  const Json request = BuildRequest(t, RequestOptions{});
  EXPECT_TRUE(
      WireIs(request, "/contents/2/parts",
             R"([{"functionResponse":{"id":"a1","name":"roll","response":{"value":"first"}}},
                         {"functionResponse":{"id":"a2","name":"roll","response":{"value":"second"}}}])"));
  EXPECT_TRUE(WireIs(request, "/contents/1/parts/0/thoughtSignature", R"("c2ln")"));
  EXPECT_FALSE(request.contains(Json::json_pointer("/contents/1/parts/1/thoughtSignature")));
  EXPECT_TRUE(WireIs(request, "/contents/1/parts/1/functionCall/args", R"({"sides":6.0})"));
}

// Sends a closing request with tools declared and mode NONE under the same rules (226.17).
TEST(RequestBuilder, ClosingRequestKeepsTheRules) {
  Transcript t = Conversation(R"([{"role":"user","content":"go"}])");
  t.messages.push_back(ParseResponse(
      testing::ResponseWithParts(R"([{"functionCall":{"id":"z","name":"f","args":{}}}])"), t));
  t.messages.push_back(ToolResultMessage(t.messages[1].tool_calls[0].id, "f", "[]"));
  RequestOptions options;
  options.tools = ParseJson(R"([{"functionDeclarations":[{"name":"f"}]}])");
  options.tool_mode = "NONE";
  options.system_instruction = "Answer now.";
  const Json request = BuildRequest(t, options);
  EXPECT_TRUE(WireIs(request, "/toolConfig", R"({"functionCallingConfig":{"mode":"NONE"}})"));
  EXPECT_TRUE(WireIs(request, "/tools/0/functionDeclarations/0/name", R"("f")"));
  EXPECT_TRUE(WireIs(request, "/systemInstruction", R"({"parts":[{"text":"Answer now."}]})"));
  EXPECT_TRUE(WireIs(request, "/contents/2/parts/0/functionResponse",
                     R"({"id":"z","name":"f","response":{}})"));
  EXPECT_TRUE(WireIs(request, "/contents/1/parts/0/functionCall/args", "{}"));
}

// Refuses orphan, duplicate and missing results before contact.
TEST(RequestBuilder, RefusesIncoherentResults) {
  const std::string turn =
      R"({"role":"assistant","id":"m1","tool_calls":[{"id":"c1","name":"f","arguments":{}},
                                                      {"id":"c2","name":"f","arguments":{}}]})";
  EXPECT_EQ(Build(R"([{"role":"user","content":"go"},)" + turn +
                  R"(,{"role":"tool","tool_call_id":"c1","name":"f","content":"1"},
                     {"role":"tool","tool_call_id":"c2","name":"f","content":"2"}])"),
            "built");
  EXPECT_EQ(Build(R"([{"role":"user","content":"go"},)" + turn +
                  R"(,{"role":"tool","tool_call_id":"c1","name":"f","content":"1"}])"),
            "transcript.missing_result");
  EXPECT_EQ(Build(R"([{"role":"user","content":"go"},)" + turn +
                  R"(,{"role":"tool","tool_call_id":"c1","name":"f","content":"1"},
                     {"role":"tool","tool_call_id":"c1","name":"f","content":"2"}])"),
            "transcript.duplicate_result");
  EXPECT_EQ(Build(R"([{"role":"user","content":"go"},)" + turn +
                  R"(,{"role":"tool","tool_call_id":"c3","name":"f","content":"1"}])"),
            "transcript.orphan_result");
  EXPECT_EQ(Build(R"([{"role":"tool","tool_call_id":"c3","name":"f","content":"1"}])"),
            "transcript.orphan_result");
}

// A call in pieces (INTERPRETING §5.6) is replayed as its pieces, verbatim and in place, and
// answered once, with the native id of its pieces.
TEST(RequestBuilder, ReplaysCallPiecesVerbatimAndAnswersTheCallOnce) {
  const char* parts =
      R"([{"text":"One moment."},)"
      R"({"functionCall":{"id":"n5","name":"book","willContinue":true},"thoughtSignature":"c2ln"},)"
      R"({"functionCall":{"partialArgs":[{"jsonPath":"$.city","stringValue":"Gr","willContinue":true}],)"
      R"("willContinue":true}},)"
      R"({"functionCall":{"partialArgs":[{"jsonPath":"$.city","stringValue":"az"},)"
      R"({"jsonPath":"$.n","numberValue":50}],"willContinue":true},"thoughtSignature":"c2lnMg=="},)"
      R"({"functionCall":{}}])";
  const Json response = testing::ResponseWithParts(parts);
  Transcript t;
  t.messages.push_back(UserMessage("go"));
  t.messages.push_back(ParseResponse(response, t));
  const ToolCall call = t.messages.back().tool_calls.at(0);
  EXPECT_EQ(DumpJson(call.arguments), R"({"city":"Graz","n":50})");
  t.messages.push_back(ToolResultMessage(call.id, call.name, R"({"ok":true})"));
  RequestOptions options;
  options.tool_config =
      ParseJson(R"({"functionCallingConfig":{"streamFunctionCallArguments":true}})");
  options.tool_mode = "NONE";
  const Json request = BuildRequest(t, options);
  EXPECT_TRUE(WireIs(request, "/contents/1/parts", parts));
  EXPECT_TRUE(WireIs(request, "/contents/2/parts",
                     R"([{"functionResponse":{"id":"n5","name":"book","response":{"ok":true}}}])"));
  EXPECT_TRUE(
      WireIs(request, "/toolConfig",
             R"({"functionCallingConfig":{"streamFunctionCallArguments":true,"mode":"NONE"}})"));
}

}  // namespace
}  // namespace gemini_oracle::ref
