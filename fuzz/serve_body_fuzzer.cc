// Any bytes as the body of `serve`'s POST /runs (INTERPRETING §15.5): reading it gives the
// run's settings or a 400 answer's rule and message, never an exception; a message is short
// and never quotes the body. (The body of POST .../reports/{seq} is a driver protocol line:
// driver_protocol_fuzzer reads those.)

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

#include "oracles/serve/serve_api.h"

namespace serve = gemini_oracle::serve;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string body(reinterpret_cast<const char*>(data), size);
  const auto read = serve::ReadRunRequest(body);
  if (const auto* problem = std::get_if<serve::BodyProblem>(&read)) {
    if (problem->rule != "serve.json" && problem->rule != "serve.body") __builtin_trap();
    if (problem->message.empty() || problem->message.size() > 200) __builtin_trap();
    return 0;
  }
  const auto& request = std::get<serve::RunRequest>(read);
  if (request.profile_text != "adr" && request.profile_text != "gemini") __builtin_trap();
  return 0;
}
