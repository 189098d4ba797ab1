#include "oracles/runner/answered_check.h"

#include <algorithm>
#include <set>

#include "oracles/checks/wire_view.h"

namespace gemini_oracle::runner {

std::optional<std::string> CheckAnsweredCalls(const model::Case& c,
                                              const model::DriverReport& report) {
  for (std::size_t e = 0; e < report.exchanges.size() && e < c.exchanges.size(); ++e) {
    const auto& reported = report.exchanges[e];
    if (!reported.answered) continue;
    const std::string where = "exchange " + std::to_string(e + 1) + ": ";
    const auto& results = c.exchanges[e].then.results;
    // The selectors pick among the pending calls of the scripted answer (§5.4); each reported
    // call is the part it stands for (name and arguments, the judges' own rule), wherever the
    // implementation lists it: ADR-226 expects "their generic list is reordered". An
    // implementation reports either the pending calls or one call per functionCall part, the
    // server-answered ones included (ADR-226.B2, judged apart).
    const Json parts = checks::detail::ScriptedParts(c.exchanges[e]);
    // The turn read once for every answer (INTERPRETING §5.6: calls, not pieces).
    const checks::detail::CallsView view = checks::detail::ReadCalls(parts);
    const std::vector<std::size_t>& all = view.all;
    const std::vector<std::size_t>& pending = view.pending;
    const bool one_per_part =
        reported.calls.size() == all.size() && all.size() != pending.size();
    const std::vector<std::size_t>& candidates = one_per_part ? all : pending;
    const std::vector<std::size_t> match =
        checks::detail::MatchReportedCalls(parts, candidates, reported.calls);
    // Pairings are checked only when every reported call is one part and every part has one:
    // an implementation that lost, added or altered a call is the judges' to find
    // (ADR-224.11), not a reason to blame the driver's lookup.
    const bool lined_up =
        reported.calls.size() == candidates.size() &&
        std::none_of(match.begin(), match.end(),
                     [&](std::size_t j) { return j == candidates.size(); });
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
      const auto selected = checks::detail::ResolveSelector(results[answer.result].call, view);
      if (!selected) continue;  // a selector the case cannot resolve is check's business
      const std::size_t part = all[*selected];
      const std::size_t meant = static_cast<std::size_t>(
          std::find_if(match.begin(), match.end(),
                       [&](std::size_t j) { return candidates[j] == part; }) -
          match.begin());
      // A call handed over like the selected one (same name, arguments equal under ADR-226.8:
      // an identical call) may take its result: what reached the wire is the judges' to decide.
      if (meant >= reported.calls.size()) continue;  // lined up: every part has its call
      const model::ParsedCall& selected_call = reported.calls[meant];
      const bool identical =
          call->name == selected_call.name &&
          checks::detail::ArgumentsEqual(call->arguments, selected_call.arguments);
      if (given != meant && !identical) {
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
