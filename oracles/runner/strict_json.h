#pragma once
// Reads a case file's text as JSON that every runner in every language reads the same way,
// or says where and why it is not. One pass, no recursion, so no input can exhaust the stack.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "reference_impl/json.h"

namespace gemini_oracle::runner {

/// Arrays and objects nest at most this deep in a case file (the root is level 1). Google's
/// API decodes Struct values with protobuf's recursion limit of 100, so no real exchange
/// needs more; the bound keeps every recursive step after parsing (schema validation,
/// conversion, judging) far from the stack's end, in sanitizer builds too.
inline constexpr std::size_t kMaxCaseDepth = 256;

/// Members of one object in a case file. No exchange of the API comes near it; the bound keeps
/// every later step linear enough (ordered objects look members up by scanning).
inline constexpr std::size_t kMaxCaseMembers = 1024;

/// Why a text is refused, with the 0-based byte offset of the offending byte.
struct StrictJsonError {
  std::size_t offset = 0;
  std::string rule;  // json.bom, json.syntax, json.depth (also too many members),
                     // json.number_range, json.duplicate_key
  std::string message;
};

struct StrictJsonResult {
  Json value;  // kind-preserving; null when `error` is set
  std::optional<StrictJsonError> error;
};

/// Parses `text` as one JSON value (RFC 8259) and refuses, besides syntax errors:
/// - a UTF-8 byte order mark (RFC 8259 §8.1: implementations must not add one; Python's
///   json refuses it);
/// - a NUL byte anywhere (nlohmann would stop reading at one and ignore the rest);
/// - nesting deeper than kMaxCaseDepth, or an object of more than kMaxCaseMembers members;
/// - a number no 64-bit integer or finite double holds exactly as written: an integer
///   literal beyond the int64/uint64 range (a double would silently round it), or a number
///   whose magnitude overflows a double (1e999);
/// - a member name repeated within one object (parsers keep different ones).
/// Never throws for any input.
StrictJsonResult ParseStrictJson(std::string_view text);

}  // namespace gemini_oracle::runner
