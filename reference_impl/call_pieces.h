#pragma once
// A function call in pieces (fixtures/INTERPRETING.md §5.6): Gemini 3 streams the arguments
// of one call over several `functionCall` parts when the request sets
// `toolConfig.functionCallingConfig.streamFunctionCallArguments`. A call opens with a part
// holding its `name` (and `id`, `thoughtSignature`) and `willContinue: true`, continues with
// nameless parts carrying `partialArgs`, and closes with a part whose `willContinue` is false
// or absent. A call without `willContinue` is a call sent whole: one piece.
//
// One reading of a model content's parts serves the parser (the server's answer) and
// correlation (a carried capsule): a call is its pieces, one public call, one binding, one
// functionResponse; the native parts themselves stay exactly as received and are replayed so.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "reference_impl/json.h"

namespace gemini_oracle::ref {

/// An index step names at most this element (exclusive): lists grow one element per entry,
/// and the bound keeps what one answer can make small. Beyond it: response.partial_arg_path.
inline constexpr std::size_t kMaxPartialArgIndex = 4096;
/// A jsonPath has at most this many steps (the corpus's nesting bound, INTERPRETING §2), so
/// assembled arguments stay well inside kMaxJsonDepth wherever they are carried.
inline constexpr std::size_t kMaxPartialArgPathSteps = 255;

/// One function call of a model content, sent whole or in pieces.
struct AssembledCall {
  std::vector<std::size_t> pieces;  // positions in the content's parts, in order; [0] is named
  std::string name;                 // the first piece's
  std::optional<Json> id;           // the first piece's `id` member as received, when present
  Json args = Json::object();       // the first piece's args with every partialArgs entry applied
  std::size_t first() const { return pieces.front(); }
};

/// Reads `parts` (a JSON list) with the §5.6 grammar and returns its calls in order.
/// Throws ProviderError with the parse codes and the position of the part at fault (part,
/// field; never content): response.malformed (a part that is no object),
/// response.function_call_malformed (functionCall no object, a name present but no nonempty
/// string, args no object, willContinue no boolean, a partialArgs entry of the wrong shape, a
/// jsonPath no string or a value of the wrong kind, an integer beyond exact reach; checked
/// before paths and values), response.call_piece_orphan (a nameless part while no call is
/// open, whatever it holds),
/// response.call_pieces_interleaved, response.call_name_repeated, response.partial_arg_path,
/// response.partial_arg_conflict, response.call_unfinished, native_id.malformed for a later
/// piece whose id differs from its call's, and response.call_piece_id for a later piece with
/// an id when the first had none. The validity of an id itself and uniqueness across calls
/// are the caller's (native_id.* at parse time, replay.* for carried state).
/// `carried`: the parts come from stored state, where an args list is degraded state the
/// wire copy repairs (ADR-224.7) rather than a malformed answer: a later piece's list args,
/// and an opening list root that entries or later args apply to, are read as the numeric-key
/// object (ListAsNumericKeyObject); a whole call's list root stays as given.
std::vector<AssembledCall> ReadFunctionCalls(const Json& parts, bool carried = false);

}  // namespace gemini_oracle::ref
