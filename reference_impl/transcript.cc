#include "reference_impl/transcript.h"

#include "reference_impl/provider_error.h"

namespace gemini_oracle::ref {

const char* RoleName(Role role) {
  switch (role) {
    case Role::kSystem:
      return "system";
    case Role::kUser:
      return "user";
    case Role::kAssistant:
      return "assistant";
    case Role::kTool:
      return "tool";
  }
  return "user";
}

Json ToJson(const Message& m) {
  Json out = Json::object();
  out["role"] = RoleName(m.role);
  switch (m.role) {
    case Role::kSystem:
    case Role::kUser:
      out["content"] = m.content;
      break;
    case Role::kAssistant: {
      out["id"] = m.id;
      out["content"] = m.content;
      Json calls = Json::array();
      for (const auto& call : m.tool_calls) {
        Json c = Json::object();
        c["id"] = call.id;
        c["name"] = call.name;
        c["arguments"] = call.arguments;
        calls.push_back(std::move(c));
      }
      out["tool_calls"] = std::move(calls);
      if (!m.provider_state.empty()) out["provider_state"] = m.provider_state;
      break;
    }
    case Role::kTool:
      out["tool_call_id"] = m.tool_call_id;
      out["name"] = m.name;
      out["content"] = m.content;
      out["is_error"] = m.is_error;
      break;
  }
  return out;
}

Json ToJson(const Transcript& t) {
  Json out = Json::array();
  for (const auto& m : t.messages) out.push_back(ToJson(m));
  return out;
}

namespace {

[[noreturn]] void Malformed(std::size_t index, const char* field) {
  Position where;
  where.turn = index;
  where.field = field;
  throw ProviderError("transcript.malformed", std::move(where));
}

std::string RequiredString(const Json& j, const char* key, std::size_t index) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_string()) Malformed(index, key);
  return it->get<std::string>();
}

std::string OptionalString(const Json& j, const char* key, std::size_t index) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return {};
  if (!it->is_string()) Malformed(index, key);
  return it->get<std::string>();
}

}  // namespace

Message MessageFromJson(const Json& j, std::size_t index) {
  if (!j.is_object()) Malformed(index, "message");
  Message m;
  const std::string role = RequiredString(j, "role", index);
  if (role == "system") {
    m.role = Role::kSystem;
    m.content = RequiredString(j, "content", index);
  } else if (role == "user") {
    m.role = Role::kUser;
    m.content = RequiredString(j, "content", index);
  } else if (role == "assistant") {
    m.role = Role::kAssistant;
    m.id = RequiredString(j, "id", index);
    m.content = OptionalString(j, "content", index);
    if (const auto calls = j.find("tool_calls"); calls != j.end() && !calls->is_null()) {
      if (!calls->is_array()) Malformed(index, "tool_calls");
      for (const auto& c : *calls) {
        if (!c.is_object()) Malformed(index, "tool_calls");
        ToolCall call;
        call.id = RequiredString(c, "id", index);
        call.name = RequiredString(c, "name", index);
        const auto args = c.find("arguments");
        if (args == c.end()) Malformed(index, "arguments");
        call.arguments = *args;  // any kind: stored state may be degraded; the builder repairs
        m.tool_calls.push_back(std::move(call));
      }
    }
    if (const auto state = j.find("provider_state"); state != j.end() && !state->is_null()) {
      if (!state->is_object()) Malformed(index, "provider_state");
      m.provider_state = *state;
    }
  } else if (role == "tool") {
    m.role = Role::kTool;
    m.tool_call_id = RequiredString(j, "tool_call_id", index);
    m.name = RequiredString(j, "name", index);
    m.content = RequiredString(j, "content", index);
    if (const auto e = j.find("is_error"); e != j.end()) {
      if (!e->is_boolean()) Malformed(index, "is_error");
      m.is_error = e->get<bool>();
    }
  } else {
    Malformed(index, "role");
  }
  return m;
}

Transcript TranscriptFromJson(const Json& messages) {
  if (!messages.is_array()) Malformed(0, "messages");
  Transcript t;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    t.messages.push_back(MessageFromJson(messages[i], i));
  }
  return t;
}

Message UserMessage(std::string text) {
  Message m;
  m.role = Role::kUser;
  m.content = std::move(text);
  return m;
}

Message ToolResultMessage(std::string tool_call_id, std::string name, std::string content,
                          bool is_error) {
  Message m;
  m.role = Role::kTool;
  m.tool_call_id = std::move(tool_call_id);
  m.name = std::move(name);
  m.content = std::move(content);
  m.is_error = is_error;
  return m;
}

}  // namespace gemini_oracle::ref
