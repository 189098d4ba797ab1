#pragma once
// Approval records: a person's decision on one public tool call, kept with the conversation
// (ADR-226.18: suspension and resume preserve approval identity). Correlation establishes no
// trust (ADR-226.19): an approval authorizes its own public call only, never a later call
// that reuses the native id or repeats the name and arguments.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "reference_impl/json.h"
#include "reference_impl/store/conversation_state.h"
#include "reference_impl/transcript.h"

namespace gemini_oracle::ref {

/// "blake2b-256:" + 64 hex digits over the arguments in canonical form (members sorted by
/// name at every level, numbers kept in their kind and as written: {"n": 1} and {"n": 1.0}
/// digest apart, so an approval never stretches to a value it was not given for).
std::string ArgumentsDigest(const Json& arguments);

/// Records a decision on `call`. Throws std::invalid_argument when the conversation already
/// holds an approval with this id (approval ids are the application's own).
void RecordApproval(ConversationState& state, std::string approval_id, const ToolCall& call,
                    Approval::Status status, std::int64_t decided_at);

/// Whether `call` may run: some approval of the conversation (only `approval_id` when given)
/// has status approved and names this call's public id, name and arguments digest.
bool Authorizes(const ConversationState& state, const ToolCall& call,
                std::optional<std::string_view> approval_id = std::nullopt);

}  // namespace gemini_oracle::ref
