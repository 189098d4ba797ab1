// ADR-224.2-224.6, 226.3, 226.4, 226.16, 226.20: tool results as the wire carries them.
// - The results appended after exchange k, as request k+1 sends them; the native id to echo is
//   the scripted response's.
// - The tool messages of the case's initial transcript, in every request; the native id to echo
//   comes only from the case file (the capsule's bindings, else an unambiguous legacy match).
// Each result's functionResponse is found by its payload's wire form, then its root shape,
// name and ID echo are judged. Never the implementation's report: the journal is the wire.
#include "oracles/checks/judge.h"
#include "oracles/checks/wire_view.h"
#include "oracles/model/payload_forms.h"

namespace gemini_oracle::checks {
namespace {

struct ResponseRef {
  std::size_t content = 0;
  std::size_t part = 0;
  const Json* fr = nullptr;
  std::string pointer;  // of the functionResponse object
};

bool IsNumericKeyObjectOf(const Json& response, const Json& list) {
  if (!response.is_object() || response.size() != list.size()) return false;
  std::size_t i = 0;
  for (auto it = response.begin(); it != response.end(); ++it, ++i) {
    if (it.key() != std::to_string(i)) return false;
    if (!KindExactEqual(it.value(), list[i])) return false;
  }
  return true;
}

// ADR-224.5: a scalar, text or error payload is wrapped in an object of exactly one member
// (the member name is implementation-defined).
bool WrapsExactly(const Json& response, const Json& value) {
  return response.is_object() && response.size() == 1 && KindExactEqual(*response.begin(), value);
}

bool JsonPayloadMatches(const Json& payload, const Json& response) {
  if (!response.is_object()) return false;
  if (payload.is_object()) return KindExactEqual(response, payload);       // ADR-224.2/3
  if (payload.is_array()) return IsNumericKeyObjectOf(response, payload);  // ADR-224.4/6
  return WrapsExactly(response, payload);                                  // ADR-224.5
}

bool Matches(const model::Result& result, const Json& response) {
  if (!response.is_object()) return false;
  switch (result.kind) {
    case model::Result::Kind::kJson:
      return JsonPayloadMatches(result.value, response);
    case model::Result::Kind::kText:  // corpus text payloads are never valid JSON texts
    case model::Result::Kind::kError:
      return WrapsExactly(response, result.value);
  }
  return false;
}

bool IsScalarResult(const model::Result& result) {
  return result.kind != model::Result::Kind::kJson ||
         (!result.value.is_object() && !result.value.is_array());
}

// Why `fr` fails to carry `result`: the most specific clause and pointer.
Finding Diagnose(const model::Result& result, const std::string& label, std::size_t request,
                 const ResponseRef& ref) {
  const Json* response = detail::Member(*ref.fr, "response");
  const std::string at = ref.pointer + "/response";
  const bool list = result.kind == model::Result::Kind::kJson && result.value.is_array();
  Json expected = result.value;
  if (list) {
    Json object = Json::object();
    for (std::size_t i = 0; i < result.value.size(); ++i) {
      object[std::to_string(i)] = result.value[i];
    }
    expected = std::move(object);
  }
  if (response == nullptr || !response->is_object()) {
    // ADR-224.4 for a list result sent as a list; ADR-224.2 otherwise.
    return MakeFinding(list ? "ADR-224.4" : "ADR-224.2", kWireViolation, request,
                       response == nullptr ? ref.pointer : at,
                       "the functionResponse for " + label + " has no object response",
                       list ? expected : Json("object"),
                       response == nullptr ? Json("absent") : *response);
  }
  if (IsScalarResult(result)) {
    // ADR-224.5: a scalar, text or error result is wrapped in an object holding it.
    return MakeFinding("ADR-224.5", kWireViolation, request, at,
                       "the functionResponse for " + label + " does not wrap the result value",
                       result.value, *response);
  }
  if (list) {
    // ADR-224.4: keys "0".."n-1", in order.
    bool keys_ok = response->size() == expected.size();
    std::size_t i = 0;
    for (auto it = response->begin(); keys_ok && it != response->end(); ++it, ++i) {
      keys_ok = it.key() == std::to_string(i);
    }
    if (!keys_ok) {
      return MakeFinding("ADR-224.4", kWireViolation, request, at,
                         "the list result " + label + " is not keyed by its indices in order",
                         expected, *response);
    }
  }
  // ADR-224.6: a nested list stays a list.
  if (auto where = detail::ListTurnedObject(expected, *response, at)) {
    return MakeFinding("ADR-224.6", kWireViolation, request, *where,
                       "a list nested in " + label + " became an object", expected, *response);
  }
  // ADR-224.3: members are preserved (nothing dropped, renamed or re-typed).
  const std::string where = detail::FirstDifference(expected, *response, at).value_or(at);
  return MakeFinding("ADR-224.3", kWireViolation, request, where,
                     "the functionResponse for " + label + " changes the result's members",
                     expected, *response);
}

const char* KindOfFinding(const model::Result& result) {
  if (result.kind == model::Result::Kind::kJson && result.value.is_array()) return "ADR-224.4";
  if (IsScalarResult(result)) return "ADR-224.5";
  return "ADR-224.3";
}

// What the answer to one call must look like, and which id it must echo.
struct Answer {
  model::Result result;     // the payload (its `call` is unused here)
  std::string label;         // "result 1 of exchange 2", "tool message 3 of the transcript"
  std::optional<Json> name;  // the answered call's name, when known
  enum class IdRule {
    kUnknown,       // the answered call is not determinable: nothing to echo-check
    kExact,         // echo exactly `id` (ADR-226.3)
    kAbsent,        // the call had no native id: no id (ADR-226.4, or 226.16 for foreign turns)
    kNativeOfTurn,  // undeterminable legacy call: a present id must be a native id of the turn
  } id_rule = IdRule::kUnknown;
  Json id;                     // kExact
  std::vector<Json> turn_ids;  // kNativeOfTurn
  const char* absent_clause = "ADR-226.4";
};

// One model content and the answers its calls receive in one request.
struct Segment {
  std::size_t request = 0;
  const Json* contents = nullptr;
  std::size_t model_at = 0;
  std::size_t end = 0;       // the next model content, or contents->size()
  std::string label;         // "exchange 2", "initial model turn 1"
  std::size_t expected = 0;  // functionResponse parts the answering content must hold
};

bool IdSatisfies(const Answer& answer, const Json* echoed) {
  switch (answer.id_rule) {
    case Answer::IdRule::kUnknown:
      return true;
    case Answer::IdRule::kExact:
      return echoed != nullptr && KindExactEqual(*echoed, answer.id);
    case Answer::IdRule::kAbsent:
      return echoed == nullptr;
    case Answer::IdRule::kNativeOfTurn:
      if (echoed == nullptr) return true;
      for (const auto& id : answer.turn_ids) {
        if (KindExactEqual(*echoed, id)) return true;
      }
      return false;
  }
  return true;
}

// The name and id checks of one matched answer. `peers` are the answers whose payloads clash
// with it (the case gives no way to tell their functionResponses apart): then any peer's name
// and id rule is accepted.
void CheckEcho(const Answer& answer, const std::vector<const Answer*>& peers,
               const Segment& segment, const ResponseRef& ref, std::vector<Finding>& findings) {
  const std::string what = "the functionResponse for " + answer.label;
  const Json* name = detail::Member(*ref.fr, "name");
  if (answer.name) {
    bool ok = name != nullptr && KindExactEqual(*name, *answer.name);
    for (const Answer* peer : peers) {
      ok = ok || (peer->name && name != nullptr && KindExactEqual(*name, *peer->name));
    }
    if (!ok) {
      // ADR-226.3: the answer names the call it answers.
      findings.push_back(MakeFinding("ADR-226.3", kWireViolation, segment.request,
                                     ref.pointer + "/name",
                                     what + " names another function than its call", *answer.name,
                                     name == nullptr ? Json("absent") : *name));
    }
  }
  const Json* echoed = detail::Member(*ref.fr, "id");
  if (IdSatisfies(answer, echoed)) return;
  for (const Answer* peer : peers) {
    if (IdSatisfies(*peer, echoed)) return;
  }
  switch (answer.id_rule) {
    case Answer::IdRule::kExact:
      // ADR-226.3: echo exactly the native ID bound to this result's call.
      findings.push_back(
          MakeFinding("ADR-226.3", kWireViolation, segment.request,
                      echoed == nullptr ? ref.pointer : ref.pointer + "/id",
                      what + (echoed == nullptr ? " omits the native id of its call"
                                                : " carries another id than its call's native id"),
                      answer.id, echoed == nullptr ? Json("absent") : *echoed));
      break;
    case Answer::IdRule::kAbsent:
      // ADR-226.4 (226.16 for foreign and generic turns): an absent native ID stays absent.
      findings.push_back(
          MakeFinding(answer.absent_clause, kWireViolation, segment.request, ref.pointer + "/id",
                      what + " carries an id although its call had none", "absent", *echoed));
      break;
    case Answer::IdRule::kNativeOfTurn: {
      // ADR-226.4: no id the answered turn never carried.
      Json allowed = Json::array();
      for (const auto& id : answer.turn_ids) allowed.push_back(id);
      findings.push_back(MakeFinding(
          "ADR-226.4", kWireViolation, segment.request, ref.pointer + "/id",
          what + " carries an id that no native part of its turn had", allowed, *echoed));
      break;
    }
    case Answer::IdRule::kUnknown:
      break;
  }
}

bool PayloadFormIsObject(const model::Result& result) {
  return result.kind == model::Result::Kind::kJson &&
         (result.value.is_object() || result.value.is_array());
}

Json PayloadForm(const model::Result& result) {
  return model::PayloadWireForm(result.kind == model::Result::Kind::kJson, result.value);
}

void JudgeSegment(const Segment& segment, const std::vector<Answer>& answers,
                  std::vector<Finding>& findings) {
  const Json& contents = *segment.contents;
  std::vector<ResponseRef> responses;
  std::vector<std::size_t> answering_contents;
  for (std::size_t c = segment.model_at + 1; c < segment.end; ++c) {
    const Json* parts = detail::Member(contents[c], "parts");
    if (parts == nullptr || !parts->is_array()) continue;
    bool any = false;
    for (std::size_t p = 0; p < parts->size(); ++p) {
      const Json* fr = detail::Member((*parts)[p], "functionResponse");
      if (fr == nullptr || !fr->is_object()) continue;
      any = true;
      responses.push_back(
          {c, p, fr,
           "/contents/" + std::to_string(c) + "/parts/" + std::to_string(p) + "/functionResponse"});
    }
    if (any) answering_contents.push_back(c);
  }

  const std::string& label = segment.label;
  const std::size_t request = segment.request;
  // ADR-226.20: all answers of one call turn travel in one user content, one per call.
  if (answering_contents.size() > 1) {
    findings.push_back(MakeFinding(
        "ADR-226.20", kWireViolation, request, "/contents/" + std::to_string(answering_contents[1]),
        "the results of " + label + " are split over " + std::to_string(answering_contents.size()) +
            " contents instead of one",
        1, answering_contents.size()));
  }
  if (!answering_contents.empty()) {
    const std::size_t a = answering_contents.front();
    if (a != segment.model_at + 1) {
      findings.push_back(
          MakeFinding("ADR-226.20", kWireViolation, request,
                      "/contents/" + std::to_string(segment.model_at + 1),
                      "the results of " + label + " do not follow the model content they answer",
                      segment.model_at + 1, a));
    }
    const Json* role = detail::Member(contents[a], "role");
    if (role == nullptr || !role->is_string() || *role != "user") {
      findings.push_back(MakeFinding("ADR-226.20", kWireViolation, request,
                                     "/contents/" + std::to_string(a) + "/role",
                                     "the results of " + label + " are not in a user content",
                                     "user", role == nullptr ? Json("absent") : *role));
    }
    std::size_t answered = 0;
    for (const auto& ref : responses) answered += ref.content == a ? 1 : 0;
    if (answered != segment.expected) {
      findings.push_back(MakeFinding(
          "ADR-226.20", kWireViolation, request, "/contents/" + std::to_string(a) + "/parts",
          "the answering content of " + label + " holds " + std::to_string(answered) +
              " functionResponse parts for " + std::to_string(segment.expected) + " answered calls",
          segment.expected, answered));
    }
  }

  // Identify each answer's functionResponse by its payload: object and list payloads first (an
  // exact object), then scalar, text and error payloads (a one-member wrapper), so a wrapped
  // scalar never takes the functionResponse of an object payload it could also match.
  std::vector<bool> claimed(responses.size(), false);
  std::vector<std::optional<std::size_t>> match(answers.size());
  for (const bool objects : {true, false}) {
    for (std::size_t r = 0; r < answers.size(); ++r) {
      if (PayloadFormIsObject(answers[r].result) != objects) continue;
      for (std::size_t f = 0; f < responses.size(); ++f) {
        if (claimed[f]) continue;
        const Json* response = detail::Member(*responses[f].fr, "response");
        if (response != nullptr && Matches(answers[r].result, *response)) {
          claimed[f] = true;
          match[r] = f;
          break;
        }
      }
    }
  }

  std::vector<Json> forms;
  forms.reserve(answers.size());
  for (const auto& answer : answers) forms.push_back(PayloadForm(answer.result));
  for (std::size_t r = 0; r < answers.size(); ++r) {
    const Answer& answer = answers[r];
    if (!match[r]) {
      // Diagnose against the first unclaimed functionResponse, preferring the call's name.
      std::optional<std::size_t> candidate;
      for (std::size_t f = 0; f < responses.size() && !candidate; ++f) {
        const Json* name = detail::Member(*responses[f].fr, "name");
        if (!claimed[f] && answer.name && name != nullptr && *name == *answer.name) {
          candidate = f;
        }
      }
      for (std::size_t f = 0; f < responses.size() && !candidate; ++f) {
        if (!claimed[f]) candidate = f;
      }
      if (candidate) {
        claimed[*candidate] = true;
        findings.push_back(Diagnose(answer.result, answer.label, request, responses[*candidate]));
      } else {
        findings.push_back(MakeFinding(
            KindOfFinding(answer.result), kWireViolation, request,
            "/contents/" + std::to_string(answering_contents.empty() ? segment.model_at + 1
                                                                     : answering_contents.front()),
            "no functionResponse carries " + answer.label, answer.result.value, nullptr));
      }
      continue;
    }
    std::vector<const Answer*> peers;
    for (std::size_t o = 0; o < answers.size(); ++o) {
      if (o != r && model::PayloadsClash(forms[r], forms[o])) peers.push_back(&answers[o]);
    }
    CheckEcho(answer, peers, segment, responses[*match[r]], findings);
  }
}

// The results appended after exchange k, in request k+1.
void JudgeExchangeResults(const CaseRun& run, const std::vector<detail::DecodedRequest>& decoded,
                          std::size_t initial_turns, std::vector<Finding>& findings) {
  for (std::size_t k = 1; k <= run.c.exchanges.size(); ++k) {
    const model::Exchange& exchange = run.c.exchanges[k - 1];
    const auto& results = exchange.then.results;
    if (results.empty() || decoded.size() < k + 1) continue;
    const Json* contents = detail::Contents(decoded[k].body);
    if (contents == nullptr) continue;
    // The model content replaying turn k anchors its answers; a missing one is the replay
    // judge's finding.
    const auto models = detail::ModelContentPositions(*contents);
    const std::size_t turn = initial_turns + (k - 1);
    if (turn >= models.size()) continue;
    Segment segment;
    segment.request = k + 1;
    segment.contents = contents;
    segment.model_at = models[turn];
    segment.end = turn + 1 < models.size() ? models[turn + 1] : contents->size();
    segment.label = "exchange " + std::to_string(k);
    const Json* model_parts = detail::Member((*contents)[segment.model_at], "parts");
    segment.expected =
        model_parts == nullptr ? 0 : detail::FunctionCallPositions(*model_parts).size();

    const Json scripted = detail::ScriptedParts(exchange);
    const auto call_positions = detail::FunctionCallPositions(scripted);
    std::vector<Answer> answers;
    for (std::size_t r = 0; r < results.size(); ++r) {
      Answer answer;
      answer.result = results[r];
      answer.label = "result " + std::to_string(r) + " of exchange " + std::to_string(k);
      if (const auto selected = detail::ResolveSelector(results[r].call, scripted)) {
        const Json& native = scripted[call_positions[*selected]]["functionCall"];
        if (const Json* name = detail::Member(native, "name")) answer.name = *name;
        if (const Json* id = detail::Member(native, "id")) {
          answer.id_rule = Answer::IdRule::kExact;
          answer.id = *id;
        } else {
          answer.id_rule = Answer::IdRule::kAbsent;
        }
      }
      answers.push_back(std::move(answer));
    }
    JudgeSegment(segment, answers, findings);
  }
}

// A tool message's payload as §5.4 states it: JSON text is its value, other text is text, and
// is_error makes it an error. Nullopt for a message without string content.
std::optional<model::Result> ToolPayload(const Json& message) {
  const Json* content = detail::Member(message, "content");
  if (content == nullptr || !content->is_string()) return std::nullopt;
  model::Result result;
  const Json* is_error = detail::Member(message, "is_error");
  if (is_error != nullptr && is_error->is_boolean() && is_error->get<bool>()) {
    result.kind = model::Result::Kind::kError;
    result.value = *content;
    return result;
  }
  if (auto value = detail::DecodeToolContent(content->get<std::string>())) {
    result.value = std::move(*value);
    result.kind = model::Result::Kind::kJson;
  } else {
    result.kind = model::Result::Kind::kText;
    result.value = *content;
  }
  return result;
}

// Where the answer to generic call `call` of an initial assistant turn must echo from, taken
// only from the case file.
void ExpectIdFromCase(const Json& message, const Json& call, Answer& answer) {
  const Json* native_parts = detail::CapsuleNativeParts(message);
  if (native_parts == nullptr) {
    // Foreign and generic turns provide no native binding (ADR-226.16).
    answer.id_rule = Answer::IdRule::kAbsent;
    answer.absent_clause = "ADR-226.16";
    return;
  }
  const Json* public_id = detail::Member(call, "id");
  const auto positions = detail::FunctionCallPositions(*native_parts);
  std::vector<Json> turn_ids;
  for (const std::size_t p : positions) {
    if (const Json* id = detail::Member((*native_parts)[p]["functionCall"], "id")) {
      turn_ids.push_back(*id);
    }
  }
  const Json& capsule = message["provider_state"]["gemini"];
  if (const Json* bindings = detail::Member(capsule, "tool_call_bindings")) {
    if (!bindings->is_array() || public_id == nullptr) {
      // Malformed stored state: a refusal case; only a native id of the turn may appear.
      answer.id_rule = Answer::IdRule::kNativeOfTurn;
      answer.turn_ids = std::move(turn_ids);
      return;
    }
    for (const auto& binding : *bindings) {
      const Json* bound = detail::Member(binding, "tool_call_id");
      const Json* native_id = detail::Member(binding, "native_id");
      if (bound == nullptr || native_id == nullptr || !KindExactEqual(*bound, *public_id)) {
        continue;
      }
      answer.id_rule = Answer::IdRule::kExact;
      answer.id = *native_id;
      for (const std::size_t p : positions) {
        const Json& fc = (*native_parts)[p]["functionCall"];
        const Json* id = detail::Member(fc, "id");
        const Json* name = detail::Member(fc, "name");
        if (id != nullptr && name != nullptr && KindExactEqual(*id, *native_id))
          answer.name = *name;
      }
      return;
    }
    // An unbound call of a turn with bindings had no native id (ADR-226.2 binds every one).
    answer.id_rule = Answer::IdRule::kAbsent;
    return;
  }
  // A legacy capsule: the unique native part with the same name and ADR-226.8-equal args.
  const Json* name = detail::Member(call, "name");
  const Json* arguments = detail::Member(call, "arguments");
  const Json empty = Json::object();
  std::optional<std::size_t> found;
  std::size_t count = 0;
  for (const std::size_t p : positions) {
    const Json& fc = (*native_parts)[p]["functionCall"];
    const Json* native_name = detail::Member(fc, "name");
    const Json* args = detail::Member(fc, "args");
    if (name == nullptr || native_name == nullptr || !KindExactEqual(*name, *native_name)) continue;
    if (!detail::ArgumentsEqual(args != nullptr ? *args : empty,
                             arguments != nullptr ? *arguments : empty)) {
      continue;
    }
    ++count;
    found = p;
  }
  if (count == 1) {
    const Json* id = detail::Member((*native_parts)[*found]["functionCall"], "id");
    if (id != nullptr) {
      answer.id_rule = Answer::IdRule::kExact;
      answer.id = *id;
    } else {
      answer.id_rule = Answer::IdRule::kAbsent;
    }
    return;
  }
  answer.id_rule = Answer::IdRule::kNativeOfTurn;
  answer.turn_ids = std::move(turn_ids);
}

// The tool messages of the initial transcript: each initial assistant turn t is the t-th model
// content of every request (INTERPRETING §8, replay), answered right after it.
void JudgeTranscriptResults(const CaseRun& run, const std::vector<detail::DecodedRequest>& decoded,
                            std::vector<Finding>& findings) {
  const Json& transcript = run.c.transcript;
  if (!transcript.is_array()) return;
  struct Turn {
    std::size_t index = 0;  // among the initial assistant turns
    std::vector<Answer> answers;
  };
  std::vector<Turn> turns;
  std::size_t assistants = 0;
  const Json* current = nullptr;  // the nearest preceding assistant message
  std::vector<bool> answered;
  for (std::size_t m = 0; m < transcript.size(); ++m) {
    const Json& message = transcript[m];
    const Json* role = detail::Member(message, "role");
    if (role == nullptr || !role->is_string()) continue;
    if (*role == "assistant") {
      current = &message;
      turns.push_back({assistants++, {}});
      const Json* calls = detail::Member(message, "tool_calls");
      answered.assign(calls != nullptr && calls->is_array() ? calls->size() : 0, false);
      continue;
    }
    if (*role != "tool" || current == nullptr) continue;
    const Json* calls = detail::Member(*current, "tool_calls");
    const Json* tool_call_id = detail::Member(message, "tool_call_id");
    if (calls == nullptr || !calls->is_array() || tool_call_id == nullptr) continue;
    std::optional<std::size_t> call;
    for (std::size_t i = 0; i < calls->size() && !call; ++i) {
      const Json* id = detail::Member((*calls)[i], "id");
      if (id != nullptr && KindExactEqual(*id, *tool_call_id)) call = i;
    }
    if (!call || answered[*call]) continue;  // orphan or duplicate: a refusal case
    auto payload = ToolPayload(message);
    if (!payload) continue;
    answered[*call] = true;
    Answer answer;
    answer.result = std::move(*payload);
    answer.label = "tool message " + std::to_string(m) + " of the transcript";
    if (const Json* name = detail::Member((*calls)[*call], "name")) answer.name = *name;
    ExpectIdFromCase(*current, (*calls)[*call], answer);
    turns.back().answers.push_back(std::move(answer));
  }

  for (std::size_t r = 0; r < decoded.size(); ++r) {
    const Json* contents = detail::Contents(decoded[r].body);
    if (contents == nullptr) continue;
    const auto models = detail::ModelContentPositions(*contents);
    for (const Turn& turn : turns) {
      // A missing model content is the replay judge's finding.
      if (turn.answers.empty() || turn.index >= models.size()) continue;
      Segment segment;
      segment.request = r + 1;
      segment.contents = contents;
      segment.model_at = models[turn.index];
      segment.end = turn.index + 1 < models.size() ? models[turn.index + 1] : contents->size();
      segment.label = "initial model turn " + std::to_string(turn.index + 1);
      segment.expected = turn.answers.size();
      JudgeSegment(segment, turn.answers, findings);
    }
  }
}

}  // namespace

std::vector<Finding> JudgeResults(const CaseRun& run) {
  std::vector<Finding> findings;
  std::vector<detail::DecodedRequest> storage;
  const auto& decoded = detail::DecodedJournal(run, storage);
  JudgeTranscriptResults(run, decoded, findings);
  JudgeExchangeResults(run, decoded, detail::InitialAssistants(run.c).size(), findings);
  return findings;
}

}  // namespace gemini_oracle::checks
