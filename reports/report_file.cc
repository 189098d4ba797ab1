#include "reports/report_file.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
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

// The 0-based offset of the bracket that opens level kMaxReportDepth + 1, or npos. Brackets in
// strings do not count; for valid JSON the scan sees exactly the parser's nesting, and invalid
// JSON fails to parse at or before the place the scan goes wrong.
std::size_t TooDeepAt(std::string_view text) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // an escaped quote does not end the string
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxReportDepth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::string_view::npos;
}

// The 0-based offset of the first number outside strings that overflows a double (what
// nlohmann refuses with out_of_range), or 0.
std::size_t OverflowAt(std::string_view text) {
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t end = i;
      while (end < text.size() && std::string_view("+-.0123456789eE").find(text[end]) !=
                                      std::string_view::npos) {
        ++end;
      }
      const std::string number(text.substr(i, end - i));
      if (std::isinf(std::strtod(number.c_str(), nullptr))) return i;
      i = end - 1;
    }
  }
  return 0;
}

}  // namespace

nlohmann::json ParseReportText(std::string_view text, const std::string& file) {
  if (const std::size_t at = TooDeepAt(text); at != std::string_view::npos) {
    Refuse(file, "refused at byte " + std::to_string(at + 1) + ": arrays and objects nest deeper "
                 "than " + std::to_string(kMaxReportDepth) + " levels, the bound of a report file");
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    Refuse(file, "invalid JSON at byte " + std::to_string(e.byte) + ": " + ParseMessage(e.what()));
  } catch (const nlohmann::json::out_of_range&) {
    // 1e999: nlohmann's out_of_range names no position (nor is the number quoted here).
    Refuse(file, "invalid JSON at byte " + std::to_string(OverflowAt(text) + 1) +
                     ": a number beyond the range of a double");
  }
}

nlohmann::json ReadReportJson(const fs::path& file, const std::string& shown) {
  std::error_code error;
  // A FIFO or a device would block or read without end.
  if (!fs::is_regular_file(file, error)) Refuse(shown, "not a regular file");
  // Bounded before reading: a report is ours, but the file may have been replaced.
  const std::uintmax_t size = fs::file_size(file, error);
  const auto too_large = [&](const std::string& bytes) {
    Refuse(shown, bytes + " bytes: a report file holds at most " +
                      std::to_string(kMaxReportBytes) + " bytes");
  };
  if (!error && size > kMaxReportBytes) too_large(std::to_string(size));
  std::ifstream in(file, std::ios::binary);
  if (!in) Refuse(shown, "cannot be read");
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxReportBytes) too_large("more than " + std::to_string(kMaxReportBytes));
  }
  if (in.bad()) Refuse(shown, "cannot be read");
  return ParseReportText(text, shown);
}

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
  report.index = ReadReportJson(file, report.file);
  CheckIndexShape(report.index, report.file);
  return report;
}

}  // namespace gemini_oracle::reports
