// ADR-224.12 and the clauses the assertions name: the case's literal wire assertions,
// kind-exact. An assertion with `answering` is relative to the functionResponse that answers
// that call, identified as the results judge identifies it (answers.h), so the order of the
// answers of ID'd calls stays free. An assertion on a member outside `contents`, which no ADR
// governs, cites REF.B1 (INTERPRETING §7.1). A pointer addresses the joined view of a turn sent
// as several contents (§8.5), or with `view: "sent"` the request as sent (ADR-224: "Tests inspect
// actual serialized requests ... and literal positive controls").
#include "oracles/checks/answers.h"
#include "oracles/checks/judge.h"
#include "oracles/checks/judge_json.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {

bool AddressesContents(std::string_view pointer) {
  return pointer == "/contents" || pointer.starts_with("/contents/");
}

bool PinsUngovernedMembers(const model::WireAssertion& assertion) {
  if (assertion.answering || AddressesContents(assertion.pointer)) return false;
  if (!assertion.pointer.empty() || !assertion.equals || !assertion.equals->is_object()) {
    return true;
  }
  // A whole body: only its members beside `contents` are the framework's rendering.
  for (auto it = assertion.equals->begin(); it != assertion.equals->end(); ++it) {
    if (it.key() != "contents") return true;
  }
  return false;
}

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

// The value at `pointer_text` of `body` against what the assertion asks (equals or absent).
void Compare(const Json& body, const std::string& pointer_text,
             const model::WireAssertion& assertion, const Json* equals, std::size_t request,
             const std::string& clause, const std::string& label, std::vector<Finding>& findings) {
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
    return;
  }
  if (equals == nullptr) return;
  if (value == nullptr) {
    findings.push_back(MakeFinding(clause, kWireViolation, request, pointer_text,
                                   label + ": the member is absent", *equals, "absent"));
  } else if (!SameJson(*value, *equals)) {
    findings.push_back(MakeFinding(clause, kWireViolation, request, pointer_text,
                                   label + ": the value differs (kind-exact)", *equals, *value));
  }
}

// A whole body (pointer "") pins governed and ungoverned members at once: its `contents` is
// judged under the assertion's own clause (and profile), the members beside it under REF.B1.
void JudgeWholeBody(const CaseRun& run, const Json& body, const model::WireAssertion& assertion,
                    const std::string& clause, const std::string& label,
                    std::vector<Finding>& findings) {
  const Json& equals = *assertion.equals;
  if (const Json* contents = detail::Member(equals, "contents")) {
    if (run.profile == Profile::kGemini && HoldsResponse(*contents)) {
      findings.push_back(NotJudged(clause, label +
                                               " (its contents) pins the adr encoding of a "
                                               "result inside functionResponse.response (profile "
                                               "gemini)"));
    } else {
      Compare(body, "/contents", assertion, contents, assertion.request, clause,
              label + " (its contents)", findings);
    }
  }
  Json sent = body.is_object() ? body : Json::object();
  Json asked = equals;
  sent.erase("contents");
  asked.erase("contents");
  if (!SameJson(sent, asked)) {
    findings.push_back(
        MakeFinding(std::string(kRecordingFidelity), kWireViolation, assertion.request, "",
                    label + ": the members beside contents differ (kind-exact)", asked, sent));
  }
}

// The pointer an assertion resolves to in its request: its own, or, with `answering`, the
// answering functionResponse's followed by its own; nullopt when no answer resolves.
std::optional<std::string> ResolvedPointer(
    const CaseRun& run, const model::WireAssertion& assertion, const detail::DecodedRequest& sent,
    std::optional<std::vector<detail::ConversationTurn>>& turns) {
  if (!assertion.answering) return assertion.pointer;
  if (!turns) turns = detail::ConversationTurns(run.c);
  const auto& [turn, call] = *assertion.answering;
  const Json* contents = detail::Contents(sent.body);
  std::optional<detail::TurnAnswers> answers;
  if (contents != nullptr && turn >= 1) {
    answers = detail::AnswersToTurn(*turns, turn - 1,
                                    detail::TurnsInRequest(run.c, assertion.request), *contents);
  }
  if (!answers || call >= answers->answer_of.size() || !answers->answer_of[call]) {
    return std::nullopt;
  }
  return answers->responses[*answers->answer_of[call]].pointer + assertion.pointer;
}

// An `answering` assertion whose call no functionResponse of its request answers.
void NoAnswer(const model::WireAssertion& assertion, const std::string& clause,
              const std::string& label, const Json& expected, std::vector<Finding>& findings) {
  const auto& [turn, call] = *assertion.answering;
  findings.push_back(MakeFinding(
      clause, kWireViolation, assertion.request, assertion.pointer,
      label + ": no functionResponse of request " + std::to_string(assertion.request) +
          " answers call " + std::to_string(call) + " of model turn " + std::to_string(turn) +
          " (answering)",
      expected, "no answering functionResponse"));
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
    const bool whole = !assertion.answering && assertion.pointer.empty() && assertion.equals &&
                       assertion.equals->is_object();
    const std::string written = assertion.clause.empty() ? fallback : assertion.clause;
    // A member the ADRs do not govern shows the reference's fidelity to the case's options,
    // whatever clause the case wrote (INTERPRETING §7.1).
    const std::string clause =
        !whole && PinsUngovernedMembers(assertion) ? std::string(kRecordingFidelity) : written;
    const std::string label = "wire assertion " + std::to_string(a);
    if (!whole && run.profile == Profile::kGemini && PinsResultEncoding(assertion)) {
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
    std::optional<Json> as_sent;
    if (assertion.as_sent) {
      // A .streamed twin delivers the answers in other events than the case scripts, so the
      // contents as sent are not those the pointer was written for.
      if (run.c.twin && run.c.twin->kind == model::TwinKind::kEveryAnswer) {
        findings.push_back(NotJudged(clause, label + " addresses the request as sent, and the "
                                                     "twin streams the answers otherwise"));
        continue;
      }
      as_sent = DecodeJudgeJson(run.journal[request - 1].body).value;
    }
    const Json& body = as_sent ? *as_sent : *decoded[request - 1].body;
    const std::size_t first = findings.size();
    if (whole) {
      JudgeWholeBody(run, body, assertion, clause, label, findings);
    } else if (const auto pointer = ResolvedPointer(run, assertion, decoded[request - 1], turns)) {
      Compare(body, *pointer, assertion, assertion.equals ? &*assertion.equals : nullptr, request,
              clause, label, findings);
    } else {
      NoAnswer(assertion, clause, label, expected, findings);
    }
    // `view: "sent"`: the pointer already addresses the request as sent (§8.5).
    for (std::size_t f = first; f < findings.size(); ++f) {
      findings[f].pointer_as_sent = assertion.as_sent;
    }
  }
  return findings;
}

}  // namespace gemini_oracle::checks
