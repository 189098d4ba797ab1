#pragma once
// What the capture server answers, turn by turn.

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace gemini_oracle::capture {

/// One scripted answer to one :generateContent request.
struct ScriptedResponse {
  int status = 200;
  /// Content-Type defaults to application/json. Content-Length and Transfer-Encoding are
  /// ignored because the server frames the body itself. cpp-httplib writes headers sorted
  /// by name.
  std::vector<std::pair<std::string, std::string>> headers;
  /// Raw bytes served as-is (not parsed, not re-serialised).
  std::string body;
  /// How long the server waits before answering, as a slow model would. The request is
  /// journaled on arrival. RemoveScript() of this script or the server's destruction ends the
  /// wait at once, and the request is then answered 503 UNAVAILABLE instead.
  std::chrono::milliseconds delay{0};
  // Streaming goes here: a list of SSE events (each one complete GenerateContentResponse
  // JSON) served on :streamGenerateContent?alt=sse instead of `body`.
};

}  // namespace gemini_oracle::capture
