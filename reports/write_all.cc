#include "reports/write_all.h"

#include <fstream>
#include <functional>
#include <stdexcept>
#include <system_error>

#include "reports/atomic_file.h"
#include "reports/html.h"
#include "reports/index.h"
#include "reports/junit.h"
#include "reports/markdown.h"

namespace gemini_oracle::reports {
namespace {

namespace fs = std::filesystem;

// A reader sees the old file or the whole new one, never a part (atomic_file.h).
void WriteFile(const fs::path& path, const std::function<void(std::ostream&)>& write) {
  WriteFileAtomically(path, write);
}

}  // namespace

const std::vector<std::string>& ReportFileNames() {
  static const std::vector<std::string> names = {"index.json", "junit.xml", "summary.md",
                                                 "summary.html"};
  return names;
}

void PrepareReportDir(const fs::path& dir, bool mutation) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir, error)) {
    throw std::runtime_error(dir.generic_string() + ": cannot create the report folder");
  }
  // Yesterday's verdict must never outlive a run that stops before writing today's.
  std::vector<std::string> names = ReportFileNames();
  if (mutation) names.push_back(kMutantsReportName);
  for (const auto& name : names) {
    fs::remove(dir / name, error);
    if (error) {
      throw std::runtime_error((dir / name).generic_string() +
                               ": cannot remove the previous report: " + error.message());
    }
  }
  WriteFile(dir / ".write-probe", [](std::ostream& out) { out << "probe\n"; });
  fs::remove(dir / ".write-probe", error);
}

void WriteAll(const nlohmann::json& index, const fs::path& dir, const nlohmann::json* mutants) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) throw std::runtime_error(dir.generic_string() + ": " + error.message());
  // The index last: a reader that finds it finds the other formats of the same run.
  WriteFile(dir / "junit.xml", [&](std::ostream& out) { WriteJunit(index, out); });
  WriteFile(dir / "summary.md", [&](std::ostream& out) { WriteMarkdown(index, out); });
  WriteFile(dir / "summary.html", [&](std::ostream& out) { WriteHtml(index, out); });
  if (mutants != nullptr) {
    WriteFile(dir / kMutantsReportName, [&](std::ostream& out) { WriteIndexTo(*mutants, out); });
  }
  WriteFile(dir / "index.json", [&](std::ostream& out) { WriteIndexTo(index, out); });
}

}  // namespace gemini_oracle::reports
