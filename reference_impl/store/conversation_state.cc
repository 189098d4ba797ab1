#include "reference_impl/store/conversation_state.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "reference_impl/fault.h"
#include "reference_impl/provider_error.h"

namespace gemini_oracle::ref {
namespace {

constexpr const char* kFormat = "gemini-oracle/conversation-state";
constexpr std::uint64_t kFormatVersion = 1;

// The members of the stored state and of one approval record, in the order they are written.
// Nothing else is accepted: an unknown member is state this program would silently drop on the
// next suspension, so it is refused instead (ADR-226.18: resume exactly).
const std::set<std::string>& StateMembers() {
  static const std::set<std::string> members = {
      "format", "version", "transcript", "pending_tool_calls", "public_id_counter", "approvals"};
  return members;
}
const std::set<std::string>& ApprovalMembers() {
  static const std::set<std::string> members = {"approval_id",      "tool_call_id", "name",
                                                "arguments_digest", "status",       "decided_at"};
  return members;
}

// Names the member (and the index into a list) only: decoded state is never quoted.
[[noreturn]] void Malformed(const char* field, std::optional<std::size_t> index = std::nullopt) {
  Position where;
  where.part = index;
  where.field = field;
  throw ProviderError("store.malformed", std::move(where));
}

const char* StatusName(Approval::Status status) {
  return status == Approval::Status::kApproved ? "approved" : "denied";
}

// Values DumpJson could not write back exactly: a non-finite double prints as null, a binary
// value as an object. Invalid UTF-8 is caught by the strict dump in EncodeState.
void RequireEncodable(const Json& value) {
  if (value.is_number_float() && !std::isfinite(value.get<double>())) Malformed("number");
  if (value.is_binary()) Malformed("binary");
  if (value.is_structured()) {
    for (const auto& member : value) RequireEncodable(member);
  }
}

// --- The save-path mistakes of the mutation catalogue. ---

// Every capsule loses its tool_call_bindings, as a serializer that knows only owner and
// native_parts would write it.
void DropBindings(Json& state) {
  for (auto& message : state["transcript"]) {
    const auto ps = message.find("provider_state");
    if (ps == message.end() || !ps->is_object()) continue;
    const auto capsule = ps->find(kGeminiCapsuleKey);
    if (capsule != ps->end() && capsule->is_object()) capsule->erase("tool_call_bindings");
  }
}

void EmptyObjectsToLists(Json& value) {
  if (value.is_object() && value.empty()) {
    value = Json::array();
    return;
  }
  if (value.is_structured()) {
    for (auto& member : value) EmptyObjectsToLists(member);
  }
}

// PHP's json_encode of a decoded empty array writes [], whatever the array stood for.
void EmptyObjectsToListsInCallsAndParts(Json& state) {
  for (auto& message : state["transcript"]) {
    if (const auto calls = message.find("tool_calls"); calls != message.end()) {
      for (auto& call : *calls) {
        if (call.contains("arguments")) EmptyObjectsToLists(call["arguments"]);
      }
    }
    const auto ps = message.find("provider_state");
    if (ps == message.end() || !ps->is_object()) continue;
    const auto capsule = ps->find(kGeminiCapsuleKey);
    if (capsule == ps->end() || !capsule->is_object()) continue;
    if (const auto parts = capsule->find("native_parts"); parts != capsule->end()) {
      for (auto& part : *parts) EmptyObjectsToLists(part);
    }
  }
}

// An encoder without PRESERVE_ZERO_FRACTION: 1.0 is written 1, -0.0 is written 0.
void IntegralFloatsToIntegers(Json& value) {
  if (value.is_number_float()) {
    const double d = value.get<double>();
    if (std::isfinite(d) && d == std::trunc(d) && std::fabs(d) < 9.2e18) {
      value = static_cast<std::int64_t>(d);
    }
    return;
  }
  if (value.is_structured()) {
    for (auto& member : value) IntegralFloatsToIntegers(member);
  }
}

// A resume path that rebuilds native parts from the fields it knows and forgets the signature.
void DropSignatures(ConversationState& state) {
  for (auto& message : state.transcript.messages) {
    const auto capsule = message.provider_state.find(kGeminiCapsuleKey);
    if (capsule == message.provider_state.end() || !capsule->is_object()) continue;
    const auto parts = capsule->find("native_parts");
    if (parts == capsule->end() || !parts->is_array()) continue;
    for (auto& part : *parts) {
      if (part.is_object()) part.erase("thoughtSignature");
    }
  }
}

std::string RequiredString(const Json& object, const char* member, std::size_t index,
                           const char* field) {
  const auto it = object.find(member);
  if (it == object.end() || !it->is_string()) Malformed(field, index);
  return it->get<std::string>();
}

Approval ApprovalFromJson(const Json& json, std::size_t index) {
  if (!json.is_object() || json.size() != ApprovalMembers().size()) Malformed("approvals", index);
  for (auto it = json.begin(); it != json.end(); ++it) {
    if (ApprovalMembers().count(it.key()) == 0) Malformed("approvals", index);
  }
  Approval a;
  a.approval_id = RequiredString(json, "approval_id", index, "approval_id");
  a.tool_call_id = RequiredString(json, "tool_call_id", index, "tool_call_id");
  a.name = RequiredString(json, "name", index, "name");
  a.arguments_digest = RequiredString(json, "arguments_digest", index, "arguments_digest");
  const std::string status = RequiredString(json, "status", index, "status");
  if (status == "approved") {
    a.status = Approval::Status::kApproved;
  } else if (status == "denied") {
    a.status = Approval::Status::kDenied;
  } else {
    Malformed("status", index);
  }
  const Json& at = json.at("decided_at");
  if (at.is_number_unsigned()) {
    if (at.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
      Malformed("decided_at", index);
    }
    a.decided_at = static_cast<std::int64_t>(at.get<std::uint64_t>());
  } else if (at.is_number_integer()) {
    a.decided_at = at.get<std::int64_t>();
  } else {
    Malformed("decided_at", index);
  }
  return a;
}

// "tc_17" -> 17: the number in a public id the parser synthesized, if it is one.
std::optional<std::uint64_t> SynthesizedNumber(const std::string& id) {
  constexpr std::string_view prefix = "tc_";
  if (id.size() <= prefix.size() || id.compare(0, prefix.size(), prefix) != 0) return {};
  std::uint64_t n = 0;
  const char* first = id.data() + prefix.size();
  const char* last = id.data() + id.size();
  const auto [end, ec] = std::from_chars(first, last, n);
  if (ec != std::errc() || end != last) return {};
  return n;
}

}  // namespace

Json ToJson(const ConversationState& state) {
  Json out = Json::object();
  out["format"] = kFormat;
  out["version"] = kFormatVersion;
  out["transcript"] = ToJson(state.transcript);
  Json pending = Json::array();
  for (const auto& id : state.pending_tool_calls) pending.push_back(id);
  out["pending_tool_calls"] = std::move(pending);
  out["public_id_counter"] = state.public_id_counter;
  Json approvals = Json::array();
  for (const auto& a : state.approvals) {
    Json record = Json::object();
    record["approval_id"] = a.approval_id;
    record["tool_call_id"] = a.tool_call_id;
    record["name"] = a.name;
    record["arguments_digest"] = a.arguments_digest;
    record["status"] = StatusName(a.status);
    record["decided_at"] = a.decided_at;
    approvals.push_back(std::move(record));
  }
  out["approvals"] = std::move(approvals);
  return out;
}

ConversationState StateFromJson(const Json& json) {
  if (!json.is_object()) Malformed("state");
  for (auto it = json.begin(); it != json.end(); ++it) {
    if (StateMembers().count(it.key()) == 0) Malformed("state");
  }
  for (const auto& member : StateMembers()) {
    if (!json.contains(member)) Malformed("state");
  }
  if (json.at("format") != Json(kFormat)) Malformed("format");
  // A later format is refused rather than read as this one.
  const Json& version = json.at("version");
  if (!version.is_number_integer() || version != Json(kFormatVersion)) Malformed("version");

  ConversationState state;
  const Json& messages = json.at("transcript");
  if (!messages.is_array()) Malformed("transcript");
  for (std::size_t i = 0; i < messages.size(); ++i) {
    Message m;
    try {
      m = MessageFromJson(messages[i], i);
    } catch (const ProviderError&) {
      Malformed("transcript", i);
    }
    // Only the form ToJson writes is stored: a member the transcript model does not hold, or
    // a value it would write differently, would be lost or changed by the next suspension.
    if (!KindExactEqual(ToJson(m), messages[i])) Malformed("transcript", i);
    state.transcript.messages.push_back(std::move(m));
  }

  const Json& pending = json.at("pending_tool_calls");
  if (!pending.is_array()) Malformed("pending_tool_calls");
  for (std::size_t i = 0; i < pending.size(); ++i) {
    if (!pending[i].is_string()) Malformed("pending_tool_calls", i);
    state.pending_tool_calls.push_back(pending[i].get<std::string>());
  }
  // The list must be the transcript's own: a call dropped from it (or one added) would resume
  // as answered (or waiting) when the transcript says otherwise.
  if (state.pending_tool_calls != PendingToolCalls(state.transcript)) {
    Malformed("pending_tool_calls");
  }

  const Json& counter = json.at("public_id_counter");
  if (counter.is_number_unsigned()) {
    state.public_id_counter = counter.get<std::uint64_t>();
  } else if (counter.is_number_integer() && counter.get<std::int64_t>() >= 0) {
    state.public_id_counter = static_cast<std::uint64_t>(counter.get<std::int64_t>());
  } else {
    Malformed("public_id_counter");
  }

  const Json& approvals = json.at("approvals");
  if (!approvals.is_array()) Malformed("approvals");
  for (std::size_t i = 0; i < approvals.size(); ++i) {
    state.approvals.push_back(ApprovalFromJson(approvals[i], i));
  }
  return state;
}

std::string EncodeState(const ConversationState& state) {
  // What decoding would refuse is not written: a stale list would make the row unreadable.
  if (state.pending_tool_calls != PendingToolCalls(state.transcript)) {
    Malformed("pending_tool_calls");
  }
  Json json = ToJson(state);
  RequireEncodable(json);
  if (GEMINI_FAULT("store.bindings_dropped_on_save")) DropBindings(json);
  if (GEMINI_FAULT("store.empty_object_stored_as_list")) EmptyObjectsToListsInCallsAndParts(json);
  if (GEMINI_FAULT("store.float_stored_as_integer")) IntegralFloatsToIntegers(json);
  try {
    // DumpJson's bytes, except that invalid UTF-8 is refused instead of replaced: a replaced
    // byte would resume as different text.
    return json.dump(-1, ' ', false, Json::error_handler_t::strict);
  } catch (const Json::exception&) {
    Malformed("text");
  }
}

ConversationState DecodeState(const std::string& text) {
  Json json;
  try {
    // A repeated member name would mean different things to different readers.
    if (FindDuplicateKey(text)) Malformed("state");
    json = ParseJson(text);
  } catch (const Json::exception&) {
    Malformed("state");
  }
  ConversationState state = StateFromJson(json);
  if (GEMINI_FAULT("store.signature_dropped_on_resume")) DropSignatures(state);
  return state;
}

std::vector<std::string> PendingToolCalls(const Transcript& transcript) {
  // The last tool result each public id has, by message index.
  std::map<std::string, std::size_t> answered_at;
  for (std::size_t i = 0; i < transcript.messages.size(); ++i) {
    const Message& m = transcript.messages[i];
    if (m.role == Role::kTool) answered_at[m.tool_call_id] = i;
  }
  std::vector<std::string> pending;
  for (std::size_t i = 0; i < transcript.messages.size(); ++i) {
    for (const auto& call : transcript.messages[i].tool_calls) {
      const auto answer = answered_at.find(call.id);
      if (answer == answered_at.end() || answer->second < i) pending.push_back(call.id);
    }
  }
  return pending;
}

ConversationState StateOfTranscript(Transcript transcript, std::uint64_t counter_floor) {
  ConversationState state;
  std::uint64_t counter = counter_floor;
  std::uint64_t calls = 0;
  for (const Message& m : transcript.messages) {
    for (const auto& call : m.tool_calls) {
      ++calls;
      if (const auto n = SynthesizedNumber(call.id)) counter = std::max(counter, *n);
    }
  }
  // The parser numbers new ids after the calls the transcript holds (ADR-226.1).
  state.public_id_counter = std::max(counter, calls);
  state.pending_tool_calls = PendingToolCalls(transcript);
  state.transcript = std::move(transcript);
  return state;
}

}  // namespace gemini_oracle::ref
