#pragma once
// The record of every request that reached the capture server, secrets removed.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gemini_oracle::capture {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

/// Replaces every secret value with this text.
inline constexpr std::string_view kRedacted = "REDACTED";

struct JournalEntry {
  std::size_t order = 0;  // arrival order across the whole server, 0-based
  std::size_t index = 0;  // arrival order within its script, 0-based
  std::string method;
  /// Decoded path without the /s/<id> prefix, e.g.
  /// "/v1beta/models/gemini-2.5-flash:generateContent".
  std::string path;
  std::string query;  // raw, e.g. "alt=sse", or ""
  /// Names as sent. cpp-httplib keeps headers sorted by name (case-insensitively), so only
  /// repeated names keep their arrival order, and it percent-decodes header values.
  HeaderList headers;
  std::string body;       // raw request bytes, untouched (after Content-Encoding is undone)
  bool scripted = false;  // false when answered with an unscripted error
};

/// Whether a header carries credentials (x-goog-api-key, Authorization), in any case.
bool IsSecretHeader(std::string_view name);

/// Header values that carry credentials (x-goog-api-key, Authorization) become kRedacted.
HeaderList RedactHeaders(HeaderList headers);

/// The value of every `key` parameter of a raw query string becomes kRedacted; everything
/// else is kept byte for byte.
std::string RedactQuery(std::string_view raw_query);

}  // namespace gemini_oracle::capture
