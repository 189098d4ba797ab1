#pragma once
// Calls answered inside their own model content (server-side tools, ADR-226.B2): the judges and
// the case checker share one reading of which functionCall parts are pending.

#include <cstddef>
#include <vector>

#include "reference_impl/json.h"

namespace gemini_oracle::model {

/// Per element of a model content's `parts`: true for a functionCall part that a
/// functionResponse part of the same content answers. A response with a nonempty string `id`
/// answers the unanswered call with that id; any other response answers the first unanswered
/// call without an `id` member whose name equals the response's name, in order. A response
/// without an id never answers a call that has one (INTERPRETING §4).
std::vector<bool> CallsAnsweredInside(const Json& parts);

/// Positions (into `parts`) of the functionCall parts not answered inside the content, in
/// parse order: the pending calls, one public call each.
std::vector<std::size_t> PendingCallPositions(const Json& parts);

}  // namespace gemini_oracle::model
