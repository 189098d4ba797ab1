#pragma once
// Everything a conversation needs to resume exactly (ADR-226.18): the generic transcript with
// its capsules (native parts, signatures, tool_call_bindings), the pending tool calls, the
// public-ID counter and the approval records.

#include <cstdint>
#include <string>
#include <vector>

#include "reference_impl/json.h"
#include "reference_impl/transcript.h"

namespace gemini_oracle::ref {

/// A person's decision on one public tool call. It binds the approval id to that call's public
/// id, its name and a digest of its decoded arguments, and to nothing else: a later call that
/// reuses the native id, or repeats the name and arguments, gains nothing (ADR-226.19).
struct Approval {
  enum class Status { kApproved, kDenied };
  std::string approval_id;
  std::string tool_call_id;      // the public id of the one call it concerns
  std::string name;              // that call's function name
  std::string arguments_digest;  // ArgumentsDigest() of that call's decoded arguments
  Status status = Status::kApproved;
  std::int64_t decided_at = 0;  // seconds since the Unix epoch
};

struct ConversationState {
  Transcript transcript;
  /// Public ids of the calls still waiting for a result, in transcript order.
  std::vector<std::string> pending_tool_calls;
  /// How many public tool-call ids the conversation has issued; never goes down, so ids stay
  /// conversation-unique after the transcript is trimmed (ADR-226.1).
  std::uint64_t public_id_counter = 0;
  std::vector<Approval> approvals;
};

/// Lossless JSON form: the transcript as ref::ToJson writes it ({} vs [], 1.0 vs 1, -0.0 and
/// 64-bit integers kept). StateFromJson throws ProviderError "store.malformed".
Json ToJson(const ConversationState& state);
ConversationState StateFromJson(const Json& json);

/// The stored text: DumpJson(ToJson(state)) (what is encrypted).
std::string EncodeState(const ConversationState& state);
/// Parses with the kind-preserving parser; throws ProviderError "store.malformed".
ConversationState DecodeState(const std::string& text);

/// The public ids of the transcript's calls without a later result, in transcript order: what
/// pending_tool_calls must hold (DecodeState refuses a state whose list differs).
std::vector<std::string> PendingToolCalls(const Transcript& transcript);

/// Derives pending_tool_calls and a counter no lower than the transcript's own ids from a
/// transcript (what a framework computes when it first stores a conversation).
ConversationState StateOfTranscript(Transcript transcript, std::uint64_t counter_floor = 0);

}  // namespace gemini_oracle::ref
