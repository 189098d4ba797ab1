// gemini-oracle merge: reads the shard reports, joins them (reports/merge.h), writes the
// whole run's reports.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "apps/gemini-oracle/commands.h"
#include "apps/gemini-oracle/exit_status.h"
#include "apps/gemini-oracle/report_commands.h"
#include "oracles/runner/diagnostic.h"
#include "reports/index.h"
#include "reports/merge.h"
#include "reports/report_file.h"
#include "reports/write_all.h"

namespace gemini_oracle::cli {
namespace {

namespace fs = std::filesystem;

std::string List(const std::vector<std::size_t>& shards) {
  std::string text;
  for (const auto shard : shards) text += (text.empty() ? "" : ", ") + std::to_string(shard);
  return text;
}

}  // namespace

int MergeCommand(const MergeArgs& args, std::ostream& out, std::ostream& err) {
  if (args.reports.empty()) {
    err << "gemini-oracle merge: needs the shard reports (index.json files or report folders)\n";
    return kExitBadInput;
  }
  std::vector<reports::LoadedReport> loaded;
  reports::MergedReport merged;
  try {
    for (const auto& path : args.reports) loaded.push_back(reports::LoadReport(path));
    merged = reports::MergeShards(loaded);
  } catch (const reports::BadReport& e) {
    // It names the file and maybe a case id: both may hold control characters.
    err << "gemini-oracle merge: " << runner::TerminalSafe(e.what()) << "\n";
    return kExitBadInput;
  }
  // Writing over a shard's own report would destroy an input the user may still need.
  std::error_code error;
  for (const auto& report : loaded) {
    if (fs::equivalent(report.file, args.report_dir / "index.json", error)) {
      err << "gemini-oracle merge: --report-dir " << DisplayPath(args.report_dir) << " holds "
          << runner::TerminalSafe(report.file) << ", one of the shards; merge into another folder\n";
      return kExitBadInput;
    }
  }
  // Held until the merge ends: another run or merge into this folder would replace its files.
  std::optional<reports::ReportDirLock> report_lock;
  try {
    report_lock.emplace(args.report_dir);
    reports::PrepareReportDir(args.report_dir);
  } catch (const std::exception& e) {
    err << "gemini-oracle merge: --report-dir: " << e.what() << "\n";
    return kExitBadInput;
  }
  int status = 0;
  std::vector<std::string> written;
  try {
    reports::WriteAll(merged.index, args.report_dir, nullptr, &written);
  } catch (const std::exception& e) {
    err << "gemini-oracle merge: " << e.what() << "\n";
    status |= kExitHarness;
  }
  const nlohmann::json& results = merged.index["results"];
  // The bits the whole run would have exited with (a timeout is 2, a bad fixture 4).
  status |= ResultExitBits(results);
  out << "gemini-oracle merge: shards " << List(merged.shards) << " of " << merged.shard_count
      << ", " << results.size() << " cases\n";
  if (!merged.missing.empty()) {
    // An incomplete run must not pass as the whole run: the harness bit says so.
    err << "gemini-oracle merge: warning: shard" << (merged.missing.size() == 1 ? " " : "s ")
        << List(merged.missing) << " of " << merged.shard_count
        << " missing; the merged report is incomplete (context.missing_shards)\n";
    status |= kExitHarness;
  }
  const nlohmann::json& s = merged.index["summary"];
  const auto count = [&](const char* key) { return s.value(key, std::size_t{0}); };
  const auto bad = merged.index["context"].value("bad_fixtures", std::size_t{0});
  out << "reports: "
      << reports::WrittenReports(DisplayPath(args.report_dir), reports::ReportFileNames(), written)
      << "\n";
  out << "gemini-oracle: " << count("passed") << " passed, " << count("failed") << " failed, "
      << count("skipped") << " skipped, " << count("implementation_defined")
      << " implementation-defined, " << count("errors") << " errors (" << bad
      << " bad fixtures), " << count("timeouts") << " timeouts, " << count("known") << " known, "
      << count("unexpected_passes") << " unexpected passes; " << count("total") << " in all\n";
  return status;
}

}  // namespace gemini_oracle::cli
