#pragma once
// One finding of `check` about a fixture file, in the compiler format editors understand.

#include <string>
#include <string_view>
#include <vector>

namespace gemini_oracle::runner {

/// A problem in a file. `line` and `column` are 1-based; the column counts characters
/// (UTF-8 code points), so editors land on the offending value.
struct Diagnostic {
  std::string file;
  int line = 1;
  int column = 1;
  std::string rule;
  std::string message;

  friend bool operator==(const Diagnostic&, const Diagnostic&) = default;
};

/// `file:line:column: message [rule]` on one line, every part made safe with TerminalSafe.
std::string FormatDiagnostic(const Diagnostic& diagnostic);

/// `text` safe to print on a terminal: C0 controls (newline and tab included), DEL and bytes
/// that are not UTF-8 become "\xNN", C1 controls (U+0080 to U+009F) "\u00NN"; everything else
/// is kept, the backslash too, so that a text made safe twice reads the same.
std::string TerminalSafe(std::string_view text);

/// Sorts by file, line, column, rule, message: the order `check` prints.
void SortDiagnostics(std::vector<Diagnostic>& diagnostics);

}  // namespace gemini_oracle::runner
