#include "reference_impl/json_equality.h"

#include <gtest/gtest.h>

#include <string>

namespace gemini_oracle::ref {
namespace {

struct Pair {
  const char* left;
  const char* right;
  bool equal;
};

void PrintTo(const Pair& p, std::ostream* os) {
  *os << p.left << (p.equal ? " == " : " != ") << p.right;
}

class ArgumentsEqualTable : public ::testing::TestWithParam<Pair> {};

// Compares each pair both ways, bare and nested inside an object and a list (ADR-226.8).
TEST_P(ArgumentsEqualTable, MatchesTheExactNumericRule) {
  const Pair& p = GetParam();
  const Json a = ParseJson(p.left);
  const Json b = ParseJson(p.right);
  EXPECT_EQ(ArgumentsEqual(a, b), p.equal) << p.left << " vs " << p.right;
  EXPECT_EQ(ArgumentsEqual(b, a), p.equal) << p.right << " vs " << p.left;
  const Json in_object_a = ParseJson(std::string(R"({"k":{"v":)") + p.left + "}}");
  const Json in_object_b = ParseJson(std::string(R"({"k":{"v":)") + p.right + "}}");
  EXPECT_EQ(ArgumentsEqual(in_object_a, in_object_b), p.equal) << "nested in an object";
  const Json in_list_a = ParseJson(std::string("[0,[") + p.left + "]]");
  const Json in_list_b = ParseJson(std::string("[0,[") + p.right + "]]");
  EXPECT_EQ(ArgumentsEqual(in_list_a, in_list_b), p.equal) << "nested in a list";
}

INSTANTIATE_TEST_SUITE_P(
    Adr226Point8, ArgumentsEqualTable,
    ::testing::Values(
        // Exact and reversible integer/float pairs are equal.
        Pair{"1", "1.0", true}, Pair{"-3", "-3.0", true}, Pair{"0", "-0.0", true},
        Pair{"0", "0.0", true}, Pair{"-0.0", "0.0", true},
        Pair{"9007199254740992", "9007199254740992.0", true},
        Pair{"-9223372036854775808", "-9223372036854775808.0", true},
        Pair{"18446744073709551615", "18446744073709551615", true},
        Pair{"9223372036854775807", "9223372036854775807", true},
        Pair{"9223372036854775808", "9223372036854775808.0", true},
        // Rounded conversions are not.
        Pair{"9007199254740993", "9007199254740992.0", false},
        Pair{"18446744073709551615", "1.8446744073709552e19", false},
        Pair{"9223372036854775807", "9223372036854775807.0", false}, Pair{"1", "1.5", false},
        Pair{"2", "1.9999999999999998", false}, Pair{"-1", "18446744073709551615", false},
        Pair{"-1", "1", false}, Pair{"-1", "1.0", false},
        // Kinds never cross.
        Pair{"\"1\"", "1", false}, Pair{"true", "1", false}, Pair{"false", "0", false},
        Pair{"null", "0", false}, Pair{"null", "false", false}, Pair{"\"\"", "null", false},
        Pair{"\"true\"", "true", false}, Pair{"{}", "[]", false}, Pair{"[]", "null", false},
        Pair{"[1]", "1", false}, Pair{"{\"0\":1}", "[1]", false},
        // Same kinds compare by value.
        Pair{"\"a\"", "\"a\"", true}, Pair{"\"a\"", "\"A\"", false}, Pair{"true", "true", true},
        Pair{"null", "null", true}, Pair{"1.5", "1.5", true}, Pair{"[1,2]", "[2,1]", false},
        Pair{"[1.0,2]", "[1,2.0]", true}, Pair{"{}", "{}", true}, Pair{"[]", "[]", true}));

// Ignores object member order but not list order.
TEST(ArgumentsEqual, ObjectMemberOrderIsFree) {
  EXPECT_TRUE(ArgumentsEqual(ParseJson(R"({"a":1,"b":[1,{"c":2.0}]})"),
                             ParseJson(R"({"b":[1.0,{"c":2}],"a":1.0})")));
  EXPECT_FALSE(ArgumentsEqual(ParseJson(R"({"a":1})"), ParseJson(R"({"a":1,"b":null})")));
  EXPECT_FALSE(ArgumentsEqual(ParseJson(R"({"a":1})"), ParseJson(R"({"b":1})")));
}

// Keeps -0.0 and 0.0 apart in the strict oracle comparison, unlike the argument rule.
TEST(KindExactEqual, SeparatesNumericKinds) {
  EXPECT_FALSE(KindExactEqual(ParseJson("1"), ParseJson("1.0")));
  EXPECT_FALSE(KindExactEqual(ParseJson("-0.0"), ParseJson("0.0")));
  EXPECT_FALSE(KindExactEqual(ParseJson("{}"), ParseJson("[]")));
  EXPECT_TRUE(KindExactEqual(ParseJson(R"({"a":1,"b":2})"), ParseJson(R"({"b":2,"a":1})")));
  EXPECT_TRUE(KindExactEqual(ParseJson("-0.0"), ParseJson("-0.0")));
  // nlohmann parses 5 as unsigned and -5 as signed; 5 written either way is the same integer.
  Json signed_five = std::int64_t{5};
  EXPECT_TRUE(KindExactEqual(signed_five, ParseJson("5")));
}

// Finds the first member name repeated within one object, nested ones included.
TEST(FindDuplicateKey, ReportsWhereTheRepeatEnds) {
  EXPECT_FALSE(FindDuplicateKey(R"({"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]})"));
  EXPECT_EQ(FindDuplicateKey(R"({"a":1,"a":2})"), 10u);
  EXPECT_EQ(FindDuplicateKey(R"({"x":[{"k":1},{"k":1,"k":2}]})"), 24u);
  EXPECT_FALSE(FindDuplicateKey(R"({"a":)"));  // not JSON: the parser reports that
  EXPECT_FALSE(FindDuplicateKey("[1,2]"));
}

}  // namespace
}  // namespace gemini_oracle::ref
