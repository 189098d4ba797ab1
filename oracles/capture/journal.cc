#include "oracles/capture/journal.h"

#include <algorithm>
#include <cctype>

namespace gemini_oracle::capture {
namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

bool IsSecretHeader(std::string_view name) {
  return EqualsIgnoreCase(name, "x-goog-api-key") || EqualsIgnoreCase(name, "authorization");
}

HeaderList RedactHeaders(HeaderList headers) {
  for (auto& [name, value] : headers) {
    if (IsSecretHeader(name)) value = kRedacted;
  }
  return headers;
}

std::string RedactQuery(std::string_view raw_query) {
  std::string out;
  out.reserve(raw_query.size());
  std::size_t start = 0;
  while (start <= raw_query.size()) {
    std::size_t end = raw_query.find('&', start);
    if (end == std::string_view::npos) end = raw_query.size();
    const std::string_view param = raw_query.substr(start, end - start);
    const std::size_t eq = param.find('=');
    // Google accepts the key as `key=...`; a bare `key` has no value to hide.
    if (eq != std::string_view::npos && param.substr(0, eq) == "key") {
      out.append(param.substr(0, eq + 1)).append(kRedacted);
    } else {
      out.append(param);
    }
    if (end == raw_query.size()) break;
    out.push_back('&');
    start = end + 1;
  }
  return out;
}

}  // namespace gemini_oracle::capture
