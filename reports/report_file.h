#pragma once
// Reading a report back: an index.json given by the user (compare, merge), checked enough
// that every later step may trust its shape.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace gemini_oracle::reports {

/// A report the user named that cannot be used; what() is "FILE: what is wrong".
class BadReport : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LoadedReport {
  std::string file;  // the index.json as the user named it (inside the folder for a folder)
  nlohmann::json index;
};

/// Reads `path`, an index.json or a report folder holding one. Throws BadReport when the file
/// is missing or unreadable, is not JSON (the message gives the byte position), or is not an
/// index: no object, no `results` array, a `context` that is not an object, a result without a
/// string `id` or `verdict`, a case id twice, or a json_schema_version newer than this tool's.
LoadedReport LoadReport(const std::filesystem::path& path);

/// Checks an index already in memory as LoadReport does; `file` names it in the message.
void CheckIndexShape(const nlohmann::json& index, const std::string& file);

}  // namespace gemini_oracle::reports
