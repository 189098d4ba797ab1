#pragma once
// The whole adapter: build (refusing before contact), send, parse.

#include "reference_impl/http_client.h"
#include "reference_impl/request_builder.h"
#include "reference_impl/response_parser.h"
#include "reference_impl/transcript.h"

namespace gemini_oracle::ref {

class GeminiAdapter {
 public:
  explicit GeminiAdapter(ClientOptions options) : client_(std::move(options)) {}

  /// One exchange. The transcript is not modified; the caller appends the returned turn.
  Message Generate(const Transcript& transcript, const RequestOptions& options) {
    const Json request = BuildRequest(transcript, options);  // throws before contact
    const Json response = client_.GenerateContent(options.model, request);
    return ParseResponse(response, transcript);
  }

 private:
  GeminiHttpClient client_;
};

}  // namespace gemini_oracle::ref
