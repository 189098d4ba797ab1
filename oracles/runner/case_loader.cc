#include "oracles/runner/case_loader.h"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "oracles/runner/case_rules.h"
#include "oracles/runner/json_positions.h"

namespace gemini_oracle::runner {
namespace fs = std::filesystem;
namespace {

bool IsHidden(const fs::path& path) {
  const std::string name = path.filename().string();
  return !name.empty() && name.front() == '.';
}

std::optional<std::string> ReadFile(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return buffer.str();
}

// nlohmann's message repeats the position we already print; keep the part after it.
std::string SyntaxMessage(const std::string& what) {
  const auto column = what.find("column ");
  const auto colon = column == std::string::npos ? column : what.find(": ", column);
  const std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
  return "invalid JSON: " + detail;
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
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < std::max(1u, jobs); ++j) threads.emplace_back(worker);
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

}  // namespace

std::string CaseId(const fs::path& file, const fs::path& fixtures_root) {
  fs::path relative = file.lexically_normal().lexically_relative(fixtures_root.lexically_normal());
  if (relative.empty() || *relative.begin() == "..") relative = file.filename();
  relative.replace_extension();
  return relative.generic_string();
}

DiscoveredFiles DiscoverCaseFiles(const fs::path& fixtures_root) {
  std::error_code error;
  if (!fs::is_directory(fixtures_root, error)) {
    throw std::runtime_error(fixtures_root.generic_string() + ": not a fixtures folder");
  }
  DiscoveredFiles found;
  fs::recursive_directory_iterator it(fixtures_root, error);
  if (error) throw std::runtime_error(fixtures_root.generic_string() + ": " + error.message());
  for (; it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (error) throw std::runtime_error(fixtures_root.generic_string() + ": " + error.message());
    const fs::path& path = it->path();
    if (IsHidden(path)) {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file() || path.extension() != ".json") continue;
    if (ExpectedFromFileName(path.filename().string())) {
      found.cases.push_back(path);
    } else if (it.depth() > 0) {
      // Inside a case folder a JSON file would be silently ignored, which hides a typo.
      found.diagnostics.push_back(
          At(path, TextPosition{}, rules::kFileName, "file name must start with y_, n_ or i_"));
    }
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
  const auto text = ReadFile(file);
  if (!text) {
    loaded.diagnostics.push_back(
        At(file, TextPosition{}, rules::kFileRead, "cannot read the file"));
    return loaded;
  }
  const std::string file_name = file.filename().string();
  if (!ExpectedFromFileName(file_name)) {
    loaded.diagnostics.push_back(
        At(file, TextPosition{}, rules::kFileName, "file name must start with y_, n_ or i_"));
  }

  Json document;
  nlohmann::json plain;  // valijson's adapter takes the sorted json type
  try {
    document = Json::parse(*text);
    plain = nlohmann::json(document);  // converting the tree is cheaper than parsing again
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte counts the bytes read, so the offending one is at e.byte - 1.
    const std::size_t offset = e.byte == 0 ? 0 : e.byte - 1;
    loaded.diagnostics.push_back(
        At(file, PositionOfOffset(*text, offset), rules::kJsonSyntax, SyntaxMessage(e.what())));
    return loaded;
  }

  // Parsers disagree on a repeated member name (nlohmann keeps the last): a case must mean
  // the same thing to every runner.
  if (const auto end = FindDuplicateKey(*text)) {
    loaded.diagnostics.push_back(At(file, PositionOfOffset(*text, *end == 0 ? 0 : *end - 1),
                                    rules::kJsonDuplicateKey,
                                    "a member name repeats within one object"));
    return loaded;
  }

  // Positions are only needed to report a problem; most files have none.
  std::optional<JsonPositions> positions;
  const auto position_of = [&](const std::string& pointer) {
    if (!positions) positions.emplace(*text);
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
  SortDiagnostics(loaded.diagnostics);
  if (!loaded.diagnostics.empty()) return loaded;

  try {
    loaded.value = CaseFromJson(std::move(document), CaseId(file, fixtures_root), file);
  } catch (const std::exception& e) {
    // Only reachable when the schema admits a shape the model does not: a schema bug.
    loaded.diagnostics.push_back(At(file, TextPosition{}, rules::kSchema, e.what()));
  }
  return loaded;
}

CorpusCheck CheckCorpus(const fs::path& fixtures_root, const CaseLoader& loader, unsigned jobs) {
  DiscoveredFiles found = DiscoverCaseFiles(fixtures_root);
  return CheckSorted(std::move(found.cases), fixtures_root, loader, std::move(found.diagnostics),
                     jobs);
}

CorpusCheck CheckFiles(const std::vector<fs::path>& files, const fs::path& fixtures_root,
                       const CaseLoader& loader) {
  std::vector<fs::path> sorted = files;
  SortById(sorted, fixtures_root);
  // The same file named twice is one case, not an id.unique clash.
  sorted.erase(std::unique(sorted.begin(), sorted.end(),
                           [](const fs::path& a, const fs::path& b) {
                             return a.lexically_normal() == b.lexically_normal();
                           }),
               sorted.end());
  return CheckSorted(std::move(sorted), fixtures_root, loader, {}, 1);
}

}  // namespace gemini_oracle::runner
