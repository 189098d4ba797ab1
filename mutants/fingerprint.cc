#include "mutants/fingerprint.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

namespace gemini_oracle::mutants {
namespace {

constexpr std::uint64_t kOffset = 14695981039346656037ULL;
constexpr std::uint64_t kPrime = 1099511628211ULL;

void Mix(std::uint64_t& hash, std::string_view bytes) {
  for (const unsigned char byte : bytes) {
    hash ^= byte;
    hash *= kPrime;
  }
}

}  // namespace

std::string SourceFingerprint(const std::filesystem::path& source_root) {
  std::vector<std::filesystem::path> files;
  for (const char* folder : {"reference_impl", "oracles", "fixtures"}) {
    std::error_code error;
    const auto root = source_root / folder;
    for (std::filesystem::recursive_directory_iterator it(root, error), end; !error && it != end;
         it.increment(error)) {
      if (it->is_regular_file(error)) files.push_back(it->path());
    }
  }
  files.push_back(source_root / "mutants" / "catalogue.json");
  std::sort(files.begin(), files.end());
  std::uint64_t hash = kOffset;
  for (const auto& file : files) {
    Mix(hash, file.lexically_relative(source_root).generic_string());
    Mix(hash, std::string_view("\0", 1));
    std::ifstream in(file, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Mix(hash, std::to_string(text.size()));
    Mix(hash, text);
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

}  // namespace gemini_oracle::mutants
