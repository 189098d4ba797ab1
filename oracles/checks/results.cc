// ADR-224.2-224.6, 224.F1, 226.3, 226.4, 226.16, 226.20, WIRE.1, WIRE.2: every functionResponse
// of every request, judged against the call it answers.
// - The answered call is identified without the payload (answers.h: id, then name, then
//   position among same-name calls), so the name and ID checks always run, whatever wrapping
//   the implementation chose for the result.
// - Each turn's answers are judged in every request that carries the turn (requests k+1..N
//   for exchange k, closing requests included; every request for the initial transcript).
// - The expected payload comes from the case: `then.results` (selectors pick parse-order calls
//   of the scripted response) and the initial transcript's tool messages (tool_call_id ->
//   generic call -> native call through the capsule's bindings, or an unambiguous legacy
//   name and ADR-226.8 argument match; for foreign turns the generic calls in order).
// Never the implementation's report: the journal is the wire.
#include <algorithm>

#include "oracles/checks/answers.h"
#include "oracles/checks/judge_json.h"
#include "oracles/checks/judge.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {
namespace {

// The payload one call's answer must preserve.
struct Expected {
  model::Result result;  // `call` unused
  /// A transcript tool message's JSON text as written: the gemini profile also accepts it
  /// carried as that string.
  std::optional<std::string> text;
  std::string label;  // "result 1 of exchange 2", "tool message 3 of the transcript"
};

// Per turn, per call: the payload the case gives its answer, when it gives one.
struct TurnExpectations {
  bool has_answers = false;
  std::vector<std::optional<Expected>> of_call;
};

bool IsList(const model::Result& r) {
  return r.kind == model::Result::Kind::kJson && r.value.is_array();
}
bool IsObject(const model::Result& r) {
  return r.kind == model::Result::Kind::kJson && r.value.is_object();
}
bool IsScalar(const model::Result& r) { return !IsList(r) && !IsObject(r); }

using detail::NumericKeyObject;

// ADR-224.3/4/5: the ADRs' own encodings. An object result is the root itself; a list result
// sits at keys "0".."n-1" (member order is free: object member order carries no meaning); a
// scalar, text or error result is an object of one member (its name implementation-defined)
// whose value is the payload.
bool AdrForm(const model::Result& r, const Json& response) {
  if (!response.is_object()) return false;
  if (IsObject(r)) return SameJson(response, r.value);
  if (IsList(r)) return SameJson(response, NumericKeyObject(r.value));
  return response.size() == 1 && SameJson(*response.begin(), r.value);
}

// Any object root that preserves the value: the ADR form, or a top-level member whose value is
// the payload kind-exactly (a list stays a list; text and errors are the string; a JSON-text
// tool message may also travel as its original text).
bool PreservingForm(const Expected& e, const Json& response) {
  if (AdrForm(e.result, response)) return true;
  if (!response.is_object()) return false;
  for (auto it = response.begin(); it != response.end(); ++it) {
    if (SameJson(it.value(), e.result.value)) return true;
    if (e.text && it.value().is_string()) {
      // A JSON result carried as JSON text: any spelling of the same value (spaces, escapes,
      // number forms) preserves it, read with the judges' own reader.
      const std::string& carried = it.value().get_ref<const std::string&>();
      if (carried == *e.text) return true;
      if (e.result.kind == model::Result::Kind::kJson) {
        const JudgeDecoded decoded = DecodeJudgeJson(carried);
        if (decoded.value && SameJson(*decoded.value, e.result.value)) return true;
      }
    }
  }
  return false;
}

// Whether a decoded value holds an integer beyond 64 bits (kept exactly by the judges' reader).
bool HoldsBigInteger(const Json& value) {
  if (IsBigInteger(value)) return true;
  if (!value.is_object() && !value.is_array()) return false;
  for (const auto& item : value) {
    if (HoldsBigInteger(item)) return true;
  }
  return false;
}

// ADR-224.5, "current scalar/invalid result fallback": a JSON text holding an integer beyond 64
// bits, which most decoders cannot hold exactly, may travel as its exact text in a one-member
// wrapper, like invalid text (the value is preserved; a rounded double is not).
bool TextFallback(const Expected& e, const Json& response) {
  return e.text && HoldsBigInteger(e.result.value) && response.is_object() &&
         response.size() == 1 && response.begin()->is_string() &&
         response.begin()->get<std::string>() == *e.text;
}

bool Accepts(Profile profile, const Expected& e, const Json& response) {
  if (TextFallback(e, response)) return true;
  return profile == Profile::kAdr ? AdrForm(e.result, response) : PreservingForm(e, response);
}

// Two calls a model cannot tell apart once answered: same name, ADR-226.8-equal args.
bool Identical(const detail::TurnCall& a, const detail::TurnCall& b) {
  return a.name && b.name && SameJson(*a.name, *b.name) &&
         detail::ArgumentsEqual(a.args, b.args);
}

// The finding for a payload `response` that does not preserve `e` (neither form accepted).
Finding DiagnosePayload(Profile profile, const Expected& e, std::size_t request,
                        const std::string& at, const Json& response) {
  const model::Result& r = e.result;
  const std::string what = "the functionResponse for " + e.label;
  // Where the value could be: the ADR form's place, and (gemini) each top-level member.
  struct Candidate {
    Json expected;
    const Json* actual;
    std::string pointer;
  };
  std::vector<Candidate> candidates;
  if (IsObject(r)) {
    candidates.push_back({r.value, &response, at});
  } else if (IsList(r)) {
    candidates.push_back({NumericKeyObject(r.value), &response, at});
  } else if (response.size() == 1) {
    candidates.push_back({r.value, &*response.begin(), PointerAppend(at, response.begin().key())});
  }
  if (profile == Profile::kGemini) {
    for (auto it = response.begin(); it != response.end(); ++it) {
      candidates.push_back({r.value, &it.value(), PointerAppend(at, it.key())});
    }
  }
  // The candidate that drifts least: numeric kind or object-to-list only (ADR-224.F1), then a
  // list turned object (ADR-224.6), then anything else (ADR-224.3).
  std::optional<std::size_t> best;
  int best_rank = 3;
  std::optional<detail::DriftAt> best_drift;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const auto worst = detail::WorstDrift(
        detail::Drifts(candidates[i].expected, *candidates[i].actual, candidates[i].pointer));
    if (!worst) continue;
    const int rank = worst->drift == detail::Drift::kOther              ? 2
                     : worst->drift == detail::Drift::kListBecameObject ? 1
                                                                        : 0;
    if (rank < best_rank) {
      best_rank = rank;
      best = i;
      best_drift = worst;
    }
  }
  if (profile == Profile::kAdr && IsScalar(r) && response.size() != 1) {
    // ADR-224.5: the fallback wraps the value in an object of exactly one member.
    return MakeFinding("ADR-224.5", kWireViolation, request, at,
                       what + " does not wrap the result in a one-member object", r.value,
                       response);
  }
  if (best && best_rank == 0) {
    // ADR-224.F1 (open): results are decoded values whose nested kinds ADR-224 leaves to "their
    // current decoded representation"; a numeric kind or {} -> [] alone does not gate.
    return MakeFinding("ADR-224.F1", kWireViolation, request, best_drift->pointer,
                       what + " changes only a numeric or nested object/list kind",
                       candidates[*best].expected, *candidates[*best].actual);
  }
  if (best && best_rank == 1) {
    // ADR-224.6: "actual nested lists must remain lists".
    return MakeFinding("ADR-224.6", kWireViolation, request, best_drift->pointer,
                       "a list nested in " + e.label + " became an object",
                       candidates[*best].expected, *candidates[*best].actual);
  }
  if (profile == Profile::kAdr && IsList(r)) {
    bool keys = response.size() == r.value.size();
    for (std::size_t i = 0; keys && i < r.value.size(); ++i) {
      keys = response.contains(std::to_string(i));
    }
    if (!keys) {
      // ADR-224.4: "A decoded list result keeps its members at numeric object keys".
      return MakeFinding("ADR-224.4", kWireViolation, request, at,
                         what + " does not keep the list at numeric keys",
                         NumericKeyObject(r.value), response);
    }
  }
  // ADR-224.3: "Preserve their member values".
  return MakeFinding("ADR-224.3", kWireViolation, request, best ? best_drift->pointer : at,
                     what + " does not preserve the result's value",
                     best ? candidates[*best].expected : r.value, response);
}

// The name, ID and payload checks of one identified answer.
void JudgeAnswer(const CaseRun& run, const detail::ConversationTurn& turn,
                 const TurnExpectations& expectations, std::size_t call, std::size_t request,
                 const detail::ResponseAt& at, std::vector<Finding>& findings) {
  const detail::TurnCall& own = turn.calls[call];
  const std::string what =
      "the functionResponse for call " + std::to_string(call) + " of " + turn.label;
  // ADR-226.17 "Use the same association on closing and streaming requests carrying existing
  // state": on a closing request (tool mode NONE) or a streaming one (:streamGenerateContent) a
  // broken association is that clause's finding.
  const bool closing =
      (request >= 1 && request <= run.c.exchanges.size() &&
       run.c.exchanges[request - 1].tool_mode == "NONE") ||
      (request >= 1 && request <= run.journal.size() &&
       run.journal[request - 1].path.ends_with(":streamGenerateContent"));
  const char* echo_clause = closing ? "ADR-226.17" : "ADR-226.3";
  // ADR-226.3: "Echo only that native ID in the matching Gemini result": its own name and id.
  const Json* name = detail::Member(*at.fr, "name");
  if (own.name && (name == nullptr || !SameJson(*name, *own.name))) {
    findings.push_back(MakeFinding(echo_clause, kWireViolation, request, at.pointer + "/name",
                                   what + " names another function than its call", *own.name,
                                   name == nullptr ? Json("absent") : *name));
  }
  const Json* id = detail::Member(*at.fr, "id");
  if (own.native_id) {
    if (id == nullptr || !SameJson(*id, *own.native_id)) {
      findings.push_back(MakeFinding(
          echo_clause, kWireViolation, request, id == nullptr ? at.pointer : at.pointer + "/id",
          what + (id == nullptr ? " omits the native id of its call"
                                : " carries another id than its call's native id"),
          *own.native_id, id == nullptr ? Json("absent") : *id));
    }
  } else if (id != nullptr && !(own.null_id && id->is_null())) {
    // ADR-226.4 "An absent native ID stays absent"; ADR-226.16 "Foreign/generic turns provide
    // no native binding". A native `"id": null` may be echoed as null or omitted: ADR-226 does
    // not say whether null is an absent or a malformed id.
    findings.push_back(MakeFinding(
        turn.foreign ? "ADR-226.16" : closing ? "ADR-226.17" : "ADR-226.4", kWireViolation,
        request, at.pointer + "/id",
        what + " carries an id although its call had none", "absent", *id));
  }

  const auto& expected = expectations.of_call[call];
  if (!expected) return;
  const Json* response = detail::Member(*at.fr, "response");
  if (response == nullptr || !response->is_object()) {
    // The root itself is also the struct_roots judge's ADR-224.2 finding; a list result sent as
    // a list is ADR-224.4's.
    const bool list = IsList(expected->result);
    findings.push_back(
        MakeFinding(list ? "ADR-224.4" : "ADR-224.2", kWireViolation, request,
                    response == nullptr ? at.pointer : at.pointer + "/response",
                    "the functionResponse for " + expected->label + " has no object response",
                    list ? NumericKeyObject(expected->result.value) : Json("object"),
                    response == nullptr ? Json("absent") : *response));
    return;
  }
  if (Accepts(run.profile, *expected, *response)) return;
  // Interchangeable calls (identical and ID-less) may carry each other's results.
  for (std::size_t o = 0; o < turn.calls.size(); ++o) {
    const auto& other = expectations.of_call[o];
    if (o == call || !other || own.native_id || turn.calls[o].native_id) continue;
    if (Identical(own, turn.calls[o]) && Accepts(run.profile, *other, *response)) return;
  }
  const std::string at_response = at.pointer + "/response";
  if (!PreservingForm(*expected, *response)) {
    // The payload is another call's result: the answer is misassociated.
    for (std::size_t o = 0; o < turn.calls.size(); ++o) {
      const auto& other = expectations.of_call[o];
      if (o == call || !other || !PreservingForm(*other, *response)) continue;
      // ADR-226.20 for identical parallel calls ("Fresh same-name/same-argument parallel calls
      // can be answered unambiguously"), ADR-226.3 otherwise.
      findings.push_back(MakeFinding(
          Identical(own, turn.calls[o]) ? "ADR-226.20" : echo_clause, kWireViolation, request,
          at_response,
          what + " carries the result of call " + std::to_string(o) + " instead of its own",
          expected->result.value, *response));
      return;
    }
    findings.push_back(DiagnosePayload(run.profile, *expected, request, at_response, *response));
    return;
  }
  // The adr profile only: the value is preserved, but not in these ADRs' encoding.
  const char* clause = IsList(expected->result)     ? "ADR-224.4"
                       : IsObject(expected->result) ? "ADR-224.3"
                                                    : "ADR-224.5";
  findings.push_back(MakeFinding(
      clause, kWireViolation, request, at_response,
      "the functionResponse for " + expected->label +
          " keeps the value but not in the ADR-224 encoding",
      IsList(expected->result) ? NumericKeyObject(expected->result.value) : expected->result.value,
      *response));
}

// WIRE.1, WIRE.2 and every identified answer of one turn in one request.
void JudgeTurn(const CaseRun& run, const detail::ConversationTurn& turn,
               const TurnExpectations& expectations, std::size_t request, const Json& contents,
               const detail::TurnAnswers& answers, std::vector<Finding>& findings) {
  std::size_t pending = 0;
  for (const auto& call : turn.calls) pending += call.answered_inside ? 0 : 1;
  if (answers.responses.empty() && (!expectations.has_answers || pending == 0)) return;
  const std::string& label = turn.label;

  // WIRE.1: "All answers go back in one user content, one functionResponse part per call", the
  // content right after the model content ("function response turn comes immediately after a
  // function call turn").
  std::vector<std::size_t> holders;
  for (const auto& r : answers.responses) {
    if (holders.empty() || holders.back() != r.content) holders.push_back(r.content);
  }
  const std::size_t next = answers.model_at + 1;
  if (holders.size() > 1) {
    findings.push_back(MakeFinding("WIRE.1", kWireViolation, request,
                                   "/contents/" + std::to_string(holders[1]),
                                   "the answers to " + label + " are split over " +
                                       std::to_string(holders.size()) + " contents instead of one",
                                   1, holders.size()));
  }
  if (!holders.empty()) {
    if (holders.front() != next) {
      findings.push_back(
          MakeFinding("WIRE.1", kWireViolation, request, "/contents/" + std::to_string(next),
                      "the answers to " + label + " do not follow the model content they answer",
                      next, holders.front()));
    }
    const Json* role = detail::Member(contents[holders.front()], "role");
    if (role == nullptr || !role->is_string() || *role != "user") {
      findings.push_back(MakeFinding("WIRE.1", kWireViolation, request,
                                     "/contents/" + std::to_string(holders.front()) + "/role",
                                     "the answers to " + label + " are not in a user content",
                                     "user", role == nullptr ? Json("absent") : *role));
    }
  }
  for (std::size_t r = 0; r < answers.responses.size(); ++r) {
    const auto& call = answers.call_of[r];
    if (!call) {
      findings.push_back(
          MakeFinding("WIRE.1", kWireViolation, request, answers.responses[r].pointer,
                      "a functionResponse after " + label + " answers none of its pending calls"));
    } else if (answers.answer_of[*call] != r) {
      findings.push_back(MakeFinding(
          "WIRE.1", kWireViolation, request, answers.responses[r].pointer,
          "a second functionResponse answers call " + std::to_string(*call) + " of " + label));
    }
  }
  // A pending call without an answer, pointed at its functionCall part on the wire.
  const Json* model_parts = detail::Member(contents[answers.model_at], "parts");
  const auto wire_calls = model_parts != nullptr && model_parts->is_array()
                              ? detail::FunctionCallPositions(*model_parts)
                              : std::vector<std::size_t>{};
  for (std::size_t c = 0; c < turn.calls.size(); ++c) {
    if (turn.calls[c].answered_inside || answers.answer_of[c]) continue;
    const std::string where = c < wire_calls.size()
                                  ? "/contents/" + std::to_string(answers.model_at) + "/parts/" +
                                        std::to_string(wire_calls[c]) + "/functionCall"
                                  : "/contents/" + std::to_string(answers.model_at);
    findings.push_back(
        MakeFinding("WIRE.1", kWireViolation, request, where,
                    "call " + std::to_string(c) + " of " + label + " has no functionResponse"));
  }
  // WIRE.2: Gemini pairs the answers of ID-less calls by position, so they follow their calls.
  std::optional<std::size_t> last;
  for (std::size_t r = 0; r < answers.responses.size(); ++r) {
    const auto& call = answers.call_of[r];
    if (!call || answers.answer_of[*call] != r || turn.calls[*call].native_id) continue;
    if (last && *call < *last) {
      findings.push_back(
          MakeFinding("WIRE.2", kWireViolation, request, answers.responses[r].pointer,
                      "the answer to ID-less call " + std::to_string(*call) + " of " + label +
                          " comes after the answer to call " + std::to_string(*last),
                      *last, *call));
    }
    last = last ? std::max(*last, *call) : *call;
  }
  for (std::size_t r = 0; r < answers.responses.size(); ++r) {
    const auto& call = answers.call_of[r];
    if (!call || answers.answer_of[*call] != r) continue;
    JudgeAnswer(run, turn, expectations, *call, request, answers.responses[r], findings);
  }
}

// A tool message's payload: JSON text is its value, other text is text, is_error an error.
std::optional<Expected> ToolPayload(const Json& message, std::size_t index) {
  const Json* content = detail::Member(message, "content");
  if (content == nullptr || !content->is_string()) return std::nullopt;
  Expected e;
  e.label = "tool message " + std::to_string(index) + " of the transcript";
  const Json* is_error = detail::Member(message, "is_error");
  if (is_error != nullptr && is_error->is_boolean() && is_error->get<bool>()) {
    e.result.kind = model::Result::Kind::kError;
    e.result.value = *content;
    return e;
  }
  if (auto value = detail::DecodeToolContent(content->get<std::string>())) {
    e.result.kind = model::Result::Kind::kJson;
    e.result.value = std::move(*value);
    e.text = content->get<std::string>();
  } else {
    e.result.kind = model::Result::Kind::kText;
    e.result.value = *content;
  }
  return e;
}

// The native call (index into `turn.calls`) a generic call of an owned initial turn stands for,
// taken only from the case file: its binding's native id, else an unambiguous name and
// ADR-226.8 argument match (identical ID-less calls are interchangeable: the first free one).
std::optional<std::size_t> NativeCallOf(const Json& message, const Json& generic,
                                        const detail::ConversationTurn& turn,
                                        const std::vector<bool>& taken) {
  const Json* public_id = detail::Member(generic, "id");
  const Json& capsule = message["provider_state"]["gemini"];
  bool only_idless = false;
  if (const Json* bindings = detail::Member(capsule, "tool_call_bindings")) {
    if (!bindings->is_array() || public_id == nullptr) return std::nullopt;
    for (const auto& binding : *bindings) {
      const Json* bound = detail::Member(binding, "tool_call_id");
      const Json* native_id = detail::Member(binding, "native_id");
      if (bound == nullptr || native_id == nullptr || !SameJson(*bound, *public_id)) {
        continue;
      }
      for (std::size_t c = 0; c < turn.calls.size(); ++c) {
        if (turn.calls[c].native_id && SameJson(*turn.calls[c].native_id, *native_id)) {
          return c;
        }
      }
      return std::nullopt;
    }
    only_idless = true;  // an unbound call had no native id
  }
  const Json* name = detail::Member(generic, "name");
  const Json* arguments = detail::Member(generic, "arguments");
  const Json empty = Json::object();
  std::vector<std::size_t> candidates;
  for (std::size_t c = 0; c < turn.calls.size(); ++c) {
    const auto& call = turn.calls[c];
    if (only_idless && call.native_id) continue;
    if (name == nullptr || !call.name || !SameJson(*name, *call.name)) continue;
    if (!detail::ArgumentsEqual(call.args, arguments != nullptr ? *arguments : empty)) continue;
    candidates.push_back(c);
  }
  if (candidates.size() == 1) return candidates.front();
  for (const std::size_t c : candidates) {
    if (turn.calls[c].native_id) return std::nullopt;  // ambiguous: a refusal case
  }
  for (const std::size_t c : candidates) {
    if (!taken[c]) return c;
  }
  return std::nullopt;
}

std::vector<TurnExpectations> CaseExpectations(const CaseRun& run,
                                               const std::vector<detail::ConversationTurn>& turns) {
  std::vector<TurnExpectations> out(turns.size());
  for (std::size_t t = 0; t < turns.size(); ++t) out[t].of_call.resize(turns[t].calls.size());

  // The initial transcript's tool messages answer the nearest preceding assistant turn.
  const Json& transcript = run.c.transcript;
  std::optional<std::size_t> turn;
  const Json* assistant = nullptr;
  std::vector<bool> taken;
  std::size_t assistants = 0;
  for (std::size_t m = 0; transcript.is_array() && m < transcript.size(); ++m) {
    const Json& message = transcript[m];
    const Json* role = detail::Member(message, "role");
    if (role == nullptr || !role->is_string()) continue;
    if (*role == "assistant") {
      if (assistants >= turns.size()) break;
      turn = assistants++;
      assistant = &message;
      taken.assign(turns[*turn].calls.size(), false);
      continue;
    }
    if (*role != "tool" || !turn) continue;
    out[*turn].has_answers = true;
    const Json* calls = detail::Member(*assistant, "tool_calls");
    const Json* tool_call_id = detail::Member(message, "tool_call_id");
    if (calls == nullptr || !calls->is_array() || tool_call_id == nullptr) continue;
    std::optional<std::size_t> generic;
    for (std::size_t i = 0; i < calls->size() && !generic; ++i) {
      const Json* id = detail::Member((*calls)[i], "id");
      if (id != nullptr && SameJson(*id, *tool_call_id)) generic = i;
    }
    if (!generic) continue;  // an orphan: a refusal case
    const auto& t = turns[*turn];
    const std::optional<std::size_t> call =
        t.foreign ? generic : NativeCallOf(*assistant, (*calls)[*generic], t, taken);
    if (!call || *call >= t.calls.size() || taken[*call]) continue;
    auto payload = ToolPayload(message, m);
    if (!payload) continue;
    taken[*call] = true;
    out[*turn].of_call[*call] = std::move(*payload);
  }

  // `then.results`: selectors pick parse-order calls of the exchange's scripted response.
  const std::size_t initial = detail::InitialAssistants(run.c).size();
  for (std::size_t k = 0; k < run.c.exchanges.size(); ++k) {
    const auto& results = run.c.exchanges[k].then.results;
    auto& expectations = out[initial + k];
    if (results.empty()) continue;
    expectations.has_answers = true;
    const Json scripted = detail::ScriptedParts(run.c.exchanges[k]);
    for (std::size_t r = 0; r < results.size(); ++r) {
      const auto call = detail::ResolveSelector(results[r].call, scripted);
      if (!call || *call >= expectations.of_call.size()) continue;  // a harness error
      Expected e;
      e.result = results[r];
      e.label = "result " + std::to_string(r) + " of exchange " + std::to_string(k + 1);
      // INTERPRETING §14: a gated tool runs only under an approval of this very call: one
      // recorded in this exchange (the only one whose calls it can name) for the same call,
      // with decision approve and, when the result presents an id, that id. Anything else
      // (an approval of another call with the same name and arguments or the same native
      // id, ADR-226.19) leaves the call unapproved: the application sends the denial.
      if (e.result.gated) {
        bool authorized = false;
        for (const auto& approval : run.c.exchanges[k].then.approvals) {
          if (!approval.approve) continue;
          if (!e.result.approval.empty() && approval.id != e.result.approval) continue;
          if (detail::ResolveSelector(approval.call, scripted) == call) authorized = true;
        }
        if (!authorized) {
          e.result.kind = model::Result::Kind::kError;
          e.result.value = model::kDenialMessage;
        }
      }
      // The runner hands a json result to the implementation as compact JSON text with kinds
      // kept (INTERPRETING §5.4); the gemini profile accepts it carried as that text.
      if (e.result.kind == model::Result::Kind::kJson) {
        e.text = e.result.value.dump(-1, ' ', false, Json::error_handler_t::replace);
      }
      expectations.of_call[*call] = std::move(e);
    }
  }
  return out;
}

}  // namespace

std::vector<Finding> JudgeResults(const CaseRun& run) {
  std::vector<Finding> findings;
  std::vector<detail::DecodedRequest> storage;
  const auto& decoded = detail::DecodedJournal(run, storage);
  const auto turns = detail::ConversationTurns(run.c);
  const auto expectations = CaseExpectations(run, turns);
  for (std::size_t r = 0; r < decoded.size(); ++r) {
    const Json* contents = detail::Contents(decoded[r].body);
    if (contents == nullptr) continue;
    const std::size_t carried = detail::TurnsInRequest(run.c, r + 1);
    for (std::size_t t = 0; t < turns.size(); ++t) {
      const auto answers = detail::AnswersToTurn(turns, t, carried, *contents);
      if (!answers) continue;
      JudgeTurn(run, turns[t], expectations[t], r + 1, *contents, *answers, findings);
    }
  }
  if (run.profile == Profile::kGemini) {
    // What the gemini profile leaves out, noted once per case that had such a result.
    bool list = false;
    bool scalar = false;
    for (const auto& turn : expectations) {
      for (const auto& e : turn.of_call) {
        if (!e) continue;
        list = list || IsList(e->result);
        scalar = scalar || IsScalar(e->result);
      }
    }
    if (list) {
      findings.push_back(NotJudged("ADR-224.4",
                                   "profile gemini: a list result is judged as preserved in any "
                                   "object root, not at numeric keys"));
    }
    if (scalar) {
      findings.push_back(NotJudged("ADR-224.5",
                                   "profile gemini: a scalar, text or error result is judged as "
                                   "preserved in any object root, not as a one-member wrapper"));
    }
  }
  return findings;
}

}  // namespace gemini_oracle::checks
