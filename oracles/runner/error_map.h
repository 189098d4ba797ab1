#pragma once
// `run --error-map FILE`: how an implementation's own error classes map to the catalogue's
// codes (docs/error-codes.md), for drivers without the `typed-errors` capability
// (INTERPRETING §15.4). Without a map such a driver's refusals are judged on the refusal, its
// exchange and the requests sent before it, and each result says the code was not judged.

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "oracles/runner/diagnostic.h"

namespace gemini_oracle::runner {

struct ErrorMap {
  std::filesystem::path file;
  std::string implementation;                // informational
  std::map<std::string, std::string> codes;  // the implementation's class -> catalogue code
};

struct ErrorMapLoad {
  ErrorMap map;
  std::vector<Diagnostic> diagnostics;
  bool ok() const { return diagnostics.empty(); }
};

/// Reads {"implementation": "...", "map": {"ClassName": "catalogue.code", ...}}. A problem
/// (not JSON, a member of the wrong kind, an unknown member, a target that is not a code or
/// that is not in the catalogue: `catalogue_codes`) is a Diagnostic with file, line,
/// column and rule (error_map.*); nothing is kept from a file with a problem.
ErrorMapLoad LoadErrorMap(const std::filesystem::path& file,
                          const std::set<std::string>& catalogue_codes);

}  // namespace gemini_oracle::runner
