// Diagnostics print on a terminal: a file name holding ESC sequences, a newline or bytes that
// are not UTF-8 is shown escaped, one diagnostic per line.
#include "oracles/runner/diagnostic.h"

#include <gtest/gtest.h>

#include <string>

namespace gemini_oracle::runner {
namespace {

// C0 controls, DEL, C1 controls and invalid UTF-8 are escaped; printable text, UTF-8 letters and
// the backslash are kept, so escaping twice changes nothing.
TEST(TerminalSafe, EscapesEveryControlAndInvalidByte) {
  EXPECT_EQ(TerminalSafe("fixtures/adr-224/y_ok.json"), "fixtures/adr-224/y_ok.json");
  EXPECT_EQ(TerminalSafe("y_\x1b[31mred\nx\ty\r\x7f.json"),
            "y_\\x1b[31mred\\x0ax\\x09y\\x0d\\x7f.json");
  EXPECT_EQ(TerminalSafe(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(TerminalSafe("\xc2\x9b" "31m \xc2\x85"), "\\u009b31m \\u0085");  // CSI, NEL
  EXPECT_EQ(TerminalSafe("caf\xc3\xa9 \xc2\xa0 \xe2\x82\xac \xf0\x9f\x98\x80"),
            "caf\xc3\xa9 \xc2\xa0 \xe2\x82\xac \xf0\x9f\x98\x80");
  // A lone continuation byte, a cut sequence, an overlong slash, a surrogate, past U+10FFFF.
  EXPECT_EQ(TerminalSafe("\x9b" "a\xe2\x82" "b\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80"),
            "\\x9ba\\xe2\\x82b\\xc0\\xaf\\xed\\xa0\\x80\\xf4\\x90\\x80\\x80");
  const std::string once = TerminalSafe("a\\b\x1b\xff");
  EXPECT_EQ(once, "a\\b\\x1b\\xff");
  EXPECT_EQ(TerminalSafe(once), once);
}

// A diagnostic stays one line whatever its file name holds.
TEST(TerminalSafe, DiagnosticOfAHostileFileNameIsOneLine) {
  const std::string line =
      FormatDiagnostic({"adr-224/y_\x1b]0;owned\x07\n2:1: fake.json", 1, 1, "json.syntax", "m"});
  EXPECT_EQ(line, "adr-224/y_\\x1b]0;owned\\x07\\x0a2:1: fake.json:1:1: m [json.syntax]");
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_EQ(line.find('\x1b'), std::string::npos);
}

}  // namespace
}  // namespace gemini_oracle::runner
