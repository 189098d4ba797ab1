#pragma once
// Transcript -> generateContent request body (ADR-224 and ADR-226 on the wire).

#include <optional>
#include <string>

#include "reference_impl/json.h"
#include "reference_impl/transcript.h"

namespace gemini_oracle::ref {

struct RequestOptions {
  std::string model = "gemini-2.5-flash";
  Json tools = Json::array();            // Gemini `tools`, sent as given
  Json tool_config = nullptr;            // Gemini `toolConfig`, sent as given; null: omitted
  std::optional<std::string> tool_mode;  // functionCallingConfig.mode, set on top; "NONE" closes
  std::optional<std::string> system_instruction;
  Json generation_config = nullptr;  // null: omitted
  /// The request goes to :streamGenerateContent. The same request either way (ADR-224.7,
  /// ADR-226.17: "Use the same association on closing and streaming requests").
  bool streaming = false;
};

/// Builds the wire copy; never modifies `transcript` (ADR-224.9). Validates everything first
/// (Correlate) and throws ProviderError before anything could be sent.
Json BuildRequest(const Transcript& transcript, const RequestOptions& options);

/// ADR-224.1/2/4/5: the object root for a tool result's content.
/// JSON object -> itself; JSON list -> {"0":..,"1":..}; JSON scalar -> {"output": value};
/// non-JSON text, JSON with a repeated member name, a number beyond a double, an integer
/// literal no int64, uint64 or double holds exactly, or nesting deeper than kMaxJsonDepth ->
/// {"output": text};
/// an error -> {"error": text}.
Json ResultToResponseObject(const std::string& content, bool is_error);

/// ADR-224.1: an args root as an object: an object stays itself, a list becomes numeric keys
/// "0","1",… (an empty list {}), null becomes {}. nullopt for a scalar, which no call can carry.
std::optional<Json> ArgumentsRoot(const Json& arguments);

/// ADR-224.4: a list as an object keyed by its indices; nested values are untouched (224.6).
Json ListAsNumericKeyObject(const Json& list);

}  // namespace gemini_oracle::ref
