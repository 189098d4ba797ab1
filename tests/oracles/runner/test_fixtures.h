#pragma once
// Scratch fixture folders for the loader tests: each test writes the files it needs.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "tests/source_root.h"

namespace gemini_oracle::runner::testing {

/// A unique folder under the system temp directory, removed with its contents at scope end.
class TempDir {
 public:
  TempDir() {
    std::random_device seed;
    std::mt19937_64 random(seed());
    path_ = std::filesystem::temp_directory_path() /
            ("gemini-oracle-runner-" + std::to_string(random()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

  /// Writes `text` to `relative` (folders created); returns the full path.
  std::filesystem::path Write(const std::string& relative, const std::string& text) const {
    const auto file = path_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }

 private:
  std::filesystem::path path_;
};

/// The source tree (schema, clause registry); the test CMake function sets the variable.
using gemini_oracle::testing::SourceRoot;

}  // namespace gemini_oracle::runner::testing
