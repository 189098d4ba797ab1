#pragma once
// What the capture server answers, turn by turn.

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace gemini_oracle::capture {

/// One piece of a streamed body, written as one HTTP chunk after its delay.
struct StreamChunk {
  std::string bytes;  // raw bytes: any part of the event stream, cut anywhere
  std::chrono::milliseconds delay{0};
};

/// One scripted answer to one :generateContent request, or, when `streamed`, to one
/// :streamGenerateContent request.
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
  /// Answers a :streamGenerateContent request with `chunks` as text/event-stream (chunked
  /// transfer, each chunk flushed after its delay) instead of `body`. A streamed turn is not
  /// served to :generateContent, nor a plain one to :streamGenerateContent: either is refused
  /// (400 FAILED_PRECONDITION, journaled, the turn kept for the next request).
  bool streamed = false;
  std::vector<StreamChunk> chunks{};
  /// After the last chunk the connection is closed without the end of the chunked body: the
  /// client sees the stream cut mid-way.
  bool cut = false;
};

}  // namespace gemini_oracle::capture
