#include "reports/write_all.h"

#include <fstream>
#include <functional>
#include <stdexcept>
#include <system_error>

#include "reports/html.h"
#include "reports/index.h"
#include "reports/junit.h"
#include "reports/markdown.h"

namespace gemini_oracle::reports {
namespace {

void WriteFile(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(path.generic_string() + ": cannot write the report");
  write(out);
  out.flush();
  if (!out) throw std::runtime_error(path.generic_string() + ": write failed");
}

}  // namespace

void WriteAll(const nlohmann::json& index, const std::filesystem::path& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw std::runtime_error(dir.generic_string() + ": " + error.message());
  WriteIndex(index, dir / "index.json");
  WriteFile(dir / "junit.xml", [&](std::ostream& out) { WriteJunit(index, out); });
  WriteFile(dir / "summary.md", [&](std::ostream& out) { WriteMarkdown(index, out); });
  WriteFile(dir / "summary.html", [&](std::ostream& out) { WriteHtml(index, out); });
}

}  // namespace gemini_oracle::reports
