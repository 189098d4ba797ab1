#include "reports/write_all.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
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

// A reader sees the old file or the whole new one, never a part (atomic_file.h); the name
// is recorded only once the file is in place.
void WriteFile(const fs::path& path, const std::function<void(std::ostream&)>& write,
               std::vector<std::string>* written) {
  WriteFileAtomically(path, write);
  if (written != nullptr) written->push_back(path.filename().string());
}

}  // namespace

ReportDirLock::ReportDirLock(const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir, error)) {
    throw std::runtime_error(dir.generic_string() + ": cannot create the report folder");
  }
  const fs::path file = dir / kReportLockName;
  // Close-on-exec: a driver process must never inherit (and outlive the run with) the lock.
  fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd_ < 0) {
    throw std::runtime_error(file.generic_string() +
                             ": cannot open the folder's lock file: " + std::strerror(errno));
  }
  int result;
  do {
    result = ::flock(fd_, LOCK_EX | LOCK_NB);
  } while (result != 0 && errno == EINTR);
  if (result != 0) {
    const int cause = errno;
    ::close(fd_);
    fd_ = -1;
    if (cause == EWOULDBLOCK) {
      throw ReportDirBusy(dir.generic_string() +
                          ": another gemini-oracle process is writing its reports in this folder "
                          "(it holds " + std::string(kReportLockName) +
                          "); wait for it to end or choose another folder");
    }
    throw std::runtime_error(file.generic_string() + ": cannot lock the folder: " +
                             std::strerror(cause));
  }
}

ReportDirLock::~ReportDirLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the only descriptor releases the flock
}

ReportDirLock::ReportDirLock(ReportDirLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

ReportDirLock& ReportDirLock::operator=(ReportDirLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

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
  WriteFileAtomically(dir / ".write-probe", [](std::ostream& out) { out << "probe\n"; });
  fs::remove(dir / ".write-probe", error);
}

void WriteAll(const nlohmann::json& index, const fs::path& dir, const nlohmann::json* mutants,
              std::vector<std::string>* written) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) throw std::runtime_error(dir.generic_string() + ": " + error.message());
  // The index last: a reader that finds it finds the other formats of the same run.
  WriteFile(dir / "junit.xml", [&](std::ostream& out) { WriteJunit(index, out); }, written);
  WriteFile(dir / "summary.md", [&](std::ostream& out) { WriteMarkdown(index, out); }, written);
  WriteFile(dir / "summary.html", [&](std::ostream& out) { WriteHtml(index, out); }, written);
  if (mutants != nullptr) {
    WriteFile(
        dir / kMutantsReportName, [&](std::ostream& out) { WriteIndexTo(*mutants, out); },
        written);
  }
  WriteFile(dir / "index.json", [&](std::ostream& out) { WriteIndexTo(index, out); }, written);
}

std::string WrittenReports(const std::string& dir, const std::vector<std::string>& order,
                           const std::vector<std::string>& written) {
  std::vector<std::string> shown;
  for (const auto& name : order) {
    if (std::find(written.begin(), written.end(), name) != written.end()) shown.push_back(name);
  }
  if (shown.empty()) return "none written in " + dir;
  if (shown.size() == 1) return dir + "/" + shown.front();
  std::string list;
  for (const auto& name : shown) list += (list.empty() ? "" : ",") + name;
  return dir + "/{" + list + "}";
}

}  // namespace gemini_oracle::reports
