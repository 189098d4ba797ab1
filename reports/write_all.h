#pragma once
// Every report format from one index, in one folder.

#include <filesystem>
#include <nlohmann/json.hpp>

namespace gemini_oracle::reports {

/// Creates `dir` and writes index.json, junit.xml, summary.md and summary.html.
/// Throws std::runtime_error naming the file that could not be written.
void WriteAll(const nlohmann::json& index, const std::filesystem::path& dir);

}  // namespace gemini_oracle::reports
