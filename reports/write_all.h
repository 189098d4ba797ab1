#pragma once
// Every report format from one index, in one folder.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace gemini_oracle::reports {

/// The files WriteAll() writes: index.json, junit.xml, summary.md, summary.html.
const std::vector<std::string>& ReportFileNames();

/// The mutation run's report in Stryker's format, beside the others (`gemini-oracle mutants`).
inline constexpr const char* kMutantsReportName = "mutants.json";

/// The lock file inside a report folder (hidden: no reader takes it for a report).
inline constexpr const char* kReportLockName = ".gemini-oracle.lock";

/// Another process holds the report folder's lock: what() names the folder.
class ReportDirBusy : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One process's hold on a report folder, for as long as the object lives: an exclusive
/// flock(2) on kReportLockName inside it. Two runs writing one folder would replace each
/// other's files (and collide on the temporary names), so the second is refused, never
/// queued. The lock file stays; the kernel releases the lock when the process ends, however.
class ReportDirLock {
 public:
  /// Creates `dir` when needed and takes its lock without waiting. Throws ReportDirBusy when
  /// another process (or another lock object) holds it, std::runtime_error when the folder or
  /// the lock file cannot be made.
  explicit ReportDirLock(const std::filesystem::path& dir);
  ~ReportDirLock();
  ReportDirLock(ReportDirLock&& other) noexcept;
  ReportDirLock& operator=(ReportDirLock&& other) noexcept;
  ReportDirLock(const ReportDirLock&) = delete;
  ReportDirLock& operator=(const ReportDirLock&) = delete;

 private:
  int fd_ = -1;
};

/// Called before a run, under the folder's ReportDirLock: creates `dir`, removes the reports a
/// previous run left there (so a run that dies never leaves an old verdict behind; with
/// `mutation`, mutants.json too), and proves the folder writable. Throws std::runtime_error
/// saying what failed.
void PrepareReportDir(const std::filesystem::path& dir, bool mutation = false);

/// Creates `dir` and writes index.json, junit.xml, summary.md and summary.html, each
/// atomically (a temporary file renamed over the old one), the index last; with `mutants`
/// (a Stryker report), mutants.json before the index. Each file's name is appended to
/// `written` (when given) once the file is in place, so a caller announces only those.
/// Throws std::runtime_error naming the file that could not be written; the files after it
/// are not written.
void WriteAll(const nlohmann::json& index, const std::filesystem::path& dir,
              const nlohmann::json* mutants = nullptr, std::vector<std::string>* written = nullptr);

/// What a command announces after writing: "DIR/{a,b}" for the names of `order` that are in
/// `written`, in the order of `order`; "DIR/a" for one; "none written in DIR" for none.
std::string WrittenReports(const std::string& dir, const std::vector<std::string>& order,
                           const std::vector<std::string>& written);

}  // namespace gemini_oracle::reports
