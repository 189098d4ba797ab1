#pragma once
// An incremental reader of text/event-stream, the body of :streamGenerateContent?alt=sse: bytes
// arrive in pieces cut anywhere (inside a line, between CR and LF, inside a UTF-8 sequence),
// complete events come out. The line and field rules are the WHATWG EventSource ones, so a
// stream framed with LF, CRLF or CR reads the same.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gemini_oracle::ref {

/// One dispatched event: its `data:` lines joined with "\n", and its `event:` type ("" for
/// the default, "message").
struct SseEvent {
  std::string type;
  std::string data;
};

class SseParser {
 public:
  /// An event larger than this (its data and the line being read) is refused, so that a
  /// stream without blank lines cannot grow without bound.
  static constexpr std::size_t kMaxEventBytes = std::size_t{64} << 20;

  /// Reads the next bytes and appends every event they complete to `out`. Throws
  /// std::length_error past kMaxEventBytes.
  void Feed(std::string_view bytes, std::vector<SseEvent>& out);

  /// Whether bytes of an undispatched event (or of an unfinished line) are held: at the end of
  /// the stream, a cut inside an event.
  bool InsideEvent() const;

 private:
  void Line(std::string_view line, std::vector<SseEvent>& out);

  std::string line_;          // the line read so far
  bool after_cr_ = false;     // the last byte was a CR: an LF right after it ends nothing
  bool at_start_ = true;      // a byte order mark may still come first
  std::string bom_;           // the bytes of a possible byte order mark read so far
  std::string type_;          // the event being built
  std::string data_;
  bool has_data_ = false;     // a data field was read for the event being built
  bool has_fields_ = false;   // any field was read for it (a cut inside an event)
};

}  // namespace gemini_oracle::ref
