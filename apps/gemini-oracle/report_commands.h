#pragma once
// The subcommands that read reports rather than run cases: compare and merge. Exit status
// bits as in commands.h (1 conformance, 2 harness, 4 bad input or usage).

#include <filesystem>
#include <iosfwd>
#include <vector>

namespace gemini_oracle::cli {

/// `gemini-oracle compare [--out DIR] REPORT...`: two or more reports side by side.
struct CompareArgs {
  std::vector<std::filesystem::path> reports;  // index.json files or report folders
  std::filesystem::path out = "reports/compare";
};
/// Writes compare.md, compare.html and compare.json. Exit status: 0 when written (verdicts
/// that differ are the finding, not an error); 4 fewer than two reports, a report that cannot
/// be read or is not an index, or an --out that cannot be created or that another process is
/// writing in (nothing written); 2 a write that failed.
int CompareCommand(const CompareArgs& args, std::ostream& out, std::ostream& err);

/// `gemini-oracle merge [--report-dir DIR] REPORT...`: one run's shards joined.
struct MergeArgs {
  std::vector<std::filesystem::path> reports;  // index.json files or report folders
  std::filesystem::path report_dir = "reports/merged";
};
/// Writes the merged index.json, junit.xml, summary.md and summary.html. Exit status: 4 a bad
/// report, shards that do not belong together, or a --report-dir another process is writing
/// in (nothing written); otherwise the bits `run` gives the same results (1 a failure, 2 an
/// error or a timeout, 4 a bad fixture), and bit 2 when shards are missing (the merged report
/// is incomplete) or a write failed.
int MergeCommand(const MergeArgs& args, std::ostream& out, std::ostream& err);

/// `gemini-oracle compliance [--out DIR] [LABEL=]REPORT...`: the compliance table
/// (reports/compliance.h) of one or more implementations, each column under its LABEL (else
/// under its report's implementation name).
struct ComplianceArgs {
  std::vector<std::string> reports;  // LABEL=PATH or PATH: index.json files or report folders
  std::filesystem::path source_root;  // for oracles/clauses.json
  std::filesystem::path out = "docs/compliance";
};
/// Writes README.md, index.html and compliance.json. Exit status: 0 when written (failures
/// are the content, not an error); 4 no report, a report that cannot be read, a label given
/// twice, an unreadable clause registry or an --out that cannot be created (nothing
/// written); 2 a write that failed.
int ComplianceCommand(const ComplianceArgs& args, std::ostream& out, std::ostream& err);

}  // namespace gemini_oracle::cli
