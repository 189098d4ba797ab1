#pragma once
// Kind-preserving JSON for everything that touches the wire or the transcript.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace gemini_oracle {

/// Keeps member order as received, integer/unsigned/float kinds apart, `{}` apart from `[]`,
/// `1.0` and `-0.0` as written. Reports use sorted `nlohmann::json` instead.
using Json = nlohmann::ordered_json;

/// Parses with exceptions (nlohmann::json::parse_error carries the byte position).
Json ParseJson(std::string_view text);

/// Compact dump; invalid UTF-8 is replaced, never thrown on.
std::string DumpJson(const Json& value);

/// Kind-exact equality: 1 != 1.0, {} != [], int64 1 == uint64 1; object member order is free.
/// This is the oracles' strict comparison, not the ADR-226.8 argument rule.
bool KindExactEqual(const Json& a, const Json& b);

}  // namespace gemini_oracle
