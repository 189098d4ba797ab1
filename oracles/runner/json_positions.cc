#include "oracles/runner/json_positions.h"

#include <cstdint>

#include "reference_impl/utf8.h"

namespace gemini_oracle::runner {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Recursive descent over the text; it records offsets and never validates beyond what it
// needs to find value boundaries.
class Scanner {
 public:
  Scanner(std::string_view text, std::map<std::string, std::size_t>& offsets)
      : text_(text), offsets_(offsets) {}

  void Run() {
    SkipSpace();
    Value("", 0);
  }

 private:
  static constexpr int kMaxDepth = 512;

  bool AtEnd() const { return pos_ >= text_.size(); }

  void SkipSpace() {
    while (!AtEnd() && IsSpace(text_[pos_])) ++pos_;
  }

  bool Value(const std::string& pointer, int depth) {
    if (AtEnd() || depth > kMaxDepth) return false;
    offsets_[pointer] = pos_;
    const char c = text_[pos_];
    if (c == '{') return Object(pointer, depth);
    if (c == '[') return Array(pointer, depth);
    if (c == '"') {
      std::string ignored;
      return String(ignored);
    }
    // Number or literal: runs until a structural character or white space.
    while (!AtEnd() && !IsSpace(text_[pos_]) && text_[pos_] != ',' && text_[pos_] != ']' &&
           text_[pos_] != '}') {
      ++pos_;
    }
    return true;
  }

  bool Object(const std::string& pointer, int depth) {
    ++pos_;  // '{'
    SkipSpace();
    if (!AtEnd() && text_[pos_] == '}') {
      ++pos_;
      return true;
    }
    while (!AtEnd()) {
      std::string key;
      if (text_[pos_] != '"' || !String(key)) return false;
      SkipSpace();
      if (AtEnd() || text_[pos_] != ':') return false;
      ++pos_;
      SkipSpace();
      if (!Value(pointer + "/" + EscapePointerToken(key), depth + 1)) return false;
      SkipSpace();
      if (AtEnd()) return false;
      if (text_[pos_] == '}') {
        ++pos_;
        return true;
      }
      if (text_[pos_] != ',') return false;
      ++pos_;
      SkipSpace();
    }
    return false;
  }

  bool Array(const std::string& pointer, int depth) {
    ++pos_;  // '['
    SkipSpace();
    if (!AtEnd() && text_[pos_] == ']') {
      ++pos_;
      return true;
    }
    for (std::size_t index = 0; !AtEnd(); ++index) {
      if (!Value(pointer + "/" + std::to_string(index), depth + 1)) return false;
      SkipSpace();
      if (AtEnd()) return false;
      if (text_[pos_] == ']') {
        ++pos_;
        return true;
      }
      if (text_[pos_] != ',') return false;
      ++pos_;
      SkipSpace();
    }
    return false;
  }

  // Decodes the string at pos_ (keys must match the parser's view of them).
  bool String(std::string& out) {
    ++pos_;  // opening quote
    while (!AtEnd()) {
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (AtEnd()) return false;
      const char e = text_[pos_++];
      switch (e) {
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!Hex4(cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00 && pos_ + 1 < text_.size() && text_[pos_] == '\\' &&
              text_[pos_ + 1] == 'u') {
            pos_ += 2;
            std::uint32_t low = 0;
            if (!Hex4(low)) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(out, cp);
          break;
        }
        default:
          out += e;
          break;
      }
    }
    return false;
  }

  bool Hex4(std::uint32_t& value) {
    if (pos_ + 4 > text_.size()) return false;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      value <<= 4;
      if (h >= '0' && h <= '9') {
        value |= static_cast<std::uint32_t>(h - '0');
      } else if (h >= 'a' && h <= 'f') {
        value |= static_cast<std::uint32_t>(h - 'a' + 10);
      } else if (h >= 'A' && h <= 'F') {
        value |= static_cast<std::uint32_t>(h - 'A' + 10);
      } else {
        return false;
      }
    }
    return true;
  }

  std::string_view text_;
  std::map<std::string, std::size_t>& offsets_;
  std::size_t pos_ = 0;
};

}  // namespace

TextPosition PositionOfOffset(std::string_view text, std::size_t offset) {
  if (offset > text.size()) offset = text.size();
  TextPosition position;
  for (std::size_t i = 0; i < offset; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '\n') {
      ++position.line;
      position.column = 1;
    } else if ((byte & 0xC0) != 0x80) {
      // Continuation bytes belong to the character already counted.
      ++position.column;
    }
  }
  return position;
}

JsonPositions::JsonPositions(std::string_view text) : text_(text) { Scanner(text, offsets_).Run(); }

TextPosition JsonPositions::Find(const std::string& pointer) const {
  std::string probe = pointer;
  while (true) {
    if (const auto it = offsets_.find(probe); it != offsets_.end()) {
      return PositionOfOffset(text_, it->second);
    }
    if (probe.empty()) return TextPosition{};
    const auto slash = probe.rfind('/');
    probe.erase(slash == std::string::npos ? 0 : slash);
  }
}

bool JsonPositions::Contains(const std::string& pointer) const {
  return offsets_.count(pointer) != 0;
}

std::string EscapePointerToken(std::string_view token) {
  std::string out;
  for (const char c : token) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace gemini_oracle::runner
