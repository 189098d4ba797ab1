#pragma once
// Gemini response -> assistant turn (ADR-226.1, 226.2, 226.5, 226.B2).

#include <cstdint>

#include "reference_impl/json.h"
#include "reference_impl/transcript.h"

namespace gemini_oracle::ref {

/// Parses candidates[0] of a GenerateContentResponse into an assistant message that owns a
/// Gemini capsule: native parts exactly as received, bindings for every populated native ID.
/// Public IDs (message and calls) are synthesized unique against `conversation`.
/// A functionCall answered by a functionResponse of the same content (server-side tools,
/// ADR-226.B2) stays in the native parts only: no ToolCall, no binding.
/// A call whose arguments arrive in pieces (`willContinue`, `partialArgs`: INTERPRETING §5.6)
/// is one public call with the assembled arguments and one binding; its pieces stay in the
/// native parts, each as received, for replay.
/// Throws ProviderError (response.*, native_id.*); response.function_call_malformed also for
/// args holding an integer literal marked by ParseJsonMarkingInexactIntegers.
Message ParseResponse(const Json& response, const Transcript& conversation);
/// The same, numbering new public call ids after max(the transcript's calls,
/// `public_ids_issued`): a stored conversation's counter keeps ids conversation-unique after
/// its transcript was trimmed (ADR-226.1, 226.18).
Message ParseResponse(const Json& response, const Transcript& conversation,
                      std::uint64_t public_ids_issued);

}  // namespace gemini_oracle::ref
