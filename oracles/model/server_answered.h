#pragma once
// Calls answered inside their own model content (server-side tools, ADR-226.B2): the judges and
// the case checker share one reading of which functionCall parts are pending.

#include <cstddef>
#include <vector>

#include "oracles/model/call_pieces.h"
#include "reference_impl/json.h"

namespace gemini_oracle::model {

/// Per element of a model content's `parts`: true for the opening part of a call (a call in
/// pieces is one call, model::GroupCalls) that a functionResponse part of the same content
/// answers. A response with a nonempty string `id`
/// answers the unanswered call with that id; any other response answers the first unanswered
/// call without an `id` member whose name equals the response's name, in order. A response
/// without an id never answers a call that has one (INTERPRETING §4).
std::vector<bool> CallsAnsweredInside(const Json& parts);
/// The same for a turn already read (`turn` is GroupCalls(parts)): no second reading.
std::vector<bool> CallsAnsweredInside(const Json& parts, const TurnCalls& turn);

/// Positions (into `parts`) of the opening parts of the calls not answered inside the content,
/// in parse order: the pending calls, one public call each (a call in pieces counts once).
std::vector<std::size_t> PendingCallPositions(const Json& parts);
/// The same for a turn already read (`turn` is GroupCalls(parts)).
std::vector<std::size_t> PendingCallPositions(const Json& parts, const TurnCalls& turn);

}  // namespace gemini_oracle::model
