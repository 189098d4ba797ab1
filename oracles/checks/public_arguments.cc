// ADR-224.11: public tool-call arguments stay decoded maps equal to their native args under the
// ADR-226.8 rule, with the one F1/kind rule every judge applies:
// - numeric kind only (native 3 handed to tools as 3.0, 1.0 as 1, -0.0 as 0): no finding.
//   ADR-226: "This permits the inherited 1.0 to 1 and negative-zero to zero normalization";
// - a nested object handed over as a list ({} -> []): the open ADR-224.F1 ("The inherited
//   associative decoder also loses arbitrary nested object/list kinds ... That distinct audit
//   finding remains open");
// - a nested list handed over as an object: ADR-224.6 ("actual nested lists must remain lists");
// - any other difference: ADR-224.11.
// Public calls pair with the pending functionCall parts (ADR-226.B2: a call the server answered
// inside its content has no public call), in parse order.
#include <algorithm>
#include <utility>

#include "oracles/checks/judge.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {
namespace {

void JudgeOne(const std::string& label, const Json& expected, const Json& actual,
              std::vector<Finding>& findings) {
  // The arguments are not on the wire: findings name no request and no pointer.
  const auto worst = detail::WorstDrift(
      detail::Without(detail::Drifts(expected, actual, ""), detail::Drift::kNumericKind));
  if (!worst) return;
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

}  // namespace

std::vector<Finding> JudgePublicArguments(const CaseRun& run) {
  std::vector<Finding> findings;
  const std::vector<model::ParsedCall> none;
  for (std::size_t k = 0; k < run.c.exchanges.size(); ++k) {
    const Json scripted = detail::ScriptedParts(run.c.exchanges[k]);
    const auto positions = detail::PendingCallPositions(scripted);
    if (!detail::ResponseParsed(run, k)) continue;
    const auto& calls = k < run.report.exchanges.size() ? run.report.exchanges[k].calls : none;
    if (calls.size() > positions.size()) {
      // More public calls than pending functionCall parts: a call the server answered inside
      // its content made pending (ADR-226.B2), or a call the model never made (ADR-224.11).
      const bool server_answered =
          detail::FunctionCallPositions(scripted).size() > positions.size();
      findings.push_back(MakeFinding(
          server_answered ? "ADR-226.B2" : "ADR-224.11", kWireViolation, std::nullopt, "",
          "the implementation reports " + std::to_string(calls.size()) + " public calls for the " +
              std::to_string(positions.size()) + " pending functionCall parts of exchange " +
              std::to_string(k + 1),
          positions.size(), calls.size()));
    }
    if (positions.empty()) continue;
    if (calls.size() < positions.size()) {
      // A check that cannot run is reported, never passed (INTERPRETING §8.4).
      findings.push_back(NotJudged(
          "ADR-224.11", "the driver reported " + std::to_string(calls.size()) +
                            " public calls for the " + std::to_string(positions.size()) +
                            " pending functionCall parts of exchange " + std::to_string(k + 1) +
                            ": the arguments of the others are not judged"));
    }
    // Which reported call stands for which pending part: in order, or, when the implementation
    // reports one call per functionCall part (the server-answered ones too, ADR-226.B2 above),
    // each at its own part, so the B2 finding does not also misalign every later call.
    const auto all = detail::FunctionCallPositions(scripted);
    std::vector<std::pair<std::size_t, std::size_t>> pairs;  // (reported call, part position)
    if (calls.size() == all.size() && all.size() > positions.size()) {
      for (std::size_t j = 0; j < all.size(); ++j) {
        if (std::find(positions.begin(), positions.end(), all[j]) != positions.end()) {
          pairs.emplace_back(j, all[j]);
        }
      }
    } else {
      for (std::size_t i = 0; i < calls.size() && i < positions.size(); ++i) {
        pairs.emplace_back(i, positions[i]);
      }
    }
    for (const auto& [i, position] : pairs) {
      const std::string label = "the public arguments of call " + std::to_string(i) +
                                " of exchange " + std::to_string(k + 1);
      const Json* native = detail::Member(scripted[position]["functionCall"], "args");
      const Json& actual = calls[i].arguments;
      if (native != nullptr && native->is_array()) {
        // ADR-224: "Public ToolCall arguments remain arrays", and an associative decoder cannot
        // tell a list from its numeric-key map: either form is the native list, members
        // compared as usual.
        if (actual.is_array()) {
          JudgeOne(label, *native, actual, findings);
          continue;
        }
        const Json object = detail::NumericKeyObject(*native);
        if (!actual.is_object()) {
          findings.push_back(MakeFinding("ADR-224.11", kWireViolation, std::nullopt, "",
                                         label + " are not a decoded map", object, actual));
          continue;
        }
        JudgeOne(label, object, actual, findings);
        continue;
      }
      if (native != nullptr && !native->is_object()) {
        // A scalar args root has no defined public form (ADR-224 defines object and list
        // roots only): nothing to compare against.
        findings.push_back(NotJudged("ADR-224.11", label + " stand for a native args root that is "
                                                           "neither an object nor a list, which "
                                                           "has no defined public form"));
        continue;
      }
      const Json expected = native != nullptr ? *native : Json::object();
      if (!actual.is_object()) {
        findings.push_back(MakeFinding("ADR-224.11", kWireViolation, std::nullopt, "",
                                       label + " are not a decoded map", "object", actual));
        continue;
      }
      JudgeOne(label, expected, actual, findings);
    }
  }
  return findings;
}

}  // namespace gemini_oracle::checks
