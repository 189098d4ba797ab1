#include "reference_impl/sse_parser.h"

#include <stdexcept>

namespace gemini_oracle::ref {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

}  // namespace

void SseParser::Feed(std::string_view bytes, std::vector<SseEvent>& out) {
  // A byte order mark may open the stream, and may itself arrive in pieces.
  if (at_start_) {
    while (!bytes.empty() && bom_.size() < kByteOrderMark.size() &&
           kByteOrderMark.substr(0, bom_.size()) == bom_) {
      bom_.push_back(bytes.front());
      bytes.remove_prefix(1);
    }
    const bool prefix_of_mark = kByteOrderMark.substr(0, bom_.size()) == bom_;
    if (prefix_of_mark && bom_.size() < kByteOrderMark.size()) return;  // more bytes needed
    at_start_ = false;
    std::string held;
    held.swap(bom_);
    if (held != kByteOrderMark) Feed(held, out);  // ordinary bytes after all
  }
  while (!bytes.empty()) {
    if (after_cr_) {
      after_cr_ = false;
      if (bytes.front() == '\n') {  // the LF of a CRLF cut between two pieces
        bytes.remove_prefix(1);
        continue;
      }
    }
    const std::size_t end = bytes.find_first_of("\r\n");
    const std::string_view piece = bytes.substr(0, end);
    if (line_.size() + piece.size() + data_.size() > kMaxEventBytes) {
      throw std::length_error("SSE event larger than the limit");
    }
    if (end == std::string_view::npos) {
      line_.append(piece);
      return;
    }
    line_.append(piece);
    after_cr_ = bytes[end] == '\r';
    bytes.remove_prefix(end + 1);
    std::string line;
    line.swap(line_);
    Line(line, out);
  }
}

void SseParser::Line(std::string_view line, std::vector<SseEvent>& out) {
  if (line.empty()) {
    // A blank line dispatches the event; one without data fields dispatches nothing.
    if (has_data_) {
      if (!data_.empty() && data_.back() == '\n') data_.pop_back();
      out.push_back(SseEvent{std::move(type_), std::move(data_)});
    }
    type_.clear();
    data_.clear();
    has_data_ = false;
    has_fields_ = false;
    return;
  }
  if (line.front() == ':') return;  // a comment (keep-alive)
  has_fields_ = true;
  const std::size_t colon = line.find(':');
  const std::string_view name = line.substr(0, colon);
  std::string_view value = colon == std::string_view::npos ? std::string_view() : line.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  if (name == "data") {
    data_.append(value);
    data_.push_back('\n');
    has_data_ = true;
  } else if (name == "event") {
    type_ = std::string(value);
  }
  // `id`, `retry` and unknown fields carry nothing a response needs.
}

bool SseParser::InsideEvent() const {
  return !line_.empty() || has_fields_ || (at_start_ && !bom_.empty());
}

}  // namespace gemini_oracle::ref
