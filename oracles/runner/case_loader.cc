#include "oracles/runner/case_loader.h"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "oracles/runner/case_rules.h"
#include "oracles/runner/json_positions.h"
#include "oracles/runner/strict_json.h"
#include "oracles/runner/threads.h"

namespace gemini_oracle::runner {
namespace fs = std::filesystem;
namespace {

bool IsHidden(const fs::path& path) {
  const std::string name = path.filename().string();
  return !name.empty() && name.front() == '.';
}

// Reads up to one byte past the case limit (a file may grow after its size was taken, which
// the caller then refuses); a failure is reported, never a silently shortened text.
std::optional<std::string> ReadFile(const fs::path& file, std::uintmax_t size) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text(static_cast<std::size_t>(std::min<std::uintmax_t>(size, kMaxCaseBytes)) + 1,
                   '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) return std::nullopt;
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

bool HasPortableStem(std::string_view file_name) {
  const std::string_view stem = file_name.substr(0, file_name.size() - 5);  // ".json"
  if (stem.size() < 3 || stem[1] != '_') return false;
  bool after_underscore = true;
  for (std::size_t i = 2; i < stem.size(); ++i) {
    const char c = stem[i];
    if (c == '_') {
      if (after_underscore) return false;
      after_underscore = true;
    } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      after_underscore = false;
    } else {
      return false;
    }
  }
  return !after_underscore;
}

std::string BadNameMessage() {
  return "a case file is named y_*.json, n_*.json or i_*.json (lower-case extension)";
}

std::string NotACaseFile(const fs::path& file) {
  std::error_code error;
  const fs::file_status status = fs::status(file, error);
  if (error || !fs::exists(status)) return "no such file (or a link that leads nowhere)";
  if (fs::is_directory(status)) return "a folder, not a case file";
  return "not a regular file (a FIFO, socket or device is never read)";
}

Diagnostic At(const fs::path& file, TextPosition position, std::string_view rule,
              std::string message) {
  return Diagnostic{file.generic_string(), position.line, position.column, std::string(rule),
                    std::move(message)};
}

// Cases with the same stem: every file after the first (in id order) is refused.
void CheckUniqueStems(std::vector<fs::path>& files, const fs::path& fixtures_root,
                      std::vector<Diagnostic>& diagnostics, std::vector<bool>& refused) {
  std::map<std::string, std::string> first_id;
  refused.assign(files.size(), false);
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string stem = files[i].stem().string();
    const std::string id = CaseId(files[i], fixtures_root);
    const auto [it, inserted] = first_id.emplace(stem, id);
    if (!inserted) {
      diagnostics.push_back(At(
          files[i], TextPosition{}, rules::kIdUnique,
          "file name " + stem + ".json is already used by " + it->second + "; reports key on it"));
      refused[i] = true;
    }
  }
}

CorpusCheck CheckSorted(std::vector<fs::path> files, const fs::path& fixtures_root,
                        const CaseLoader& loader, std::vector<Diagnostic> diagnostics,
                        unsigned jobs) {
  std::vector<bool> refused;
  CheckUniqueStems(files, fixtures_root, diagnostics, refused);
  // Files load independently; results are gathered in id order whatever the thread count.
  std::vector<LoadedCase> loaded(files.size());
  std::atomic<std::size_t> next{0};
  const auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < files.size();) {
      loaded[i] = loader.Load(files[i], fixtures_root);
    }
  };
  // A thread that cannot start (a process limit) leaves its share to the others.
  std::vector<std::thread> threads =
      StartThreads(std::max(1u, jobs) - 1, [&](unsigned) { worker(); }, "threads loading cases");
  worker();
  for (auto& thread : threads) thread.join();
  CorpusCheck check;
  for (std::size_t i = 0; i < files.size(); ++i) {
    diagnostics.insert(diagnostics.end(), loaded[i].diagnostics.begin(),
                       loaded[i].diagnostics.end());
    if (loaded[i].value && !refused[i]) check.cases.push_back(std::move(*loaded[i].value));
  }
  SortDiagnostics(diagnostics);
  check.diagnostics = std::move(diagnostics);
  return check;
}

// Never throws: a path that cannot be resolved (a loop of links) is compared as written.
bool SamePath(const fs::path& a, const fs::path& b) {
  std::error_code error_a, error_b;
  const fs::path ca = fs::weakly_canonical(a, error_a);
  const fs::path cb = fs::weakly_canonical(b, error_b);
  if (error_a || error_b) return a.lexically_normal() == b.lexically_normal();
  return ca == cb;
}

void SortById(std::vector<fs::path>& files, const fs::path& fixtures_root) {
  // Each id is computed once: path arithmetic inside the comparator dominated loading.
  std::vector<std::pair<std::string, fs::path>> keyed;
  keyed.reserve(files.size());
  for (auto& file : files) keyed.emplace_back(CaseId(file, fixtures_root), std::move(file));
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  files.clear();
  for (auto& [id, file] : keyed) files.push_back(std::move(file));
}

// A case whose id a bad fixture's result takes too would give a report two results of one
// id: the case is refused, and the bad fixture's result (which gathers every entry of its id)
// reports both.
void RefuseSharedIds(CorpusCheck& check, const fs::path& fixtures_root) {
  std::map<std::string, std::set<std::string>> bad;  // id -> the entries that take it
  for (const auto& d : check.diagnostics) bad[BadFixtureId(d.file, fixtures_root)].insert(d.file);
  if (bad.empty()) return;
  std::vector<Case> kept;
  for (auto& c : check.cases) {
    const auto it = bad.find(c.id);
    std::set<std::string> others = it == bad.end() ? std::set<std::string>() : it->second;
    others.erase(c.file.generic_string());  // the case's own file (`check` names it)
    if (others.empty()) {
      kept.push_back(std::move(c));
      continue;
    }
    check.diagnostics.push_back(
        At(c.file, TextPosition{}, rules::kIdUnique,
           "the id " + c.id + " is also taken by " + fs::path(*others.begin()).filename().string() +
               ", a bad fixture; one id, one result in a report"));
  }
  check.cases = std::move(kept);
  SortDiagnostics(check.diagnostics);
}

}  // namespace

std::string BadFixtureId(const fs::path& path, const fs::path& fixtures_root) {
  const std::string name = path.filename().string();
  if (IsCaseFileName(name) && HasPortableStem(name)) return CaseId(path, fixtures_root);
  fs::path relative = path.lexically_normal().lexically_relative(fixtures_root.lexically_normal());
  if (relative.empty() || *relative.begin() == "..") relative = path.filename();
  return relative.generic_string();
}

std::string CaseId(const fs::path& file, const fs::path& fixtures_root) {
  fs::path relative = file.lexically_normal().lexically_relative(fixtures_root.lexically_normal());
  if (relative.empty() || *relative.begin() == "..") relative = file.filename();
  relative.replace_extension();
  return relative.generic_string();
}

bool IsCaseFileName(std::string_view file_name) {
  // Exactly ".json": a runner on a case-sensitive system would not find "y_x.JSON".
  return ExpectedFromFileName(file_name).has_value() && file_name.size() > 7 &&
         file_name.ends_with(".json");
}

DiscoveredFiles DiscoverCaseFiles(const fs::path& fixtures_root, int depth_of_root) {
  std::error_code error;
  if (!fs::is_directory(fixtures_root, error)) {
    throw std::runtime_error(fixtures_root.generic_string() + ": not a fixtures folder");
  }
  DiscoveredFiles found;
  const auto refuse = [&](const fs::path& path, std::string_view rule, std::string message) {
    found.diagnostics.push_back(At(path, TextPosition{}, rule, std::move(message)));
  };
  // An explicit walk: folder links are never followed (so a link loop cannot trap it), and
  // every entry that is not a case or a documented non-case file becomes a diagnostic.
  std::vector<std::pair<fs::path, int>> folders = {{fixtures_root, depth_of_root}};
  while (!folders.empty()) {
    const auto [folder, depth] = std::move(folders.back());
    folders.pop_back();
    fs::directory_iterator it(folder, error);
    if (error) {
      refuse(folder, rules::kFileRead, "cannot list the folder: " + error.message());
      continue;
    }
    for (; it != fs::directory_iterator(); it.increment(error)) {
      const fs::path path = it->path();
      if (IsHidden(path)) continue;
      const std::string name = path.filename().string();
      std::error_code status_error;
      const fs::file_status own = fs::symlink_status(path, status_error);
      const fs::file_status target = fs::status(path, status_error);
      if (fs::is_symlink(own) && (status_error || !fs::exists(target))) {
        refuse(path, rules::kFileKind, "a link that leads nowhere (dangling, or a loop of links)");
      } else if (fs::is_directory(target)) {
        if (fs::is_symlink(own)) {
          refuse(path, rules::kFileKind,
                 "a link to a folder is not followed; link the case files one by one");
        } else {
          // Walked all the same (nothing under it is lost), but a folder named like a case
          // is most likely a case that is missing.
          if (IsCaseFileName(name)) {
            refuse(path, rules::kFileKind, "a folder named like a case file; rename it");
          }
          folders.emplace_back(path, depth + 1);
        }
      } else if (!fs::is_regular_file(target)) {
        refuse(path, rules::kFileKind, NotACaseFile(path));
      } else if (IsCaseFileName(name)) {
        found.cases.push_back(path);
      } else if (ExpectedFromFileName(name) || (depth > 0 && path.extension() != ".md")) {
        // In a case folder every file but notes (*.md) is a case; a typo must not hide one.
        refuse(path, rules::kFileName, BadNameMessage());
      }
    }
    if (error) refuse(folder, rules::kFileRead, "cannot list the folder: " + error.message());
  }
  SortById(found.cases, fixtures_root);
  SortDiagnostics(found.diagnostics);
  return found;
}

CaseLoader::CaseLoader(CaseSchema schema, ClauseRegistry registry)
    : schema_(std::move(schema)), registry_(std::move(registry)) {}

CaseLoader CaseLoader::FromSourceRoot(const fs::path& source_root) {
  return CaseLoader(CaseSchema::Load(SchemaPath(source_root)),
                    ClauseRegistry::Load(ClausesPath(source_root)));
}

LoadedCase CaseLoader::Load(const fs::path& file, const fs::path& fixtures_root) const {
  LoadedCase loaded;
  // Opening a FIFO or a device would block or read forever: only regular files are read.
  std::error_code error;
  const fs::file_status status = fs::status(file, error);
  if (!fs::is_regular_file(status)) {
    const bool missing = !fs::exists(status);
    loaded.diagnostics.push_back(At(
        file, TextPosition{}, missing ? rules::kFileRead : rules::kFileKind, NotACaseFile(file)));
    return loaded;
  }
  // Bounded before reading: every later step (parsing, validation, judging, the reports that
  // keep request bodies) then has a bounded cost.
  std::uintmax_t size = fs::file_size(file, error);
  if (error) size = kMaxCaseBytes;
  const auto too_large = [&](std::uintmax_t bytes) {
    loaded.diagnostics.push_back(
        At(file, TextPosition{}, rules::kFileSize,
           "a case file holds at most " + std::to_string(kMaxCaseBytes) + " bytes; this one has " +
               (bytes > kMaxCaseBytes + 1 ? std::to_string(bytes) : "more")));
  };
  if (size > kMaxCaseBytes) {
    too_large(size);
    return loaded;
  }
  std::optional<std::string> text;
  try {
    text = ReadFile(file, size);
  } catch (const std::exception& e) {
    loaded.diagnostics.push_back(
        At(file, TextPosition{}, rules::kFileRead, std::string("cannot read: ") + e.what()));
    return loaded;
  }
  if (!text) {
    loaded.diagnostics.push_back(
        At(file, TextPosition{}, rules::kFileRead, "cannot read the file"));
    return loaded;
  }
  if (text->size() > size) {  // it grew after its size was taken
    loaded.diagnostics.push_back(
        At(file, TextPosition{}, rules::kFileRead, "the file changed while it was read"));
    return loaded;
  }
  return LoadText(*text, file, fixtures_root);
}

LoadedCase CaseLoader::LoadText(std::string_view text, const fs::path& file,
                                const fs::path& fixtures_root) const {
  LoadedCase loaded;
  try {
    LoadTextInto(text, file, fixtures_root, loaded);
  } catch (const std::exception& e) {
    // Every known failure is a diagnostic already; this keeps an unforeseen one to its file.
    loaded.value.reset();
    loaded.diagnostics.push_back(
        At(file, TextPosition{}, rules::kFileRead, std::string("cannot load: ") + e.what()));
  }
  SortDiagnostics(loaded.diagnostics);
  return loaded;
}

void CaseLoader::LoadTextInto(std::string_view text, const fs::path& file,
                              const fs::path& fixtures_root, LoadedCase& loaded) const {
  const std::string file_name = file.filename().string();
  if (!IsCaseFileName(file_name)) {
    loaded.diagnostics.push_back(At(file, TextPosition{}, rules::kFileName, BadNameMessage()));
  } else if (!HasPortableStem(file_name)) {
    // INTERPRETING §1: the stem is a portable id in every report and on every file system.
    loaded.diagnostics.push_back(
        At(file, TextPosition{}, rules::kFileName,
           "a case name is lower-case letters and digits in words joined by single '_' "
           "([yni]_[a-z0-9]+(_[a-z0-9]+)*)"));
  }

  StrictJsonResult parsed = ParseStrictJson(text);
  if (parsed.error) {
    loaded.diagnostics.push_back(At(file, PositionOfOffset(text, parsed.error->offset),
                                    parsed.error->rule, parsed.error->message));
    return;
  }
  Json document = std::move(parsed.value);
  const nlohmann::json plain(document);  // valijson's adapter takes the sorted json type

  // Positions are only needed to report a problem; most files have none.
  std::optional<JsonPositions> positions;
  const auto position_of = [&](const std::string& pointer) {
    if (!positions) positions.emplace(text);
    return positions->Find(pointer);
  };
  for (const auto& violation : schema_.Validate(plain)) {
    loaded.diagnostics.push_back(At(file, position_of(violation.pointer), rules::kSchema,
                                    violation.pointer.empty()
                                        ? violation.description
                                        : violation.pointer + ": " + violation.description));
  }
  for (const auto& finding : rules::CheckDocument(document, file_name, registry_)) {
    loaded.diagnostics.push_back(
        At(file, position_of(finding.pointer), finding.rule, finding.message));
  }
  if (!loaded.diagnostics.empty()) return;

  try {
    loaded.value = CaseFromJson(std::move(document), CaseId(file, fixtures_root), file);
  } catch (const std::exception& e) {
    // Only reachable when the schema admits a shape the model does not: a schema bug.
    loaded.diagnostics.push_back(At(file, TextPosition{}, rules::kSchema, e.what()));
  }
}

CorpusCheck CheckCorpus(const fs::path& fixtures_root, const CaseLoader& loader, unsigned jobs) {
  DiscoveredFiles found = DiscoverCaseFiles(fixtures_root);
  CorpusCheck check = CheckSorted(std::move(found.cases), fixtures_root, loader,
                                  std::move(found.diagnostics), jobs);
  RefuseSharedIds(check, fixtures_root);
  return check;
}

CorpusCheck CheckFiles(const std::vector<fs::path>& paths, const fs::path& fixtures_root,
                       const CaseLoader& loader) {
  // A folder stands for the cases under it, found as `run` finds them.
  std::vector<fs::path> sorted;
  std::vector<Diagnostic> diagnostics;
  for (const auto& path : paths) {
    std::error_code error;
    if (fs::is_directory(path, error)) {
      // A subfolder of the corpus is walked with the rules of a case folder, as a whole-corpus
      // run walks it; any other folder is a corpus root of its own.
      const auto relative = fs::absolute(path).lexically_normal().lexically_relative(
          fs::absolute(fixtures_root).lexically_normal());
      const bool strict_subfolder = !relative.empty() && *relative.begin() != ".." &&
                                    relative != "." && !SamePath(path, fixtures_root);
      DiscoveredFiles found = DiscoverCaseFiles(path, strict_subfolder ? 1 : 0);
      sorted.insert(sorted.end(), found.cases.begin(), found.cases.end());
      diagnostics.insert(diagnostics.end(), found.diagnostics.begin(), found.diagnostics.end());
    } else {
      sorted.push_back(path);
    }
  }
  SortById(sorted, fixtures_root);
  // The same path named twice is one case, not an id.unique clash; a link to another case
  // stays a case of its own, as it is for `run`.
  sorted.erase(std::unique(sorted.begin(), sorted.end(),
                           [](const fs::path& a, const fs::path& b) {
                             return fs::absolute(a).lexically_normal() ==
                                    fs::absolute(b).lexically_normal();
                           }),
               sorted.end());
  // A name already used elsewhere in the corpus would clash when the whole corpus runs.
  std::error_code error;
  if (fs::is_directory(fixtures_root, error)) {
    std::map<std::string, fs::path> corpus_stems;
    for (const auto& file : DiscoverCaseFiles(fixtures_root).cases) {
      corpus_stems.emplace(file.stem().string(), file);
    }
    for (const auto& file : sorted) {
      const auto it = corpus_stems.find(file.stem().string());
      if (it == corpus_stems.end()) continue;
      if (SamePath(it->second, file)) continue;
      diagnostics.push_back(At(file, TextPosition{}, rules::kIdUnique,
                               "file name " + file.stem().string() + ".json is already used by " +
                                   CaseId(it->second, fixtures_root) +
                                   " in the corpus; reports key on it"));
    }
  }
  CorpusCheck check =
      CheckSorted(std::move(sorted), fixtures_root, loader, std::move(diagnostics), 1);
  RefuseSharedIds(check, fixtures_root);
  return check;
}

}  // namespace gemini_oracle::runner
