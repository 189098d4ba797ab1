#include "oracles/runner/answered_check.h"

#include <algorithm>
#include <set>

#include "oracles/checks/wire_view.h"

namespace gemini_oracle::runner {
namespace {

// Whether a reported call stands for a functionCall part: same name, and arguments equal under
// the judges' own ADR-226.8 rule (a list args root as its numeric-key map), or drifted only in
// the ways ADR-224.F1 leaves open, which the judges find on their own.
bool Stands(const model::ParsedCall& call, const Json& part) {
  const Json* fc = checks::detail::Member(part, "functionCall");
  const Json* name = fc != nullptr ? checks::detail::Member(*fc, "name") : nullptr;
  if (name == nullptr || !name->is_string() || *name != call.name) return false;
  const Json* args = checks::detail::Member(*fc, "args");
  return checks::detail::StandsFor(args != nullptr ? *args : Json::object(), call.arguments);
}

// Whether reported call i stands for the i-th of `positions` for every i: only then does a
// position among the reported calls name a part.
bool InPartOrder(const std::vector<model::ParsedCall>& calls, const Json& parts,
                 const std::vector<std::size_t>& positions) {
  if (calls.size() != positions.size()) return false;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (!Stands(calls[i], parts[positions[i]])) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> CheckAnsweredCalls(const model::Case& c,
                                              const model::DriverReport& report) {
  for (std::size_t e = 0; e < report.exchanges.size() && e < c.exchanges.size(); ++e) {
    const auto& reported = report.exchanges[e];
    if (!reported.answered) continue;
    const std::string where = "exchange " + std::to_string(e + 1) + ": ";
    const auto& results = c.exchanges[e].then.results;
    // The selectors pick among the pending calls of the scripted answer (§5.4), which the
    // implementation reports as its calls in the same order.
    const Json parts = checks::detail::ScriptedParts(c.exchanges[e]);
    const std::vector<std::size_t> all = checks::detail::FunctionCallPositions(parts);
    const std::vector<std::size_t> pending = checks::detail::PendingCallPositions(parts);
    // Pairings are read by position only when the reported calls line up with the parts
    // (the pending calls, or one per functionCall part); an implementation that lost or added
    // a call is the judges' to find (ADR-224.11), not a reason to blame the driver's lookup.
    // A reordered parse (same count, calls in another order than the parts) is the judges' to
    // find too: positions among the reported calls then name no part.
    const bool lined_up = InPartOrder(reported.calls, parts, pending) ||
                          InPartOrder(reported.calls, parts, all);
    std::set<std::size_t> seen;
    for (const auto& answer : *reported.answered) {
      if (answer.result >= results.size()) {
        return where + "the driver answered result " + std::to_string(answer.result) +
               ", but the exchange lists " + std::to_string(results.size()) + " results";
      }
      if (!seen.insert(answer.result).second) {
        return where + "the driver handed result " + std::to_string(answer.result) + " back twice";
      }
      const auto call =
          std::find_if(reported.calls.begin(), reported.calls.end(),
                       [&](const model::ParsedCall& p) { return p.id == answer.call; });
      if (call == reported.calls.end()) {
        return where + "the driver answered result " + std::to_string(answer.result) +
               " with a call id the implementation did not report for this exchange";
      }
      if (!lined_up) continue;
      const std::size_t given = static_cast<std::size_t>(call - reported.calls.begin());
      const auto selected = checks::detail::ResolveSelector(results[answer.result].call, parts);
      if (!selected) continue;  // a selector the case cannot resolve is check's business
      // An implementation reports either the pending calls (§5.4) or one call per
      // functionCall part, the server-answered ones included (ADR-226.B2, judged apart).
      const bool one_per_part = reported.calls.size() == all.size() && all.size() != pending.size();
      const std::size_t part = all[*selected];
      const std::size_t meant =
          one_per_part ? *selected
                       : static_cast<std::size_t>(std::find(pending.begin(), pending.end(), part) -
                                                  pending.begin());
      // The call handed the result stands for the part the case selects (an identical call):
      // what reached the wire is the judges' to decide.
      if (given != meant && !Stands(*call, parts[part])) {
        return where + "the driver handed result " + std::to_string(answer.result) + " to call " +
               std::to_string(given) + " (parse order), but the case selects call " +
               std::to_string(meant) +
               " for it: the driver's lookup is wrong, so the run is not the case's";
      }
    }
  }
  return std::nullopt;
}

}  // namespace gemini_oracle::runner
