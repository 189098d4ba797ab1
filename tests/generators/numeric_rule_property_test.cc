// ADR-226.8's numeric rule, against a third account of it: the exact decimal value of each
// number (a double's expansion is exact, big integers are compared as text, never through a
// double). Both the reference's equality and the judges' must agree with it on every generated
// pair, be symmetric, and never equal a number to a value of another kind.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "generators/json_values.h"
#include "oracles/checks/judge_json.h"
#include "oracles/checks/wire_view.h"
#include "reference_impl/json_equality.h"
#include "tests/property_support.h"

namespace gemini_oracle::generators {
namespace {

using gemini_oracle::testing::CheckProperty;

// The exact decimal value: digits, an optional fraction without trailing zeros, "-" only when
// the value is below zero ("-0.0" is "0").
std::string ExactDecimal(const Json& n) {
  if (checks::IsBigInteger(n)) return checks::BigIntegerText(n);
  if (n.is_number_unsigned()) return std::to_string(n.get<std::uint64_t>());
  if (n.is_number_integer()) return std::to_string(n.get<std::int64_t>());
  // Every double is a finite binary fraction: 1100 fractional digits hold it exactly
  // (glibc prints the exact expansion).
  char buffer[1500];
  std::snprintf(buffer, sizeof buffer, "%.1100f", n.get<double>());
  std::string text = buffer;
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  if (text == "-0") text = "0";
  return text;
}

// A number and another: itself re-kinded, negated, nudged to the next double, or another draw.
rc::Gen<std::pair<Json, Json>> genNumberPair() {
  return rc::gen::mapcat(genNumber(), [](const Json& a) {
    std::vector<Json> variants = {a};
    if (a.is_number_float()) {
      const double d = a.get<double>();
      variants.emplace_back(-d);
      variants.emplace_back(std::nextafter(d, INFINITY));
      variants.emplace_back(std::nextafter(d, -INFINITY));
      if (std::trunc(d) == d && std::fabs(d) < 9.2e18) {
        variants.emplace_back(static_cast<std::int64_t>(d));
      }
      if (std::trunc(d) == d && d >= 0 && d < 1.8e19) {
        variants.emplace_back(static_cast<std::uint64_t>(d));
      }
    } else if (a.is_number_unsigned()) {
      variants.emplace_back(static_cast<double>(a.get<std::uint64_t>()));
      variants.emplace_back(a.get<std::uint64_t>() - 1);
    } else {
      variants.emplace_back(static_cast<double>(a.get<std::int64_t>()));
      variants.emplace_back(a.get<std::int64_t>() / 2 * 2 + 1);
    }
    return rc::gen::pair(rc::gen::just(a),
                         rc::gen::oneOf(rc::gen::elementOf(variants), genNumber()));
  });
}

TEST(NumericRuleProperty, AgreesWithExactDecimalComparison) {
  static std::size_t across_kinds = 0, unequal = 0;
  CheckProperty([] {
    const auto [a, b] = *genNumberPair();
    const bool exact = ExactDecimal(a) == ExactDecimal(b);
    RC_CLASSIFY(exact && a.is_number_float() != b.is_number_float(), "equal across int/float");
    RC_CLASSIFY(!exact, "unequal");
    across_kinds += exact && a.is_number_float() != b.is_number_float() ? 1 : 0;
    unequal += exact ? 0 : 1;
    RC_ASSERT(ref::ArgumentsEqual(a, b) == exact);
    RC_ASSERT(ref::ArgumentsEqual(b, a) == exact);
    RC_ASSERT(checks::NumbersEqual(a, b) == exact);
    RC_ASSERT(checks::NumbersEqual(b, a) == exact);
  });
  // Both sides of the rule were drawn: an int and a float of one value, and unequal pairs.
  EXPECT_GT(across_kinds, 0u);
  EXPECT_GT(unequal, 0u);
}

// Integers beyond 64 bits (the judges keep them as text) against doubles near them.
TEST(NumericRuleProperty, BigIntegersComparedAsText) {
  static std::size_t equal = 0, unequal = 0;
  CheckProperty([] {
    // 2^64 .. 2^70 as doubles (exact integers), their decimal text with a last-digit nudge.
    const int exponent = *rc::gen::inRange(64, 71);
    const double d = std::ldexp(1.0, exponent) * (*rc::gen::element(1.0, 1.5, -1.0));
    std::string digits = ExactDecimal(Json(d));
    const int nudge = *rc::gen::inRange(-1, 2);
    digits.back() = static_cast<char>(digits.back() + nudge);  // ends in 2, 4, 6 or 8
    const Json big = checks::MakeBigInteger(digits);
    const bool exact = ExactDecimal(big) == ExactDecimal(Json(d));
    RC_CLASSIFY(exact, "equal");
    (exact ? equal : unequal) += 1;
    RC_ASSERT(checks::NumbersEqual(big, Json(d)) == exact);
    RC_ASSERT(checks::NumbersEqual(Json(d), big) == exact);
    RC_ASSERT(checks::detail::ArgumentsEqual(Json{{"n", big}}, Json{{"n", d}}) == exact);
  });
  EXPECT_GT(equal, 0u);
  EXPECT_GT(unequal, 0u);
}

TEST(NumericRuleProperty, NeverEqualAcrossKinds) {
  CheckProperty([] {
    const Json n = *genNumber();
    const Json other = *rc::gen::element(Json(DumpJson(n)), Json(ExactDecimal(n)), Json(true),
                                         Json(false), Json(nullptr), Json::array({n}),
                                         Json{{"0", n}});
    RC_ASSERT(!ref::ArgumentsEqual(n, other));
    RC_ASSERT(!ref::ArgumentsEqual(other, n));
    RC_ASSERT(!checks::detail::ArgumentsEqual(n, other));
    RC_ASSERT(!checks::detail::ArgumentsEqual(other, n));
  });
}

// The decimal account itself: literal controls.
TEST(ExactDecimal, LiteralControls) {
  EXPECT_EQ(ExactDecimal(Json(-0.0)), "0");
  EXPECT_EQ(ExactDecimal(Json(1.0)), "1");
  EXPECT_EQ(ExactDecimal(Json(0.1)), "0.1000000000000000055511151231257827021181583404541015625");
  EXPECT_EQ(ExactDecimal(Json(9007199254740993.0)), "9007199254740992");
  EXPECT_EQ(ExactDecimal(Json(18446744073709551615ull)), "18446744073709551615");
  EXPECT_EQ(ExactDecimal(Json(18446744073709551616.0)), "18446744073709551616");
  EXPECT_EQ(ExactDecimal(Json(5e-324)).size(), 2u + 1074u);
}

}  // namespace
}  // namespace gemini_oracle::generators
