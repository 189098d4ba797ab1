#pragma once
// A self-contained HTML page (no external assets, no script), derived from the index.

#include <nlohmann/json.hpp>
#include <ostream>

namespace gemini_oracle::reports {

/// Context, summary table, gating results with findings, per-clause table, all cases.
/// Every text is HTML-escaped; control characters are shown as \uXXXX.
void WriteHtml(const nlohmann::json& index, std::ostream& out);

}  // namespace gemini_oracle::reports
