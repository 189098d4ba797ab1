#pragma once
// Splits a request path into its script id and the Gemini endpoint it names.

#include <optional>
#include <string>
#include <string_view>

namespace gemini_oracle::capture {

enum class Endpoint {
  kGenerateContent,        // POST /{v1,v1beta}/models/{model}:generateContent
  kStreamGenerateContent,  // POST /{v1,v1beta}/models/{model}:streamGenerateContent
  kUnknown,
};

struct Route {
  std::string script_id;  // "" when the path is outside /s/<id>/
  std::string api_path;   // the path without the /s/<id> prefix
  Endpoint endpoint = Endpoint::kUnknown;
  std::string model;  // set for the model endpoints
};

/// The path must be decoded (cpp-httplib's Request::path).
Route ParseRoute(std::string_view path);

}  // namespace gemini_oracle::capture
