#include "reference_impl/store/conversation_state.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "reference_impl/provider_error.h"
#include "tests/reference_impl/store/store_test_support.h"

namespace gemini_oracle::ref::testing {
namespace {

// The stored text of RichState() with `edit` applied to its JSON form.
template <typename F>
std::string Edited(F edit) {
  Json json = ToJson(RichState());
  edit(json);
  return DumpJson(json);
}

// Encodes and decodes without changing a byte or a kind.
TEST(ConversationState, EncodeDecodeIsByteIdentical) {
  const ConversationState state = RichState();
  const std::string text = EncodeState(state);
  const ConversationState back = DecodeState(text);
  EXPECT_TRUE(EncodeState(back) == text);
  EXPECT_TRUE(KindExactEqual(ToJson(back), ToJson(state)));
  EXPECT_TRUE(KindExactEqual(ToJson(back.transcript), ToJson(state.transcript)));
  // The transcript part is exactly what the transcript's own JSON form writes.
  EXPECT_EQ(DumpJson(ParseJson(text)["transcript"]), DumpJson(ToJson(state.transcript)));
}

// Writes the documented members in the documented order.
TEST(ConversationState, FormatHasTheDocumentedMembers) {
  const Json json = ToJson(RichState());
  std::vector<std::string> keys;
  for (auto it = json.begin(); it != json.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"format", "version", "transcript", "pending_tool_calls",
                                            "public_id_counter", "approvals"}));
  EXPECT_EQ(json["format"], "gemini-oracle/conversation-state");
  EXPECT_EQ(json["version"], 1);
  EXPECT_EQ(DumpJson(json["approvals"][1]),
            R"({"approval_id":"ap_2","tool_call_id":"tc_2","name":"get_weather",)"
            R"("arguments_digest":"blake2b-256:)" +
                std::string(64, 'a') + R"(","status":"denied","decided_at":-1})");
}

// Refuses every member it does not know and every wrong shape with store.malformed, naming no
// stored content.
TEST(ConversationState, RefusesUnknownMembersAndWrongShapes) {
  const std::vector<std::pair<const char*, std::string>> cases = {
      {"not JSON", "{\"format\": NEEDLE-5e1f"},
      {"trailing text", EncodeState(RichState()) + " x"},
      {"a list", "[]"},
      {"repeated member", R"({"format":"a","format":"gemini-oracle/conversation-state"})"},
      {"unknown member", Edited([](Json& j) { j["extra"] = kNeedle; })},
      {"missing member", Edited([](Json& j) { j.erase("approvals"); })},
      {"other format", Edited([](Json& j) { j["format"] = kNeedle; })},
      {"later version", Edited([](Json& j) { j["version"] = 2; })},
      {"version as text", Edited([](Json& j) { j["version"] = "1"; })},
      {"version as float", Edited([](Json& j) { j["version"] = 1.0; })},
      {"transcript object", Edited([](Json& j) { j["transcript"] = Json::object(); })},
      {"bad role", Edited([](Json& j) { j["transcript"][1]["role"] = kNeedle; })},
      {"message member unknown", Edited([](Json& j) { j["transcript"][1]["x"] = 1; })},
      {"message not canonical", Edited([](Json& j) { j["transcript"][2]["content"] = nullptr; })},
      {"pending not text", Edited([](Json& j) { j["pending_tool_calls"][0] = 1; })},
      {"pending call dropped", Edited([](Json& j) { j["pending_tool_calls"] = Json::array(); })},
      {"answered call pending", Edited([](Json& j) { j["pending_tool_calls"].push_back("tc_1"); })},
      {"pending call repeated", Edited([](Json& j) {
         j["pending_tool_calls"] = Json::array({"tc_2", "tc_2"});
       })},
      {"counter negative", Edited([](Json& j) { j["public_id_counter"] = -1; })},
      {"counter float", Edited([](Json& j) { j["public_id_counter"] = 7.0; })},
      {"approval member unknown", Edited([](Json& j) { j["approvals"][0]["x"] = kNeedle; })},
      {"approval member missing", Edited([](Json& j) { j["approvals"][0].erase("name"); })},
      {"approval status", Edited([](Json& j) { j["approvals"][0]["status"] = kNeedle; })},
      {"approval time float", Edited([](Json& j) { j["approvals"][0]["decided_at"] = 1.5; })},
      {"approval time too big",
       Edited([](Json& j) { j["approvals"][0]["decided_at"] = std::uint64_t{1} << 63; })},
      {"approval id number", Edited([](Json& j) { j["approvals"][0]["approval_id"] = 1; })},
  };
  for (const auto& [name, text] : cases) {
    const auto error = ErrorOf([&] { DecodeState(text); });
    ASSERT_TRUE(error.has_value()) << name;
    EXPECT_EQ(error->code(), "store.malformed") << name;
    EXPECT_EQ(std::string(error->what()).find("NEEDLE"), std::string::npos) << error->what();
    EXPECT_FALSE(error->location().has_value()) << name;
  }
}

// Refuses to store what it could not give back exactly: a non-finite number, invalid UTF-8.
TEST(ConversationState, RefusesStateItCannotStoreExactly) {
  ConversationState nan = RichState();
  nan.transcript.messages[2].tool_calls[0].arguments["x"] =
      std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(CodeOf([&] { EncodeState(nan); }), "store.malformed");
  ConversationState bad_text = RichState();
  bad_text.transcript.messages[1].content = "NEEDLE-5e1f \xff\xfe";
  const auto error = ErrorOf([&] { EncodeState(bad_text); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code(), "store.malformed");
  EXPECT_EQ(std::string(error->what()).find("NEEDLE"), std::string::npos);
}

// Derives the pending calls (those without a later result) and a counter no lower than the
// transcript's ids and call count, or the floor given.
TEST(ConversationState, StateOfTranscriptDerivesPendingCallsAndCounter) {
  const Transcript t = TranscriptFromJson(ParseJson(R"([
    {"role":"user","content":"go"},
    {"role":"assistant","id":"turn_2","content":"","tool_calls":[
      {"id":"tc_1","name":"f","arguments":{}},{"id":"tc_9","name":"f","arguments":{}}]},
    {"role":"tool","tool_call_id":"tc_1","name":"f","content":"ok"},
    {"role":"assistant","id":"turn_4","content":"","tool_calls":[
      {"id":"x","name":"g","arguments":{}}]}
  ])"));
  const ConversationState state = StateOfTranscript(t);
  EXPECT_EQ(state.pending_tool_calls, (std::vector<std::string>{"tc_9", "x"}));
  EXPECT_EQ(state.public_id_counter, 9u);
  EXPECT_EQ(StateOfTranscript(t, 12).public_id_counter, 12u);
  EXPECT_TRUE(KindExactEqual(ToJson(state.transcript), ToJson(t)));
  EXPECT_TRUE(state.approvals.empty());

  const Transcript plain = TranscriptFromJson(ParseJson(R"([
    {"role":"assistant","id":"a","content":"","tool_calls":[
      {"id":"p","name":"f","arguments":{}},{"id":"q","name":"f","arguments":{}},
      {"id":"tc_x","name":"f","arguments":{}}]}])"));
  EXPECT_EQ(StateOfTranscript(plain).public_id_counter, 3u);
  EXPECT_EQ(StateOfTranscript(plain).pending_tool_calls.size(), 3u);
}

}  // namespace
}  // namespace gemini_oracle::ref::testing
