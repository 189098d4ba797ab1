// Any bytes as a stored transcript: loading gives a transcript or a ProviderError; a loaded
// one survives ToJson and a second load unchanged, and building a request from it gives a
// request or a ProviderError and leaves the transcript as it was (ADR-224.9).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "reference_impl/json.h"
#include "reference_impl/provider_error.h"
#include "reference_impl/request_builder.h"
#include "reference_impl/transcript.h"

namespace {

using gemini_oracle::DumpJson;
using gemini_oracle::Json;
using gemini_oracle::KindExactEqual;
using gemini_oracle::ParseJson;
namespace ref = gemini_oracle::ref;

const ref::RequestOptions& Options() {
  static const ref::RequestOptions options = [] {
    ref::RequestOptions o;
    o.tools = ParseJson(R"([{"functionDeclarations": [{"name": "get_weather",
      "parametersJsonSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]}])");
    o.tool_mode = "AUTO";
    o.system_instruction = "Answer briefly.";
    return o;
  }();
  return options;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Json stored;
  try {
    stored = ParseJson(text);
  } catch (const Json::parse_error&) {
    return 0;
  } catch (const Json::out_of_range&) {
    return 0;  // a number beyond a double (json.h)
  }
  ref::Transcript transcript;
  try {
    transcript = ref::TranscriptFromJson(stored);
  } catch (const ref::ProviderError&) {
    return 0;
  }
  const Json saved = ref::ToJson(transcript);
  // The JSON form is lossless: loading what ToJson wrote gives the same form again.
  if (!KindExactEqual(ref::ToJson(ref::TranscriptFromJson(saved)), saved)) __builtin_trap();

  try {
    DumpJson(ref::BuildRequest(transcript, Options()));
  } catch (const ref::ProviderError&) {
  }
  if (!KindExactEqual(ref::ToJson(transcript), saved)) __builtin_trap();
  return 0;
}
