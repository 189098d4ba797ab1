#include "reference_impl/approvals.h"

#include <sodium.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "reference_impl/fault.h"

namespace gemini_oracle::ref {
namespace {

// The native id the turn's bindings give a public call, or nullopt.
std::optional<std::string> NativeIdOf(const Transcript& transcript, std::string_view public_id) {
  for (const Message& m : transcript.messages) {
    const auto capsule = m.provider_state.find(kGeminiCapsuleKey);
    if (capsule == m.provider_state.end() || !capsule->is_object()) continue;
    const auto bindings = capsule->find("tool_call_bindings");
    if (bindings == capsule->end() || !bindings->is_array()) continue;
    for (const Json& b : *bindings) {
      if (b.is_object() && b.value("tool_call_id", Json()) == Json(public_id) &&
          b.value("native_id", Json()).is_string()) {
        return b.at("native_id").get<std::string>();
      }
    }
  }
  return std::nullopt;
}

bool Matches(const ConversationState& state, const Approval& approval, const ToolCall& call,
             const std::string& digest) {
  if (approval.status != Approval::Status::kApproved) return false;
  if (GEMINI_FAULT("approval.matched_by_name_and_arguments")) {
    // Keyed by what the call does, as a cache of "approved actions" would be.
    return approval.name == call.name && approval.arguments_digest == digest;
  }
  if (GEMINI_FAULT("approval.matched_by_native_id")) {
    // Keyed by the provider's id, which a later response may repeat (ADR-226.9).
    const auto approved = NativeIdOf(state.transcript, approval.tool_call_id);
    const auto asked = NativeIdOf(state.transcript, call.id);
    if (approved && asked && *approved == *asked) return true;
  }
  return approval.tool_call_id == call.id && approval.name == call.name &&
         approval.arguments_digest == digest;
}

}  // namespace

std::string ArgumentsDigest(const Json& arguments) {
  // Sorted members at every level; number kinds and literals as the kind-preserving dump
  // writes them.
  const std::string canonical = nlohmann::json::parse(DumpJson(arguments)).dump();
  unsigned char hash[32];
  crypto_generichash(hash, sizeof hash, reinterpret_cast<const unsigned char*>(canonical.data()),
                     canonical.size(), nullptr, 0);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "blake2b-256:";
  for (const unsigned char b : hash) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

void RecordApproval(ConversationState& state, std::string approval_id, const ToolCall& call,
                    Approval::Status status, std::int64_t decided_at) {
  if (std::any_of(state.approvals.begin(), state.approvals.end(),
                  [&](const Approval& a) { return a.approval_id == approval_id; })) {
    throw std::invalid_argument("an approval with this id is already recorded");
  }
  Approval approval;
  approval.approval_id = std::move(approval_id);
  approval.tool_call_id = call.id;
  approval.name = call.name;
  approval.arguments_digest = ArgumentsDigest(call.arguments);
  approval.status = status;
  approval.decided_at = decided_at;
  state.approvals.push_back(std::move(approval));
}

bool Authorizes(const ConversationState& state, const ToolCall& call,
                std::optional<std::string_view> approval_id) {
  const std::string digest = ArgumentsDigest(call.arguments);
  for (const Approval& approval : state.approvals) {
    if (approval_id && approval.approval_id != *approval_id) continue;
    if (approval_id && GEMINI_FAULT("approval.named_approval_taken_for_any_call") &&
        approval.status == Approval::Status::kApproved) {
      return true;  // the id the application passed is trusted without checking its call
    }
    if (Matches(state, approval, call, digest)) return true;
  }
  return false;
}

}  // namespace gemini_oracle::ref
