#pragma once
// A test that needs a program of the machine (python3, node) skips where it is missing, but
// fails in CI, where scripts/setup installs it: a missing tool never passes a CI run silently.

#include <gtest/gtest.h>

#include <cstdlib>

#define GEMINI_ORACLE_REQUIRE_TOOL(tool)                              \
  do {                                                                \
    if (std::system("command -v " tool " >/dev/null 2>&1") != 0) {    \
      const char* ci = std::getenv("CI");                             \
      if (ci != nullptr && *ci != '\0') {                             \
        FAIL() << tool " is required in CI (scripts/setup)";          \
      }                                                               \
      GTEST_SKIP() << tool " is missing (scripts/setup installs it)"; \
    }                                                                 \
  } while (0)
