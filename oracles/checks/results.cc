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
#include <functional>
#include <map>
#include <set>

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
  /// For a text result naming a member twice: the objects a decoder makes of it, keeping the
  /// first or the last value of each repeated member (no ADR sentence picks one).
  std::vector<Json> readings;
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

// Whether `value` is the payload itself, kind-exactly, or (a JSON result) JSON text that reads
// back as it: the original text, or any spelling of the same value (spaces, escapes, number
// forms), read with the judges' own reader. Text naming a member twice reads back as nothing.
bool IsPayload(const Expected& e, const Json& value) {
  if (SameJson(value, e.result.value)) return true;
  if (!e.text || !value.is_string()) return false;
  const std::string& carried = value.get_ref<const std::string&>();
  if (carried == *e.text) return true;
  if (e.result.kind != model::Result::Kind::kJson) return false;
  const JudgeDecoded decoded = DecodeJudgeJson(carried);
  return decoded.value && !decoded.repeated_member && SameJson(*decoded.value, e.result.value);
}

// Whether `value` is e's payload up to the kinds ADR-224.F1 leaves open (a numeric kind,
// {} -> []), as a value or, for a JSON result, as JSON text.
bool KindClose(const Expected& e, const Json& value) {
  const auto close = [&](const Json& v) {
    const auto drifts = detail::Drifts(e.result.value, v, "");
    return std::all_of(drifts.begin(), drifts.end(), [](const detail::DriftAt& d) {
      return d.drift == detail::Drift::kNumericKind || d.drift == detail::Drift::kObjectBecameList;
    });
  };
  if (IsPayload(e, value) || close(value)) return true;
  if (!e.text || e.result.kind != model::Result::Kind::kJson || !value.is_string()) return false;
  const JudgeDecoded decoded = DecodeJudgeJson(value.get_ref<const std::string&>());
  return decoded.value && !decoded.repeated_member && close(*decoded.value);
}

// How deep below `response` a wrapper may carry the payload: the adr profile looks at the
// top-level members only; the gemini profile at any depth, through objects and lists, since
// each framework wraps results its own way (ADR-224: "current scalar/invalid result fallback").
std::size_t WrapperDepth(Profile profile) {
  return profile == Profile::kAdr ? 1 : kJudgeMaxDepth;
}

// A value that tells one result from another when found inside a wrapper: a nonempty object or
// list, or a nonempty string other than the answer's own function name. Numbers, booleans, null
// and empty values also travel as a wrapper's own flags and counts, so they prove nothing.
bool Distinctive(const Json& value, const Json* name) {
  if (value.is_object() || value.is_array()) return !value.empty();
  if (!value.is_string()) return false;
  return !value.get_ref<const std::string&>().empty() && (name == nullptr || value != *name);
}

// The pointers (relative to `at`) of every member or element below `node`, down to `depth`
// levels, that carries e's payload. A carrier's own inside is not searched further. A payload
// that is not distinctive (`false`, `0`) is as likely a wrapper's own flag or count as the
// result: it counts only as a top-level member, and only when no other top-level member holds
// a distinctive value other than the function `name` (`{"isError": false, "output": "x"}`
// lost the result false; `{"name": "sum", "content": false}` keeps it).
void CarriedAt(const Expected& e, const Json& node, const std::string& at, std::size_t depth,
               std::vector<std::string>& out, const Json* name, bool top = true) {
  if (depth == 0 || (!node.is_object() && !node.is_array())) return;
  if (!Distinctive(e.result.value, name)) {
    if (!top) return;
    for (const auto& member : node) {
      if (!IsPayload(e, member) && Distinctive(member, name)) return;
    }
  }
  // The wrapper's own echo of the function name is not the result, even when they are equal.
  const bool is_name = name != nullptr && SameJson(e.result.value, *name);
  std::size_t i = 0;
  for (auto it = node.begin(); it != node.end(); ++it, ++i) {
    const std::string child = node.is_object() ? PointerAppend(at, it.key()) : PointerAppend(at, i);
    if (is_name && node.is_object() && it.key() == "name") continue;
    if (IsPayload(e, it.value())) {
      out.push_back(child);
    } else {
      CarriedAt(e, it.value(), child, depth - 1, out, name, false);
    }
  }
}

// Any object root that preserves the value: the ADR form, or a member (gemini: at any depth)
// whose value is the payload kind-exactly (a list stays a list; text and errors are the string)
// or, for a JSON result, JSON text that reads back as it.
bool PreservingForm(Profile profile, const Expected& e, const Json& response,
                    const Json* name = nullptr) {
  if (AdrForm(e.result, response)) return true;
  std::vector<std::string> at;
  CarriedAt(e, response, "", WrapperDepth(profile), at, name);
  return !at.empty();
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

bool Accepts(Profile profile, const Expected& e, const Json& response,
             const Json* name = nullptr) {
  if (TextFallback(e, response)) return true;
  return profile == Profile::kAdr ? AdrForm(e.result, response)
                                  : PreservingForm(profile, e, response, name);
}

// A text result naming a member twice, read as a decoder reads it: the JSON result keeping the
// first, or the last, value of each repeated member.
std::vector<Expected> ReadingsOf(const Expected& e) {
  std::vector<Expected> out;
  for (const Json& value : e.readings) {
    Expected reading;
    reading.result.kind = model::Result::Kind::kJson;
    reading.result.value = value;
    reading.text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
    reading.label = e.label;
    out.push_back(std::move(reading));
  }
  return out;
}

// The reading of a text result naming a member twice that `response` preserves, if any. RFC
// 8259 only says names "SHOULD be unique" and leaves the value to the decoder (JSON.parse keeps
// the last), and no ADR sentence picks one: such a reading is noted as not judged, no finding.
std::optional<Expected> AcceptedReading(Profile profile, const Expected& e, const Json& response,
                                        const Json* name, std::vector<Finding>& findings) {
  for (auto& reading : ReadingsOf(e)) {
    if (!Accepts(profile, reading, response, name)) continue;
    const Finding note = NotJudged(
        "ADR-224.3", "a tool result text naming a member twice was sent as an object keeping "
                     "the first or the last of its values, which no ADR sentence settles");
    const bool noted = std::any_of(findings.begin(), findings.end(), [&](const Finding& f) {
      return f.clause == note.clause && f.message == note.message;
    });
    if (!noted) findings.push_back(note);
    return std::move(reading);
  }
  return std::nullopt;
}

// Two calls a model cannot tell apart once answered: same name, ADR-226.8-equal args.
bool Identical(const detail::TurnCall& a, const detail::TurnCall& b) {
  return a.name && b.name && SameJson(*a.name, *b.name) &&
         detail::ArgumentsEqual(a.args, b.args);
}

// The place where a payload that does not preserve the result drifts least, ranked: a numeric
// kind or {} -> [] only (0, ADR-224.F1), a list turned object (1, ADR-224.6), anything else (2).
struct Closest {
  int rank = 3;  // 3: no place at all
  Json expected;
  Json actual;
  std::string pointer;
};

void Consider(const Json& expected, const Json& actual, const std::string& pointer,
              bool in_text, Closest& best) {
  const auto worst = detail::WorstDrift(detail::Drifts(expected, actual, pointer));
  if (!worst) return;
  const int rank = worst->drift == detail::Drift::kOther              ? 2
                   : worst->drift == detail::Drift::kListBecameObject ? 1
                                                                      : 0;
  if (rank >= best.rank) return;
  // Inside JSON text a drift has no pointer of its own: the text's member is the place.
  best = {rank, expected, actual, in_text ? pointer : worst->pointer};
}

// Under gemini, every top-level member, every member or element at any depth for a distinctive
// payload (as CarriedAt), and every JSON text reading back as a value, is a place the payload
// may travel in (the same rule for a result and its JSON text).
void ConsiderWrapped(const Expected& e, const Json& node, const std::string& at, Closest& best,
                     const Json* name, bool top = true) {
  if (!node.is_object() && !node.is_array()) return;
  if (!Distinctive(e.result.value, name)) {
    // Only where such a payload counts (CarriedAt): a top-level member, with no distinctive
    // member beside it other than the payload up to an open kind.
    if (!top) return;
    for (const auto& member : node) {
      if (!KindClose(e, member) && Distinctive(member, name)) return;
    }
  }
  std::size_t i = 0;
  for (auto it = node.begin(); it != node.end(); ++it, ++i) {
    const std::string child = node.is_object() ? PointerAppend(at, it.key()) : PointerAppend(at, i);
    Consider(e.result.value, it.value(), child, false, best);
    if (e.text && e.result.kind == model::Result::Kind::kJson && it.value().is_string()) {
      const JudgeDecoded decoded = DecodeJudgeJson(it.value().get_ref<const std::string&>());
      if (decoded.value && !decoded.repeated_member) {
        Consider(e.result.value, *decoded.value, child, true, best);
      }
    }
    ConsiderWrapped(e, it.value(), child, best, name, false);
  }
}

Closest ClosestPlace(Profile profile, const Expected& e, const std::string& at,
                     const Json& response, const Json* name) {
  const model::Result& r = e.result;
  Closest best;
  if (IsObject(r)) {
    Consider(r.value, response, at, false, best);
  } else if (IsList(r)) {
    Consider(NumericKeyObject(r.value), response, at, false, best);
  } else if (response.size() == 1) {
    Consider(r.value, *response.begin(), PointerAppend(at, response.begin().key()), false, best);
  }
  if (profile == Profile::kGemini) ConsiderWrapped(e, response, at, best, name);
  return best;
}

// The finding for a payload `response` that does not preserve `e` (neither form accepted).
Finding DiagnosePayload(Profile profile, const Expected& e, std::size_t request,
                        const std::string& at, const Json& response, const Json* name) {
  const model::Result& r = e.result;
  const std::string what = "the functionResponse for " + e.label;
  const Closest best = ClosestPlace(profile, e, at, response, name);
  if (profile == Profile::kAdr && IsScalar(r) && response.size() != 1) {
    // ADR-224.5: the fallback wraps the value in an object of exactly one member.
    return MakeFinding("ADR-224.5", kWireViolation, request, at,
                       what + " does not wrap the result in a one-member object", r.value,
                       response);
  }
  if (best.rank == 0) {
    // ADR-224.F1 (open): results are decoded values whose nested kinds ADR-224 leaves to "their
    // current decoded representation"; a numeric kind or {} -> [] alone does not gate, whether
    // the result travels as a value or as JSON text (INTERPRETING §8.3: one rule).
    return MakeFinding("ADR-224.F1", kWireViolation, request, best.pointer,
                       what + " changes only a numeric or nested object/list kind", best.expected,
                       best.actual);
  }
  if (best.rank == 1) {
    // ADR-224.6: "actual nested lists must remain lists".
    return MakeFinding("ADR-224.6", kWireViolation, request, best.pointer,
                       "a list nested in " + e.label + " became an object", best.expected,
                       best.actual);
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
  const bool placed = best.rank < 3;
  return MakeFinding("ADR-224.3", kWireViolation, request, placed ? best.pointer : at,
                     what + " does not preserve the result's value",
                     placed ? best.expected : r.value, placed ? best.actual : response);
}

// Whether `node` holds e's payload (up to an open kind) anywhere below it, distinctive or not,
// leaving out members keyed `skip` (nullptr: none).
bool HoldsPayload(const Expected& e, const Json& node, std::size_t depth, const char* skip) {
  if (depth == 0 || (!node.is_object() && !node.is_array())) return false;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (node.is_object() && skip != nullptr && it.key() == skip) continue;
    if (KindClose(e, it.value()) || HoldsPayload(e, it.value(), depth - 1, skip)) return true;
  }
  return false;
}

// Profile gemini: a result that proves nothing (CarriedAt: `false`, `0`, the function's name)
// found in the wrapper, up to an open kind, only where it does not count (beside a distinctive
// member, or deeper than the top level), as in `{"isError": false, "output": "x"}` for the
// result false or `{"content": [{"text": "3"}]}` for the result 3.0. The
// wrapper may carry it or may have lost it behind a flag of its own: no ADR sentence tells the
// two apart, so it is not judged; a wrapper without the value anywhere lost it (ADR-224.3). A
// result equal to the function's name is not found in a `name` member, the wrapper's own echo
// of the name (`{"name": "sum", "output": "x"}` lost the result "sum").
bool Undecidable(Profile profile, const Expected& e, const Json& response, const Json* name) {
  if (profile != Profile::kGemini || Distinctive(e.result.value, name)) return false;
  const bool is_name = name != nullptr && SameJson(e.result.value, *name);
  return HoldsPayload(e, response, kJudgeMaxDepth, is_name ? "name" : nullptr);
}

bool Within(const std::string& pointer, const std::string& outer) {
  return pointer == outer || pointer.starts_with(outer + "/");
}

// Profile gemini: the call (index into the turn's calls) whose result the payload carries
// besides its own, in a place apart from every place of its own (neither inside nor around
// it): a wrapper holding two calls' results answers both, so it is misassociated (ADR-226.3).
// Only a nonempty object or list result (or its JSON text) counts as another call's there: a
// short text such as "ok" is as likely a wrapper's own status word as another call's result.
std::optional<std::size_t> AlsoCarried(const TurnExpectations& expectations, std::size_t call,
                                       const Expected& own, const Json& response,
                                       const Json* name) {
  if (AdrForm(own.result, response) || TextFallback(own, response)) return std::nullopt;
  std::vector<std::string> mine;
  CarriedAt(own, response, "", kJudgeMaxDepth, mine, name);
  for (std::size_t o = 0; o < expectations.of_call.size(); ++o) {
    const auto& other = expectations.of_call[o];
    if (o == call || !other || SameJson(other->result.value, own.result.value)) continue;
    const Json& value = other->result.value;
    if ((!value.is_object() && !value.is_array()) || value.empty()) continue;
    std::vector<std::string> theirs;
    CarriedAt(*other, response, "", kJudgeMaxDepth, theirs, name);
    for (const auto& place : theirs) {
      const bool apart = std::none_of(mine.begin(), mine.end(), [&](const std::string& m) {
        return Within(place, m) || Within(m, place);
      });
      if (apart) return o;
    }
  }
  return std::nullopt;
}

// Whether a request is a closing one (tool mode NONE) or a streaming one: ADR-226.17 "Use the
// same association on closing and streaming requests carrying existing state" then names a
// broken association.
bool ClosingOrStreaming(const CaseRun& run, std::size_t request) {
  return (request >= 1 && request <= run.c.exchanges.size() &&
          run.c.exchanges[request - 1].tool_mode == "NONE") ||
         (request >= 1 && request <= run.journal.size() &&
          run.journal[request - 1].path.ends_with(":streamGenerateContent"));
}

// Whether the answer is identified as its call's by its own id or by a name no other pending
// call of the turn has (INTERPRETING §8.1 steps 1-2), not by position among same-name calls.
bool IdentifiedByOwn(const detail::ConversationTurn& turn, std::size_t call, const Json& fr) {
  const detail::TurnCall& own = turn.calls[call];
  const Json* id = detail::Member(fr, "id");
  if (own.native_id && id != nullptr && SameJson(*id, *own.native_id)) return true;
  const Json* name = detail::Member(fr, "name");
  if (!own.name || name == nullptr || !SameJson(*name, *own.name)) return false;
  return std::count_if(turn.calls.begin(), turn.calls.end(), [&](const detail::TurnCall& c) {
           return !c.answered_inside && c.name && SameJson(*c.name, *name);
         }) == 1;
}

// The name and ID checks of one identified answer.
void JudgeEcho(const CaseRun& run, const detail::ConversationTurn& turn, std::size_t call,
               std::size_t request, const detail::ResponseAt& at,
               std::vector<Finding>& findings) {
  const detail::TurnCall& own = turn.calls[call];
  const std::string what =
      "the functionResponse for call " + std::to_string(call) + " of " + turn.label;
  const bool closing = ClosingOrStreaming(run, request);
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
}

// How the payload of one answer is judged: against the result of `result` (its own call's, or
// for interchangeable identical ID-less calls the one it was matched with), or, when `repeats`
// is set, as a result another answer of the turn already carries.
struct Assignment {
  std::size_t result = 0;
  std::optional<std::size_t> repeats;  // the call whose result it carries a second time
  bool kind_only = false;  // matched to a result it keeps up to an ADR-224.F1 kind only
};

// The misassociation finding of an answer whose payload is call o's result: ADR-226.20 for
// identical parallel calls ("Fresh same-name/same-argument parallel calls can be answered
// unambiguously"), ADR-226.3 otherwise (ADR-226.17 on a closing or streaming request).
Finding Misassociated(const CaseRun& run, const detail::ConversationTurn& turn, std::size_t call,
                      std::size_t o, std::size_t request, const std::string& at,
                      const std::string& how, const Expected& expected, const Json& response) {
  const char* clause = Identical(turn.calls[call], turn.calls[o]) ? "ADR-226.20"
                       : ClosingOrStreaming(run, request)          ? "ADR-226.17"
                                                                   : "ADR-226.3";
  return MakeFinding(clause, kWireViolation, request, at,
                     "the functionResponse for call " + std::to_string(call) + " of " +
                         turn.label + how + std::to_string(o),
                     expected.result.value, response);
}

// Whether a payload that lost its own result carries call o's instead: as the ADR form of that
// result, or (when the value is distinctive) inside a wrapper the profile accepts.
bool CarriesOther(Profile profile, const Expected& other, const Json& response, const Json* name) {
  if (AdrForm(other.result, response) || TextFallback(other, response)) return true;
  return Distinctive(other.result.value, name) &&
         PreservingForm(profile, other, response, name);
}

// An answer without an object `response`. The root itself is also the struct_roots judge's
// ADR-224.2 finding; a list result sent as a list is ADR-224.4's.
Finding NoObjectResponse(const Expected& expected, std::size_t request,
                         const detail::ResponseAt& at, const Json* response) {
  const bool list = IsList(expected.result);
  Finding f = MakeFinding(list ? "ADR-224.4" : "ADR-224.2", kWireViolation, request,
                          response == nullptr ? at.pointer : at.pointer + "/response",
                          "the functionResponse for " + expected.label + " has no object response",
                          list ? NumericKeyObject(expected.result.value) : Json("object"),
                          response == nullptr ? Json("absent") : *response);
  // A root kind needs no captured state ("Encode these two API-known roots as JSON objects").
  f.premise_free = true;
  return f;
}

// An answer that keeps its result in no accepted form: the result of another call instead
// (ADR-226.3), a result that proves nothing beside other values (not judged), or the drift
// DiagnosePayload names.
void JudgeLostPayload(const CaseRun& run, const detail::ConversationTurn& turn,
                      const TurnExpectations& expectations, std::size_t call,
                      const Assignment& assigned, std::size_t request,
                      const std::string& at_response, const Json& fr, const Json& response,
                      std::vector<Finding>& findings) {
  const Expected& expected = *expectations.of_call[assigned.result];
  const Json* name = detail::Member(fr, "name");
  // ADR-224: "This decision does not close nested JSON-kind preservation": an answer that is
  // its call's by its own id or name (or matched to a result among identical ID-less calls)
  // and keeps its result up to a numeric or {} -> [] kind is ADR-224.F1 only, even when it
  // then equals another call's result.
  const bool drifts_open_only =
      ClosestPlace(run.profile, expected, at_response, response, name).rank == 0;
  const bool kind_only = assigned.kind_only || (IdentifiedByOwn(turn, call, fr) && drifts_open_only);
  for (std::size_t o = 0; o < turn.calls.size() && !kind_only; ++o) {
    const auto& other = expectations.of_call[o];
    if (o == assigned.result || !other) continue;
    if (!CarriesOther(run.profile, *other, response, name)) continue;
    findings.push_back(Misassociated(run, turn, call, o, request, at_response,
                                     " carries instead of its own the result of call ", expected,
                                     response));
    return;
  }
  // A place where the payload drifts by an open kind only is ADR-224.F1 (DiagnosePayload).
  if (!drifts_open_only && Undecidable(run.profile, expected, response, name)) {
    findings.push_back(NotJudged(
        "ADR-224.3", "the functionResponse for " + expected.label +
                         " holds a result that proves nothing on its own (a number, boolean, "
                         "null, empty value or the function's name) only beside other values, "
                         "so whether it is the result or the wrapper's own cannot be told"));
    return;
  }
  findings.push_back(DiagnosePayload(run.profile, expected, request, at_response, response, name));
}

// The adr profile only: the value is preserved, but not in these ADRs' encoding.
Finding NotAdrEncoded(const Expected& expected, std::size_t request,
                      const std::string& at_response, const Json& response) {
  const model::Result& r = expected.result;
  const char* clause = IsList(r) ? "ADR-224.4" : IsObject(r) ? "ADR-224.3" : "ADR-224.5";
  return MakeFinding(clause, kWireViolation, request, at_response,
                     "the functionResponse for " + expected.label +
                         " keeps the value but not in the ADR-224 encoding",
                     IsList(r) ? NumericKeyObject(r.value) : r.value, response);
}

// The payload check of one identified answer.
void JudgePayload(const CaseRun& run, const detail::ConversationTurn& turn,
                  const TurnExpectations& expectations, std::size_t call,
                  const Assignment& assigned, std::size_t request, const detail::ResponseAt& at,
                  std::vector<Finding>& findings) {
  const auto& expected = expectations.of_call[assigned.result];
  if (!expected) return;
  const Json* response = detail::Member(*at.fr, "response");
  if (response == nullptr || !response->is_object()) {
    findings.push_back(NoObjectResponse(*expected, request, at, response));
    return;
  }
  const std::string at_response = at.pointer + "/response";
  if (assigned.repeats) {
    // "Each result appears exactly once among the answers": identical ID-less calls may take
    // their results in any order, but one result sent twice leaves another unsent.
    findings.push_back(Misassociated(run, turn, call, *assigned.repeats, request, at_response,
                                     " carries again the result already sent for call ",
                                     *expected, *response));
    return;
  }
  const Json* name = detail::Member(*at.fr, "name");
  const auto reading = Accepts(run.profile, *expected, *response, name)
                           ? std::optional<Expected>(*expected)
                           : AcceptedReading(run.profile, *expected, *response, name, findings);
  if (reading) {
    if (run.profile != Profile::kGemini) return;
    const auto other = AlsoCarried(expectations, assigned.result, *reading, *response, name);
    if (other) {
      findings.push_back(Misassociated(run, turn, call, *other, request, at_response,
                                       " carries, besides its own, the result of call ",
                                       *expected, *response));
    }
    return;
  }
  if (!PreservingForm(run.profile, *expected, *response, name)) {
    // Under adr, a value kept in a framework's own wrapping up to an open kind only is the
    // encoding's finding and ADR-224.F1's, not a lost value.
    if (run.profile == Profile::kAdr &&
        ClosestPlace(Profile::kAdr, *expected, at_response, *response, name).rank != 0 &&
        ClosestPlace(Profile::kGemini, *expected, at_response, *response, name).rank == 0) {
      findings.push_back(NotAdrEncoded(*expected, request, at_response, *response));
      findings.push_back(DiagnosePayload(Profile::kGemini, *expected, request, at_response,
                                         *response, name));
      return;
    }
    JudgeLostPayload(run, turn, expectations, call, assigned, request, at_response, *at.fr,
                     *response, findings);
    return;
  }
  findings.push_back(NotAdrEncoded(*expected, request, at_response, *response));
}

using Carries = std::function<bool(std::size_t call, std::size_t result)>;

// A maximum matching of the group's answers to its results (augmenting paths, each call's own
// result tried first): result -> the call whose answer carries it.
std::map<std::size_t, std::size_t> MatchGroup(const std::vector<std::size_t>& group,
                                              const Carries& carries) {
  std::map<std::size_t, std::size_t> holder;
  std::function<bool(std::size_t, std::set<std::size_t>&)> augment =
      [&](std::size_t c, std::set<std::size_t>& seen) {
        std::vector<std::size_t> order{c};
        for (const std::size_t r : group) {
          if (r != c) order.push_back(r);
        }
        for (const std::size_t r : order) {
          if (!carries(c, r) || !seen.insert(r).second) continue;
          const auto held = holder.find(r);
          if (held == holder.end() || augment(held->second, seen)) {
            holder[r] = c;
            return true;
          }
        }
        return false;
      };
  for (const std::size_t c : group) {
    std::set<std::size_t> seen;
    augment(c, seen);
  }
  return holder;
}

// The results of one group of identical ID-less calls, interchangeable among them (ADR-226.20):
// each answer takes a result it carries (a maximum matching), else one it keeps up to an
// ADR-224.F1 kind, else repeats one already carried, else the first one left.
void AssignGroup(const std::vector<std::size_t>& group, const TurnExpectations& expectations,
                 const detail::TurnAnswers& answers, const Carries& carries,
                 const std::function<bool(std::size_t, std::size_t)>& kind_only,
                 std::vector<Assignment>& out) {
  const auto holder = MatchGroup(group, carries);
  std::vector<std::size_t> free_results;
  for (const std::size_t r : group) {
    if (!holder.contains(r) && expectations.of_call[r]) free_results.push_back(r);
  }
  std::set<std::size_t> matched;
  for (const auto& [r, c] : holder) {
    out[c].result = r;
    matched.insert(c);
  }
  for (const std::size_t c : group) {
    if (matched.contains(c) || !answers.answer_of[c]) continue;
    // ADR-224: "This decision does not close nested JSON-kind preservation": a result no
    // answer carries but this one keeps up to such a kind is its result, not a repetition.
    const auto close = std::find_if(free_results.begin(), free_results.end(),
                                    [&](std::size_t r) { return kind_only(c, r); });
    if (close != free_results.end()) {
      out[c] = {*close, std::nullopt, true};
      free_results.erase(close);
      continue;
    }
    for (const auto& entry : holder) {
      if (carries(c, entry.first)) out[c] = {entry.first, entry.first};
    }
    if (out[c].repeats || free_results.empty()) continue;
    // Its own result when no answer carries it, else the first one no answer carries.
    const auto own = std::find(free_results.begin(), free_results.end(), c);
    const auto pick = own != free_results.end() ? own : free_results.begin();
    out[c].result = *pick;
    free_results.erase(pick);
  }
}

// Per call, the result its answer's payload is judged against. Identical ID-less calls are
// interchangeable (nothing tells their answers apart), so their answers may carry their results
// in any order, but together exactly once each: the payloads' multiset must be the results'
// (ADR-226.20, "Fresh same-name/same-argument parallel calls can be answered unambiguously
// even when their generic list is reordered"). An answer left over is judged against a result
// no answer carries, or reported as carrying a result a second time.
std::vector<Assignment> AssignResults(Profile profile, const detail::ConversationTurn& turn,
                                      const TurnExpectations& expectations,
                                      const detail::TurnAnswers& answers) {
  const std::size_t n = turn.calls.size();
  std::vector<Assignment> out(n);
  for (std::size_t c = 0; c < n; ++c) out[c].result = c;
  // Which result an answer carries is told by its value, whatever the wrapping: under adr, an
  // answer that keeps a result in a framework's own wrapping is still that result's (its
  // encoding is JudgePayload's finding), so identical calls are not taken as swapped for it.
  const auto accepts = [&](const Expected& e, const Json& response, const Json* name) {
    return Accepts(profile, e, response, name) ||
           (profile == Profile::kAdr && Accepts(Profile::kGemini, e, response, name));
  };
  const Carries carries = [&](std::size_t c, std::size_t r) {
    if (!answers.answer_of[c] || !expectations.of_call[r]) return false;
    const Json& fr = *answers.responses[*answers.answer_of[c]].fr;
    const Json* response = detail::Member(fr, "response");
    if (response == nullptr || !response->is_object()) return false;
    const Json* name = detail::Member(fr, "name");
    const Expected& e = *expectations.of_call[r];
    if (accepts(e, *response, name)) return true;
    const auto readings = ReadingsOf(e);
    return std::any_of(readings.begin(), readings.end(), [&](const Expected& reading) {
      return accepts(reading, *response, name);
    });
  };
  // Whether call c's answer keeps result r up to an ADR-224.F1 kind only (224.F1, not 226.20).
  const auto kind_only = [&](std::size_t c, std::size_t r) {
    const Json* response =
        detail::Member(*answers.responses[*answers.answer_of[c]].fr, "response");
    if (response == nullptr || !response->is_object()) return false;
    const Json* name = detail::Member(*answers.responses[*answers.answer_of[c]].fr, "name");
    const auto close = [&](Profile p) {
      return ClosestPlace(p, *expectations.of_call[r], "", *response, name).rank == 0;
    };
    return close(profile) || (profile == Profile::kAdr && close(Profile::kGemini));
  };
  const auto interchangeable = [&](std::size_t c) {
    return !turn.calls[c].native_id && !turn.calls[c].answered_inside;
  };
  std::vector<bool> grouped(n, false);
  for (std::size_t first = 0; first < n; ++first) {
    if (grouped[first] || !interchangeable(first)) continue;
    std::vector<std::size_t> group;
    for (std::size_t c = first; c < n; ++c) {
      if (grouped[c] || !interchangeable(c) || !Identical(turn.calls[first], turn.calls[c])) {
        continue;
      }
      grouped[c] = true;
      group.push_back(c);
    }
    if (group.size() < 2) continue;
    AssignGroup(group, expectations, answers, carries, kind_only, out);
  }
  return out;
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
  const auto assigned = AssignResults(run.profile, turn, expectations, answers);
  for (std::size_t r = 0; r < answers.responses.size(); ++r) {
    const auto& call = answers.call_of[r];
    if (!call || answers.answer_of[*call] != r) continue;
    JudgeEcho(run, turn, *call, request, answers.responses[r], findings);
    JudgePayload(run, turn, expectations, *call, assigned[*call], request, answers.responses[r],
                 findings);
  }
}

// The readings of a text that names a member twice (first and last value kept), else none.
std::vector<Json> RepeatedMemberReadings(const std::string& text) {
  JudgeDecoded last = DecodeJudgeJson(text, RepeatedMember::kLast);
  if (!last.value || !last.repeated_member) return {};
  JudgeDecoded first = DecodeJudgeJson(text, RepeatedMember::kFirst);
  std::vector<Json> out{std::move(*last.value)};
  if (first.value && !SameJson(*first.value, out.front())) out.push_back(std::move(*first.value));
  return out;
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
    e.readings = RepeatedMemberReadings(content->get<std::string>());
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
    // The turn read once for every selector (INTERPRETING §5.6: calls, not pieces).
    const detail::CallsView scripted =
        detail::ReadCalls(detail::ScriptedParts(run.c.exchanges[k]));
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
      } else if (e.result.kind == model::Result::Kind::kText && e.result.value.is_string()) {
        e.readings = RepeatedMemberReadings(e.result.value.get<std::string>());
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
  std::vector<bool> noted(turns.size(), false);
  for (std::size_t r = 0; r < decoded.size(); ++r) {
    const Json* contents = detail::Contents(decoded[r].body);
    if (contents == nullptr) continue;
    const std::size_t carried = detail::TurnsInRequest(run.c, r + 1);
    for (std::size_t t = 0; t < turns.size(); ++t) {
      const auto answers = detail::AnswersToTurn(turns, t, carried, *contents);
      if (!answers) continue;
      if (turns[t].malformed_pieces) {
        // INTERPRETING §5.6 defines a turn's calls only where its pieces keep the grammar; a
        // turn that breaks it (the parse must refuse it: §5.6, the reference's refusals cited
        // as ADR-226.B1) has no calls to answer, so which functionResponse answers which call
        // is not judged; the note cites ADR-226.B1, the level §5.6 "Levels" gives what an
        // implementation makes of a call in pieces. The replay judge still asks for every
        // part verbatim (ADR-224.8).
        if (!noted[t]) {
          findings.push_back(NotJudged(
              "ADR-226.B1", "the answers to " + turns[t].label + ": its function call pieces break "
                        "the grammar of INTERPRETING §5.6 (" + *turns[t].malformed_pieces +
                        "), so its calls are not defined"));
          noted[t] = true;
        }
        continue;
      }
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
