// ADR-224.11: public tool-call arguments stay decoded maps equal to their native args under the
// ADR-226.8 rule, with the one F1/kind rule every judge applies:
// - a float handed over as the integer of the same value (1.0 as 1, -0.0 as 0): no finding.
//   ADR-226: "This permits the inherited 1.0 to 1 and negative-zero to zero normalization";
// - an integer handed over as a float (3 as 3.0): the open ADR-224.F1. ADR-226 permits only
//   the inherited normalization above and asks to compare "without inventing lost JSON kinds";
//   ADR-224: "arbitrary nested values retain their current decoded representation", and "This
//   decision does not close nested JSON-kind preservation";
// - a nested object handed over as a list ({} -> []): the open ADR-224.F1 ("The inherited
//   associative decoder also loses arbitrary nested object/list kinds ... That distinct audit
//   finding remains open");
// - a nested list handed over as an object: ADR-224.6 ("actual nested lists must remain lists");
// - any other difference: ADR-224.11.
// A call whose arguments arrive in pieces is one call with its assembled arguments (§5.6).
// A turn whose pieces break the grammar has no calls: its public calls are not judged
// (ADR-226.B1, as the results judge). Public calls pair with the pending calls (ADR-226.B2: a
// call the server answered inside its content has no public call), each with the part it is
// by name and arguments, the rest in order; a public call under another name than its part's
// is ADR-224.11; fewer public calls than pending parts is the parse's failure (the calls lost
// or merged), never a check left undone.
#include <algorithm>
#include <utility>

#include "oracles/checks/judge.h"
#include "oracles/checks/wire_view.h"
#include "oracles/model/call_pieces.h"

namespace gemini_oracle::checks {
namespace {


// Whether an integer of `expected` became a float in `actual` somewhere (3 -> 3.0), reading
// both as the drift reader does: same-kind containers member by member, a list and its
// numeric-key object element by element.
bool IntegerBecameFloat(const Json& expected, const Json& actual) {
  if (expected.is_number_integer() || expected.is_number_unsigned()) {
    return actual.is_number_float();
  }
  if (expected.is_object() && actual.is_object()) {
    for (auto it = expected.begin(); it != expected.end(); ++it) {
      const auto other = actual.find(it.key());
      if (other != actual.end() && IntegerBecameFloat(it.value(), *other)) return true;
    }
    return false;
  }
  if ((expected.is_array() || expected.is_object()) &&
      (actual.is_array() || actual.is_object()) && expected.size() == actual.size()) {
    auto a = actual.begin();
    for (auto e = expected.begin(); e != expected.end(); ++e, ++a) {
      if (IntegerBecameFloat(*e, *a)) return true;
    }
  }
  return false;
}

void JudgeOne(const std::string& label, const Json& expected, const Json& actual,
              std::vector<Finding>& findings) {
  // The arguments are not on the wire: findings name no request and no pointer.
  const auto drifts = detail::Drifts(expected, actual, "");
  const auto worst =
      detail::WorstDrift(detail::Without(drifts, detail::Drift::kNumericKind));
  if (!worst) {
    const bool kind_only = std::any_of(drifts.begin(), drifts.end(), [](const detail::DriftAt& d) {
      return d.drift == detail::Drift::kNumericKind;
    });
    if (kind_only && IntegerBecameFloat(expected, actual)) {
      findings.push_back(MakeFinding("ADR-224.F1", kWireViolation, std::nullopt, "",
                                     label + " turn an integer into a float", expected, actual));
    }
    return;
  }
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

const Json* NameOf(const Json& part) { return detail::Member(part["functionCall"], "name"); }

// The native args a public call stands for: {} when absent, a list as its numeric-key map.
Json NativeArgs(const Json& part) {
  const Json* native = detail::Member(part["functionCall"], "args");
  if (native == nullptr) return Json::object();
  return native->is_array() ? detail::NumericKeyObject(*native) : *native;
}

bool SameCall(const Json& a, const Json& b) {
  const Json* name = NameOf(a);
  const Json* other = NameOf(b);
  return name != nullptr && other != nullptr && *name == *other &&
         detail::ArgumentsEqual(NativeArgs(a), NativeArgs(b));
}

// The part (index into `positions`) each reported call stands for: the part it is
// (MatchReportedCalls: name, and arguments equal or drifted only as ADR-224.F1 leaves open),
// else, for the calls that are no part's, the first part left, in order; positions.size() for
// a call left over. ADR-226 expects the generic list to be reordered ("even when their generic
// list is reordered"), so a call is judged against the part it is, wherever it is listed.
std::vector<std::size_t> MatchCalls(const Json& scripted, const std::vector<std::size_t>& positions,
                                    const std::vector<model::ParsedCall>& calls) {
  std::vector<std::size_t> match = detail::MatchReportedCalls(scripted, positions, calls);
  std::vector<bool> taken(positions.size(), false);
  for (const std::size_t j : match) {
    if (j < positions.size()) taken[j] = true;
  }
  std::size_t next = 0;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (match[i] != positions.size()) continue;
    while (next < positions.size() && taken[next]) ++next;
    if (next == positions.size()) break;
    taken[next] = true;
    match[i] = next;
  }
  return match;
}

// Fewer public calls than pending functionCall parts: the parse lost or merged calls, a
// failure under the clause the lost part breaks. A part no call stands for that equals one a
// call does was merged with it (ADR-226.20: "Fresh same-name/same-argument parallel calls can
// be answered unambiguously"), one with a native id lost its binding (ADR-226.2: "capture their
// association with populated native IDs at the actual parser"), any other is a native call
// without its public call (ADR-224.11: one public ToolCall per pending call).
Finding MissingCalls(const Json& scripted, const std::vector<std::size_t>& positions,
                     const std::vector<model::ParsedCall>& calls, std::size_t k) {
  const auto match = MatchCalls(scripted, positions, calls);
  std::vector<bool> taken(positions.size(), false);
  for (const std::size_t j : match) {
    if (j < positions.size()) taken[j] = true;
  }
  std::string clause = "ADR-224.11";
  for (std::size_t j = 0; j < positions.size(); ++j) {
    if (taken[j]) continue;
    const Json& part = scripted[positions[j]];
    for (std::size_t i = 0; i < positions.size(); ++i) {
      if (taken[i] && SameCall(scripted[positions[i]], part)) clause = "ADR-226.20";
    }
    if (clause == "ADR-224.11" && detail::Member(part["functionCall"], "id") != nullptr) {
      clause = "ADR-226.2";
    }
  }
  return MakeFinding(clause, kWireViolation, std::nullopt, "",
                     "the implementation reports " + std::to_string(calls.size()) +
                         " public calls for the " + std::to_string(positions.size()) +
                         " pending functionCall parts of exchange " + std::to_string(k + 1) +
                         (clause == "ADR-226.20" ? ": identical calls taken as one" : ""),
                     positions.size(), calls.size());
}

// Which reported call stands for which pending part: each call at the part it is (MatchCalls),
// among the pending parts, or among every functionCall part when the implementation reports
// one call per part, the server-answered ones too (ADR-226.B2, found apart), so that finding
// does not also misalign every later call. One lost, added or moved call never misaligns the
// others.
std::vector<std::pair<std::size_t, std::size_t>> PairCalls(
    const Json& scripted, const std::vector<std::size_t>& positions,
    const std::vector<model::ParsedCall>& calls) {
  const auto all = detail::FunctionCallPositions(scripted);
  const bool every_part = calls.size() == all.size() && all.size() > positions.size();
  const std::vector<std::size_t>& parts = every_part ? all : positions;
  const auto match = MatchCalls(scripted, parts, calls);
  std::vector<std::pair<std::size_t, std::size_t>> pairs;  // (reported call, part position)
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (match[i] >= parts.size()) continue;
    const std::size_t position = parts[match[i]];
    if (std::find(positions.begin(), positions.end(), position) == positions.end()) continue;
    pairs.emplace_back(i, position);
  }
  return pairs;
}

// One reported call against the native args of the part it stands for.
void JudgeCall(const std::string& label, const Json* native, const Json& actual,
               std::vector<Finding>& findings) {
  if (native != nullptr && native->is_array()) {
    // ADR-224: "Public ToolCall arguments remain arrays", and an associative decoder cannot
    // tell a list from its numeric-key map: either form is the native list, members
    // compared as usual.
    if (actual.is_array()) {
      JudgeOne(label, *native, actual, findings);
      return;
    }
    const Json object = detail::NumericKeyObject(*native);
    if (!actual.is_object()) {
      findings.push_back(MakeFinding("ADR-224.11", kWireViolation, std::nullopt, "",
                                     label + " are not a decoded map", object, actual));
      return;
    }
    JudgeOne(label, object, actual, findings);
    return;
  }
  if (native != nullptr && !native->is_object()) {
    // A scalar args root has no defined public form (ADR-224 defines object and list
    // roots only): nothing to compare against.
    findings.push_back(NotJudged("ADR-224.11", label + " stand for a native args root that is "
                                                       "neither an object nor a list, which "
                                                       "has no defined public form"));
    return;
  }
  const Json expected = native != nullptr ? *native : Json::object();
  if (!actual.is_object()) {
    findings.push_back(MakeFinding("ADR-224.11", kWireViolation, std::nullopt, "",
                                   label + " are not a decoded map", "object", actual));
    return;
  }
  JudgeOne(label, expected, actual, findings);
}

void JudgeExchange(const CaseRun& run, std::size_t k, std::vector<Finding>& findings) {
  static const std::vector<model::ParsedCall> none;
  if (!detail::ResponseParsed(run, k)) return;
  const Json parts = detail::ScriptedParts(run.c.exchanges[k]);
  if (const auto broken = model::GroupCalls(parts).malformed) {
    // INTERPRETING §5.6 defines a turn's calls only where its pieces keep the grammar; a turn
    // that breaks it (the parse must refuse it, the reference's refusals cited as ADR-226.B1)
    // has no calls, so no public call is judged against them: not judged, at ADR-226.B1 (§5.6
    // "Levels"), as the results judge notes such a turn's answers.
    findings.push_back(NotJudged(
        "ADR-226.B1", "the public calls of exchange " + std::to_string(k + 1) +
                          ": its function call pieces break the grammar of INTERPRETING §5.6 (" +
                          *broken + "), so its calls are not defined"));
    return;
  }
  // Each call as one whole part at its opening position (INTERPRETING §5.6): a call in pieces
  // is one public call whose arguments are the assembled ones.
  const Json scripted = model::WholeCallParts(parts);
  const auto positions = detail::PendingCallPositions(scripted);
  const auto& calls = k < run.report.exchanges.size() ? run.report.exchanges[k].calls : none;
  if (calls.size() > positions.size()) {
    // More public calls than pending functionCall parts: a call the server answered inside
    // its content made pending (ADR-226.B2), or a call the model never made (ADR-224.11).
    const bool server_answered = detail::FunctionCallPositions(scripted).size() > positions.size();
    findings.push_back(MakeFinding(
        server_answered ? "ADR-226.B2" : "ADR-224.11", kWireViolation, std::nullopt, "",
        "the implementation reports " + std::to_string(calls.size()) + " public calls for the " +
            std::to_string(positions.size()) + " pending functionCall parts of exchange " +
            std::to_string(k + 1),
        positions.size(), calls.size()));
  }
  if (positions.empty()) return;
  if (calls.size() < positions.size()) {
    findings.push_back(MissingCalls(scripted, positions, calls, k));
  }
  for (const auto& [i, position] : PairCalls(scripted, positions, calls)) {
    const Json* name = NameOf(scripted[position]);
    if (name != nullptr && *name != calls[i].name) {
      // The public call of a native call carries its name: a call under another name is not
      // that call (ADR-224.11: one public ToolCall per pending call, its map intact).
      findings.push_back(MakeFinding("ADR-224.11", kWireViolation, std::nullopt, "",
                                     "the public name of call " + std::to_string(i) +
                                         " of exchange " + std::to_string(k + 1) +
                                         " differs from its functionCall part's name",
                                     *name, calls[i].name));
    }
    const std::string label = "the public arguments of call " + std::to_string(i) +
                              " of exchange " + std::to_string(k + 1);
    JudgeCall(label, detail::Member(scripted[position]["functionCall"], "args"),
              calls[i].arguments, findings);
  }
}

}  // namespace

std::vector<Finding> JudgePublicArguments(const CaseRun& run) {
  std::vector<Finding> findings;
  for (std::size_t k = 0; k < run.c.exchanges.size(); ++k) JudgeExchange(run, k, findings);
  return findings;
}

}  // namespace gemini_oracle::checks
