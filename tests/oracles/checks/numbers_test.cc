// The judges' own JSON reader and ADR-226.8 equality, against the reference implementation's.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "oracles/checks/judge_json.h"
#include "oracles/checks/wire_view.h"
#include "reference_impl/json.h"
#include "reference_impl/json_equality.h"

namespace gemini_oracle::checks {
namespace {

Json Judged(std::string_view text) {
  auto decoded = DecodeJudgeJson(text);
  EXPECT_EQ(decoded.error, JudgeDecoded::Error::kNone) << text;
  return decoded.value.value_or(Json());
}

struct Row {
  const char* a;
  const char* b;
  bool equal;  // ADR-226.8
};

// ADR-226.8 near misses that tell wrong comparators apart, every value within 64 bits.
const std::vector<Row> kTable = {
    {"1.0", "1", true},
    {"-3.0", "-3", true},
    {"-0.0", "0", true},
    {"-0.0", "0.0", true},
    {"0", "-0", true},
    {"0.0", "0", true},
    {"1.5", "1", false},  // fractional vs truncated
    {"-1.5", "-1", false},
    {"2.0000000000000004", "2", false},     // near-equal to an integer
    {"0.1", "0.10000000000000002", false},  // near-equal floats
    {"0.1", "0.1", true},
    {"9007199254740993", "9007199254740992.0", false},  // 2^53+1: equal only as doubles
    {"9007199254740992", "9007199254740992.0", true},   // 2^53
    {"9007199254740993", "9007199254740992", false},
    {"9223372036854775807", "9.223372036854775807e18", false},   // 2^63-1 vs 2^63
    {"9223372036854775808", "9.223372036854775807e18", true},    // uint64 2^63 vs the double 2^63
    {"-9223372036854775808", "-9.223372036854775808e18", true},  // int64 min
    {"-1", "18446744073709551615", false},                       // -1 vs uint64 max
    {"18446744073709551615", "1.8446744073709552e19", false},    // uint64 max vs 2^64
    {"18446744073709551615", "18446744073709551615", true},
    {"1", "1", true},
    {"1", "2", false},
    {"1e20", "100000000000000000000.0", true},
    {"1e20", "1", false},
    {"5e-324", "0", false},
    {"1e308", "1e308", true},
    {"[1, 2]", "{\"0\": 1, \"1\": 2}", false},  // nested list vs numeric-key object
    {"{\"a\": [1.0]}", "{\"a\": [1]}", true},
    {"{\"a\": {}}", "{\"a\": []}", false},
    {"{\"a\": 1, \"b\": 2}", "{\"b\": 2.0, \"a\": 1}", true},  // member order free
    {"[1, 2]", "[2, 1]", false},
    {"\"1\"", "1", false},  // strings vs numbers
    {"\"1.0\"", "\"1\"", false},
    {"true", "1", false},
    {"null", "0", false},
    {"null", "null", true},
    {"false", "false", true},
    {"{}", "[]", false},
    {"{\"a\": null}", "{}", false},
};

// Agrees with the reference implementation's ADR-226.8 equality on every row of the table.
TEST(JudgeEquality, AgreesWithReferenceOnTable) {
  for (const auto& row : kTable) {
    const Json ja = Judged(row.a);
    const Json jb = Judged(row.b);
    const Json ra = ParseJson(row.a);
    const Json rb = ParseJson(row.b);
    EXPECT_EQ(detail::ArgumentsEqual(ja, jb), row.equal) << row.a << " vs " << row.b;
    EXPECT_EQ(detail::ArgumentsEqual(jb, ja), row.equal) << row.b << " vs " << row.a;
    EXPECT_EQ(ref::ArgumentsEqual(ra, rb), row.equal) << "reference: " << row.a << " vs " << row.b;
  }
}

// Keeps an integer literal beyond 64 bits exactly, as a big integer, positive and negative.
TEST(JudgeJson, KeepsBigIntegerLiteral) {
  const Json value = Judged(R"({"n": 123456789012345678901234567890, "m": -18446744073709551616})");
  ASSERT_TRUE(IsBigInteger(value["n"]));
  EXPECT_EQ(BigIntegerText(value["n"]), "123456789012345678901234567890");
  EXPECT_EQ(BigIntegerText(value["m"]), "-18446744073709551616");
  EXPECT_TRUE(IsBigInteger(*detail::DecodeToolContent("123456789012345678901234567890")));
  // uint64 max and int64 min stay plain integers.
  EXPECT_TRUE(Judged("18446744073709551615").is_number_unsigned());
  EXPECT_TRUE(Judged("-9223372036854775808").is_number_integer());
  // A literal with a fraction or an exponent is a double as before.
  EXPECT_TRUE(Judged("123456789012345678901234567890.0").is_number_float());
  EXPECT_TRUE(Judged("1e29").is_number_float());
}

// Tells apart big integers that are equal only as doubles, where the reference cannot: it
// reads both as the same double (the judge is right, ADR-224.3 and ADR-226.8 ask for values).
TEST(JudgeEquality, ComparesBigIntegersByLiteral) {
  const Json bound = Judged("18446744073709551617");
  const Json stored = Judged("18446744073709551616");
  EXPECT_FALSE(detail::ArgumentsEqual(bound, stored));
  EXPECT_FALSE(KindExactEqual(bound, stored));
  EXPECT_TRUE(KindExactEqual(bound, Judged("18446744073709551617")));
  EXPECT_TRUE(detail::ArgumentsEqual(bound, Judged("18446744073709551617")));
  // The reference reads both as 1.8446744073709552e19 and calls them equal.
  EXPECT_TRUE(
      ref::ArgumentsEqual(ParseJson("18446744073709551617"), ParseJson("18446744073709551616")));
  // A big integer equals a double only when the double is exactly that integer.
  EXPECT_TRUE(detail::ArgumentsEqual(stored, Judged("1.8446744073709552e19")));
  EXPECT_FALSE(detail::ArgumentsEqual(bound, Judged("1.8446744073709552e19")));
  EXPECT_FALSE(detail::ArgumentsEqual(Judged("123456789012345678901234567890"),
                                      Judged("1.2345678901234568e+29")));
  EXPECT_FALSE(detail::ArgumentsEqual(stored, Judged("\"18446744073709551616\"")));
  // A big integer sent as its rounded double is a changed value, not a kind drift.
  const auto drifts = detail::Drifts(Judged(R"({"n":123456789012345678901234567890})"),
                                     Judged(R"({"n":1.2345678901234568e+29})"), "");
  ASSERT_EQ(drifts.size(), 1u);
  EXPECT_EQ(drifts[0].drift, detail::Drift::kOther);
}

// Expands integral doubles exactly and refuses fractional or non-finite ones.
TEST(JudgeEquality, ExpandsIntegralDoublesExactly) {
  EXPECT_EQ(ExactIntegerText(Json(1e20)), "100000000000000000000");
  EXPECT_EQ(ExactIntegerText(Json(-0.0)), "0");
  EXPECT_EQ(ExactIntegerText(Json(-3.0)), "-3");
  EXPECT_EQ(ExactIntegerText(Json(9007199254740992.0)), "9007199254740992");
  EXPECT_EQ(ExactIntegerText(Json(18446744073709551616.0)), "18446744073709551616");
  EXPECT_EQ(ExactIntegerText(Json(1e308))->size(), 309u);
  EXPECT_EQ(ExactIntegerText(Json(1e308))->substr(0, 17), "10000000000000000");
  EXPECT_EQ(ExactIntegerText(Json(5e-324)), std::nullopt);
  EXPECT_EQ(ExactIntegerText(Json(0.5)), std::nullopt);
  EXPECT_EQ(ExactIntegerText(Json("1")), std::nullopt);
}

// Reads a number beyond a double and too deep nesting as undecodable, without throwing; a
// tool message holding one is text for the judges.
TEST(JudgeJson, RefusesOverflowAndDepthWithoutThrowing) {
  EXPECT_EQ(DecodeJudgeJson(R"({"x": 1e400})").error, JudgeDecoded::Error::kNumberRange);
  EXPECT_EQ(DecodeJudgeJson("-1e400").error, JudgeDecoded::Error::kNumberRange);
  EXPECT_EQ(detail::DecodeToolContent(R"({"x": 1e400})"), std::nullopt);
  const std::string ok = std::string(kJudgeMaxDepth, '[') + std::string(kJudgeMaxDepth, ']');
  EXPECT_EQ(DecodeJudgeJson(ok).error, JudgeDecoded::Error::kNone);
  const std::string deep = "[" + ok + "]";
  const auto too_deep = DecodeJudgeJson(deep);
  EXPECT_EQ(too_deep.error, JudgeDecoded::Error::kTooDeep);
  EXPECT_EQ(too_deep.byte, kJudgeMaxDepth + 1);
  EXPECT_EQ(detail::DecodeToolContent(deep), std::nullopt);
  EXPECT_EQ(DecodeJudgeJson("{\"a\":").error, JudgeDecoded::Error::kSyntax);
  EXPECT_EQ(DecodeJudgeJson("[1] 2").error, JudgeDecoded::Error::kSyntax);
  EXPECT_EQ(detail::DecodeToolContent("sunny"), std::nullopt);
}

// Keeps kinds as written and notices a repeated member name (keeping the last value).
TEST(JudgeJson, KeepsKindsAndNoticesRepeatedMembers) {
  const auto decoded = DecodeJudgeJson(R"({"b":1.0,"a":-0.0,"c":{},"d":[],"e":1,"b":2})");
  ASSERT_TRUE(decoded.value);
  EXPECT_TRUE(decoded.repeated_member);
  EXPECT_EQ(DumpJson(*decoded.value), R"({"b":2,"a":-0.0,"c":{},"d":[],"e":1})");
  EXPECT_FALSE(DecodeJudgeJson(R"({"a":{"a":1},"b":[{"a":1},{"a":2}]})").repeated_member);
  // Read as decoders that keep the first value do, a repeated member's later values (nested
  // ones included) are dropped.
  const auto first =
      DecodeJudgeJson(R"({"b":1.0,"c":{"x":[1]},"b":2,"c":{"y":{"z":3,"z":4}}})",
                      RepeatedMember::kFirst);
  ASSERT_TRUE(first.value);
  EXPECT_TRUE(first.repeated_member);
  EXPECT_EQ(DumpJson(*first.value), R"({"b":1.0,"c":{"x":[1]}})");
  EXPECT_EQ(DumpJson(Judged("[1.0,-0.0,18446744073709551615]")), "[1.0,-0.0,18446744073709551615]");
}

// Shows big integers in reports as marked digits, and other binary values by size.
TEST(JudgeJson, ReadableFormOfBigIntegers) {
  const Json value = Judged(R"({"n":[123456789012345678901234567890]})");
  const Json readable = Readable(value);
  EXPECT_EQ(DumpJson(readable), R"x({"n":["123456789012345678901234567890 (big integer)"]})x");
  // FindingJson reads the dump back with nlohmann::json: it must stay plain JSON.
  const auto reread = nlohmann::json::parse(DumpJson(readable));
  EXPECT_EQ(reread["n"][0], "123456789012345678901234567890 (big integer)");
  EXPECT_EQ(Readable(Json::binary({1, 2, 3})), "(binary value, 3 bytes)");
  EXPECT_EQ(DumpJson(Readable(Judged("[1.0,{}]"))), "[1.0,{}]");
}

// The judges' kind-exact equality agrees with the reference's on a table of kinds (a second,
// independent implementation: a mistake shared by both could not be seen).
TEST(JudgeEquality, SameJsonAgreesWithReferenceKindExactEquality) {
  const char* values[] = {"1", "1.0", "-0.0", "0.0", "0", "-1", "18446744073709551615",
                          "9223372036854775807", "-9223372036854775808", "1e308", "5e-324",
                          "\"a\"", "\"1\"", "true", "false", "null", "{}", "[]",
                          R"({"a":[1,{"b":2.0}]})", R"({"a":[1,{"b":2}]})",
                          R"({"b":2.0,"a":[1]})", R"({"a":[1],"b":2.0})", R"([1,2])", R"([2,1])",
                          R"({"0":1})", R"([1])", "\"\\u00e9\"", "\"\u00e9\""};
  for (const char* left : values) {
    for (const char* right : values) {
      const Json a = ParseJson(left);
      const Json b = ParseJson(right);
      EXPECT_EQ(SameJson(a, b), KindExactEqual(a, b)) << left << " vs " << right;
    }
  }
  // int64 and uint64 of one value are equal; a big integer equals only its own literal.
  EXPECT_TRUE(SameJson(Json(std::int64_t{5}), Json(std::uint64_t{5})));
  EXPECT_TRUE(SameJson(MakeBigInteger("123456789012345678901234567890"),
                       MakeBigInteger("123456789012345678901234567890")));
  EXPECT_FALSE(SameJson(MakeBigInteger("18446744073709551617"),
                        MakeBigInteger("18446744073709551616")));
  EXPECT_FALSE(SameJson(MakeBigInteger("18446744073709551616"), Json(1.8446744073709552e19)));
}

}  // namespace
}  // namespace gemini_oracle::checks
