#pragma once
// A Markdown summary (CI job summaries, pull-request comments), derived from the index.

#include <nlohmann/json.hpp>
#include <ostream>

namespace gemini_oracle::reports {

/// The summary table first, then every gating result with its findings, then a per-clause
/// table, then all cases. Ids appear verbatim in code spans.
void WriteMarkdown(const nlohmann::json& index, std::ostream& out);

}  // namespace gemini_oracle::reports
