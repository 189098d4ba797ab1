#pragma once
// Every report format from one index, in one folder.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gemini_oracle::reports {

/// The files WriteAll() writes: index.json, junit.xml, summary.md, summary.html.
const std::vector<std::string>& ReportFileNames();

/// Called before a run: creates `dir`, removes the reports a previous run left there (so a
/// run that dies never leaves an old verdict behind), and proves the folder writable.
/// Throws std::runtime_error saying what failed.
void PrepareReportDir(const std::filesystem::path& dir);

/// Creates `dir` and writes index.json, junit.xml, summary.md and summary.html, each
/// atomically (a temporary file renamed over the old one), the index last.
/// Throws std::runtime_error naming the file that could not be written.
void WriteAll(const nlohmann::json& index, const std::filesystem::path& dir);

}  // namespace gemini_oracle::reports
