#include "reference_impl/json.h"

#include <gtest/gtest.h>

#include <string>

namespace gemini_oracle {
namespace {

std::string NestedArrays(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

// Refuses 100,000 nested arrays with a parse error at the bracket past the limit, before a
// tree too deep for copies and dumps exists (found by transcript_fuzzer).
TEST(ParseJson, RefusesNestingDeeperThanLimit) {
  try {
    ParseJson(NestedArrays(100000));
    FAIL() << "no parse_error";
  } catch (const Json::parse_error& e) {
    EXPECT_EQ(e.id, 101);
    EXPECT_EQ(e.byte, kMaxJsonDepth + 1);
  }
}

// Accepts nesting exactly at the limit, for arrays and objects alike, and refuses one more.
TEST(ParseJson, AcceptsNestingAtLimit) {
  EXPECT_NO_THROW(DumpJson(ParseJson(NestedArrays(kMaxJsonDepth))));
  EXPECT_THROW(ParseJson(NestedArrays(kMaxJsonDepth + 1)), Json::parse_error);
  std::string objects;
  for (std::size_t i = 1; i < kMaxJsonDepth; ++i) objects += R"({"a":)";
  objects += "{}" + std::string(kMaxJsonDepth - 1, '}');
  EXPECT_NO_THROW(ParseJson(objects));
  EXPECT_THROW(ParseJson("[" + objects + "]"), Json::parse_error);
}

// Counts no bracket inside a string, also after an escaped quote.
TEST(ParseJson, IgnoresBracketsInsideStrings) {
  const std::string brackets(2 * kMaxJsonDepth, '[');
  const Json value = ParseJson(R"(["\")" + brackets + R"(", {"k": "\\"}])");
  EXPECT_EQ(value[0].get<std::string>(), "\"" + brackets);
}

// Raises out_of_range, a Json::exception, for numbers a double cannot hold (1e999, 400 digits).
TEST(ParseJson, RefusesNumberBeyondDoubleAsOutOfRange) {
  EXPECT_THROW(ParseJson("[1e999]"), Json::out_of_range);
  EXPECT_THROW(ParseJson("-1e400"), Json::out_of_range);
  EXPECT_THROW(ParseJson(std::string(400, '9')), Json::out_of_range);
  EXPECT_THROW(ParseJson("1e999"), Json::exception);
}

}  // namespace
}  // namespace gemini_oracle
