#include "mutants/fingerprint.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "reference_impl/fault.h"

namespace gemini_oracle::mutants {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kOffset = 14695981039346656037ULL;
constexpr std::uint64_t kPrime = 1099511628211ULL;

void Mix(std::uint64_t& hash, std::string_view bytes) {
  for (const unsigned char byte : bytes) {
    hash ^= byte;
    hash *= kPrime;
  }
}

std::string ReadAll(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void RegularFilesUnder(const fs::path& root, std::vector<fs::path>& files) {
  std::error_code error;
  for (fs::recursive_directory_iterator it(root, error), end; !error && it != end;
       it.increment(error)) {
    if (it->is_regular_file(error)) files.push_back(it->path());
  }
}

}  // namespace

std::string SourceFingerprint(const fs::path& source_root, const fs::path& fixtures,
                              const fs::path& catalogue) {
  // Each group is named before its files, so moving a file between groups changes the digest.
  std::uint64_t hash = kOffset;
  const auto mix_group = [&](const std::string& name, const fs::path& base,
                             std::vector<fs::path> files) {
    std::sort(files.begin(), files.end());
    Mix(hash, name);
    for (const auto& file : files) {
      Mix(hash, std::string_view("\0", 1));
      Mix(hash, file.lexically_relative(base).generic_string());
      const std::string text = ReadAll(file);
      Mix(hash, std::to_string(text.size()) + ":");
      Mix(hash, text);
    }
  };
  for (const char* folder : {"reference_impl", "oracles"}) {
    std::vector<fs::path> files;
    RegularFilesUnder(source_root / folder, files);
    mix_group(folder, source_root, std::move(files));
  }
  std::vector<fs::path> cases;
  RegularFilesUnder(fixtures, cases);
  mix_group("fixtures", fixtures, std::move(cases));
  mix_group("catalogue", catalogue.parent_path(), {catalogue});
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

std::optional<std::string> StaleProgram(const fs::path& source_root) {
  for (const auto& point : ref::fault::Points()) {
    std::ifstream in(source_root / point.file);
    std::string line;
    for (int i = 0; i < point.line && std::getline(in, line); ++i) {
    }
    if (line.find("GEMINI_FAULT(\"" + point.id + "\")") == std::string::npos) {
      return "fault point " + point.id + " is no longer at " + point.file + ":" +
             std::to_string(point.line) + "; rebuild the mutants tree (./scripts/build mutants)";
    }
  }
  std::error_code error;
  const fs::path program = fs::read_symlink("/proc/self/exe", error);
  if (error) return std::nullopt;  // no way to tell: the point check above stands alone
  const auto built = fs::last_write_time(program, error);
  if (error) return std::nullopt;
  for (const char* folder : {"reference_impl", "oracles", "mutants", "reports", "apps"}) {
    std::vector<fs::path> files;
    RegularFilesUnder(source_root / folder, files);
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      const auto extension = file.extension();
      if (extension != ".cc" && extension != ".h") continue;
      if (fs::last_write_time(file, error) > built && !error) {
        return file.lexically_relative(source_root).generic_string() +
               " is newer than this program; rebuild the mutants tree (./scripts/build mutants)";
      }
    }
  }
  return std::nullopt;
}

}  // namespace gemini_oracle::mutants
