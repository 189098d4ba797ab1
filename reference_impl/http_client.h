#pragma once
// A keep-alive HTTP client for :generateContent (cpp-httplib, TCP_NODELAY).

#include <chrono>
#include <memory>
#include <string>

#include "reference_impl/json.h"

namespace gemini_oracle::ref {

struct ClientOptions {
  /// Scheme, host, port and an optional path prefix: "http://127.0.0.1:4242/s/7".
  std::string base_url;
  std::string api_key = "test-api-key";  // sent as x-goog-api-key
  std::string api_version = "v1beta";
  std::chrono::milliseconds connect_timeout{2000};
  std::chrono::milliseconds read_timeout{30000};
};

class GeminiHttpClient {
 public:
  explicit GeminiHttpClient(ClientOptions options);
  ~GeminiHttpClient();
  GeminiHttpClient(const GeminiHttpClient&) = delete;
  GeminiHttpClient& operator=(const GeminiHttpClient&) = delete;

  /// POST {base}/{api_version}/models/{model}:generateContent with `body` dumped compactly.
  /// Returns the parsed (kind-preserving) 2xx body, integer literals no int64, uint64 or
  /// double holds exactly marked (ParseJsonMarkingInexactIntegers). Throws ProviderError:
  /// http.transport, http.status (Google error JSON mapped: HTTP status, Google status, message,
  /// raw body), http.body (2xx that is not JSON).
  Json GenerateContent(const std::string& model, const Json& body);

  /// POST {base}/{api_version}/models/{model}:streamGenerateContent?alt=sse. Reads the event
  /// stream as it arrives (SseParser: pieces cut anywhere, LF, CRLF or CR) and returns the
  /// folded response (StreamAccumulator), the one GenerateContent returns for the same
  /// content. Throws ProviderError: http.transport (also a connection cut mid-stream),
  /// http.status, http.body (an event that is not a JSON object; a stream over 256 MiB),
  /// http.stream (an error object mid-stream; a stream that ends inside an event, with no
  /// event, or before its first candidate's finishReason). Events of a type other than the
  /// default are ignored. A stream that fails yields nothing: no partial turn reaches the
  /// caller.
  Json StreamGenerateContent(const std::string& model, const Json& body);

  /// Makes the request under way, and every later one until ResetCancel(), fail at once with
  /// http.transport. Thread-safe: meant for a watchdog thread while another thread waits in
  /// GenerateContent().
  void Cancel();
  /// Lets requests through again after Cancel().
  void ResetCancel();

  /// Points later requests at another base URL of the same scheme, host and port, keeping
  /// the open keep-alive connection. Throws std::invalid_argument for another origin.
  void Rebase(const std::string& base_url);

 private:
  std::string PathOf(const std::string& model, const char* method) const;

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gemini_oracle::ref
