#include "oracles/runner/diagnostic.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <tuple>

namespace gemini_oracle::runner {

namespace {

// The length of the UTF-8 sequence at `text[i]`, or 0 when it is not one (overlong forms,
// surrogates and values past U+10FFFF included).
std::size_t Utf8Length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  std::uint32_t min = 0;
  std::uint32_t cp = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, min = 0x80, cp = lead & 0x1Fu;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, min = 0x800, cp = lead & 0x0Fu;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, min = 0x10000, cp = lead & 0x07u;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(k) & 0x3Fu);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return length;
}

}  // namespace

std::string TerminalSafe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  char escaped[8];
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    if (lead >= 0x20 && lead < 0x7F) {
      out += text[i++];
      continue;
    }
    const std::size_t length = lead < 0x80 ? 0 : Utf8Length(text, i);
    if (length == 0) {  // a C0 control, DEL, or a byte that is not UTF-8
      std::snprintf(escaped, sizeof escaped, "\\x%02x", lead);
      out += escaped;
      ++i;
    } else if (length == 2 && lead == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) {
      // U+0080 to U+009F: C1 controls (CSI, OSC) a terminal obeys like ESC sequences.
      std::snprintf(escaped, sizeof escaped, "\\u%04x",
                    static_cast<unsigned>(static_cast<unsigned char>(text[i + 1])));
      out += escaped;
      i += 2;
    } else {
      out.append(text, i, length);
      i += length;
    }
  }
  return out;
}

std::string FormatDiagnostic(const Diagnostic& diagnostic) {
  return TerminalSafe(diagnostic.file) + ":" + std::to_string(diagnostic.line) + ":" +
         std::to_string(diagnostic.column) + ": " + TerminalSafe(diagnostic.message) + " [" +
         TerminalSafe(diagnostic.rule) + "]";
}

void SortDiagnostics(std::vector<Diagnostic>& diagnostics) {
  std::stable_sort(diagnostics.begin(), diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     return std::tie(a.file, a.line, a.column, a.rule, a.message) <
                            std::tie(b.file, b.line, b.column, b.rule, b.message);
                   });
}

}  // namespace gemini_oracle::runner
