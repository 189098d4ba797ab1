// ADR-226.3, WIRE.1, WIRE.2: the call a functionResponse answers, found from its id, its name
// and its position among same-name calls, never from its payload, so a result wrapped in any
// object (ADR-224 leaves the fallback key to the implementation) is still judged by its id.
#include "oracles/checks/answers.h"
#include "oracles/checks/judge_json.h"

#include "oracles/checks/wire_view.h"
#include "oracles/model/call_pieces.h"
#include "oracles/model/server_answered.h"

namespace gemini_oracle::checks::detail {
namespace {

// The calls of `parts` as turn calls (a call in pieces is one call with its assembled args,
// INTERPRETING §5.6: "one functionResponse"); a call answered by a functionResponse of the same
// parts (server-side tools, ADR-226.B2) is marked answered inside, by the one rule the case
// checker applies too.
std::vector<TurnCall> NativeCalls(const Json& parts, const model::TurnCalls& turn) {
  std::vector<TurnCall> calls;
  if (!parts.is_array()) return calls;
  const std::vector<bool> inside = model::CallsAnsweredInside(parts, turn);
  for (const model::PieceCall& piece_call : turn.calls) {
    const std::size_t p = piece_call.pieces.front();
    const Json& fc = piece_call.call;
    TurnCall call;
    if (const Json* name = Member(fc, "name")) call.name = *name;
    if (const Json* id = Member(fc, "id")) {
      if (id->is_null()) {
        call.null_id = true;
      } else {
        call.native_id = *id;
      }
    }
    if (const Json* args = Member(fc, "args")) call.args = *args;
    call.answered_inside = inside[p];
    calls.push_back(std::move(call));
  }
  return calls;
}

bool SameJson(const std::optional<Json>& a, const Json* b) {
  return a && b != nullptr && checks::SameJson(*a, *b);
}

}  // namespace

std::vector<std::optional<std::size_t>> IdentifyCalls(const std::vector<TurnCall>& calls,
                                                      const std::vector<bool>& eligible,
                                                      const std::vector<const Json*>& responses,
                                                      bool pair_leftovers) {
  std::vector<std::optional<std::size_t>> call_of(responses.size());
  std::vector<bool> claimed(calls.size(), false);
  // (1) by native id, (2) by a name only one pending call has.
  for (std::size_t r = 0; r < responses.size(); ++r) {
    const Json* id = Member(*responses[r], "id");
    const Json* name = Member(*responses[r], "name");
    std::optional<std::size_t> by_id;
    std::optional<std::size_t> by_name;
    std::size_t ids = 0;
    std::size_t names = 0;
    for (std::size_t c = 0; c < calls.size(); ++c) {
      if (!eligible[c]) continue;
      if (SameJson(calls[c].native_id, id)) {
        ++ids;
        by_id = c;
      }
      if (SameJson(calls[c].name, name)) {
        ++names;
        by_name = c;
      }
    }
    if (ids == 1) {
      call_of[r] = by_id;
    } else if (names == 1) {
      call_of[r] = by_name;
    }
    if (call_of[r]) claimed[*call_of[r]] = true;
  }
  // (3) by position among the calls of the same name that nothing claimed yet.
  for (std::size_t r = 0; r < responses.size(); ++r) {
    if (call_of[r]) continue;
    const Json* name = Member(*responses[r], "name");
    for (std::size_t c = 0; c < calls.size(); ++c) {
      if (eligible[c] && !claimed[c] && SameJson(calls[c].name, name)) {
        call_of[r] = c;
        claimed[c] = true;
        break;
      }
    }
  }
  if (!pair_leftovers) return call_of;
  // (4) what is left, in order: a wrong name is then judged against the call it stands for.
  for (std::size_t r = 0; r < responses.size(); ++r) {
    if (call_of[r]) continue;
    for (std::size_t c = 0; c < calls.size(); ++c) {
      if (eligible[c] && !claimed[c]) {
        call_of[r] = c;
        claimed[c] = true;
        break;
      }
    }
  }
  return call_of;
}

std::vector<ConversationTurn> ConversationTurns(const model::Case& c) {
  std::vector<ConversationTurn> turns;
  std::size_t n = 0;
  for (const Json* message : InitialAssistants(c)) {
    ConversationTurn turn;
    turn.label = "initial model turn " + std::to_string(++n);
    if (const Json* parts = CapsuleNativeParts(*message)) {
      const model::TurnCalls read = model::GroupCalls(*parts);  // the turn read once
      turn.calls = NativeCalls(*parts, read);
      turn.malformed_pieces = read.malformed;
    } else {
      // Foreign and generic turns are rebuilt from their generic calls, without ids.
      turn.foreign = true;
      const Json* calls = Member(*message, "tool_calls");
      if (calls != nullptr && calls->is_array()) {
        for (const auto& generic : *calls) {
          TurnCall call;
          if (const Json* name = Member(generic, "name")) call.name = *name;
          if (const Json* args = Member(generic, "arguments")) call.args = *args;
          turn.calls.push_back(std::move(call));
        }
      }
    }
    turns.push_back(std::move(turn));
  }
  for (std::size_t k = 0; k < c.exchanges.size(); ++k) {
    ConversationTurn turn;
    turn.label = "exchange " + std::to_string(k + 1);
    const Json parts = ScriptedParts(c.exchanges[k]);
    const model::TurnCalls read = model::GroupCalls(parts);  // the turn read once
    turn.calls = NativeCalls(parts, read);
    turn.malformed_pieces = read.malformed;
    turns.push_back(std::move(turn));
  }
  return turns;
}

std::size_t TurnsInRequest(const model::Case& c, std::size_t request) {
  const std::size_t exchanges = request == 0 ? 0 : std::min(request - 1, c.exchanges.size());
  return InitialAssistants(c).size() + exchanges;
}

TurnAnswers IdentifyAnswers(const ConversationTurn& turn, const Json& contents,
                            std::size_t model_at, std::size_t end) {
  TurnAnswers answers;
  answers.model_at = model_at;
  answers.end = end;
  std::vector<const Json*> frs;
  for (std::size_t c = model_at + 1; c < end && c < contents.size(); ++c) {
    const Json* parts = Member(contents[c], "parts");
    if (parts == nullptr || !parts->is_array()) continue;
    for (std::size_t p = 0; p < parts->size(); ++p) {
      const Json* fr = Member((*parts)[p], "functionResponse");
      if (fr == nullptr || !fr->is_object()) continue;
      answers.responses.push_back(
          {c, p, fr,
           "/contents/" + std::to_string(c) + "/parts/" + std::to_string(p) + "/functionResponse"});
      frs.push_back(fr);
    }
  }
  std::vector<bool> pending(turn.calls.size());
  for (std::size_t c = 0; c < turn.calls.size(); ++c) pending[c] = !turn.calls[c].answered_inside;
  answers.call_of = IdentifyCalls(turn.calls, pending, frs, true);
  answers.answer_of.assign(turn.calls.size(), std::nullopt);
  for (std::size_t r = 0; r < answers.call_of.size(); ++r) {
    const auto& call = answers.call_of[r];
    if (call && !answers.answer_of[*call]) answers.answer_of[*call] = r;
  }
  return answers;
}

std::optional<TurnAnswers> AnswersToTurn(const std::vector<ConversationTurn>& turns,
                                         std::size_t turn, std::size_t carried,
                                         const Json& contents) {
  if (turn >= turns.size() || turn >= carried) return std::nullopt;
  const auto models = ModelContentPositions(contents);
  if (turn >= models.size()) return std::nullopt;  // the replay judge's finding
  const std::size_t end = turn + 1 < models.size() ? models[turn + 1] : contents.size();
  return IdentifyAnswers(turns[turn], contents, models[turn], end);
}

}  // namespace gemini_oracle::checks::detail
