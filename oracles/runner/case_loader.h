#pragma once
// Finds fixture files, loads and checks each one. A bad file becomes diagnostics and never
// stops the rest of the corpus from loading.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oracles/runner/model_names.h"
#include "oracles/runner/case_schema.h"
#include "oracles/runner/clause_registry.h"
#include "oracles/runner/diagnostic.h"

namespace gemini_oracle::runner {

/// A file's outcome: a Case when it passed every rule, and its diagnostics (sorted).
struct LoadedCase {
  std::optional<Case> value;
  std::vector<Diagnostic> diagnostics;
};

/// The case id of `file`: its path under `fixtures_root` without ".json", '/'-separated;
/// just the stem for a file outside the root.
std::string CaseId(const std::filesystem::path& file, const std::filesystem::path& fixtures_root);

/// The id a bad fixture's result takes for `path`, a file or folder with diagnostics: its
/// CaseId when its name could be a case's (IsCaseFileName and a portable stem), else its path
/// under the root (the filename outside it) with every extension kept, so that "y_x.JSON" and
/// "y_x.txt" beside the case "y_x.json" are three entries with three ids.
std::string BadFixtureId(const std::filesystem::path& path,
                         const std::filesystem::path& fixtures_root);

/// The largest case file read, in bytes. The largest case of the corpus has under 8 KiB; the
/// bound keeps parsing, judging and the reports of any one case cheap.
inline constexpr std::size_t kMaxCaseBytes = 256 * 1024;

/// True for y_*.json, n_*.json and i_*.json (extension in lower case).
bool IsCaseFileName(std::string_view file_name);

/// Case files under a root, in id order, plus diagnostics for every entry that is neither a
/// case nor a note: `file.name` for a file in a subfolder not named like a case (notes,
/// *.md, excepted) and for a y_/n_/i_ file anywhere with another extension; `file.kind` for
/// a FIFO, socket or device, a dangling link, a loop of links, a link to a folder (never
/// followed) and a folder named like a case file (walked all the same, so no case under it is
/// lost); `file.read` for a folder that cannot be listed. Files at the root that are not
/// named like cases (case.schema.json, README.md, VERSION) and hidden entries are skipped.
struct DiscoveredFiles {
  std::vector<std::filesystem::path> cases;
  std::vector<Diagnostic> diagnostics;
};
/// Throws std::runtime_error when the root is not a readable folder. `depth_of_root` is 1 when
/// the folder walked is itself a case folder (a subfolder of the corpus named to `check`).
DiscoveredFiles DiscoverCaseFiles(const std::filesystem::path& fixtures_root,
                                  int depth_of_root = 0);

class CaseLoader {
 public:
  CaseLoader(CaseSchema schema, ClauseRegistry registry);

  /// The schema and registry of a source tree (fixtures/case.schema.json,
  /// oracles/clauses.json); throws std::runtime_error when either cannot be loaded.
  static CaseLoader FromSourceRoot(const std::filesystem::path& source_root);

  /// Reads, parses, validates and lints one file. Never throws; a FIFO, socket or device is
  /// refused without being opened.
  LoadedCase Load(const std::filesystem::path& file,
                  const std::filesystem::path& fixtures_root) const;

  /// The same for text already in memory; `file` names it in diagnostics and decides the
  /// case id and the y_/n_/i_ prefix. Never throws.
  LoadedCase LoadText(std::string_view text, const std::filesystem::path& file,
                      const std::filesystem::path& fixtures_root) const;

  const ClauseRegistry& registry() const { return registry_; }

 private:
  void LoadTextInto(std::string_view text, const std::filesystem::path& file,
                    const std::filesystem::path& fixtures_root, LoadedCase& loaded) const;

  CaseSchema schema_;
  ClauseRegistry registry_;
};

/// The result of `check`: cases that passed every rule (id order) and all diagnostics
/// (sorted). ok() is the exit status.
struct CorpusCheck {
  std::vector<Case> cases;
  std::vector<Diagnostic> diagnostics;
  bool ok() const { return diagnostics.empty(); }
};

/// Every case file under the root, including the corpus-wide id.unique rule: besides two case
/// files of one stem, a case whose id a bad fixture's result would take too (BadFixtureId) is
/// refused, so no id comes twice in a report.
/// `jobs` threads load files in parallel; the result is the same for any count.
CorpusCheck CheckCorpus(const std::filesystem::path& fixtures_root, const CaseLoader& loader,
                        unsigned jobs = 1);

/// Only the named files, and the cases under each named folder (ids relative to
/// `fixtures_root`); id.unique among them and against every case file of `fixtures_root`.
CorpusCheck CheckFiles(const std::vector<std::filesystem::path>& files,
                       const std::filesystem::path& fixtures_root, const CaseLoader& loader);

}  // namespace gemini_oracle::runner
