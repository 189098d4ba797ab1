#pragma once
// Small builders shared by the reference implementation's tests.

#include <string>

#include "reference_impl/json.h"
#include "reference_impl/transcript.h"

namespace gemini_oracle::ref::testing {

/// A GenerateContentResponse whose single candidate has these parts (JSON text).
inline Json ResponseWithParts(const std::string& parts_json) {
  return ParseJson(R"({"candidates":[{"content":{"role":"model","parts":)" + parts_json +
                   R"(},"finishReason":"STOP","index":0}],"modelVersion":"gemini-3-pro"})");
}

/// The owned capsule of a parsed assistant turn.
inline Json& Capsule(Message& turn) { return turn.provider_state[kGeminiCapsuleKey]; }

}  // namespace gemini_oracle::ref::testing

namespace gemini_oracle::ref::testing {

/// A transcript from its JSON form (fixtures/INTERPRETING.md, "Transcript").
inline Transcript Conversation(const std::string& messages_json) {
  return TranscriptFromJson(ParseJson(messages_json));
}

/// Builds an assistant message owning a capsule with these native parts and bindings (JSON
/// text; pass "" to leave the bindings field out, as older capsules do).
inline std::string OwnedTurn(const std::string& id, const std::string& calls_json,
                             const std::string& parts_json, const std::string& bindings_json) {
  std::string capsule = R"({"owner":")" + id + R"(","native_parts":)" + parts_json;
  if (!bindings_json.empty()) capsule += R"(,"tool_call_bindings":)" + bindings_json;
  capsule += "}";
  return R"({"role":"assistant","id":")" + id + R"(","content":"","tool_calls":)" + calls_json +
         R"(,"provider_state":{"gemini":)" + capsule + "}}";
}

}  // namespace gemini_oracle::ref::testing
