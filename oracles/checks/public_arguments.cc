// ADR-224.11: public tool-call arguments stay decoded maps equal to their native args under the
// ADR-226.8 rule. A difference only in numeric kind (native 3 handed to tools as 3.0, 1.0 as 1)
// is equal under that rule but is a nested kind lost in decoding: reported under the open
// ADR-224.F1, as the replay judge does for the wire.
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
      } else if (!detail::ArgumentsEqual(expected, actual)) {
        findings.push_back(MakeFinding("ADR-224.11", kWireViolation, std::nullopt, "",
                                       label + " differ from the native args (ADR-226.8 rule)",
                                       expected, actual));
      } else if (!KindExactEqual(expected, actual)) {
        // Equal under ADR-226.8 but not kind-exact: only numeric kinds differ (ADR-224.F1).
        findings.push_back(MakeFinding("ADR-224.F1", kWireViolation, std::nullopt, "",
                                       label + " change the numeric kind of a native value",
                                       expected, actual));
      }
    }
  }
  return findings;
}

}  // namespace gemini_oracle::checks
