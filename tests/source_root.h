#pragma once
// Where tests find the schema, the clause registry, the corpus and the docs.

#include <cstdlib>
#include <filesystem>

namespace gemini_oracle::testing {

/// GEMINI_ORACLE_SOURCE_DIR (ctest sets it), else the tree the test was built from, so a
/// test binary also runs on its own.
inline std::filesystem::path SourceRoot() {
  if (const char* root = std::getenv("GEMINI_ORACLE_SOURCE_DIR"); root != nullptr && *root) {
    return root;
  }
  return GEMINI_ORACLE_TEST_SOURCE_DIR;
}

}  // namespace gemini_oracle::testing
