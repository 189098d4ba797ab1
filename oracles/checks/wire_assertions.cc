// ADR-224.12 and the clauses the assertions name: the case's literal wire assertions,
// kind-exact. An assertion with `answering` is relative to the functionResponse that answers
// that call, identified as the results judge identifies it (answers.h), so the order of the
// answers of ID'd calls stays free.
#include "oracles/checks/answers.h"
#include "oracles/checks/judge_json.h"
#include "oracles/checks/judge.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {
namespace {

// Whether an assertion looks inside a functionResponse's `response`: that pins these ADRs' own
// encoding of a result (the root itself, numeric keys, a one-member wrapper), which the gemini
// profile leaves to the implementation (ADR-224: "current scalar/invalid result fallback").
// Whether `value` holds a functionResponse with a `response` (an assertion on an enclosing
// value: a whole part, content or contents list).
bool HoldsResponse(const Json& value) {
  if (value.is_object()) {
    const auto fr = value.find("functionResponse");
    if (fr != value.end() && fr->is_object() && fr->contains("response")) return true;
  }
  if (!value.is_object() && !value.is_array()) return false;
  for (const auto& item : value) {
    if (HoldsResponse(item)) return true;
  }
  return false;
}

bool PinsResultEncoding(const model::WireAssertion& assertion) {
  if (assertion.answering) {
    if (assertion.pointer.starts_with("/response")) return true;
    // The whole answering functionResponse, response included.
    return assertion.pointer.empty() && assertion.equals && assertion.equals->is_object() &&
           assertion.equals->contains("response");
  }
  if (assertion.pointer.find("/functionResponse/response") != std::string::npos) return true;
  if (assertion.pointer.ends_with("/functionResponse") && assertion.equals &&
      assertion.equals->is_object() && assertion.equals->contains("response")) {
    return true;
  }
  return assertion.equals && HoldsResponse(*assertion.equals);
}

}  // namespace

std::vector<Finding> JudgeWireAssertions(const CaseRun& run) {
  std::vector<Finding> findings;
  const auto& assertions = run.c.expect.wire;
  if (assertions.empty()) return findings;
  // An assertion without its own clause demonstrates the clause the case cites first.
  const std::string fallback = run.c.clauses.empty() ? "ADR-224.12" : run.c.clauses.front();
  std::vector<detail::DecodedRequest> storage;
  const auto& decoded = detail::DecodedJournal(run, storage);
  std::optional<std::vector<detail::ConversationTurn>> turns;
  for (std::size_t a = 0; a < assertions.size(); ++a) {
    const model::WireAssertion& assertion = assertions[a];
    const std::string clause = assertion.clause.empty() ? fallback : assertion.clause;
    const std::string label = "wire assertion " + std::to_string(a);
    if (run.profile == Profile::kGemini && PinsResultEncoding(assertion)) {
      // The results judge still checks that the value is preserved in whatever wrapper.
      findings.push_back(NotJudged(clause, label + " pins the adr encoding of a result inside "
                                               "functionResponse.response (profile gemini)"));
      continue;
    }
    const std::size_t request = assertion.request;
    const Json expected = assertion.equals ? *assertion.equals : Json("absent");
    if (request == 0 || request > decoded.size() || !decoded[request - 1].body) {
      findings.push_back(MakeFinding(
          clause, kWireViolation, request, assertion.pointer,
          label + ": request " + std::to_string(request) + " was not sent or did not decode",
          expected, "no request"));
      continue;
    }
    const Json& body = *decoded[request - 1].body;
    std::string pointer_text = assertion.pointer;
    if (assertion.answering) {
      if (!turns) turns = detail::ConversationTurns(run.c);
      const auto& [turn, call] = *assertion.answering;
      const Json* contents = detail::Contents(decoded[request - 1].body);
      std::optional<detail::TurnAnswers> answers;
      if (contents != nullptr && turn >= 1) {
        answers = detail::AnswersToTurn(*turns, turn - 1, detail::TurnsInRequest(run.c, request),
                                        *contents);
      }
      if (!answers || call >= answers->answer_of.size() || !answers->answer_of[call]) {
        findings.push_back(MakeFinding(clause, kWireViolation, request, assertion.pointer,
                                       label + ": no functionResponse of request " +
                                           std::to_string(request) + " answers call " +
                                           std::to_string(call) + " of model turn " +
                                           std::to_string(turn) + " (answering)",
                                       expected, "no answering functionResponse"));
        continue;
      }
      pointer_text = answers->responses[*answers->answer_of[call]].pointer + assertion.pointer;
    }
    const Json* value = nullptr;
    try {
      const Json::json_pointer pointer(pointer_text);
      if (body.contains(pointer)) value = &body.at(pointer);
    } catch (const Json::exception&) {
      value = nullptr;  // a pointer that cannot resolve resolves to nothing
    }
    if (assertion.absent) {
      if (value != nullptr) {
        findings.push_back(MakeFinding(clause, kWireViolation, request, pointer_text,
                                       label + ": the member is present", "absent", *value));
      }
      continue;
    }
    if (!assertion.equals) continue;
    if (value == nullptr) {
      findings.push_back(MakeFinding(clause, kWireViolation, request, pointer_text,
                                     label + ": the member is absent", *assertion.equals,
                                     "absent"));
    } else if (!SameJson(*value, *assertion.equals)) {
      findings.push_back(MakeFinding(clause, kWireViolation, request, pointer_text,
                                     label + ": the value differs (kind-exact)", *assertion.equals,
                                     *value));
    }
  }
  return findings;
}

}  // namespace gemini_oracle::checks
