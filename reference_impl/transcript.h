#pragma once
// The generic, provider-neutral conversation an agent framework keeps.

#include <string>
#include <vector>

#include "reference_impl/json.h"

namespace gemini_oracle::ref {

enum class Role { kSystem, kUser, kAssistant, kTool };

/// A public tool call. `arguments` is the decoded JSON object the framework hands to the tool
/// (ADR-224.11); stored state from elsewhere may hold another kind, which the builder repairs
/// on the wire copy only.
struct ToolCall {
  std::string id;  // public, synthesized, conversation-unique (ADR-226.1)
  std::string name;
  Json arguments = Json::object();
};

/// One message. Flat like the chat formats frameworks use; which fields matter depends on role.
struct Message {
  Role role = Role::kUser;
  std::string id;                    // assistant: conversation-unique turn identity (capsule owner)
  std::string content;               // system/user/assistant text; tool: the tool's output as text
  std::vector<ToolCall> tool_calls;  // assistant
  /// assistant: opaque provider payloads. Key "gemini" holds the owned capsule
  /// {owner, native_parts, tool_call_bindings?}; any other key is a foreign payload kept
  /// verbatim and never used. Raw JSON, because stored state can be malformed and must then
  /// be refused (ADR-226.15), not fail to load.
  Json provider_state = Json::object();
  std::string tool_call_id;  // tool
  std::string name;          // tool: the function name
  bool is_error = false;     // tool: the content is an error message
};

struct Transcript {
  std::vector<Message> messages;
};

/// The capsule key inside Message::provider_state.
inline constexpr const char* kGeminiCapsuleKey = "gemini";

const char* RoleName(Role role);

/// Lossless JSON form (see fixtures/INTERPRETING.md, "Transcript"): keeps {} vs [], 1.0 vs 1,
/// -0.0 and 64-bit integers. FromJson throws ProviderError "transcript.malformed".
Json ToJson(const Message& message);
Json ToJson(const Transcript& transcript);
Message MessageFromJson(const Json& json, std::size_t index);
Transcript TranscriptFromJson(const Json& messages_array);

/// Shorthands for building transcripts in code.
Message UserMessage(std::string text);
Message ToolResultMessage(std::string tool_call_id, std::string name, std::string content,
                          bool is_error = false);

}  // namespace gemini_oracle::ref
