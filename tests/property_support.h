#pragma once
// Runs a RapidCheck property inside a GoogleTest test with a fixed seed (printed), so that a run
// is repeatable and a failure names the seed that reproduces it. GEMINI_ORACLE_PROPERTY_SEED
// and GEMINI_ORACLE_PROPERTY_RUNS choose another seed and a longer run (RC_PARAMS, when set,
// wins over both).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>

namespace gemini_oracle::testing {

inline constexpr std::uint64_t kDefaultSeed = 20260401;
inline constexpr int kDefaultRuns = 400;

inline std::uint64_t EnvNumber(const char* name, std::uint64_t fallback) {
  const char* text = std::getenv(name);
  return text != nullptr && *text != '\0' ? std::strtoull(text, nullptr, 10) : fallback;
}

/// The seed the properties run with: RC_PARAMS's when set, else GEMINI_ORACLE_PROPERTY_SEED,
/// else kDefaultSeed. Kept counterexamples are named by it.
inline std::uint64_t PropertySeed() {
  if (std::getenv("RC_PARAMS") != nullptr) return rc::detail::configuration().testParams.seed;
  return EnvNumber("GEMINI_ORACLE_PROPERTY_SEED", kDefaultSeed);
}

template <typename Testable>
void CheckProperty(Testable&& testable) {
  rc::detail::TestParams params;
  if (std::getenv("RC_PARAMS") != nullptr) {
    params = rc::detail::configuration().testParams;
  } else {
    params.seed = PropertySeed();
    params.maxSuccess = static_cast<int>(EnvNumber("GEMINI_ORACLE_PROPERTY_RUNS", kDefaultRuns));
    params.maxSize = 50;  // RapidCheck misbehaves above 100
  }
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::cout << "property " << info->name() << ": seed=" << params.seed
            << " runs=" << params.maxSuccess << std::endl;
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  const auto result = rc::detail::checkTestable(std::forward<Testable>(testable), metadata, params);
  if (result.template is<rc::detail::SuccessResult>()) {
    rc::detail::printResultMessage(result, std::cout);  // the run count and any distribution
    std::cout << std::endl;
  } else {
    std::ostringstream message;
    rc::detail::printResultMessage(result, message);
    FAIL() << message.str() << "\n(reproduce with GEMINI_ORACLE_PROPERTY_SEED=" << params.seed
           << ")";
  }
}

/// A negative control: whether RapidCheck falsifies `testable` within `runs` runs from the
/// default seed. A property that a deliberately broken implementation cannot falsify proves
/// nothing about the correct one.
template <typename Testable>
bool Falsifies(Testable&& testable, int runs = kDefaultRuns) {
  rc::detail::TestParams params;
  params.seed = kDefaultSeed;
  params.maxSuccess = runs;
  params.maxSize = 50;
  params.disableShrinking = true;
  rc::detail::TestMetadata metadata;
  metadata.id = "negative-control";
  const auto result = rc::detail::checkTestable(std::forward<Testable>(testable), metadata, params);
  return result.template is<rc::detail::FailureResult>();
}

}  // namespace gemini_oracle::testing
