#pragma once
// Kind-preserving JSON for everything that touches the wire or the transcript.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace gemini_oracle {

/// Keeps member order as received, integer/unsigned/float kinds apart, `{}` apart from `[]`,
/// `1.0` and `-0.0` as written. Reports use sorted `nlohmann::json` instead.
using Json = nlohmann::ordered_json;

/// Parses with exceptions (nlohmann::json::parse_error carries the byte position).
Json ParseJson(std::string_view text);

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
