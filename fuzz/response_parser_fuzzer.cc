// Any bytes as a generateContent answer: parsing gives an assistant turn or a ProviderError.
// A turn it gives keeps the answer's parts as received, names fresh IDs, binds every native
// ID, and builds a request once each call has a result (the builder accepts what the parser
// produced).

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "reference_impl/json.h"
#include "reference_impl/provider_error.h"
#include "reference_impl/request_builder.h"
#include "reference_impl/response_parser.h"
#include "reference_impl/transcript.h"

namespace {

using gemini_oracle::DumpJson;
using gemini_oracle::Json;
using gemini_oracle::KindExactEqual;
using gemini_oracle::ParseJson;
namespace ref = gemini_oracle::ref;

// A conversation whose IDs (turn_2, tc_1) are the ones the parser would pick first, so fresh
// names have to step past them.
const ref::Transcript& EarlierConversation() {
  static const ref::Transcript transcript = ref::TranscriptFromJson(ParseJson(R"([
    {"role": "user", "content": "Weather in Paris and Rome?"},
    {"role": "assistant", "id": "turn_2", "content": "",
     "tool_calls": [{"id": "tc_1", "name": "get_weather", "arguments": {"city": "Paris"}},
                    {"id": "tc_2", "name": "get_weather", "arguments": {"city": "Rome"}}],
     "provider_state": {"gemini": {"owner": "turn_2", "native_parts": [
       {"functionCall": {"id": "call_a", "name": "get_weather", "args": {"city": "Paris"}},
        "thoughtSignature": "c2lnbmF0dXJl"},
       {"functionCall": {"id": "call_b", "name": "get_weather", "args": {"city": "Rome"}}}],
      "tool_call_bindings": [{"tool_call_id": "tc_1", "native_id": "call_a"},
                             {"tool_call_id": "tc_2", "native_id": "call_b"}]}}},
    {"role": "tool", "tool_call_id": "tc_1", "name": "get_weather", "content": "{\"c\": 21}"},
    {"role": "tool", "tool_call_id": "tc_2", "name": "get_weather", "content": "sunny"}
  ])"));
  return transcript;
}

std::set<std::string> TakenIds(const ref::Transcript& transcript) {
  std::set<std::string> ids;
  for (const auto& m : transcript.messages) {
    if (!m.id.empty()) ids.insert(m.id);
    if (!m.tool_call_id.empty()) ids.insert(m.tool_call_id);
    for (const auto& call : m.tool_calls) ids.insert(call.id);
  }
  return ids;
}

void CheckTurn(const Json& response, const ref::Transcript& earlier) {
  ref::Message turn;
  try {
    turn = ref::ParseResponse(response, earlier);
  } catch (const ref::ProviderError&) {
    return;
  }
  if (turn.role != ref::Role::kAssistant || turn.id.empty()) __builtin_trap();
  std::set<std::string> taken = TakenIds(earlier);
  if (!taken.insert(turn.id).second) __builtin_trap();
  for (const auto& call : turn.tool_calls) {
    // ADR-226.1: fresh, conversation-unique public IDs; args are objects (ADR-224.11).
    if (!taken.insert(call.id).second || !call.arguments.is_object()) __builtin_trap();
  }
  const Json& capsule = turn.provider_state.at(ref::kGeminiCapsuleKey);
  const Json& parts = response.at("candidates").at(0).at("content").at("parts");
  if (capsule.at("owner") != turn.id || !KindExactEqual(capsule.at("native_parts"), parts)) {
    __builtin_trap();
  }

  // Answer every call, then build: what the parser produced must be replayable.
  ref::Transcript next = earlier;
  next.messages.push_back(turn);
  for (const auto& call : turn.tool_calls) {
    next.messages.push_back(ref::ToolResultMessage(call.id, call.name, "{\"ok\": true}"));
  }
  const Json request = ref::BuildRequest(next, ref::RequestOptions{});
  DumpJson(request);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Json response;
  try {
    response = ParseJson(text);
  } catch (const Json::parse_error&) {
    return 0;
  } catch (const Json::out_of_range&) {
    return 0;  // a number beyond a double (json.h)
  }
  CheckTurn(response, ref::Transcript{});
  CheckTurn(response, EarlierConversation());
  return 0;
}
