#pragma once
// Which call each functionResponse of a request answers, identified without its payload
// (ADR-226.3, WIRE.1, WIRE.2): the results judge and `answering` wire assertions share it.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "oracles/model/case.h"
#include "reference_impl/json.h"

namespace gemini_oracle::checks::detail {

/// One call of a model turn, as the case file knows it (a call in pieces: one call).
struct TurnCall {
  std::optional<Json> name;       // its name
  std::optional<Json> native_id;  // its native id, when it had one (never null: see null_id)
  Json args = Json::object();     // its decoded args ({} when absent)
  /// Its native part carried `"id": null`. ADR-226 does not say whether null is an absent or
  /// a malformed id, so the call is ID-less for identification and its answer may omit `id`
  /// or carry null (INTERPRETING §9.3).
  bool null_id = false;
  /// Answered by a functionResponse inside its own model content (server-side tools,
  /// ADR-226.B2; model::CallsAnsweredInside): no answer is due for it in the next user content.
  bool answered_inside = false;
};

/// One model turn of the conversation: the initial assistant turns, then one per exchange.
struct ConversationTurn {
  std::string label;  // "initial model turn 1", "exchange 2"
  /// Rebuilt from generic calls (no capsule): its calls have no native ids (ADR-226.16).
  bool foreign = false;
  std::vector<TurnCall> calls;  // parse order: native calls (a call in pieces is one), or the generic calls
  /// Its native parts break the grammar of a call in pieces (INTERPRETING §5.6): the first
  /// code model::GroupCalls found. Its calls are then read as far as the grammar goes.
  std::optional<std::string> malformed_pieces;
};

/// Every model turn of the case, in conversation order. Turn t (0-based) is the t-th model
/// content of each request that carries it.
std::vector<ConversationTurn> ConversationTurns(const model::Case& c);

/// How many turns request `request` (1-based) carries: the initial ones and one per exchange
/// answered before it.
std::size_t TurnsInRequest(const model::Case& c, std::size_t request);

/// A functionResponse part of a request.
struct ResponseAt {
  std::size_t content = 0;
  std::size_t part = 0;
  const Json* fr = nullptr;
  std::string pointer;  // "/contents/<c>/parts/<p>/functionResponse"
};

/// How one request answers one turn.
struct TurnAnswers {
  std::size_t model_at = 0;  // the turn's model content
  std::size_t end = 0;       // the next model content, or the end of contents
  /// The functionResponse parts of the contents after the model content, up to `end`, in wire
  /// order. A functionResponse inside a model content is no answer (ADR-226.B2).
  std::vector<ResponseAt> responses;
  /// Per response: the call (index into the turn's calls) it answers, when identified.
  std::vector<std::optional<std::size_t>> call_of;
  /// Per call: the first response (index into `responses`) that answers it.
  std::vector<std::optional<std::size_t>> answer_of;
};

/// Identifies the call each functionResponse answers, without its payload:
/// (1) its id equals the native id of exactly one pending call: that call;
/// (2) else its name is the name of exactly one pending call: that call;
/// (3) else among pending calls of its name, the k-th unidentified response with that name
///     answers the k-th call of that name no response claimed (Gemini pairs ID-less calls by
///     position);
/// (4) responses still unidentified then pair, in wire order, with the pending calls still
///     unanswered, in parse order, so a wrong name is judged against the call it stands for.
/// Pending calls are those not answered inside their own model content.
TurnAnswers IdentifyAnswers(const ConversationTurn& turn, const Json& contents,
                            std::size_t model_at, std::size_t end);

/// The answers to turn `turn` (0-based) in a request's `contents`, or nullopt when the request
/// does not carry that turn's model content.
std::optional<TurnAnswers> AnswersToTurn(const std::vector<ConversationTurn>& turns,
                                         std::size_t turn, std::size_t carried,
                                         const Json& contents);

/// The identification steps (1)-(3) alone, over `responses` (functionResponse objects) and
/// `calls`, considering only calls with `eligible` set: per response, the call it answers.
std::vector<std::optional<std::size_t>> IdentifyCalls(const std::vector<TurnCall>& calls,
                                                      const std::vector<bool>& eligible,
                                                      const std::vector<const Json*>& responses,
                                                      bool pair_leftovers);

}  // namespace gemini_oracle::checks::detail
