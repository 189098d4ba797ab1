#pragma once
// The "Mutation testing" section of summary.md and summary.html, from the index's `mutation`
// member: the score, one line per fault, the bug cases paired with their faults, the
// equivalent faults apart, and what kept the run from being clean.

#include <iosfwd>
#include <nlohmann/json.hpp>

namespace gemini_oracle::reports {

void WriteMutationMarkdown(const nlohmann::json& mutation, std::ostream& out);
void WriteMutationHtml(const nlohmann::json& mutation, std::ostream& out);

}  // namespace gemini_oracle::reports
