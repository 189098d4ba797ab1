#pragma once
// One finding of `check` about a fixture file, in the compiler format editors understand.

#include <string>
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

/// `file:line:column: message [rule]`.
std::string FormatDiagnostic(const Diagnostic& diagnostic);

/// Sorts by file, line, column, rule, message: the order `check` prints.
void SortDiagnostics(std::vector<Diagnostic>& diagnostics);

}  // namespace gemini_oracle::runner
