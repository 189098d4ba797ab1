#include <iostream>

#include "apps/gemini-oracle/commands.h"
#include "oracles/runner/case_loader.h"

namespace gemini_oracle::cli {

int CheckCommand(const CheckArgs& args, std::ostream& out, std::ostream& err) {
  runner::CorpusCheck result;
  try {
    const auto loader = runner::CaseLoader::FromSourceRoot(args.source_root);
    result = args.paths.empty() ? runner::CheckCorpus(args.fixtures, loader)
                                : runner::CheckFiles(args.paths, args.fixtures, loader);
  } catch (const std::exception& e) {
    err << "gemini-oracle check: " << e.what() << "\n";
    return kExitBadInput;
  }
  for (auto d : result.diagnostics) {
    d.file = DisplayPath(d.file);
    err << runner::FormatDiagnostic(d) << "\n";
  }
  const auto plural = [](std::size_t n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
  };
  out << "gemini-oracle check: " << plural(result.cases.size(), "valid case") << ", "
      << plural(result.diagnostics.size(), "problem") << "\n";
  if (result.cases.empty() && result.diagnostics.empty()) {
    err << "gemini-oracle check: no fixture found; nothing was checked\n";
    return kExitBadInput;
  }
  return result.ok() ? 0 : kExitBadInput;
}

}  // namespace gemini_oracle::cli
