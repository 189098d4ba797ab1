#include "reports/report_file.h"

#include <fstream>
#include <iterator>
#include <set>

#include "reports/index.h"

namespace gemini_oracle::reports {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void Refuse(const std::string& file, const std::string& what) {
  throw BadReport(file + ": " + what);
}

// nlohmann's message without its "[json.exception.parse_error.101] " tag.
std::string ParseMessage(const std::string& what) {
  const auto end = what.find("] ");
  return what.rfind("[json.exception.", 0) == 0 && end != std::string::npos ? what.substr(end + 2)
                                                                            : what;
}

}  // namespace

void CheckIndexShape(const nlohmann::json& index, const std::string& file) {
  if (!index.is_object()) Refuse(file, "not a report index: the top level is not an object");
  const auto results = index.find("results");
  if (results == index.end() || !results->is_array()) {
    Refuse(file, "not a report index: no results array");
  }
  if (const auto context = index.find("context"); context != index.end() && !context->is_object()) {
    Refuse(file, "not a report index: context is not an object");
  }
  // A newer index may have changed what a member means; reading it as ours could mislead.
  if (const auto version = index.find("json_schema_version"); version != index.end()) {
    if (!version->is_number_integer() || version->get<std::int64_t>() > kJsonSchemaVersion) {
      Refuse(file, "json_schema_version " + version->dump() + " is not one this tool reads (1 to " +
                       std::to_string(kJsonSchemaVersion) + ")");
    }
  }
  std::set<std::string> ids;
  for (std::size_t i = 0; i < results->size(); ++i) {
    const nlohmann::json& result = (*results)[i];
    const std::string where = "results[" + std::to_string(i) + "]";
    const auto id = result.is_object() ? result.find("id") : result.end();
    if (!result.is_object() || id == result.end() || !id->is_string()) {
      Refuse(file, where + ": not a result (no string id)");
    }
    const auto verdict = result.find("verdict");
    if (verdict == result.end() || !verdict->is_string()) {
      Refuse(file, where + " (" + id->get<std::string>() + "): no string verdict");
    }
    if (!ids.insert(id->get<std::string>()).second) {
      Refuse(file, where + ": case " + id->get<std::string>() + " appears twice");
    }
  }
}

LoadedReport LoadReport(const fs::path& path) {
  std::error_code error;
  fs::path file = path;
  if (fs::is_directory(path, error)) file = path / "index.json";
  LoadedReport report;
  report.file = file.generic_string();
  if (!fs::exists(file, error)) {
    Refuse(report.file, file == path ? "no such file or folder"
                                     : "no such file (a report folder holds an index.json)");
  }
  if (fs::is_directory(file, error)) Refuse(report.file, "is a folder, not an index.json");
  std::ifstream in(file, std::ios::binary);
  if (!in) Refuse(report.file, "cannot be read");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) Refuse(report.file, "cannot be read");
  try {
    report.index = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    Refuse(report.file,
           "invalid JSON at byte " + std::to_string(e.byte) + ": " + ParseMessage(e.what()));
  }
  CheckIndexShape(report.index, report.file);
  return report;
}

}  // namespace gemini_oracle::reports
