// End-to-end wire tests: the real adapter talks HTTP to the capture server, and every check
// reads the request body the server actually received, decoded kind-preserving, against
// literal JSON (ADR-224.12). Each clause has a positive control (the literal fragment is on the
// wire) and a negative control (a literal wrong fragment does not match, or a refusal arrives
// before any contact).

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "oracles/capture/capture_server.h"
#include "reference_impl/adapter.h"
#include "reference_impl/provider_error.h"
#include "reference_impl/request_builder.h"
#include "tests/reference_impl/test_support.h"

namespace gemini_oracle::ref {
namespace {

using capture::CaptureServer;
using capture::ScriptedResponse;
using testing::Capsule;
using testing::Conversation;
using testing::OwnedTurn;

constexpr char kSentinel[] = "SENTINEL-5e1f";
constexpr char kFinalText[] = R"([{"text":"Done."}])";

// A raw GenerateContentResponse body whose single candidate has these parts (JSON text), served
// byte for byte.
std::string Reply(const std::string& parts_json) {
  return R"({"candidates":[{"content":{"role":"model","parts":)" + parts_json +
         R"(},"finishReason":"STOP","index":0}],"modelVersion":"gemini-3-pro"})";
}

// Kind-exact comparison of the fragment at `pointer` with a literal (1.0 != 1, {} != []).
::testing::AssertionResult WireIs(const Json& body, const char* pointer,
                                  const std::string& literal) {
  const Json::json_pointer ptr(pointer);
  if (!body.contains(ptr)) {
    return ::testing::AssertionFailure() << pointer << " absent in " << DumpJson(body);
  }
  if (KindExactEqual(body.at(ptr), ParseJson(literal))) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << pointer << " is " << DumpJson(body.at(ptr)) << ", expected " << literal;
}

// Negative control: the fragment is present and differs from the wrong literal.
::testing::AssertionResult WireIsNot(const Json& body, const char* pointer,
                                     const std::string& wrong_literal) {
  const Json::json_pointer ptr(pointer);
  if (!body.contains(ptr)) {
    return ::testing::AssertionFailure() << pointer << " absent in " << DumpJson(body);
  }
  if (!KindExactEqual(body.at(ptr), ParseJson(wrong_literal))) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << pointer << " matches the wrong literal " << wrong_literal;
}

::testing::AssertionResult WireLacks(const Json& body, const char* pointer) {
  if (!body.contains(Json::json_pointer(pointer))) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << pointer << " present: " << DumpJson(body.at(Json::json_pointer(pointer)));
}

// The messages of a stored conversation: a user turn, then `rest` (JSON text without brackets).
std::string Stored(const std::string& rest) {
  return R"([{"role":"user","content":"go"},)" + rest + "]";
}

std::string ToolResult(const std::string& tool_call_id, const std::string& name,
                       const std::string& content_json_string) {
  return R"({"role":"tool","tool_call_id":")" + tool_call_id + R"(","name":")" + name +
         R"(","content":)" + content_json_string + "}";
}

RequestOptions WithTools() {
  RequestOptions options;
  options.tools = ParseJson(
      R"([{"functionDeclarations":[{"name":"f"},{"name":"g"},{"name":"roll"},{"name":"lookup"},{"name":"convert"}]}])");
  return options;
}

class AdapterWire : public ::testing::Test {
 protected:
  // A script answering request k with bodies[k] (HTTP 200).
  std::string Script(const std::vector<std::string>& bodies) {
    std::vector<ScriptedResponse> turns;
    for (const auto& body : bodies) turns.push_back({200, {}, body});
    return server_.AddScript(std::move(turns));
  }

  // One exchange through the whole adapter. The adapter, and with it its keep-alive
  // connection, is gone before this returns, so the server can always shut down promptly.
  Message Generate(const std::string& script, const Transcript& t,
                   const RequestOptions& options = WithTools()) {
    ClientOptions client;
    client.base_url = server_.BaseUrl(script);
    client.connect_timeout = std::chrono::milliseconds(1000);
    client.read_timeout = std::chrono::milliseconds(5000);
    GeminiAdapter adapter(client);
    return adapter.Generate(t, options);
  }

  // Generate and append the model's turn; returns a copy of it.
  Message Step(const std::string& script, Transcript& t,
               const RequestOptions& options = WithTools()) {
    Message turn = Generate(script, t, options);
    t.messages.push_back(turn);
    return turn;
  }

  // The body of the last request the server received under the script, decoded kind-preserving.
  Json LastBody(const std::string& script) const {
    const auto journal = server_.Journal(script);
    if (journal.empty()) {
      ADD_FAILURE() << "no request reached script " << script;
      return Json::object();
    }
    return ParseJson(journal.back().body);
  }

  // Sends a stored conversation once and returns what the server received.
  Json SentBody(const Transcript& t, const RequestOptions& options = WithTools()) {
    const std::string script = Script({Reply(kFinalText)});
    Generate(script, t, options);
    return LastBody(script);
  }

  // The conversation "go" -> model parts -> one result per call (in call order) -> next request;
  // returns that second request as received.
  Json RoundTrip(const std::string& parts_json, const std::vector<std::string>& results) {
    const std::string script = Script({Reply(parts_json), Reply(kFinalText)});
    Transcript t;
    t.messages.push_back(UserMessage("go"));
    const Message turn = Step(script, t);
    EXPECT_EQ(turn.tool_calls.size(), results.size());
    for (std::size_t c = 0; c < turn.tool_calls.size() && c < results.size(); ++c) {
      t.messages.push_back(
          ToolResultMessage(turn.tool_calls[c].id, turn.tool_calls[c].name, results[c]));
    }
    Generate(script, t);
    return LastBody(script);
  }

  // The adapter's error for this transcript; nullopt when it was sent. Also reports whether the
  // server was contacted.
  std::optional<ProviderError> ErrorOf(const Transcript& t, bool* contacted = nullptr) {
    const std::string script = Script({Reply(kFinalText)});
    const std::size_t total_before = server_.TotalRequests();
    std::optional<ProviderError> error;
    try {
      Generate(script, t);
    } catch (const ProviderError& e) {
      error = e;
    }
    if (contacted) {
      *contacted = server_.RequestCount(script) != 0 || server_.TotalRequests() != total_before;
    }
    return error;
  }

  // Refusal with `code` and no request reaching the server (RequestCount unchanged).
  ::testing::AssertionResult RefusedBeforeContact(const Transcript& t, const std::string& code) {
    bool contacted = true;
    const auto error = ErrorOf(t, &contacted);
    if (!error) return ::testing::AssertionFailure() << "sent, expected " << code;
    if (error->code() != code) {
      return ::testing::AssertionFailure()
             << "refused with " << error->code() << ", expected " << code;
    }
    if (contacted) return ::testing::AssertionFailure() << code << " raised after contact";
    return ::testing::AssertionSuccess();
  }

  ::testing::AssertionResult RefusedBeforeContact(const std::string& messages_json,
                                                  const std::string& code) {
    return RefusedBeforeContact(Conversation(messages_json), code);
  }

  // Runs the first exchange of a script whose answer is bad; returns the parse-time error and
  // checks that exactly that one request was sent.
  std::optional<ProviderError> ParseErrorOf(const std::string& parts_json) {
    const std::string script = Script({Reply(parts_json)});
    Transcript t;
    t.messages.push_back(UserMessage("go"));
    std::optional<ProviderError> error;
    try {
      Generate(script, t);
    } catch (const ProviderError& e) {
      error = e;
    }
    EXPECT_EQ(server_.RequestCount(script), 1u);
    return error;
  }

  CaptureServer server_;
};

// ---------------------------------------------------------------------------------------------
// ADR-224: known Struct roots are JSON objects on the wire.

// Replays empty args as {} (ADR-224.1).
TEST_F(AdapterWire, EmptyArgsReplayAsObject) {
  const Json body = RoundTrip(R"([{"functionCall":{"id":"n1","name":"f","args":{}}}])", {"ok"});
  EXPECT_TRUE(WireIs(body, "/contents/1/parts/0/functionCall/args", "{}"));
  EXPECT_TRUE(WireIsNot(body, "/contents/1/parts/0/functionCall/args", "[]"));
}

// Replays numeric-key args as an object, not as a list (ADR-224.1).
TEST_F(AdapterWire, NumericKeyArgsReplayAsObject) {
  const Json body =
      RoundTrip(R"([{"functionCall":{"name":"f","args":{"0":"a","1":"b"}}}])", {"ok"});
  EXPECT_TRUE(WireIs(body, "/contents/1/parts/0/functionCall/args", R"({"0":"a","1":"b"})"));
  EXPECT_TRUE(WireIsNot(body, "/contents/1/parts/0/functionCall/args", R"(["a","b"])"));
}

// Sends empty and numeric-key results as object responses (ADR-224.2).
TEST_F(AdapterWire, EmptyAndNumericKeyResultsRespondWithObjects) {
  const Json body = RoundTrip(
      R"([{"functionCall":{"id":"n1","name":"f","args":{}}},{"functionCall":{"id":"n2","name":"g","args":{}}}])",
      {"{}", R"({"0":true,"1":false})"});
  EXPECT_TRUE(WireIs(body, "/contents/2/parts/0/functionResponse/response", "{}"));
  EXPECT_TRUE(WireIsNot(body, "/contents/2/parts/0/functionResponse/response", "[]"));
  EXPECT_TRUE(
      WireIs(body, "/contents/2/parts/1/functionResponse/response", R"({"0":true,"1":false})"));
  EXPECT_TRUE(WireIsNot(body, "/contents/2/parts/1/functionResponse/response", "[true,false]"));
}

// Keeps every member key and value kind of args and response roots (ADR-224.3).
TEST_F(AdapterWire, RootMembersKeepKeysAndKinds) {
  const std::string args =
      R"({"camelCase":1.0,"snake_key":-0.0,"n":1,"big":18446744073709551615,"s":"1","b":true,)"
      R"("z":null,"o":{},"l":[]})";
  const Json body = RoundTrip(R"([{"functionCall":{"name":"f","args":)" + args + "}}]",
                              {R"({"Value":2.5,"count":3,"f":1.0,"none":null})"});
  EXPECT_TRUE(WireIs(body, "/contents/1/parts/0/functionCall/args", args));
  EXPECT_TRUE(WireIs(body, "/contents/2/parts/0/functionResponse/response",
                     R"({"Value":2.5,"count":3,"f":1.0,"none":null})"));
  // Re-typed (1.0 -> 1, -0.0 -> 0), renamed and dropped members do not match.
  EXPECT_TRUE(WireIsNot(body, "/contents/1/parts/0/functionCall/args",
                        R"({"camelCase":1,"snake_key":0,"n":1,"big":18446744073709551615,"s":"1",)"
                        R"("b":true,"z":null,"o":{},"l":[]})"));
  EXPECT_TRUE(WireIsNot(body, "/contents/2/parts/0/functionResponse/response",
                        R"({"value":2.5,"count":3,"f":1.0,"none":null})"));
  EXPECT_TRUE(WireIsNot(body, "/contents/2/parts/0/functionResponse/response",
                        R"({"Value":2.5,"count":3,"f":1.0})"));
}

// Sends a list result as an object keyed "0", "1", ... in order (ADR-224.4).
TEST_F(AdapterWire, ListResultBecomesNumericKeyObject) {
  const Json body =
      RoundTrip(R"([{"functionCall":{"name":"f","args":{}}}])", {R"(["a",2,[3],{}])"});
  EXPECT_TRUE(WireIs(body, "/contents/2/parts/0/functionResponse/response",
                     R"({"0":"a","1":2,"2":[3],"3":{}})"));
  EXPECT_TRUE(
      WireIsNot(body, "/contents/2/parts/0/functionResponse/response", R"(["a",2,[3],{}])"));
  EXPECT_TRUE(WireIsNot(body, "/contents/2/parts/0/functionResponse/response",
                        R"({"0":2,"1":"a","2":[3],"3":{}})"));
}

// Wraps scalar, plain-text and error results into an object root (ADR-224.5).
TEST_F(AdapterWire, ScalarAndInvalidResultsWrappedInObject) {
  const Json body = RoundTrip(
      R"([{"functionCall":{"id":"a","name":"f","args":{}}},{"functionCall":{"id":"b","name":"f","args":{}}},)"
      R"({"functionCall":{"id":"c","name":"f","args":{}}},{"functionCall":{"id":"d","name":"f","args":{}}}])",
      {"42", "sunny, 21 C", "null", "{broken"});
  EXPECT_TRUE(WireIs(body, "/contents/2/parts/0/functionResponse/response", R"({"output":42})"));
  EXPECT_TRUE(
      WireIs(body, "/contents/2/parts/1/functionResponse/response", R"({"output":"sunny, 21 C"})"));
  EXPECT_TRUE(WireIs(body, "/contents/2/parts/2/functionResponse/response", R"({"output":null})"));
  EXPECT_TRUE(
      WireIs(body, "/contents/2/parts/3/functionResponse/response", R"({"output":"{broken"})"));
  EXPECT_TRUE(WireIsNot(body, "/contents/2/parts/0/functionResponse/response", "42"));
  EXPECT_TRUE(WireIsNot(body, "/contents/2/parts/2/functionResponse/response", "null"));
}

// Wraps an error result into an object root as well (ADR-224.5).
TEST_F(AdapterWire, ErrorResultWrappedInObject) {
  const std::string script =
      Script({Reply(R"([{"functionCall":{"name":"f","args":{}}}])"), Reply(kFinalText)});
  Transcript t;
  t.messages.push_back(UserMessage("go"));
  const Message turn = Step(script, t);
  t.messages.push_back(ToolResultMessage(turn.tool_calls[0].id, "f", "[1]", /*is_error=*/true));
  Generate(script, t);
  const Json body = LastBody(script);
  EXPECT_TRUE(WireIs(body, "/contents/2/parts/0/functionResponse/response", R"({"error":"[1]"})"));
  EXPECT_TRUE(WireIsNot(body, "/contents/2/parts/0/functionResponse/response", R"({"0":1})"));
}

// Leaves lists nested inside roots as lists (ADR-224.6).
TEST_F(AdapterWire, NestedListsStayLists) {
  const Json body =
      RoundTrip(R"([{"functionCall":{"name":"f","args":{"a":[],"b":[[],{}],"c":{"d":[]}}}},)"
                R"({"functionCall":{"name":"g","args":{}}}])",
                {R"({"x":[],"y":[[]]})", "[[],[1]]"});
  EXPECT_TRUE(WireIs(body, "/contents/1/parts/0/functionCall/args",
                     R"({"a":[],"b":[[],{}],"c":{"d":[]}})"));
  EXPECT_TRUE(
      WireIs(body, "/contents/2/parts/0/functionResponse/response", R"({"x":[],"y":[[]]})"));
  EXPECT_TRUE(WireIs(body, "/contents/2/parts/1/functionResponse/response", R"({"0":[],"1":[1]})"));
  // The JSON_FORCE_OBJECT bug: every nested empty list turned into {}.
  EXPECT_TRUE(WireIsNot(body, "/contents/1/parts/0/functionCall/args",
                        R"({"a":{},"b":{"0":{},"1":{}},"c":{"d":{}}})"));
  EXPECT_TRUE(
      WireIsNot(body, "/contents/2/parts/1/functionResponse/response", R"({"0":{},"1":{"0":1}})"));
}

// Repairs degraded list roots of carried native parts on a closing request (ADR-224.7).
TEST_F(AdapterWire, CarriedListRootsRepairedOnClosingRequest) {
  const Transcript t = Conversation(Stored(
      OwnedTurn(
          "t1",
          R"([{"id":"tc_1","name":"f","arguments":[]},{"id":"tc_2","name":"g","arguments":["a",[]]}])",
          R"([{"functionCall":{"name":"f","args":[]}},{"functionCall":{"name":"g","args":["a",[]]}}])",
          "[]") +
      "," + ToolResult("tc_1", "f", R"("1")") + "," + ToolResult("tc_2", "g", R"("[]")")));
  RequestOptions closing = WithTools();
  closing.tool_mode = "NONE";
  const Json body = SentBody(t, closing);
  EXPECT_TRUE(WireIs(body, "/toolConfig/functionCallingConfig/mode", R"("NONE")"));
  EXPECT_TRUE(WireIs(body, "/contents/1/parts/0/functionCall/args", "{}"));
  EXPECT_TRUE(WireIs(body, "/contents/1/parts/1/functionCall/args", R"({"0":"a","1":[]})"));
  EXPECT_TRUE(WireIs(body, "/contents/2/parts/1/functionResponse/response", "{}"));
  EXPECT_TRUE(WireIsNot(body, "/contents/1/parts/0/functionCall/args", "[]"));
  EXPECT_TRUE(WireIsNot(body, "/contents/1/parts/1/functionCall/args", R"(["a",[]])"));
}

// Replays native parts in order with their signatures and unknown members (ADR-224.8).
TEST_F(AdapterWire, NativePartsReplayInOrderWithSignatures) {
  const std::string parts =
      R"([{"text":"plan","thought":true,"thoughtSignature":"c2lnMA=="},{"text":"Calling."},)"
      R"({"functionCall":{"id":"n1","name":"f","args":{"x":1.0}},"thoughtSignature":"c2lnMQ==",)"
      R"("futureMember":{"k":[]}},{"functionCall":{"id":"n2","name":"g","args":{}}}])";
  const Json body = RoundTrip(parts, {"1", "2"});
  EXPECT_TRUE(WireIs(body, "/contents/1", R"({"role":"model","parts":)" + parts + "}"));
  // Reordered parts, a signature copied onto the sibling, a dropped member: none match.
  EXPECT_TRUE(WireIsNot(
      body, "/contents/1/parts",
      R"([{"text":"plan","thought":true,"thoughtSignature":"c2lnMA=="},{"text":"Calling."},)"
      R"({"functionCall":{"id":"n2","name":"g","args":{}}},)"
      R"({"functionCall":{"id":"n1","name":"f","args":{"x":1.0}},"thoughtSignature":"c2lnMQ==",)"
      R"("futureMember":{"k":[]}}])"));
  EXPECT_TRUE(WireIsNot(
      body, "/contents/1/parts/3",
      R"({"functionCall":{"id":"n2","name":"g","args":{}},"thoughtSignature":"c2lnMQ=="})"));
  EXPECT_TRUE(WireIsNot(
      body, "/contents/1/parts/2",
      R"({"functionCall":{"id":"n1","name":"f","args":{"x":1.0}},"thoughtSignature":"c2lnMQ=="})"));
  EXPECT_TRUE(WireLacks(body, "/contents/1/parts/3/thoughtSignature"));
}

// Leaves the transcript JSON byte-identical while the wire copy is repaired (ADR-224.9).
TEST_F(AdapterWire, BuildingLeavesTranscriptByteIdentical) {
  const std::string script = Script(
      {Reply(
           R"([{"functionCall":{"id":"n1","name":"f","args":{"x":1.0,"e":{}}},"thoughtSignature":"c2ln"}])"),
       Reply(kFinalText)});
  Transcript t = Conversation(
      Stored(OwnedTurn("t1", R"([{"id":"tc_1","name":"g","arguments":[]}])",
                       R"([{"functionCall":{"name":"g","args":[]}}])", "[]") +
             "," + ToolResult("tc_1", "g", R"("[]")") + R"(,{"role":"user","content":"again"})"));
  Step(script, t);
  t.messages.push_back(ToolResultMessage(t.messages.back().tool_calls[0].id, "f", "[]"));
  const std::string before = DumpJson(ToJson(t));
  Generate(script, t);
  EXPECT_EQ(DumpJson(ToJson(t)), before);
  const Json body = LastBody(script);
  EXPECT_TRUE(WireIs(body, "/contents/1/parts/0/functionCall/args", "{}"));
  // Negative control: the stored state still holds the list root; only the wire copy changed.
  const Json stored = ToJson(t);
  EXPECT_TRUE(WireIs(stored, "/1/provider_state/gemini/native_parts/0/functionCall/args", "[]"));
  EXPECT_TRUE(WireIsNot(stored, "/1/provider_state/gemini/native_parts/0/functionCall/args", "{}"));
  EXPECT_TRUE(WireIs(stored, "/1/tool_calls/0/arguments", "[]"));
}

// Rebuilds a foreign turn with object roots and without its payload or IDs (ADR-224.10).
TEST_F(AdapterWire, ForeignTurnRebuiltWithObjectRoots) {
  const Transcript t = Conversation(Stored(
      R"({"role":"assistant","id":"m1","content":"Let me check.","tool_calls":[
           {"id":"call_abc","name":"f","arguments":[]},{"id":"call_def","name":"g","arguments":["x"]}],
         "provider_state":{"openai":{"id":"resp_foreign_77"}}},)" +
      ToolResult("call_abc", "f", R"("[[1,2],[]]")") + "," +
      ToolResult("call_def", "g", R"("{}")")));
  const std::string script = Script({Reply(kFinalText)});
  Generate(script, t);
  const std::string raw = server_.Journal(script).back().body;
  const Json body = ParseJson(raw);
  EXPECT_TRUE(WireIs(body, "/contents/1",
                     R"({"role":"model","parts":[{"text":"Let me check."},
                        {"functionCall":{"name":"f","args":{}}},
                        {"functionCall":{"name":"g","args":{"0":"x"}}}]})"));
  EXPECT_TRUE(WireIs(body, "/contents/2",
                     R"({"role":"user","parts":[
                        {"functionResponse":{"name":"f","response":{"0":[1,2],"1":[]}}},
                        {"functionResponse":{"name":"g","response":{}}}]})"));
  EXPECT_TRUE(WireIsNot(body, "/contents/1/parts/1/functionCall/args", "[]"));
  EXPECT_TRUE(WireIsNot(body, "/contents/2/parts/0/functionResponse",
                        R"({"id":"call_abc","name":"f","response":{"0":[1,2],"1":[]}})"));
  EXPECT_EQ(raw.find("resp_foreign_77"), std::string::npos);
  EXPECT_EQ(raw.find("call_abc"), std::string::npos);
}

// Hands the framework decoded argument objects, kinds as received (ADR-224.11).
TEST_F(AdapterWire, PublicArgumentsStayDecodedObjects) {
  const std::string script = Script(
      {Reply(R"([{"functionCall":{"id":"n1","name":"f","args":{"x":1.0,"e":{},"l":[]}}}])")});
  Transcript t;
  t.messages.push_back(UserMessage("go"));
  const Message turn = Generate(script, t);
  ASSERT_EQ(turn.tool_calls.size(), 1u);
  const Json public_call = ToJson(turn)["tool_calls"][0];
  EXPECT_TRUE(WireIs(public_call, "/arguments", R"({"x":1.0,"e":{},"l":[]})"));
  EXPECT_TRUE(WireIs(public_call, "/name", R"("f")"));
  // Neither JSON text nor a kind-normalized copy.
  EXPECT_TRUE(WireIsNot(public_call, "/arguments", R"("{\"x\":1.0,\"e\":{},\"l\":[]}")"));
  EXPECT_TRUE(WireIsNot(public_call, "/arguments", R"({"x":1,"e":{},"l":[]})"));
}

// ---------------------------------------------------------------------------------------------
// ADR-226: native function-call IDs are correlated by binding.

// Synthesizes public IDs unique across turns although native IDs recur (ADR-226.1).
TEST_F(AdapterWire, PublicIdsStayUniqueWhenNativeIdsRecur) {
  const std::string parts = R"([{"functionCall":{"id":"call_1","name":"f","args":{}}}])";
  const std::string script = Script({Reply(parts), Reply(parts), Reply(kFinalText)});
  Transcript t;
  t.messages.push_back(UserMessage("go"));
  const Message first = Step(script, t);
  t.messages.push_back(ToolResultMessage(first.tool_calls[0].id, "f", "1"));
  const Message second = Step(script, t);
  t.messages.push_back(ToolResultMessage(second.tool_calls[0].id, "f", "2"));
  Generate(script, t);
  EXPECT_NE(first.tool_calls[0].id, second.tool_calls[0].id);
  EXPECT_NE(first.id, second.id);
  EXPECT_NE(first.tool_calls[0].id, "call_1");
  EXPECT_NE(second.tool_calls[0].id, "call_1");
  // Public IDs never travel.
  for (const auto& entry : server_.Journal(script)) {
    EXPECT_EQ(entry.body.find('"' + first.tool_calls[0].id + '"'), std::string::npos);
    EXPECT_EQ(entry.body.find('"' + second.tool_calls[0].id + '"'), std::string::npos);
  }
}

// Binds each populated native ID at parse time and keeps native parts as received (ADR-226.2).
TEST_F(AdapterWire, BindingsCapturedAtParseTime) {
  const std::string parts =
      R"([{"functionCall":{"id":"n1","name":"f","args":{"x":1.0}},"thoughtSignature":"c2ln"},)"
      R"({"functionCall":{"name":"g","args":{}}},{"functionCall":{"id":"n3","name":"f","args":{"x":1.0}}}])";
  const std::string script = Script({Reply(parts)});
  Transcript t;
  t.messages.push_back(UserMessage("go"));
  Message turn = Generate(script, t);
  ASSERT_EQ(turn.tool_calls.size(), 3u);
  const Json capsule = Capsule(turn);
  EXPECT_TRUE(WireIs(capsule, "/native_parts", parts));
  const std::string bindings = R"([{"tool_call_id":")" + turn.tool_calls[0].id +
                               R"(","native_id":"n1"},{"tool_call_id":")" + turn.tool_calls[2].id +
                               R"(","native_id":"n3"}])";
  EXPECT_TRUE(WireIs(capsule, "/tool_call_bindings", bindings));
  EXPECT_TRUE(WireIsNot(capsule, "/tool_call_bindings", "[]"));
  EXPECT_TRUE(WireIsNot(capsule, "/tool_call_bindings",
                        R"([{"tool_call_id":")" + turn.tool_calls[0].id +
                            R"(","native_id":"n3"},{"tool_call_id":")" + turn.tool_calls[2].id +
                            R"(","native_id":"n1"}])"));
}

// Echoes the bound native ID on each result although results arrive reversed (ADR-226.3).
TEST_F(AdapterWire, EchoesBoundNativeIdPerResult) {
  const std::string script = Script({Reply(R"([{"functionCall":{"id":"n1","name":"f","args":{}}},)"
                                           R"({"functionCall":{"id":"n2","name":"g","args":{}}}])"),
                                     Reply(kFinalText)});
  Transcript t;
  t.messages.push_back(UserMessage("go"));
  const Message turn = Step(script, t);
  t.messages.push_back(ToolResultMessage(turn.tool_calls[1].id, "g", R"({"r":"g"})"));
  t.messages.push_back(ToolResultMessage(turn.tool_calls[0].id, "f", R"({"r":"f"})"));
  Generate(script, t);
  const Json body = LastBody(script);
  EXPECT_TRUE(WireIs(body, "/contents/2",
                     R"({"role":"user","parts":[
                       {"functionResponse":{"id":"n1","name":"f","response":{"r":"f"}}},
                       {"functionResponse":{"id":"n2","name":"g","response":{"r":"g"}}}]})"));
  EXPECT_TRUE(WireIsNot(body, "/contents/2/parts/0/functionResponse/id", R"("n2")"));
  EXPECT_TRUE(WireIsNot(body, "/contents/2/parts/1/functionResponse",
                        R"({"id":"n1","name":"g","response":{"r":"g"}})"));
}

// Sends no id on a result whose call had none, also beside an ID-carrying sibling (ADR-226.4).
TEST_F(AdapterWire, AbsentNativeIdStaysAbsent) {
  const std::string script = Script({Reply(R"([{"functionCall":{"name":"f","args":{}}},)"
                                           R"({"functionCall":{"id":"n2","name":"g","args":{}}}])"),
                                     Reply(kFinalText)});
  Transcript t;
  t.messages.push_back(UserMessage("go"));
  const Message turn = Step(script, t);
  t.messages.push_back(ToolResultMessage(turn.tool_calls[0].id, "f", "1"));
  t.messages.push_back(ToolResultMessage(turn.tool_calls[1].id, "g", "2"));
  Generate(script, t);
  const Json body = LastBody(script);
  EXPECT_TRUE(WireIs(body, "/contents/2/parts/0/functionResponse",
                     R"({"name":"f","response":{"output":1}})"));
  EXPECT_TRUE(WireLacks(body, "/contents/2/parts/0/functionResponse/id"));
  EXPECT_TRUE(WireIs(body, "/contents/2/parts/1/functionResponse/id", R"("n2")"));
  EXPECT_TRUE(
      WireIsNot(body, "/contents/2/parts/0/functionResponse",
                R"({"id":")" + turn.tool_calls[0].id + R"(","name":"f","response":{"output":1}})"));
  EXPECT_EQ(server_.Journal(script).back().body.find(turn.tool_calls[0].id), std::string::npos);
}

// Refuses empty, non-string and duplicate native IDs in a response while parsing (ADR-226.5).
TEST_F(AdapterWire, MalformedOrDuplicateNativeIdsRefusedAtParse) {
  const struct {
    const char* parts;
    const char* code;
  } rows[] = {
      {R"([{"functionCall":{"id":"","name":"f","args":{}}}])", "native_id.malformed"},
      {R"([{"functionCall":{"id":7,"name":"f","args":{}}}])", "native_id.malformed"},
      {R"([{"functionCall":{"id":{"v":"x"},"name":"f","args":{}}}])", "native_id.malformed"},
      {R"([{"functionCall":{"id":"a","name":"f","args":{}}},{"functionCall":{"id":"a","name":"g","args":{}}}])",
       "native_id.duplicate"},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.parts);
    const auto error = ParseErrorOf(row.parts);
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->code(), row.code);
  }
  // Positive control: nonempty distinct string IDs are accepted.
  EXPECT_FALSE(ParseErrorOf(R"([{"functionCall":{"id":"a","name":"f","args":{}}},)"
                            R"({"functionCall":{"id":"b","name":"f","args":{}}}])")
                   .has_value());
}

// Refuses malformed or duplicate carried native IDs before contact (ADR-226.6).
TEST_F(AdapterWire, MalformedCarriedNativeIdsRefusedBeforeContact) {
  const auto turn = [](const std::string& id_a, const std::string& id_b) {
    return Stored(OwnedTurn("t1", "[]",
                            R"([{"functionCall":{"id":)" + id_a +
                                R"(,"name":"f","args":{}}},{"functionCall":{"id":)" + id_b +
                                R"(,"name":"g","args":{}}}])",
                            ""));
  };
  EXPECT_TRUE(RefusedBeforeContact(turn(R"("")", R"("b")"), "replay.native_id_malformed"));
  EXPECT_TRUE(RefusedBeforeContact(turn("3", R"("b")"), "replay.native_id_malformed"));
  EXPECT_TRUE(RefusedBeforeContact(turn(R"("a")", "null"), "replay.native_id_malformed"));
  EXPECT_TRUE(RefusedBeforeContact(turn(R"("a")", R"("a")"), "replay.native_id_duplicate"));
  // Positive control: the same turn with distinct IDs is sent and replayed.
  const Json body = SentBody(Conversation(turn(R"("a")", R"("b")")));
  EXPECT_TRUE(WireIs(body, "/contents/1/parts/1/functionCall/id", R"("b")"));
}

// Refuses bindings of the wrong owner, unknown IDs, non-bijective, incomplete or mismatching
// before contact, and uses valid ones (ADR-226.7).
TEST_F(AdapterWire, InvalidBindingsRefusedBeforeContact) {
  const std::string calls = R"([{"id":"tc_1","name":"f","arguments":{"x":1}},
                                {"id":"tc_2","name":"f","arguments":{"x":2}}])";
  const std::string parts = R"([{"functionCall":{"id":"n1","name":"f","args":{"x":1}}},
                                {"functionCall":{"id":"n2","name":"f","args":{"x":2}}}])";
  const std::string results =
      "," + ToolResult("tc_1", "f", R"("1")") + "," + ToolResult("tc_2", "f", R"("2")");
  const auto with = [&](const std::string& bindings, const std::string& owner = "t1") {
    std::string turn = OwnedTurn("t1", calls, parts, bindings);
    if (owner != "t1") turn.replace(turn.find(R"("owner":"t1")"), 12, R"("owner":")" + owner + '"');
    return Stored(turn + results);
  };
  const struct {
    std::string bindings;
    std::string owner;
    const char* code;
  } rows[] = {
      {R"([{"tool_call_id":"tc_1","native_id":"n1"},{"tool_call_id":"tc_2","native_id":"n2"}])",
       "t9", "capsule.owner_mismatch"},
      {R"([{"tool_call_id":"tc_1","native_id":"n1"},{"tool_call_id":"tc_9","native_id":"n2"}])",
       "t1", "binding.unknown_call"},
      {R"([{"tool_call_id":"tc_1","native_id":"n1"},{"tool_call_id":"tc_2","native_id":"n7"}])",
       "t1", "binding.unknown_native_id"},
      {R"([{"tool_call_id":"tc_1","native_id":"n1"},{"tool_call_id":"tc_1","native_id":"n2"}])",
       "t1", "binding.not_one_to_one"},
      {R"([{"tool_call_id":"tc_1","native_id":"n1"},{"tool_call_id":"tc_2","native_id":"n1"}])",
       "t1", "binding.not_one_to_one"},
      {R"([{"tool_call_id":"tc_1","native_id":"n1"}])", "t1", "binding.incomplete"},
      {R"([{"tool_call_id":"tc_1","native_id":"n2"},{"tool_call_id":"tc_2","native_id":"n1"}])",
       "t1", "binding.call_mismatch"},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.bindings);
    EXPECT_TRUE(RefusedBeforeContact(with(row.bindings, row.owner), row.code));
  }
  // A bound call whose name differs from its native part.
  std::string renamed = with(
      R"([{"tool_call_id":"tc_1","native_id":"n1"},{"tool_call_id":"tc_2","native_id":"n2"}])");
  renamed.replace(renamed.find(R"("id":"tc_2","name":"f")"), 22, R"("id":"tc_2","name":"g")");
  EXPECT_TRUE(RefusedBeforeContact(renamed, "binding.call_mismatch"));
  // Positive control.
  const Json body = SentBody(Conversation(with(
      R"([{"tool_call_id":"tc_2","native_id":"n2"},{"tool_call_id":"tc_1","native_id":"n1"}])")));
  EXPECT_TRUE(WireIs(body, "/contents/2/parts",
                     R"([{"functionResponse":{"id":"n1","name":"f","response":{"output":1}}},
                         {"functionResponse":{"id":"n2","name":"f","response":{"output":2}}}])"));
}

// Accepts exact int/float renormalization of generic args and sends the native floats (ADR-226.8).
TEST_F(AdapterWire, ExactNumericRenormalizationAccepted) {
  const std::string script = Script(
      {Reply(
           R"([{"functionCall":{"id":"n1","name":"f","args":{"a":1.0,"b":-3.0,"c":-0.0,"d":0.5,"e":[1.0,{"k":2.0}]}}}])"),
       Reply(kFinalText)});
  Transcript t;
  t.messages.push_back(UserMessage("go"));
  const Message turn = Step(script, t);
  // The framework renormalizes its generic copy recursively, as Google's Python SDK does.
  t.messages.back().tool_calls[0].arguments =
      ParseJson(R"({"a":1,"b":-3,"c":0,"d":0.5,"e":[1,{"k":2}]})");
  t.messages.push_back(ToolResultMessage(turn.tool_calls[0].id, "f", "ok"));
  Generate(script, t);
  const Json body = LastBody(script);
  EXPECT_TRUE(WireIs(body, "/contents/1/parts/0/functionCall/args",
                     R"({"a":1.0,"b":-3.0,"c":-0.0,"d":0.5,"e":[1.0,{"k":2.0}]})"));
  EXPECT_TRUE(WireIs(body, "/contents/2/parts/0/functionResponse/id", R"("n1")"));
  EXPECT_TRUE(WireIsNot(body, "/contents/1/parts/0/functionCall/args",
                        R"({"a":1,"b":-3,"c":0,"d":0.5,"e":[1,{"k":2}]})"));
}

// Refuses rounded large integers and cross-kind argument pairs before contact (ADR-226.8).
TEST_F(AdapterWire, InexactOrCrossKindArgumentsRefusedBeforeContact) {
  const auto bound = [](const std::string& generic, const std::string& native) {
    return Stored(OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":)" + generic + "}]",
                            R"([{"functionCall":{"id":"n1","name":"f","args":)" + native + "}}]",
                            R"([{"tool_call_id":"tc_1","native_id":"n1"}])") +
                  "," + ToolResult("tc_1", "f", R"("1")"));
  };
  const std::pair<const char*, const char*> mismatches[] = {
      {R"({"x":9007199254740993})", R"({"x":9007199254740992.0})"},
      {R"({"x":"1"})", R"({"x":1})"},
      {R"({"x":true})", R"({"x":1})"},
      {R"({"x":null})", R"({"x":0})"},
      {R"({"x":{"k":"2"}})", R"({"x":{"k":2.0}})"},
      {R"({"x":[1]})", R"({"x":{"0":1}})"},
  };
  for (const auto& [generic, native] : mismatches) {
    SCOPED_TRACE(generic);
    EXPECT_TRUE(RefusedBeforeContact(bound(generic, native), "binding.call_mismatch"));
  }
  // Positive control: exact conversions, recursively.
  const Json body = SentBody(
      Conversation(bound(R"({"x":[1,{"k":-3}],"z":0})", R"({"x":[1.0,{"k":-3.0}],"z":-0.0})")));
  EXPECT_TRUE(
      WireIs(body, "/contents/1/parts/0/functionCall/args", R"({"x":[1.0,{"k":-3.0}],"z":-0.0})"));
}

// Correlates per turn when a native ID recurs in a later turn for another tool (ADR-226.9).
TEST_F(AdapterWire, NativeIdsRecurInLaterTurns) {
  const std::string script = Script(
      {Reply(R"([{"functionCall":{"id":"call_807","name":"lookup","args":{"city":"Paris"}}}])"),
       Reply(R"([{"functionCall":{"id":"call_807","name":"convert","args":{"q":1}}}])"),
       Reply(kFinalText)});
  Transcript t;
  t.messages.push_back(UserMessage("go"));
  const Message first = Step(script, t);
  t.messages.push_back(ToolResultMessage(first.tool_calls[0].id, "lookup", R"({"temp":21})"));
  const Message second = Step(script, t);
  t.messages.push_back(ToolResultMessage(second.tool_calls[0].id, "convert", R"({"f":69.8})"));
  Generate(script, t);
  const Json body = LastBody(script);
  EXPECT_NE(first.tool_calls[0].id, second.tool_calls[0].id);
  EXPECT_TRUE(WireIs(body, "/contents/2/parts/0/functionResponse",
                     R"({"id":"call_807","name":"lookup","response":{"temp":21}})"));
  EXPECT_TRUE(WireIs(body, "/contents/4/parts/0/functionResponse",
                     R"({"id":"call_807","name":"convert","response":{"f":69.8}})"));
  EXPECT_TRUE(WireIs(body, "/contents/3/parts/0/functionCall",
                     R"({"id":"call_807","name":"convert","args":{"q":1}})"));
  EXPECT_TRUE(WireIsNot(body, "/contents/4/parts/0/functionResponse",
                        R"({"id":"call_807","name":"lookup","response":{"temp":21}})"));
}

// Refuses a bound public ID that also names another call in the transcript (ADR-226.10).
TEST_F(AdapterWire, PublicIdReusedElsewhereRefusedBeforeContact) {
  const auto conversation = [](const std::string& later_id) {
    return Stored(OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{}}])",
                            R"([{"functionCall":{"id":"n1","name":"f","args":{}}}])",
                            R"([{"tool_call_id":"tc_1","native_id":"n1"}])") +
                  "," + ToolResult("tc_1", "f", R"("1")") +
                  R"(,{"role":"assistant","id":"m2","content":"","tool_calls":[{"id":")" +
                  later_id + R"(","name":"g","arguments":{}}]},)" +
                  ToolResult(later_id, "g", R"("2")"));
  };
  EXPECT_TRUE(RefusedBeforeContact(conversation("tc_1"), "binding.public_id_reused"));
  const Json body = SentBody(Conversation(conversation("tc_9")));
  EXPECT_TRUE(WireIs(body, "/contents/2/parts/0/functionResponse/id", R"("n1")"));
  EXPECT_TRUE(WireLacks(body, "/contents/4/parts/0/functionResponse/id"));
}

// Recovers older capsules by name and arguments, never by position (ADR-226.11).
TEST_F(AdapterWire, LegacyStateRecoversByNameAndArguments) {
  const auto legacy = [](const std::string& calls) {
    return Stored(OwnedTurn("t1", calls,
                            R"([{"functionCall":{"id":"n1","name":"f","args":{"x":1.0}}},
                                {"functionCall":{"id":"n2","name":"f","args":{"x":2}}}])",
                            "") +
                  "," + ToolResult("tc_1", "f", R"("one")") + "," +
                  ToolResult("tc_2", "f", R"("two")"));
  };
  // The generic list is in the opposite order of the native parts.
  const Json body = SentBody(Conversation(legacy(R"([{"id":"tc_2","name":"f","arguments":{"x":2}},
                                                     {"id":"tc_1","name":"f","arguments":{"x":1}}])")));
  EXPECT_TRUE(WireIs(body, "/contents/2/parts",
                     R"([{"functionResponse":{"id":"n1","name":"f","response":{"output":"one"}}},
                         {"functionResponse":{"id":"n2","name":"f","response":{"output":"two"}}}])"));
  EXPECT_TRUE(WireIsNot(body, "/contents/2/parts",
                        R"([{"functionResponse":{"id":"n1","name":"f","response":{"output":"two"}}},
                            {"functionResponse":{"id":"n2","name":"f","response":{"output":"one"}}}])"));
  // A call matching no native part is not paired by position.
  EXPECT_TRUE(RefusedBeforeContact(legacy(R"([{"id":"tc_1","name":"f","arguments":{"x":1}},
                                              {"id":"tc_2","name":"f","arguments":{"x":3}}])"),
                                   "legacy.unmatched"));
}

// Refuses older state with identical parallel calls carrying native IDs before contact
// (ADR-226.12).
TEST_F(AdapterWire, LegacyIdenticalParallelCallsRefusedBeforeContact) {
  const auto turn = [](const std::string& bindings) {
    return Stored(OwnedTurn("t1",
                            R"([{"id":"tc_1","name":"f","arguments":{"x":1}},
                                {"id":"tc_2","name":"f","arguments":{"x":1}}])",
                            R"([{"functionCall":{"id":"n1","name":"f","args":{"x":1.0}}},
                                {"functionCall":{"id":"n2","name":"f","args":{"x":1.0}}}])",
                            bindings) +
                  "," + ToolResult("tc_1", "f", R"("a")") + "," +
                  ToolResult("tc_2", "f", R"("b")"));
  };
  EXPECT_TRUE(RefusedBeforeContact(turn(""), "legacy.ambiguous"));
  // Positive control: captured bindings make the same turn unambiguous.
  const Json body = SentBody(Conversation(turn(
      R"([{"tool_call_id":"tc_1","native_id":"n2"},{"tool_call_id":"tc_2","native_id":"n1"}])")));
  EXPECT_TRUE(WireIs(body, "/contents/2/parts",
                     R"([{"functionResponse":{"id":"n1","name":"f","response":{"output":"b"}}},
                         {"functionResponse":{"id":"n2","name":"f","response":{"output":"a"}}}])"));
}

// Keeps accepting wholly ID-less turns, fresh and older, without inventing IDs (ADR-226.13).
TEST_F(AdapterWire, IdLessTurnsRemainAccepted) {
  // Fresh identical ID-less parallel calls, as Gemini 2.x sends them.
  const Json fresh = RoundTrip(R"([{"functionCall":{"name":"f","args":{}}},)"
                               R"({"functionCall":{"name":"f","args":{}}}])",
                               {"1", "2"});
  EXPECT_TRUE(WireIs(fresh, "/contents/2/parts",
                     R"([{"functionResponse":{"name":"f","response":{"output":1}}},
                         {"functionResponse":{"name":"f","response":{"output":2}}}])"));
  // An older ID-less capsule without a bindings field, and an unambiguous older owned turn.
  const Json older = SentBody(Conversation(
      Stored(OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{}}])",
                       R"([{"functionCall":{"name":"f","args":{}}}])", "") +
             "," + ToolResult("tc_1", "f", R"("1")") + "," +
             OwnedTurn("t2", R"([{"id":"tc_2","name":"g","arguments":{"k":1}}])",
                       R"([{"functionCall":{"id":"n5","name":"g","args":{"k":1}}}])", "") +
             "," + ToolResult("tc_2", "g", R"("2")"))));
  EXPECT_TRUE(WireIs(older, "/contents/2/parts/0/functionResponse",
                     R"({"name":"f","response":{"output":1}})"));
  EXPECT_TRUE(WireIs(older, "/contents/4/parts/0/functionResponse",
                     R"({"id":"n5","name":"g","response":{"output":2}})"));
  EXPECT_TRUE(WireIsNot(older, "/contents/2/parts/0/functionResponse",
                        R"({"id":"tc_1","name":"f","response":{"output":1}})"));
}

// Requires no generic calls for a signed text turn or a native-parts-only turn (ADR-226.14).
TEST_F(AdapterWire, SignedTextAndNativeOnlyTurnsNeedNoCalls) {
  const std::string parts = R"([{"text":"","thoughtSignature":"c2lnVA=="},{"text":"Hello."}])";
  const std::string script = Script({Reply(parts), Reply(kFinalText)});
  Transcript t;
  t.messages.push_back(UserMessage("hi"));
  const Message turn = Step(script, t);
  EXPECT_TRUE(turn.tool_calls.empty());
  EXPECT_TRUE(WireIs(ToJson(turn), "/tool_calls", "[]"));
  t.messages.push_back(UserMessage("bye"));
  Generate(script, t);
  const Json body = LastBody(script);
  EXPECT_TRUE(WireIs(body, "/contents/1", R"({"role":"model","parts":)" + parts + "}"));
  EXPECT_TRUE(WireIs(body, "/contents/2", R"({"role":"user","parts":[{"text":"bye"}]})"));
  EXPECT_EQ(server_.Journal(script).back().body.find("functionResponse"), std::string::npos);

  // A carried native-only turn with native IDs and no generic calls.
  const Json native_only = SentBody(Conversation(
      Stored(OwnedTurn("t1", "[]", R"([{"functionCall":{"id":"n1","name":"f"}}])", "") +
             R"(,{"role":"user","content":"next"})")));
  EXPECT_TRUE(
      WireIs(native_only, "/contents/1/parts", R"([{"functionCall":{"id":"n1","name":"f"}}])"));
  EXPECT_TRUE(WireIs(native_only, "/contents/2", R"({"role":"user","parts":[{"text":"next"}]})"));
  EXPECT_TRUE(WireIsNot(native_only, "/contents/1/parts",
                        R"([{"functionCall":{"id":"n1","name":"f","args":{}}}])"));
}

// Structurally validates a present bindings field before contact (ADR-226.15).
TEST_F(AdapterWire, BindingsFieldStructurallyValidatedBeforeContact) {
  const std::string idless_calls = R"([{"id":"tc_1","name":"f","arguments":{}}])";
  const std::string idless_parts = R"([{"functionCall":{"name":"f","args":{}}}])";
  const std::string result = "," + ToolResult("tc_1", "f", R"("1")");
  const std::string id_calls = R"([{"id":"tc_1","name":"f","arguments":{}}])";
  const std::string id_parts = R"([{"functionCall":{"id":"n1","name":"f","args":{}}}])";
  const struct {
    std::string turn;
    const char* code;
  } rows[] = {
      {OwnedTurn("t1", idless_calls, idless_parts, R"([{"tool_call_id":"tc_1","native_id":"n1"}])"),
       "binding.unexpected"},
      {OwnedTurn("t1", "[]", id_parts, R"([{"tool_call_id":"tc_1","native_id":"n1"}])"),
       "binding.unexpected"},
      {OwnedTurn("t1", idless_calls, idless_parts, "{}"), "binding.malformed"},
      {OwnedTurn("t1", idless_calls, idless_parts, "null"), "binding.malformed"},
      {OwnedTurn("t1", id_calls, id_parts, R"([{"tool_call_id":"tc_1"}])"), "binding.malformed"},
      {OwnedTurn("t1", id_calls, id_parts, R"([{"tool_call_id":"tc_1","native_id":""}])"),
       "binding.malformed"},
      {OwnedTurn("t1", id_calls, id_parts, R"([{"tool_call_id":"tc_1","native_id":1}])"),
       "binding.malformed"},
      {OwnedTurn("t1", id_calls, id_parts, R"([{"tool_call_id":"tc_1","native_id":"n1","x":1}])"),
       "binding.malformed"},
      {OwnedTurn("t1", id_calls, id_parts, R"(["tc_1"])"), "binding.malformed"},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.turn);
    const bool has_calls = row.turn.find(R"("tool_calls":[])") == std::string::npos;
    EXPECT_TRUE(RefusedBeforeContact(Stored(row.turn + (has_calls ? result : "")), row.code));
  }
  // Positive control: an empty list on an ID-less turn.
  const Json body =
      SentBody(Conversation(Stored(OwnedTurn("t1", idless_calls, idless_parts, "[]") + result)));
  EXPECT_TRUE(WireIs(body, "/contents/2/parts/0/functionResponse",
                     R"({"name":"f","response":{"output":1}})"));
}

// Takes no binding from foreign or generic turns; parsed turns carry only the Gemini capsule
// (ADR-226.16).
TEST_F(AdapterWire, ForeignTurnsCarryNoNativeBinding) {
  const Transcript t = Conversation(Stored(
      R"({"role":"assistant","id":"m1","content":"","tool_calls":[{"id":"call_1","name":"f","arguments":{}}],
          "provider_state":{"openai":{"owner":"m1","native_parts":[{"functionCall":{"id":"foreign-native-9","name":"f","args":{}}}],
                                      "tool_call_bindings":[{"tool_call_id":"call_1","native_id":"foreign-native-9"}]}}},)" +
      ToolResult("call_1", "f", R"("1")") + "," +
      R"({"role":"assistant","id":"m2","content":"","tool_calls":[{"id":"call_2","name":"g","arguments":{}}]},)" +
      ToolResult("call_2", "g", R"("2")")));
  const std::string script = Script({Reply(kFinalText)});
  Generate(script, t);
  const std::string raw = server_.Journal(script).back().body;
  const Json body = ParseJson(raw);
  EXPECT_TRUE(WireIs(body, "/contents/2/parts/0/functionResponse",
                     R"({"name":"f","response":{"output":1}})"));
  EXPECT_TRUE(WireIs(body, "/contents/4/parts/0/functionResponse",
                     R"({"name":"g","response":{"output":2}})"));
  EXPECT_TRUE(WireIsNot(body, "/contents/2/parts/0/functionResponse",
                        R"({"id":"foreign-native-9","name":"f","response":{"output":1}})"));
  EXPECT_EQ(raw.find("foreign-native-9"), std::string::npos);
  EXPECT_EQ(raw.find("tool_call_bindings"), std::string::npos);

  // A parsed Gemini turn holds the Gemini capsule and no other provider's payload.
  const std::string reply =
      Script({Reply(R"([{"functionCall":{"id":"n1","name":"f","args":{}}}])")});
  Transcript fresh;
  fresh.messages.push_back(UserMessage("go"));
  const Message turn = Generate(reply, fresh);
  ASSERT_EQ(turn.provider_state.size(), 1u);
  EXPECT_EQ(turn.provider_state.begin().key(), kGeminiCapsuleKey);
}

// Sends a closing request (tools declared, mode NONE) carrying earlier calls under the same
// association (ADR-226.17).
TEST_F(AdapterWire, ClosingRequestCarriesEarlierCalls) {
  const std::string script = Script(
      {Reply(
           R"([{"functionCall":{"id":"call_1","name":"f","args":{}},"thoughtSignature":"c2lnMQ=="},)"
           R"({"functionCall":{"id":"call_2","name":"g","args":{"n":1.0}}}])"),
       Reply(R"([{"functionCall":{"id":"call_1","name":"f","args":{"again":true}}}])"),
       Reply(kFinalText)});
  Transcript t;
  t.messages.push_back(UserMessage("go"));
  const Message first = Step(script, t);
  t.messages.push_back(ToolResultMessage(first.tool_calls[1].id, "g", R"({"v":"g1"})"));
  t.messages.push_back(ToolResultMessage(first.tool_calls[0].id, "f", "[]"));
  const Message second = Step(script, t);
  t.messages.push_back(ToolResultMessage(second.tool_calls[0].id, "f", R"({"v":"f2"})"));
  RequestOptions closing = WithTools();
  closing.tool_mode = "NONE";
  closing.system_instruction = "Answer now.";
  Generate(script, t, closing);
  const Json body = LastBody(script);
  EXPECT_TRUE(WireIs(body, "/toolConfig", R"({"functionCallingConfig":{"mode":"NONE"}})"));
  EXPECT_TRUE(WireIs(body, "/tools", DumpJson(WithTools().tools)));
  EXPECT_TRUE(WireIs(
      body, "/contents/1/parts",
      R"([{"functionCall":{"id":"call_1","name":"f","args":{}},"thoughtSignature":"c2lnMQ=="},
                         {"functionCall":{"id":"call_2","name":"g","args":{"n":1.0}}}])"));
  EXPECT_TRUE(WireIs(body, "/contents/2/parts",
                     R"([{"functionResponse":{"id":"call_1","name":"f","response":{}}},
                         {"functionResponse":{"id":"call_2","name":"g","response":{"v":"g1"}}}])"));
  EXPECT_TRUE(WireIs(body, "/contents/4/parts",
                     R"([{"functionResponse":{"id":"call_1","name":"f","response":{"v":"f2"}}}])"));
  EXPECT_TRUE(WireIsNot(body, "/toolConfig/functionCallingConfig/mode", R"("AUTO")"));
  EXPECT_TRUE(WireIsNot(body, "/contents/2/parts/0/functionResponse/id", R"("call_2")"));
  EXPECT_TRUE(WireIsNot(body, "/contents/2/parts/0/functionResponse/response", "[]"));
}

// Never quotes arguments, native IDs, signatures or text of bad state in an error (ADR-226.19).
TEST_F(AdapterWire, RefusalsNeverQuoteNativeContent) {
  const std::string s = kSentinel;
  const std::string text_part =
      R"({"text":")" + s + R"( visible","thoughtSignature":")" + s + R"(-sig-text"})";
  const std::vector<std::pair<std::string, const char*>> bad_states = {
      {OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{"q":")" + s + R"(-generic"}}])",
                 "[" + text_part + R"(,{"functionCall":{"id":")" + s +
                     R"(-id","name":"f","args":{"q":")" + s + R"(-native"}},"thoughtSignature":")" +
                     s + R"(-sig"}])",
                 R"([{"tool_call_id":"tc_1","native_id":")" + s + R"(-id"}])"),
       "binding.call_mismatch"},
      {OwnedTurn("t1", "[]",
                 "[" + text_part + R"(,{"functionCall":{"id":")" + s +
                     R"(","name":"f","args":{"v":")" + s + R"("}}},{"functionCall":{"id":")" + s +
                     R"(","name":"f","args":{}}}])",
                 ""),
       "replay.native_id_duplicate"},
      {OwnedTurn("t1", "[]",
                 R"([{"functionCall":{"id":{"v":")" + s +
                     R"("},"name":"f","args":{}},"thoughtSignature":")" + s + R"("}])",
                 ""),
       "replay.native_id_malformed"},
      {OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{"q":")" + s + R"("}}])",
                 R"([{"functionCall":{"id":"n1","name":"f","args":{"q":")" + s + R"("}}}])",
                 R"([{"tool_call_id":"tc_1","native_id":")" + s + R"(-unknown"}])"),
       "binding.unknown_native_id"},
      {OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{"q":")" + s + R"("}}])",
                 R"([{"functionCall":{"id":"n1","name":"f","args":{"q":")" + s + R"("}}}])",
                 R"([{"tool_call_id":"tc_1","native_id":"n1","extra":")" + s + R"("}])"),
       "binding.malformed"},
      {OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{}}])",
                 R"([{"functionCall":{"name":"f","args":{}},"thoughtSignature":")" + s + R"("}])",
                 R"([{"tool_call_id":"tc_1","native_id":")" + s + R"("}])"),
       "binding.unexpected"},
      {OwnedTurn("t1",
                 R"([{"id":"tc_1","name":"f","arguments":{"q":")" + s +
                     R"("}},)"
                     R"({"id":"tc_2","name":"f","arguments":{"q":")" +
                     s + R"("}}])",
                 R"([{"functionCall":{"id":")" + s + R"(-a","name":"f","args":{"q":")" + s +
                     R"("}}},)"
                     R"({"functionCall":{"id":")" +
                     s + R"(-b","name":"f","args":{"q":")" + s + R"("}}}])",
                 ""),
       "legacy.ambiguous"},
      {OwnedTurn(
           "t1", R"([{"id":"tc_1","name":"f","arguments":{"q":")" + s + R"(-x"}}])",
           R"([{"functionCall":{"id":")" + s + R"(","name":"f","args":{"q":")" + s + R"("}}}])",
           ""),
       "legacy.unmatched"},
      {OwnedTurn("t1", "[]", R"([{"functionCall":{"name":"f","args":")" + s + R"("}}])", ""),
       "capsule.malformed"},
  };
  for (const auto& [turn, code] : bad_states) {
    SCOPED_TRACE(code);
    const bool has_calls = turn.find(R"("tool_calls":[])") == std::string::npos;
    std::string results;
    if (has_calls) results += "," + ToolResult("tc_1", "f", R"(")" + s + R"(")");
    if (turn.find(R"("id":"tc_2")") != std::string::npos) {
      results += "," + ToolResult("tc_2", "f", R"(")" + s + R"(")");
    }
    const Transcript t =
        Conversation(R"([{"role":"user","content":")" + s + R"("},)" + turn + results + "]");
    bool contacted = true;
    const auto error = ErrorOf(t, &contacted);
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->code(), code);
    EXPECT_FALSE(contacted);
    EXPECT_EQ(std::string(error->what()).find(s), std::string::npos) << error->what();
    EXPECT_EQ(error->position().field.find(s), std::string::npos);
  }
  // Parse-time refusals of a response carrying the sentinel.
  const std::string parse_cases[] = {
      R"([{"text":")" + s + R"("},{"functionCall":{"id":")" + s +
          R"(","name":"f","args":{}},"thoughtSignature":")" + s + R"("},{"functionCall":{"id":")" +
          s + R"(","name":"f","args":{"q":")" + s + R"("}}}])",
      R"([{"functionCall":{"id":{"v":")" + s + R"("},"name":"f","args":{}}}])",
      R"([{"functionCall":{"id":"n1","name":"f","args":")" + s + R"("}}])",
  };
  for (const auto& parts : parse_cases) {
    SCOPED_TRACE(parts);
    const auto error = ParseErrorOf(parts);
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(std::string(error->what()).find(s), std::string::npos) << error->what();
  }
}

// Lets no native ID stand in for the public ID that answers a call (ADR-226.19).
TEST_F(AdapterWire, MatchingNativeIdApprovesNothing) {
  const std::string script =
      Script({Reply(R"([{"functionCall":{"id":"n1","name":"f","args":{}}}])"), Reply(kFinalText)});
  Transcript t;
  t.messages.push_back(UserMessage("go"));
  const Message turn = Step(script, t);
  Transcript forged = t;
  forged.messages.push_back(ToolResultMessage("n1", "f", "approved"));
  EXPECT_TRUE(RefusedBeforeContact(forged, "transcript.orphan_result"));
  EXPECT_EQ(server_.RequestCount(script), 1u);
  // Positive control: the public ID answers it.
  t.messages.push_back(ToolResultMessage(turn.tool_calls[0].id, "f", "approved"));
  Generate(script, t);
  EXPECT_TRUE(WireIs(LastBody(script), "/contents/2/parts/0/functionResponse",
                     R"({"id":"n1","name":"f","response":{"output":"approved"}})"));
}

// Answers fresh identical parallel calls with their own native IDs under every reordering of
// the generic list and the results, with 6.0 renormalized to 6 (ADR-226.20).
TEST_F(AdapterWire, IdenticalParallelCallsAnsweredUnderReordering) {
  for (const bool reverse_calls : {false, true}) {
    for (const bool reverse_results : {false, true}) {
      SCOPED_TRACE(std::string("calls ") + (reverse_calls ? "reversed" : "in order") +
                   ", results " + (reverse_results ? "reversed" : "in order"));
      const std::string script = Script(
          {Reply(
               R"([{"functionCall":{"id":"a1","name":"roll","args":{"sides":6.0}},"thoughtSignature":"c2ln"},)"
               R"({"functionCall":{"id":"a2","name":"roll","args":{"sides":6.0}}}])"),
           Reply(kFinalText)});
      Transcript t;
      t.messages.push_back(UserMessage("roll twice"));
      const Message turn = Step(script, t);
      ASSERT_EQ(turn.tool_calls.size(), 2u);
      const std::string first = turn.tool_calls[0].id;
      const std::string second = turn.tool_calls[1].id;
      auto& calls = t.messages.back().tool_calls;
      if (reverse_calls) std::reverse(calls.begin(), calls.end());
      for (auto& call : calls) call.arguments = ParseJson(R"({"sides":6})");
      Message answer_first = ToolResultMessage(first, "roll", R"({"value":"first"})");
      Message answer_second = ToolResultMessage(second, "roll", R"({"value":"second"})");
      if (reverse_results) std::swap(answer_first, answer_second);
      t.messages.push_back(answer_first);
      t.messages.push_back(answer_second);
      Generate(script, t);
      const Json body = LastBody(script);
      EXPECT_TRUE(
          WireIs(body, "/contents/2/parts",
                 R"([{"functionResponse":{"id":"a1","name":"roll","response":{"value":"first"}}},
                             {"functionResponse":{"id":"a2","name":"roll","response":{"value":"second"}}}])"));
      EXPECT_TRUE(WireIsNot(
          body, "/contents/2/parts",
          R"([{"functionResponse":{"id":"a1","name":"roll","response":{"value":"second"}}},
                                {"functionResponse":{"id":"a2","name":"roll","response":{"value":"first"}}}])"));
      EXPECT_TRUE(WireIs(body, "/contents/1/parts/1/functionCall/args", R"({"sides":6.0})"));
      EXPECT_TRUE(WireIsNot(body, "/contents/1/parts/1/functionCall/args", R"({"sides":6})"));
      EXPECT_TRUE(WireIs(body, "/contents/1/parts/0/thoughtSignature", R"("c2ln")"));
      EXPECT_TRUE(WireLacks(body, "/contents/1/parts/1/thoughtSignature"));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Real traffic: googleapis/js-genai test/system/recordings,
// Chats_Tests_chats_function_calling_Google_AI_with_function_calling (Apache-2.0).

constexpr char kRecordedUser[] =
    R"({"parts":[{"text":"what is the result of 100/2"}],"role":"user"})";
constexpr char kRecordedTools[] =
    R"([{"functionDeclarations":[{"description":"Custom divide function","name":"customDivide",)"
    R"("parameters":{"properties":{"denominator":{"type":"NUMBER"},"numerator":{"type":"NUMBER"}},)"
    R"("type":"OBJECT"}}]}])";
constexpr char kRecordedAnswer[] =
    R"({"candidates":[{"avgLogprobs":-0.0014493816221753757,"content":{"parts":[{"functionCall":)"
    R"({"args":{"denominator":2,"numerator":100},"name":"customDivide"}}],"role":"model"},)"
    R"("finishReason":"STOP"}],"modelVersion":"gemini-2.0-flash","responseId":"x9SfaLCQBs7shMIP2Mei0AI",)"
    R"("usageMetadata":{"candidatesTokenCount":6,"candidatesTokensDetails":[{"modality":"TEXT",)"
    R"("tokenCount":6}],"promptTokenCount":21,"promptTokensDetails":[{"modality":"TEXT","tokenCount":21}],)"
    R"("totalTokenCount":27}})";
// The model content Google's SDK sent back in the recorded follow-up request.
constexpr char kRecordedModelContent[] =
    R"({"parts":[{"functionCall":{"args":{"denominator":2,"numerator":100},"name":"customDivide"}}],)"
    R"("role":"model"})";

// Replays the recorded customDivide call as Google's SDK did and answers it without an id
// (ADR-224.8, ADR-226.4).
TEST_F(AdapterWire, ReplaysRecordedCustomDivideCall) {
  const std::string script = Script({kRecordedAnswer, Reply(kFinalText)});
  RequestOptions options;
  options.model = "gemini-2.0-flash";
  options.tools = ParseJson(kRecordedTools);
  Transcript t;
  t.messages.push_back(UserMessage("what is the result of 100/2"));
  const Message turn = Step(script, t, options);
  ASSERT_EQ(turn.tool_calls.size(), 1u);
  t.messages.push_back(ToolResultMessage(turn.tool_calls[0].id, "customDivide", "50"));
  Generate(script, t, options);
  const auto journal = server_.Journal(script);
  ASSERT_EQ(journal.size(), 2u);
  EXPECT_EQ(journal[1].path, "/v1beta/models/gemini-2.0-flash:generateContent");
  const Json first = ParseJson(journal[0].body);
  EXPECT_TRUE(WireIs(first, "/contents", std::string("[") + kRecordedUser + "]"));
  EXPECT_TRUE(WireIs(first, "/tools", kRecordedTools));
  const Json body = LastBody(script);
  EXPECT_TRUE(WireIs(body, "/contents/0", kRecordedUser));
  EXPECT_TRUE(WireIs(body, "/contents/1", kRecordedModelContent));
  EXPECT_TRUE(WireIs(body, "/contents/2/parts/0/functionResponse/name", R"("customDivide")"));
  EXPECT_TRUE(WireLacks(body, "/contents/2/parts/0/functionResponse/id"));
  ASSERT_TRUE(body.contains(Json::json_pointer("/contents/2/parts/0/functionResponse/response")));
  EXPECT_TRUE(
      body.at(Json::json_pointer("/contents/2/parts/0/functionResponse/response")).is_object());
  EXPECT_TRUE(WireIs(body, "/contents/2/parts/0/functionResponse/response", R"({"output":50})"));
  // Negative controls: a synthesized id, a bare scalar response, re-typed recorded numbers.
  EXPECT_TRUE(WireIsNot(body, "/contents/2/parts/0/functionResponse",
                        R"({"id":")" + turn.tool_calls[0].id +
                            R"(","name":"customDivide","response":{"output":50}})"));
  EXPECT_TRUE(WireIsNot(body, "/contents/2/parts/0/functionResponse/response", "50"));
  EXPECT_TRUE(
      WireIsNot(body, "/contents/1",
                R"({"parts":[{"functionCall":{"args":{"denominator":2.0,"numerator":100.0},)"
                R"("name":"customDivide"}}],"role":"model"})"));
}

}  // namespace
}  // namespace gemini_oracle::ref
