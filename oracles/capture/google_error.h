#pragma once
// Google-style error bodies for requests the script does not cover.

#include <string>
#include <string_view>

namespace gemini_oracle::capture {

/// {"error":{"code":<code>,"message":<message>,"status":<status>}}, compact.
std::string GoogleErrorBody(int code, std::string_view status, std::string_view message);

}  // namespace gemini_oracle::capture
