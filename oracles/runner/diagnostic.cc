#include "oracles/runner/diagnostic.h"

#include <algorithm>
#include <tuple>

namespace gemini_oracle::runner {

std::string FormatDiagnostic(const Diagnostic& diagnostic) {
  return diagnostic.file + ":" + std::to_string(diagnostic.line) + ":" +
         std::to_string(diagnostic.column) + ": " + diagnostic.message + " [" + diagnostic.rule +
         "]";
}

void SortDiagnostics(std::vector<Diagnostic>& diagnostics) {
  std::stable_sort(diagnostics.begin(), diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     return std::tie(a.file, a.line, a.column, a.rule, a.message) <
                            std::tie(b.file, b.line, b.column, b.rule, b.message);
                   });
}

}  // namespace gemini_oracle::runner
