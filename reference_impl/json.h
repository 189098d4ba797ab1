#pragma once
// Kind-preserving JSON for everything that touches the wire or the transcript.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace gemini_oracle {

/// Keeps member order as received, integer/unsigned/float kinds apart, `{}` apart from `[]`,
/// `1.0` and `-0.0` as written. Reports use sorted `nlohmann::json` instead.
using Json = nlohmann::ordered_json;

/// Arrays and objects nest at most this deep in anything ParseJson returns (the root is level
/// 1). Google's API decodes Struct values with protobuf's recursion limit of 100, so no real
/// exchange comes near it; the bound keeps every recursive step after parsing (copies, dumps,
/// equality, request building, judging) far from the stack's end, in sanitizer builds too.
inline constexpr std::size_t kMaxJsonDepth = 512;

/// Parses with exceptions, both derived from Json::exception (catch that to refuse any text):
/// - Json::parse_error (id 101 and up; `byte` is the 1-based offset) for a syntax error and
///   for nesting deeper than kMaxJsonDepth, which is refused before anything is built;
/// - Json::out_of_range (id 406) for a number whose magnitude overflows a double (1e999, a
///   400-digit integer).
Json ParseJson(std::string_view text);

/// The binary subtype under which ParseJsonMarkingInexactIntegers keeps an integer literal.
inline constexpr std::uint64_t kInexactIntegerSubtype = 0x1b;

/// True when `literal` is a JSON integer literal (no fraction, no exponent) that neither an
/// int64 nor a uint64 holds and whose value is not exactly a double: reading it as a number
/// would round it (123456789012345678901234567890). 2^64 is exactly a double: false.
bool IsInexactIntegerLiteral(std::string_view literal);

/// Whether a JSON text holds such an integer literal anywhere. Invalid JSON: false.
bool HasInexactInteger(std::string_view text);

/// ParseJson's contract, except that every integer literal IsInexactIntegerLiteral() accepts
/// becomes a binary value of subtype kInexactIntegerSubtype holding its decimal text, so the
/// caller sees that a number could not be held and where, instead of a rounded double.
Json ParseJsonMarkingInexactIntegers(std::string_view text);

/// The decimal text of a value ParseJsonMarkingInexactIntegers marked, or nullopt.
std::optional<std::string> InexactIntegerText(const Json& value);

/// The byte offset just past the first member name that repeats within one object, or
/// nullopt. Parsers keep one of the two silently (nlohmann keeps the last), so a document
/// with a repeated name means different things to different readers. Invalid JSON: nullopt.
std::optional<std::size_t> FindDuplicateKey(std::string_view text);

/// Compact dump; invalid UTF-8 is replaced, never thrown on.
std::string DumpJson(const Json& value);

/// Kind-exact equality: 1 != 1.0, {} != [], int64 1 == uint64 1; object member order is free.
/// This is the oracles' strict comparison, not the ADR-226.8 argument rule.
bool KindExactEqual(const Json& a, const Json& b);

}  // namespace gemini_oracle
