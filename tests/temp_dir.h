#pragma once
// A unique folder under the system temp directory, removed with its contents at scope end.

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "tests/source_root.h"

namespace gemini_oracle::testing {

/// The whole file as bytes ("" when it cannot be read).
inline std::string ReadText(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() /
            ("gemini-oracle-test-" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

  /// Writes `text` to a file below the folder, creating subfolders.
  std::filesystem::path Write(const std::string& relative, const std::string& text) const {
    const auto file = path_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }

  /// As Write, then readable and writable by the owner only (mode 600), as a key file must be.
  std::filesystem::path WritePrivate(const std::string& relative, const std::string& text) const {
    const auto file = Write(relative, text);
    std::filesystem::permissions(file, std::filesystem::perms::owner_read |
                                           std::filesystem::perms::owner_write);
    return file;
  }

 private:
  std::filesystem::path path_;
};


}  // namespace gemini_oracle::testing
