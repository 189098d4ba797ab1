#pragma once
// The report index: one machine-readable document every other report format derives from.
// It uses the sorted nlohmann::json, so keys always come out in the same order.

#include <filesystem>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace gemini_oracle::reports {

/// Bumped when a field of the index changes meaning or disappears (README.md documents it).
inline constexpr int kJsonSchemaVersion = 2;

/// The closed verdict set.
inline constexpr std::string_view kPass = "pass";
inline constexpr std::string_view kFail = "fail";
inline constexpr std::string_view kError = "error";
inline constexpr std::string_view kTimeout = "timeout";
inline constexpr std::string_view kSkipped = "skipped";
inline constexpr std::string_view kKnown = "known";
inline constexpr std::string_view kImplementationDefined = "implementation_defined";
/// A case an expectations file lists as a known failure that passed (`run --expect`): it gates,
/// so the list only shrinks.
inline constexpr std::string_view kUnexpectedPass = "unexpected_pass";

/// True when the result's verdict blocks the gate: fail, error, timeout or unexpected_pass. A
/// result without a known verdict gates too, because it can only come from a harness bug.
bool Gates(const nlohmann::json& result);

/// Counts of a results array: total, passed, failed, errors, timeouts, skipped, known,
/// implementation_defined, unexpected_passes. An unknown or missing verdict counts as an error.
nlohmann::json SummarizeResults(const nlohmann::json& results);

/// The summary's keys in the order every report format shows them.
const std::vector<std::string>& SummaryKeys();

/// {"json_schema_version", "context", "summary" (from the results), "results"}.
nlohmann::json BuildIndex(nlohmann::json context, nlohmann::json results);

/// The parts every derived format reads, each defaulted when the index lacks it, and the
/// summary recomputed so a hand-edited or partial index cannot show stale counts.
struct IndexParts {
  nlohmann::json context = nlohmann::json::object();
  nlohmann::json results = nlohmann::json::array();
  nlohmann::json summary;
  nlohmann::json clause_levels = nlohmann::json::object();
  /// The mutation run's section (`gemini-oracle mutants`); null for a plain run.
  nlohmann::json mutation;
};
IndexParts ReadIndex(const nlohmann::json& index);

/// Writes the index as indented JSON with a final newline (invalid UTF-8 replaced).
void WriteIndexTo(const nlohmann::json& index, std::ostream& out);

}  // namespace gemini_oracle::reports
