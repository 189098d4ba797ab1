#pragma once
// Maps JSON pointers of a document to where their values start in the source text, so that
// schema and lint findings point at a real line and column.

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

namespace gemini_oracle::runner {

/// 1-based line and column; the column counts UTF-8 code points.
struct TextPosition {
  int line = 1;
  int column = 1;
};

/// Converts a 0-based byte offset of `text` into a line and column (clamped to the end).
TextPosition PositionOfOffset(std::string_view text, std::size_t offset);

/// The byte offset where each value starts, keyed by its JSON pointer ("" is the root).
/// Built by a lenient scanner meant for text that already parsed; on malformed text it keeps
/// what it found before the damage. A duplicate member keeps the last occurrence, as the
/// parser does.
class JsonPositions {
 public:
  explicit JsonPositions(std::string_view text);

  /// Where the value at `pointer` starts; for a pointer the document lacks, the nearest
  /// existing ancestor (at worst the root).
  TextPosition Find(const std::string& pointer) const;

  /// True when the scanner saw a value at exactly this pointer.
  bool Contains(const std::string& pointer) const;

 private:
  std::string text_;  // a copy, so the index outlives the caller's buffer
  std::map<std::string, std::size_t> offsets_;
};

/// Escapes one reference token for a JSON pointer ("~" -> "~0", "/" -> "~1").
std::string EscapePointerToken(std::string_view token);

}  // namespace gemini_oracle::runner
