// gemini-oracle compare: reads the reports, then writes the comparison (reports/compare.h).
#include <optional>
#include <ostream>

#include "apps/gemini-oracle/commands.h"
#include "apps/gemini-oracle/report_commands.h"
#include "oracles/runner/diagnostic.h"
#include "reports/compare.h"
#include "reports/report_file.h"
#include "reports/write_all.h"

namespace gemini_oracle::cli {

int CompareCommand(const CompareArgs& args, std::ostream& out, std::ostream& err) {
  if (args.reports.size() < 2) {
    err << "gemini-oracle compare: needs at least two reports (index.json files or report "
           "folders), got "
        << args.reports.size() << "\n";
    return kExitBadInput;
  }
  // Every report is read before anything is written: bad input leaves no half comparison.
  std::vector<reports::LoadedReport> loaded;
  try {
    for (const auto& path : args.reports) loaded.push_back(reports::LoadReport(path));
  } catch (const reports::BadReport& e) {
    // It names the file and maybe a case id: both may hold control characters.
    err << "gemini-oracle compare: " << runner::TerminalSafe(e.what()) << "\n";
    return kExitBadInput;
  }
  const nlohmann::json comparison = reports::BuildComparison(loaded);
  std::error_code error;
  std::filesystem::create_directories(args.out, error);
  if (error || !std::filesystem::is_directory(args.out, error)) {
    err << "gemini-oracle compare: --out: " << DisplayPath(args.out)
        << ": cannot create the folder\n";
    return kExitBadInput;
  }
  // Two comparisons into one folder would mix their pages: the second is refused.
  std::optional<reports::ReportDirLock> lock;
  try {
    lock.emplace(args.out);
  } catch (const std::exception& e) {
    err << "gemini-oracle compare: --out: " << e.what() << "\n";
    return kExitBadInput;
  }
  try {
    reports::WriteComparison(comparison, args.out);
  } catch (const std::exception& e) {
    err << "gemini-oracle compare: " << e.what() << "\n";
    return kExitHarness;
  }
  for (const auto& warning : comparison["warnings"]) {
    err << "gemini-oracle compare: warning: " << warning.get<std::string>() << "\n";
  }
  const nlohmann::json& summary = comparison["summary"];
  out << "gemini-oracle compare: " << summary["cases"].get<std::size_t>() << " cases, "
      << summary["implementations"].get<std::size_t>() << " implementations, "
      << summary["disagreements"].get<std::size_t>() << " where they disagree ("
      << summary["not_run_everywhere"].get<std::size_t>() << " not run by every report)\n";
  out << "reports: " << DisplayPath(args.out) << "/{compare.md,compare.html,compare.json}\n";
  return 0;
}

}  // namespace gemini_oracle::cli
