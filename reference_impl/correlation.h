#pragma once
// ADR-226.6/7/9/10/11/12/13/14/15: validate carried state and derive, per tool result, the
// native ID to echo. Runs entirely before any contact.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "reference_impl/transcript.h"

namespace gemini_oracle::ref {

/// How one generic call of an owned turn is tied to its native functionCall part.
struct CallLink {
  std::size_t native_part = 0;           // index into the capsule's native_parts
  std::optional<std::string> native_id;  // the ID to echo; absent stays absent (ADR-226.4)
};

/// What correlation decided for one assistant turn.
struct TurnCorrelation {
  bool owned = false;                     // carries a valid Gemini capsule
  std::map<std::string, CallLink> links;  // public tool_call_id -> link (owned turns only)
};

/// ADR-226.B2: per part of one model content, whether it is a functionCall that a
/// functionResponse of the same content answers (server-side tools): by id when the response
/// carries one, else the first unanswered ID-less call with the response's name, in order.
/// Such a call is replayed as received and is not a pending tool call.
std::vector<bool> CallsAnsweredInContent(const Json& parts);

/// One entry per message (empty for non-assistant messages). Throws ProviderError.
std::vector<TurnCorrelation> Correlate(const Transcript& transcript);

}  // namespace gemini_oracle::ref
