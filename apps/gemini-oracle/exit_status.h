#pragma once
// The exit bits a list of results calls for, shared by `run` and `merge` so that a merged
// report exits as the whole run would have.

#include <nlohmann/json.hpp>
#include <string>

#include "apps/gemini-oracle/commands.h"
#include "reports/index.h"

namespace gemini_oracle::cli {

/// kExitBadInput for a bad fixture's result; kExitHarness for an error that is not a bad
/// fixture, a timeout, or a verdict this tool does not know; kExitConformance for a failure or
/// an unexpected pass. Other verdicts (pass, skipped, known, implementation_defined) add none.
inline int ResultExitBits(const nlohmann::json& results) {
  int status = 0;
  if (!results.is_array()) return status;
  for (const auto& result : results) {
    if (!reports::Gates(result)) continue;
    const auto member = [&](const char* key) {
      const auto it = result.is_object() ? result.find(key) : result.end();
      return it == result.end() ? nlohmann::json() : *it;
    };
    const nlohmann::json value = member("verdict");
    const std::string verdict = value.is_string() ? value.get<std::string>() : std::string();
    if (verdict == reports::kFail || verdict == reports::kUnexpectedPass) {
      status |= kExitConformance;
    } else if (verdict == reports::kError && member("bad_fixture") == true) {
      status |= kExitBadInput;
    } else {
      status |= kExitHarness;  // error, timeout, or an unknown verdict (a harness bug)
    }
  }
  return status;
}

}  // namespace gemini_oracle::cli
