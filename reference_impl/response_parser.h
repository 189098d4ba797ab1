#pragma once
// Gemini response -> assistant turn (ADR-226.1, 226.2, 226.5).

#include "reference_impl/json.h"
#include "reference_impl/transcript.h"

namespace gemini_oracle::ref {

/// Parses candidates[0] of a GenerateContentResponse into an assistant message that owns a
/// Gemini capsule: native parts exactly as received, bindings for every populated native ID.
/// Public IDs (message and calls) are synthesized unique against `conversation`.
/// Throws ProviderError (response.*, native_id.*).
Message ParseResponse(const Json& response, const Transcript& conversation);

}  // namespace gemini_oracle::ref
