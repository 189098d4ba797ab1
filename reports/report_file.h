#pragma once
// Reading a report back: an index.json given by the user (compare, merge), checked enough
// that every later step may trust its shape.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gemini_oracle::reports {

/// A report the user named that cannot be used; what() is "FILE: what is wrong".
class BadReport : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The largest report file read, in bytes. A whole-corpus run with every request body kept
/// writes a few MiB; the bound keeps one tampered file from taking the machine's memory.
inline constexpr std::uintmax_t kMaxReportBytes = 256ull * 1024 * 1024;

/// Arrays and objects nest at most this deep in a report file (the root is level 1). A report
/// quotes JSON values from cases and requests (at most 512 deep, the wire reader's bound) a few
/// levels down; the bound keeps every recursive step after parsing (copies, comparisons,
/// dumps) far from the stack's end.
inline constexpr std::size_t kMaxReportDepth = 1024;

/// Parses a report file's text in one pass, refusing nesting deeper than kMaxReportDepth
/// before anything is built. Throws BadReport "FILE: ... at byte N: ..." (`file` names it;
/// N is the 1-based byte offset) for that and for a syntax error.
nlohmann::json ParseReportText(std::string_view text, const std::string& file);

/// Reads a report file (`shown` names it in messages): a regular file of at most
/// kMaxReportBytes, parsed by ParseReportText. Throws BadReport.
nlohmann::json ReadReportJson(const std::filesystem::path& file, const std::string& shown);

struct LoadedReport {
  std::string file;  // the index.json as the user named it (inside the folder for a folder)
  nlohmann::json index;
};

/// Reads `path`, an index.json or a report folder holding one. Throws BadReport when the file
/// is missing, unreadable or larger than kMaxReportBytes, is not JSON or nests deeper than
/// kMaxReportDepth (the message gives the byte position), or is not an
/// index: no object, no `results` array, a `context` that is not an object, a result without a
/// string `id` or `verdict`, a case id twice, or a json_schema_version newer than this tool's.
LoadedReport LoadReport(const std::filesystem::path& path);

/// Checks an index already in memory as LoadReport does; `file` names it in the message.
void CheckIndexShape(const nlohmann::json& index, const std::string& file);

}  // namespace gemini_oracle::reports
