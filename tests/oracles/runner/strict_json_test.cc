#include "oracles/runner/strict_json.h"

#include <gtest/gtest.h>

#include <string>

namespace gemini_oracle::runner {
namespace {

// The rule a text is refused under, or "" when it is accepted.
std::string RuleOf(const std::string& text) {
  const StrictJsonResult result = ParseStrictJson(text);
  return result.error ? result.error->rule : "";
}

std::size_t OffsetOf(const std::string& text) {
  const StrictJsonResult result = ParseStrictJson(text);
  return result.error ? result.error->offset : std::string::npos;
}

std::string Nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// Accepts ordinary JSON and keeps kinds, member order and -0.0 as written.
TEST(StrictJson, KeepsKindsAndOrder) {
  const StrictJsonResult result = ParseStrictJson(
      R"({"b": 1.0, "a": [{}, [], -0.0, 18446744073709551615, -9223372036854775808]})");
  ASSERT_FALSE(result.error) << result.error->message;
  EXPECT_EQ(result.value.dump(),
            R"({"b":1.0,"a":[{},[],-0.0,18446744073709551615,-9223372036854775808]})");
  EXPECT_TRUE(result.value["a"][3].is_number_unsigned());
  EXPECT_TRUE(result.value["a"][4].is_number_integer());
}

// Refuses a UTF-8 byte order mark, which Python's json refuses too.
TEST(StrictJson, RefusesByteOrderMark) {
  EXPECT_EQ(RuleOf("\xEF\xBB\xBF{}"), "json.bom");
  EXPECT_EQ(RuleOf("{}"), "");
}

// Refuses a NUL byte after the value (JSONTestSuite n_multidigit_number_then_00) and inside.
TEST(StrictJson, RefusesNulBytes) {
  EXPECT_EQ(RuleOf(std::string("123\0", 4)), "json.syntax");
  EXPECT_EQ(OffsetOf(std::string("123\0", 4)), 3u);
  EXPECT_EQ(RuleOf(std::string("{\"a\": \"x\0y\"}", 12)), "json.syntax");
  EXPECT_EQ(RuleOf(std::string("{}\0{}", 5)), "json.syntax");
}

// Refuses numbers a double or a 64-bit integer cannot hold as written, with their offset.
TEST(StrictJson, RefusesNumbersOutOfRange) {
  EXPECT_EQ(RuleOf("1e999"), "json.number_range");
  EXPECT_EQ(RuleOf("[1E400]"), "json.number_range");
  EXPECT_EQ(RuleOf("-1e999"), "json.number_range");
  EXPECT_EQ(RuleOf(std::string(400, '9')), "json.number_range");
  EXPECT_EQ(RuleOf("18446744073709551616"), "json.number_range");
  EXPECT_EQ(RuleOf("-9223372036854775809"), "json.number_range");
  EXPECT_EQ(RuleOf("{\"a\": 123456789012345678901234567890}"), "json.number_range");
  EXPECT_EQ(OffsetOf("{\"a\": 123456789012345678901234567890}"), 6u);
  // Within range, or a float that only rounds: accepted.
  EXPECT_EQ(RuleOf("18446744073709551615"), "");
  EXPECT_EQ(RuleOf("1.8446744073709552e19"), "");
  EXPECT_EQ(RuleOf("1e308"), "");
  EXPECT_EQ(RuleOf("5e-324"), "");
}

// Bounds nesting without recursion: 256 levels load, 257 and 100,000 are refused.
TEST(StrictJson, BoundsNestingDepth) {
  EXPECT_EQ(RuleOf(Nested(kMaxCaseDepth)), "");
  EXPECT_EQ(RuleOf(Nested(kMaxCaseDepth + 1)), "json.depth");
  EXPECT_EQ(OffsetOf(Nested(kMaxCaseDepth + 1)), kMaxCaseDepth);
  EXPECT_EQ(RuleOf(Nested(100000)), "json.depth");
  EXPECT_EQ(RuleOf(std::string(100000, '{')), "json.syntax");
  std::string objects;
  for (int i = 0; i < 300; ++i) objects += "{\"a\":";
  EXPECT_EQ(RuleOf(objects + "1" + std::string(300, '}')), "json.depth");
}

// Refuses a member name repeated within one object, not across objects.
TEST(StrictJson, RefusesRepeatedMemberNames) {
  EXPECT_EQ(RuleOf(R"({"a": 1, "a": 2})"), "json.duplicate_key");
  EXPECT_EQ(RuleOf(R"({"a": {"a": 1}, "b": {"a": 2}})"), "");
  EXPECT_EQ(RuleOf(R"([{"a": 1}, {"a": 2}])"), "");
}

// Reports syntax errors at the offending byte.
TEST(StrictJson, ReportsSyntaxErrorsWithOffset) {
  EXPECT_EQ(RuleOf(R"({"a": })"), "json.syntax");
  EXPECT_EQ(OffsetOf(R"({"a": })"), 6u);
  EXPECT_EQ(RuleOf(""), "json.syntax");
  EXPECT_EQ(RuleOf("[1,]"), "json.syntax");
  EXPECT_EQ(RuleOf("{} {}"), "json.syntax");
}

}  // namespace
}  // namespace gemini_oracle::runner
