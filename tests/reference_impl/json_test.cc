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

// Tells integer literals no int64, uint64 or double holds exactly from those that one does.
TEST(InexactIntegers, LiteralTable) {
  for (const char* inexact : {"123456789012345678901234567890", "18446744073709551617",
                              "-9223372036854775809", "36893488147419103233"}) {
    EXPECT_TRUE(IsInexactIntegerLiteral(inexact)) << inexact;
  }
  for (const char* exact : {"0", "-0", "18446744073709551615", "-9223372036854775808",
                            "18446744073709551616", "-18446744073709551616", "9007199254740993",
                            "1.5", "1e30", "123456789012345678901234567890.0", "", "-", "12a"}) {
    EXPECT_FALSE(IsInexactIntegerLiteral(exact)) << exact;
  }
  EXPECT_TRUE(IsInexactIntegerLiteral("1" + std::string(400, '0')));  // beyond a double
}

// Finds such a literal anywhere in a JSON text, and never in invalid JSON or in strings.
TEST(InexactIntegers, HasInexactInteger) {
  EXPECT_TRUE(HasInexactInteger(R"({"a":[1,{"b":18446744073709551617}]})"));
  EXPECT_FALSE(HasInexactInteger(R"({"a":"18446744073709551617","b":18446744073709551615})"));
  EXPECT_FALSE(HasInexactInteger("[18446744073709551617"));
}

// Marks such literals as binary values holding their text; ParseJson itself is unchanged.
TEST(InexactIntegers, MarkingParserKeepsTheText) {
  const Json marked =
      ParseJsonMarkingInexactIntegers(R"({"a":18446744073709551617,"b":1.0,"c":[-0.0,7]})");
  EXPECT_EQ(InexactIntegerText(marked["a"]), "18446744073709551617");
  EXPECT_FALSE(InexactIntegerText(marked["b"]).has_value());
  EXPECT_TRUE(marked["b"].is_number_float());
  EXPECT_EQ(DumpJson(marked["c"]), "[-0.0,7]");
  EXPECT_TRUE(ParseJson("18446744073709551617").is_number_float());
  EXPECT_THROW(ParseJsonMarkingInexactIntegers("[1e999]"), Json::out_of_range);
  EXPECT_THROW(ParseJsonMarkingInexactIntegers("[1,"), Json::parse_error);
  EXPECT_THROW(ParseJsonMarkingInexactIntegers(std::string(600, '[') + std::string(600, ']')),
               Json::parse_error);
}

}  // namespace
}  // namespace gemini_oracle
