#pragma once
// Every report format from one index, in one folder.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gemini_oracle::reports {

/// The files WriteAll() writes: index.json, junit.xml, summary.md, summary.html.
const std::vector<std::string>& ReportFileNames();

/// The mutation run's report in Stryker's format, beside the others (`gemini-oracle mutants`).
inline constexpr const char* kMutantsReportName = "mutants.json";

/// Called before a run: creates `dir`, removes the reports a previous run left there (so a
/// run that dies never leaves an old verdict behind; with `mutation`, mutants.json too), and
/// proves the folder writable. Throws std::runtime_error saying what failed.
void PrepareReportDir(const std::filesystem::path& dir, bool mutation = false);

/// Creates `dir` and writes index.json, junit.xml, summary.md and summary.html, each
/// atomically (a temporary file renamed over the old one), the index last; with `mutants`
/// (a Stryker report), mutants.json before the index.
/// Throws std::runtime_error naming the file that could not be written.
void WriteAll(const nlohmann::json& index, const std::filesystem::path& dir,
              const nlohmann::json* mutants = nullptr);

}  // namespace gemini_oracle::reports
