// Any bytes as the body of :streamGenerateContent?alt=sse, read as the HTTP client reads it: the
// SSE parser gives the same events, and the same "stopped inside an event", whether the bytes
// come whole or in pieces cut anywhere (the first byte picks the cuts); each default event goes
// to the accumulator, which takes it or refuses it with a ProviderError; a folded response is
// parsed like a whole answer into a turn or a ProviderError.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "reference_impl/provider_error.h"
#include "reference_impl/response_parser.h"
#include "reference_impl/sse_parser.h"
#include "reference_impl/stream_accumulator.h"
#include "reference_impl/transcript.h"

namespace {

namespace ref = gemini_oracle::ref;

struct Read {
  std::vector<ref::SseEvent> events;
  bool inside = false;
};

Read Whole(std::string_view body) {
  Read read;
  ref::SseParser parser;
  parser.Feed(body, read.events);
  read.inside = parser.InsideEvent();
  return read;
}

// Pieces of 1 to `step` bytes, their lengths cycling, so that CR LF pairs, UTF-8 sequences and
// a byte order mark are cut at every offset over the corpus.
Read InPieces(std::string_view body, std::size_t step) {
  Read read;
  ref::SseParser parser;
  std::size_t length = 1;
  for (std::size_t at = 0; at < body.size(); at += length) {
    length = 1 + (at * 7 + step) % step;
    parser.Feed(body.substr(at, length), read.events);
  }
  read.inside = parser.InsideEvent();
  return read;
}

bool Same(const Read& a, const Read& b) {
  if (a.inside != b.inside || a.events.size() != b.events.size()) return false;
  for (std::size_t i = 0; i < a.events.size(); ++i) {
    if (a.events[i].type != b.events[i].type || a.events[i].data != b.events[i].data) {
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t step = 1 + data[0] % 16;
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  const Read whole = Whole(body);
  if (!Same(whole, InPieces(body, step))) __builtin_trap();

  ref::StreamAccumulator accumulator;
  try {
    for (const ref::SseEvent& event : whole.events) {
      if (event.type.empty() || event.type == "message") accumulator.Add(event.data);
    }
  } catch (const ref::ProviderError& e) {
    if (e.code() != "http.body" && e.code() != "http.stream") __builtin_trap();
    return 0;
  }
  if (accumulator.events() == 0) return 0;
  try {
    ref::ParseResponse(accumulator.Response(), ref::Transcript{});
  } catch (const ref::ProviderError&) {
  }
  return 0;
}
