#pragma once
// What the two compliance writers say alike: a cell's text, the order of the legend's counts.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gemini_oracle::reports::compliance_text {

/// "pass 27", "fail 3/33", "open 2" (findings noted), "not run", "not judged".
std::string CellText(const nlohmann::json& cell);

/// The state of a cell ("pass", "fail", "open", "excluded", "not_run"); "not_run" for
/// anything else.
std::string CellState(const nlohmann::json& cell);

/// The labels of the implementations, in column order.
std::vector<std::string> Labels(const nlohmann::json& compliance);

/// The counts the legend shows, in order, with their headings.
const std::vector<std::pair<std::string, std::string>>& LegendCounts();

/// The page's opening sentence.
std::string Intro(const nlohmann::json& compliance);

}  // namespace gemini_oracle::reports::compliance_text
