#include "oracles/runner/call_matching.h"

#include <algorithm>
#include <set>
#include <variant>

#include "oracles/checks/wire_view.h"

namespace gemini_oracle::runner {
namespace {

bool PicksOne(const model::CallSelector& selector, const std::vector<model::ParsedCall>& calls) {
  if (const auto* index = std::get_if<std::size_t>(&selector)) return *index < calls.size();
  const model::NamedCall& named = std::get<model::NamedCall>(selector);
  const auto count = std::count_if(calls.begin(), calls.end(), [&](const model::ParsedCall& c) {
    return c.name == named.name &&
           (!named.args || checks::detail::ArgumentsEqual(*named.args, c.arguments));
  });
  return count == 1;
}

bool OrderFits(const model::CallOrder& order, std::size_t count) {
  if (order.reverse) return true;
  const std::set<std::size_t> distinct(order.indices.begin(), order.indices.end());
  return order.indices.size() == count && distinct.size() == count &&
         (count == 0 || *distinct.rbegin() < count);
}

}  // namespace

std::vector<model::ParsedCall> CallsInPartOrder(const model::Exchange& exchange,
                                                const std::vector<model::ParsedCall>& calls) {
  const Json parts = checks::detail::ScriptedParts(exchange);
  const auto pending = checks::detail::PendingCallPositions(parts);
  if (calls.size() != pending.size()) return calls;
  const auto match = checks::detail::MatchReportedCalls(parts, pending, calls);
  std::vector<model::ParsedCall> ordered(calls.size());
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (match[i] == pending.size()) return calls;
    ordered[match[i]] = calls[i];
  }
  return ordered;
}

bool SelectorsFit(const model::Exchange& exchange, const std::vector<model::ParsedCall>& calls) {
  const auto ordered = CallsInPartOrder(exchange, calls);
  const model::Actions& then = exchange.then;
  if (then.call_order && !OrderFits(*then.call_order, ordered.size())) return false;
  for (const auto& approval : then.approvals) {
    if (!PicksOne(approval.call, ordered)) return false;
  }
  return std::all_of(then.results.begin(), then.results.end(),
                     [&](const model::Result& r) { return PicksOne(r.call, ordered); });
}

}  // namespace gemini_oracle::runner
