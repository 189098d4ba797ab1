#pragma once
// The calls an implementation reported for an answer, read as the case's selectors read them
// (INTERPRETING §5, §5.4): each reported call is the pending functionCall part it stands for,
// wherever the implementation lists it (ADR-226 expects "their generic list is reordered").

#include <vector>

#include "oracles/model/case.h"
#include "oracles/model/driver_report.h"

namespace gemini_oracle::runner {

/// `calls` in the order of the pending parts of `exchange`'s scripted answer they are
/// (checks::detail::MatchReportedCalls), when each is one part and each part has one; else
/// `calls` as reported.
std::vector<model::ParsedCall> CallsInPartOrder(const model::Exchange& exchange,
                                                const std::vector<model::ParsedCall>& calls);

/// Whether every selector and call order of `exchange`'s `then` (results, approvals,
/// call_order) picks exactly one of `calls` taken in part order, under the ADR-226.8 rule: when
/// they do, nothing in the calls can have stopped the application (§5.4).
bool SelectorsFit(const model::Exchange& exchange, const std::vector<model::ParsedCall>& calls);

}  // namespace gemini_oracle::runner
