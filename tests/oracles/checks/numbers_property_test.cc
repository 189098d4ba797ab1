// Generated values: the judges' ADR-226.8 equality and reader agree with the reference
// implementation's wherever the reference can hold the values (within 64 bits), and differ
// only on integers beyond 64 bits, where the judge compares the literals and is right.
//
// Fixed seed by default (printed); GEMINI_ORACLE_PROPERTY_SEED and GEMINI_ORACLE_PROPERTY_RUNS
// choose another seed and a longer run (RC_PARAMS, when set, wins over both).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>

#include "oracles/checks/judge_json.h"
#include "oracles/checks/wire_view.h"
#include "reference_impl/json.h"
#include "reference_impl/json_equality.h"
#include "tests/property_support.h"

namespace gemini_oracle::checks {
namespace {

using gemini_oracle::testing::CheckProperty;

// Numbers where comparators go wrong: zeros of both signs, integral and fractional doubles
// around 2^53, 2^63 and 2^64, the 64-bit bounds, tiny and huge doubles, and their neighbours.
rc::Gen<Json> GenEdgeNumber() {
  const double kEdgesD[] = {0.0,
                            -0.0,
                            1.0,
                            -1.0,
                            -3.0,
                            0.5,
                            1.5,
                            -2.5,
                            0.1,
                            1e20,
                            1e308,
                            -1e308,
                            5e-324,
                            2.2250738585072014e-308,
                            9007199254740992.0,
                            9007199254740994.0,
                            9.223372036854775807e18,
                            -9.223372036854775808e18,
                            1.8446744073709552e19,
                            1.8446744073709550e19,
                            123456789.0,
                            1e15 + 0.5};
  const std::int64_t kEdgesI[] = {0,
                                  1,
                                  -1,
                                  -3,
                                  2,
                                  123456789,
                                  9007199254740992,
                                  9007199254740993,
                                  -9007199254740993,
                                  std::numeric_limits<std::int64_t>::max(),
                                  std::numeric_limits<std::int64_t>::min(),
                                  100000000000000000};
  const std::uint64_t kEdgesU[] = {9223372036854775808ull, 18446744073709551615ull,
                                   18446744073709549568ull, 9007199254740993ull};
  return rc::gen::oneOf(
      rc::gen::map(rc::gen::elementOf(std::vector<double>(std::begin(kEdgesD), std::end(kEdgesD))),
                   [](double d) { return Json(d); }),
      rc::gen::map(
          rc::gen::elementOf(std::vector<std::int64_t>(std::begin(kEdgesI), std::end(kEdgesI))),
          [](std::int64_t i) { return Json(i); }),
      rc::gen::map(
          rc::gen::elementOf(std::vector<std::uint64_t>(std::begin(kEdgesU), std::end(kEdgesU))),
          [](std::uint64_t u) { return Json(u); }),
      // An integer and the double nearest to it, and neighbours of a double.
      rc::gen::map(rc::gen::arbitrary<std::int64_t>(),
                   [](std::int64_t i) { return Json(static_cast<double>(i)); }),
      rc::gen::map(rc::gen::arbitrary<std::int64_t>(), [](std::int64_t i) { return Json(i); }),
      rc::gen::map(rc::gen::arbitrary<std::uint64_t>(), [](std::uint64_t u) { return Json(u); }),
      rc::gen::map(rc::gen::arbitrary<double>(), [](double d) { return Json(d); }),
      rc::gen::map(rc::gen::inRange<int>(-70, 70), [](int e) { return Json(std::ldexp(1.0, e)); }),
      rc::gen::map(rc::gen::inRange<int>(-70, 70),
                   [](int e) { return Json(std::nextafter(std::ldexp(1.0, e), 0.0)); }));
}

rc::Gen<Json> GenScalar() {
  return rc::gen::oneOf(
      GenEdgeNumber(), GenEdgeNumber(),
      rc::gen::map(rc::gen::elementOf(std::vector<std::string>{"", "1", "1.0", "a", "0"}),
                   [](std::string s) { return Json(std::move(s)); }),
      rc::gen::map(rc::gen::arbitrary<bool>(), [](bool b) { return Json(b); }),
      rc::gen::just(Json(nullptr)));
}

// A value of nested lists and objects (keys from a small set, numeric keys included, so a
// list and a numeric-key object meet).
rc::Gen<Json> GenValue(int depth) {
  if (depth == 0) return GenScalar();
  const auto child = rc::gen::lazy([depth] { return GenValue(depth - 1); });
  return rc::gen::oneOf(
      GenScalar(),
      rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, 4),
                      [child](std::size_t n) {
                        return rc::gen::map(rc::gen::container<std::vector<Json>>(n, child),
                                            [](std::vector<Json> items) { return Json(items); });
                      }),
      rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, 4), [child](std::size_t n) {
        return rc::gen::map(
            rc::gen::container<std::vector<std::pair<std::string, Json>>>(
                n,
                rc::gen::pair(rc::gen::elementOf(std::vector<std::string>{"0", "1", "a"}), child)),
            [](std::vector<std::pair<std::string, Json>> members) {
              Json object = Json::object();
              for (auto& [key, value] : members) object[key] = std::move(value);
              return object;
            });
      }));
}

// A value and a variant of it: the same value with numbers re-kinded or nudged, a list turned
// into a numeric-key object, or an unrelated value.
Json Variant(const Json& value, int choice) {
  if (value.is_number()) {
    switch (choice % 4) {
      case 0: {
        if (value.is_number_float()) {
          const double d = value.get<double>();
          if (std::trunc(d) == d && std::fabs(d) < 9.2e18) {
            return Json(static_cast<std::int64_t>(d));
          }
          return Json(std::nextafter(d, 0.0));
        }
        return Json(value.is_number_unsigned() ? static_cast<double>(value.get<std::uint64_t>())
                                               : static_cast<double>(value.get<std::int64_t>()));
      }
      case 1:
        return value.is_number_float() ? Json(-value.get<double>()) : value;
      default:
        return value;
    }
  }
  if (value.is_array()) {
    if (choice % 5 == 4) {
      Json object = Json::object();
      for (std::size_t i = 0; i < value.size(); ++i) object[std::to_string(i)] = value[i];
      return object;
    }
    Json out = Json::array();
    for (const auto& item : value) out.push_back(Variant(item, choice / 2 + 1));
    return out;
  }
  if (value.is_object()) {
    Json out = Json::object();
    for (auto it = value.begin(); it != value.end(); ++it) {
      out[it.key()] = Variant(it.value(), choice / 3 + 2);
    }
    return out;
  }
  return value;
}

// Agrees with ref::ArgumentsEqual on generated pairs within 64 bits (both symmetric).
TEST(JudgeEqualityProperty, AgreesWithReference) {
  CheckProperty([] {
    const Json a = *GenValue(3);
    const int choice = *rc::gen::inRange(0, 1000);
    const Json b = *rc::gen::oneOf(rc::gen::just(Variant(a, choice)), GenValue(2));
    RC_CLASSIFY(detail::ArgumentsEqual(a, b), "equal");
    RC_CLASSIFY(!KindExactEqual(a, b) && ref::ArgumentsEqual(a, b), "equal across kinds");
    RC_ASSERT(detail::ArgumentsEqual(a, b) == ref::ArgumentsEqual(a, b));
    RC_ASSERT(detail::ArgumentsEqual(a, b) == detail::ArgumentsEqual(b, a));
    RC_ASSERT(detail::ArgumentsEqual(a, a));
  });
}

// Agrees with ref::ArgumentsEqual on single numbers: an edge value against itself re-kinded
// (1.0 -> 1, 2^53+1 -> its nearest double), negated, nudged, or another edge value.
TEST(JudgeEqualityProperty, NumbersAgreeWithReference) {
  CheckProperty([] {
    const Json a = *GenEdgeNumber();
    const Json b = *rc::gen::oneOf(rc::gen::just(Variant(a, 0)), rc::gen::just(Variant(a, 1)),
                                   GenEdgeNumber());
    RC_CLASSIFY(!KindExactEqual(a, b) && ref::ArgumentsEqual(a, b), "equal across kinds");
    RC_CLASSIFY(!ref::ArgumentsEqual(a, b), "unequal");
    RC_ASSERT(detail::ArgumentsEqual(a, b) == ref::ArgumentsEqual(a, b));
    RC_ASSERT(detail::ArgumentsEqual(b, a) == ref::ArgumentsEqual(b, a));
  });
}

// Reads the text of a generated value exactly as the reference's reader does (within 64 bits
// and the range of a double, the reference's domain).
TEST(JudgeJsonProperty, ReadsLikeReference) {
  CheckProperty([] {
    const Json a = *GenValue(3);
    const std::string text = DumpJson(a);
    const auto judged = DecodeJudgeJson(text);
    RC_ASSERT(judged.error == JudgeDecoded::Error::kNone);
    RC_ASSERT(KindExactEqual(*judged.value, ParseJson(text)));
    RC_ASSERT(DumpJson(*judged.value) == text);
  });
}

// Beyond 64 bits the reference rounds both integers to one double; the judge keeps the
// literals, so two different big integers are never equal and one equals a double only when
// that double is exactly it.
TEST(JudgeEqualityProperty, BigIntegersCompareByLiteral) {
  CheckProperty([] {
    const auto length = *rc::gen::inRange<std::size_t>(20, 40);  // > 20 digits in all
    const auto digits =
        *rc::gen::container<std::string>(length, rc::gen::inRange('0', static_cast<char>('9' + 1)));
    const bool negative = *rc::gen::arbitrary<bool>();
    const std::string literal = (negative ? "-" : "") + std::string("1") + digits + "0000000000";
    const std::string other = literal.substr(0, literal.size() - 1) + "1";
    const Json a = *DecodeJudgeJson(literal).value;
    const Json b = *DecodeJudgeJson(other).value;
    RC_ASSERT(IsBigInteger(a));
    RC_ASSERT(!detail::ArgumentsEqual(a, b));
    RC_ASSERT(detail::ArgumentsEqual(a, *DecodeJudgeJson(literal).value));
    const double nearest = std::strtod(literal.c_str(), nullptr);
    RC_ASSERT(detail::ArgumentsEqual(a, Json(nearest)) ==
              (*ExactIntegerText(Json(nearest)) == BigIntegerText(a)));
    // The reference cannot tell them apart when both round to the same double.
    if (std::strtod(other.c_str(), nullptr) == nearest) {
      RC_ASSERT(ref::ArgumentsEqual(ParseJson(literal), ParseJson(other)));
    }
  });
}

}  // namespace
}  // namespace gemini_oracle::checks
