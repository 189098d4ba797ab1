#pragma once
// The judges' own reading of a model turn's function calls (INTERPRETING §5.6): a call whose
// arguments Gemini streams arrives as several `functionCall` parts (pieces), and it is one call
// for every rule of the ADRs. The judges, the case checker and the runner's selectors all count
// and match calls through this reading; it shares no code with reference_impl/ (GUIDE §3.14).

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "reference_impl/json.h"

namespace gemini_oracle::model {

/// One call of a turn, read over its pieces.
struct PieceCall {
  /// The part indexes of its pieces, in order; pieces.front() opens the call (a call sent
  /// whole has one piece).
  std::vector<std::size_t> pieces;
  /// The call as one `functionCall` object: the opening piece's members (`name`, `id`, and
  /// any other) without `partialArgs` and `willContinue`, with `args` the assembled arguments
  /// (kinds as written). `args` is absent when no piece gave args or a partialArgs entry, as
  /// for a whole call without `args`. For a call sent whole, exactly its `functionCall`.
  Json call = Json::object();
  /// Where the grammar breaks inside this call: the §5.6 refusal code
  /// (`response.call_piece_orphan`, `response.call_pieces_interleaved`,
  /// `response.call_name_repeated`, `response.partial_arg_path`,
  /// `response.partial_arg_conflict`, `response.call_unfinished`),
  /// `response.function_call_malformed` for a piece of the wrong shape (§5.6 "Shapes"), or
  /// `native_id.malformed` for a later piece whose `id` differs from the one an earlier piece
  /// gave. Nullopt for a well-formed call. An `id` only on a later piece is the call's id
  /// here (§5.6 leaves it open; the reference refuses it).
  std::optional<std::string> malformed;
};

/// A turn's calls, in parse order.
struct TurnCalls {
  std::vector<PieceCall> calls;
  /// The first break of the grammar in the turn (code and the part it was found at).
  std::optional<std::string> malformed;
  std::size_t malformed_at = 0;
  /// Some call was read over more than one piece (or announced pieces with willContinue).
  bool pieced = false;
};

/// Groups the `functionCall` parts of `parts` (a content's parts, or a turn's parts in order
/// across events and contents) into calls by the grammar of INTERPRETING §5.6. Where the
/// grammar breaks, the reading goes on as far as it can and marks the call: a nameless part
/// while no call is open (whatever it holds) is an orphan piece read as a call of its own (no
/// name), as every part was before §5.6; a piece that is no object ends its call; a
/// part that is no piece of the open call closes it (a named `functionCall` then opens the
/// next call); a piece that repeats the open call's name stays its piece; an entry whose path
/// or value breaks the grammar sets nothing. A list `args` root that entries or a later
/// piece's args apply to, and a later piece's list `args`, are read as the numeric-key object
/// (ADR-224.4; the reference does so for carried state and refuses it in an answer). Never
/// throws.
///
/// Where a stream breaks the grammar twice, this reading and the reference's may name a
/// different break first (each reads in its own order): only the code in the judges'
/// not-judged note differs, never whether the turn is judged.
TurnCalls GroupCalls(const Json& parts);

/// Whether `turn` (GroupCalls of `parts`) holds a call in pieces: one read over more than one
/// piece, or opened with `willContinue: true`. What an implementation makes of such a call
/// rests on streamed capture (§5.6 "Levels"); a single part with `willContinue: false` is a
/// call sent whole, whatever else it holds.
bool HoldsCallInPieces(const Json& parts, const TurnCalls& turn);

/// The positions of the parts that open a call, in parse order (one per call).
std::vector<std::size_t> CallPositions(const Json& parts);
std::vector<std::size_t> CallPositions(const TurnCalls& turn);

/// The call of `turn` that opens at `position`, or nullptr (a binary search: calls open in
/// part order). Code that needs several calls of one turn reads the turn once (GroupCalls)
/// and looks its calls up here, never GroupCalls again per call.
const PieceCall* CallOpenedAt(const TurnCalls& turn, std::size_t position);

/// The call opened at `position` as one `functionCall` object (PieceCall::call), or null when
/// no call opens there. Reads the whole turn: for several positions, use CallsAt.
Json CallAt(const Json& parts, std::size_t position);

/// CallAt for each of `positions`, reading the turn once.
std::vector<Json> CallsAt(const Json& parts, const std::vector<std::size_t>& positions);

/// `parts` with each call as one whole part, at the same positions: a call's opening part
/// holds PieceCall::call as its `functionCall` (its other members, such as a signature, kept),
/// and each further piece becomes `{}`, a part that is no call. Code that reads a call from
/// `parts[position]["functionCall"]` reads the assembled call there; reading it again with
/// GroupCalls gives the same calls at the same positions.
Json WholeCallParts(const Json& parts);

/// Applies one `partialArgs` entry to `args` as §5.6 says; `continued` holds the paths (as
/// canonical text) whose value continues. Returns the refusal code when the entry breaks the
/// grammar: `response.function_call_malformed` for a shape (§5.6 "Shapes"),
/// `response.partial_arg_path`, `response.partial_arg_conflict`; then `args` and `continued`
/// are unchanged. The entry is checked first and `args` changed in place after, so a call of
/// n entries is read in about n steps (no copy of the arguments per entry). Exposed for tests.
std::optional<std::string> ApplyPartialArg(const Json& entry, Json& args,
                                           std::set<std::string>& continued);

}  // namespace gemini_oracle::model
