#pragma once
// Function calls in pieces (fixtures/INTERPRETING.md §5.6, Gemini 3's streamed arguments): one
// or two calls, each a name, maybe a native id and a thought signature, and an args object,
// split into `functionCall` parts the way Gemini streams them. What is drawn: which top-level
// members the opening piece gives whole in `args` (every member holding an empty object or list
// does: no entry can make one), the order the other values are streamed in (members of an
// object in any order, list elements in order), how each path is spelled (`.name`, `['name']`,
// `["name"]`, RFC 9535 escapes, blanks inside brackets), how each string is cut over entries
// (any code-point boundaries, empty chunks included) and whether a valueless entry ends it,
// continued strings interleaved with other paths, a value given again the same, how the entries
// are divided into pieces (the opening piece may carry some), a separate closing `{}` or not,
// the id repeated on later pieces, a text part before the calls, and how the parts are divided
// into events and HTTP chunks. Each scenario knows the calls it must read back.

#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <vector>

#include "reference_impl/json.h"

namespace gemini_oracle::generators {

/// The family's version, named in each case's `source`: it changes whenever the same seed
/// would draw other cases, so "seed S, index i" always names one case.
inline constexpr int kCallPiecesVersion = 1;

/// One drawn call and the pieces it is sent in.
struct PiecedCall {
  std::string name;
  Json id;         // a string, or null for none
  Json args;       // the call's arguments, an object: what every reader must assemble
  Json pieces;     // its `functionCall` parts, in order (pieces[0] is named)
  std::size_t entries = 0;  // the partialArgs entries over all pieces
};

struct CallPiecesScenario {
  bool text_before = false;  // a text part precedes the calls (in the same content)
  std::vector<PiecedCall> calls;
  std::vector<std::size_t> event_sizes;   // parts per streamed event
  std::vector<std::size_t> cut_permille;  // HTTP chunk cuts (StreamedAnswer)

  /// Every part of the answer, in order: the text part, then each call's pieces.
  Json Parts() const;
  /// The position in Parts() of each call's first piece.
  std::vector<std::size_t> Openings() const;
};

rc::Gen<CallPiecesScenario> genCallPiecesScenario();

/// The pieces of one call: `args` split into §5.6 pieces in a drawn way (runs inside
/// rc::gen::exec). `signature`: the thoughtSignature of the opening part, empty for none.
Json DrawPieces(const std::string& name, const Json& id, const Json& args,
                const std::string& signature, std::size_t& entries);

/// An args object whose values are mostly streamable (nested objects and lists without empty
/// containers, every scalar kind, keys that need bracket spelling and escapes), some not.
rc::Gen<Json> genPieceArgs();

/// The case file of a scenario (fixtures/case.schema.json): the answer streamed, each call
/// answered, then a closing answer in text; accepted, two requests.
Json CallPiecesCase(const CallPiecesScenario& scenario, std::uint64_t seed, std::size_t index);

/// The file stem: y_call_pieces_s<seed>_<index>.
std::string CallPiecesStem(std::uint64_t seed, std::size_t index);

}  // namespace gemini_oracle::generators
