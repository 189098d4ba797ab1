// ADR-224.11: public tool-call arguments stay decoded maps equal to their native args under the
// ADR-226.8 rule, with the one F1/kind rule every judge applies:
// - numeric kind only (native 3 handed to tools as 3.0, 1.0 as 1, -0.0 as 0): no finding.
//   ADR-226: "This permits the inherited 1.0 to 1 and negative-zero to zero normalization";
// - a nested object handed over as a list ({} -> []): the open ADR-224.F1 ("The inherited
//   associative decoder also loses arbitrary nested object/list kinds ... That distinct audit
//   finding remains open");
// - a nested list handed over as an object: ADR-224.6 ("actual nested lists must remain lists");
// - any other difference: ADR-224.11.
#include "oracles/checks/judge.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {

std::vector<Finding> JudgePublicArguments(const CaseRun& run) {
  std::vector<Finding> findings;
  for (std::size_t k = 0; k < run.report.exchanges.size() && k < run.c.exchanges.size(); ++k) {
    const auto& calls = run.report.exchanges[k].calls;
    const Json scripted = detail::ScriptedParts(run.c.exchanges[k]);
    const auto positions = detail::FunctionCallPositions(scripted);
    for (std::size_t i = 0; i < calls.size() && i < positions.size(); ++i) {
      const std::string label = "the public arguments of call " + std::to_string(i) +
                                " of exchange " + std::to_string(k + 1);
      const Json* native = detail::Member(scripted[positions[i]]["functionCall"], "args");
      const Json expected = native != nullptr ? *native : Json::object();
      const Json& actual = calls[i].arguments;
      if (!actual.is_object()) {
        findings.push_back(MakeFinding("ADR-224.11", kWireViolation, std::nullopt, "",
                                       label + " are not a decoded map", "object", actual));
        continue;
      }
      // The arguments are not on the wire: findings name no request and no pointer.
      const auto worst = detail::WorstDrift(
          detail::Without(detail::Drifts(expected, actual, ""), detail::Drift::kNumericKind));
      if (!worst) continue;
      switch (worst->drift) {
        case detail::Drift::kOther:
          findings.push_back(MakeFinding("ADR-224.11", kWireViolation, std::nullopt, "",
                                         label + " differ from the native args (ADR-226.8 rule)",
                                         expected, actual));
          break;
        case detail::Drift::kListBecameObject:
          findings.push_back(MakeFinding("ADR-224.6", kWireViolation, std::nullopt, "",
                                         label + " turn a nested list into an object", expected,
                                         actual));
          break;
        case detail::Drift::kObjectBecameList:
        case detail::Drift::kNumericKind:  // removed above; listed for completeness
          findings.push_back(MakeFinding("ADR-224.F1", kWireViolation, std::nullopt, "",
                                         label + " turn a nested object into a list", expected,
                                         actual));
          break;
      }
    }
  }
  return findings;
}

}  // namespace gemini_oracle::checks
