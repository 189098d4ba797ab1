#pragma once
// The judges' own JSON reading and numbers, written apart from the reference implementation's
// (a second implementation: a mistake shared by both could not be seen).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "reference_impl/json.h"

namespace gemini_oracle::checks {

/// Arrays and objects nest at most this deep in anything DecodeJudgeJson returns (the root is
/// level 1): deeper bodies are refused before the recursive judging code could meet them.
inline constexpr std::size_t kJudgeMaxDepth = 512;

/// The binary subtype that marks an integer literal beyond the 64-bit range. Its bytes are the
/// literal's decimal text ("-123456789012345678901234567890"), so a kind-exact comparison of
/// two such values compares the literals, and no judge ever rounds one through a double.
inline constexpr std::uint64_t kBigIntegerSubtype = 0x42;

/// A Json holding an integer literal beyond 64 bits exactly (`digits`: "-"? [0-9]+).
Json MakeBigInteger(std::string_view digits);

/// Whether `value` is such a big integer.
bool IsBigInteger(const Json& value);

/// The decimal text of a big integer ("" for any other value).
std::string BigIntegerText(const Json& value);

/// A JSON number or a big integer.
bool IsNumeric(const Json& value);

/// The exact decimal integer a numeric value stands for, without sign normalisation of zero
/// ("-0" never appears), or nullopt when the value is not an integer (a fractional or
/// non-finite double, or not a number). Integral doubles expand exactly: 1e20 ->
/// "100000000000000000000".
std::optional<std::string> ExactIntegerText(const Json& value);

/// ADR-226.8 for two numeric values: equal when they are the same number exactly, whatever
/// their kinds (1 == 1.0, -0.0 == 0 == 0.0; 9007199254740993 != 9007199254740992.0; a big
/// integer equals a double only when the double's exact value is that integer).
bool NumbersEqual(const Json& a, const Json& b);

/// The judges' kind-exact equality (their own, beside the reference implementation's): the same
/// JSON type, an integer never equal to a float (`1` != `1.0`), integers exactly (an int64 and
/// a uint64 of one value are equal), floats bit for bit (`-0.0` != `0.0`), big integers by
/// their literal, strings by code points, arrays in order, objects by the same member names in
/// any order with equal values.
bool SameJson(const Json& a, const Json& b);

/// What DecodeJudgeJson found.
struct JudgeDecoded {
  enum class Error { kNone, kSyntax, kTooDeep, kNumberRange };
  std::optional<Json> value;  // set exactly when error == kNone
  Error error = Error::kNone;
  std::size_t byte = 0;          // where reading stopped (1-based), for kSyntax/kTooDeep
  bool repeated_member = false;  // some object names a member twice (see RepeatedMember)
};

/// Which value an object keeps for a member name it repeats: the last (as JSON.parse does) or
/// the first (as other common decoders do).
enum class RepeatedMember { kLast, kFirst };

/// Reads one JSON text kind-preservingly (ordered members, int/uint/float kinds, `{}` apart
/// from `[]`, `1.0` and `-0.0` as written), keeps an integer literal beyond 64 bits as a big
/// integer, refuses nesting deeper than kJudgeMaxDepth and a number beyond the range of a
/// double (1e400). Never throws on any input.
JudgeDecoded DecodeJudgeJson(std::string_view text, RepeatedMember keep = RepeatedMember::kLast);

/// `value` with every binary value replaced by readable text, for reports and messages: a big
/// integer becomes "<digits> (big integer)", any other binary "(binary value, N bytes)".
Json Readable(const Json& value);

}  // namespace gemini_oracle::checks
