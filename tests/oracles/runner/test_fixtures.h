#pragma once
// Scratch fixture folders for the loader tests: each test writes the files it needs.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "tests/source_root.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::runner::testing {

using gemini_oracle::testing::TempDir;

/// The source tree (schema, clause registry); the test CMake function sets the variable.
using gemini_oracle::testing::SourceRoot;

}  // namespace gemini_oracle::runner::testing
