#include "reference_impl/json_equality.h"

#include "reference_impl/fault.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace gemini_oracle::ref {
namespace {

// An exact integer value, signed or unsigned, as nlohmann decoded it.
struct Integer {
  bool negative;
  std::uint64_t magnitude;
};

Integer AsInteger(const Json& v) {
  if (v.is_number_unsigned()) return {false, v.get<std::uint64_t>()};
  const std::int64_t s = v.get<std::int64_t>();
  if (s >= 0) return {false, static_cast<std::uint64_t>(s)};
  // Two's complement magnitude; correct for INT64_MIN too.
  return {true, static_cast<std::uint64_t>(0) - static_cast<std::uint64_t>(s)};
}

bool IntegersEqual(const Integer& a, const Integer& b) {
  if (a.magnitude == 0 && b.magnitude == 0) return true;
  return a.negative == b.negative && a.magnitude == b.magnitude;
}

// ADR-226.8: the float must be integral and inside the 64-bit range, and both conversions
// must be exact. 2^64 (1.8446744073709552e19) is outside uint64, so it never matches.
bool IntegerEqualsFloat(const Integer& i, double d) {
  if (GEMINI_FAULT("equality.float_truncated_to_integer")) d = std::trunc(d);  // 2.5 == 2
  if (!std::isfinite(d) || std::trunc(d) != d) return false;
  if (GEMINI_FAULT("equality.sign_compared_before_zero") && std::signbit(d) != i.negative) {
    return false;  // -0.0 never equals 0
  }
  const double magnitude = std::fabs(d);
  // 2^64 exactly; every double below it with an integral value fits a uint64.
  constexpr double kTwoTo64 = 18446744073709551616.0;
  if (magnitude >= kTwoTo64) return false;
  const auto as_int = static_cast<std::uint64_t>(magnitude);
  if (as_int == 0) return i.magnitude == 0;  // -0.0 and 0.0 both equal integer 0
  if ((d < 0) != i.negative) return false;
  if (as_int != i.magnitude) return false;
  // Reversible: the integer converts back to the same double (it always does when
  // as_int == magnitude and d is integral, but say so explicitly for clarity).
  return static_cast<double>(i.magnitude) == magnitude;
}

bool NumbersEqual(const Json& a, const Json& b) {
  const bool a_float = a.is_number_float();
  const bool b_float = b.is_number_float();
  if (GEMINI_FAULT("equality.numbers_compared_as_doubles")) {
    return a.get<double>() == b.get<double>();  // rounds 2^53+1 onto 2^53
  }
  if (GEMINI_FAULT("equality.numbers_equal_across_kinds_strictly")) {
    return a_float == b_float && a == b;  // 1.0 never equals 1
  }
  if (!a_float && !b_float) return IntegersEqual(AsInteger(a), AsInteger(b));
  if (a_float && b_float) return a.get<double>() == b.get<double>();  // -0.0 == 0.0
  return a_float ? IntegerEqualsFloat(AsInteger(b), a.get<double>())
                 : IntegerEqualsFloat(AsInteger(a), b.get<double>());
}

}  // namespace

bool ArgumentsEqual(const Json& a, const Json& b) {
  if (a.is_number() && b.is_number()) return NumbersEqual(a, b);
  if (GEMINI_FAULT("equality.numeric_string_equals_number") && a.is_string() && b.is_number()) {
    return a.get_ref<const std::string&>() == DumpJson(b);  // loose: "1" == 1
  }
  if (a.type() != b.type()) return false;  // kinds never cross (string vs number, ...)
  switch (a.type()) {
    case Json::value_t::object: {
      if (a.size() != b.size() && !GEMINI_FAULT("equality.extra_members_ignored")) return false;
      if (GEMINI_FAULT("equality.objects_compared_in_member_order")) {
        // Member by member in stored order, like PHP's === on arrays.
        for (auto x = a.begin(), y = b.begin(); x != a.end() && y != b.end(); ++x, ++y) {
          if (x.key() != y.key() || !ArgumentsEqual(x.value(), y.value())) return false;
        }
        return true;
      }
      for (auto it = a.begin(); it != a.end(); ++it) {
        const auto other = b.find(it.key());
        if (other == b.end() || !ArgumentsEqual(it.value(), *other)) return false;
      }
      return true;
    }
    case Json::value_t::array: {
      if (a.size() != b.size()) return false;
      if (GEMINI_FAULT("equality.arrays_compared_as_sets")) {
        return std::all_of(a.begin(), a.end(), [&](const Json& x) {
          return std::any_of(b.begin(), b.end(),
                             [&](const Json& y) { return ArgumentsEqual(x, y); });
        });
      }
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!ArgumentsEqual(a[i], b[i])) return false;
      }
      return true;
    }
    case Json::value_t::string:
      return a.get_ref<const std::string&>() == b.get_ref<const std::string&>();
    case Json::value_t::boolean:
      return a.get<bool>() == b.get<bool>();
    case Json::value_t::null:
      return true;
    default:
      return false;  // binary and discarded values are never arguments
  }
}

}  // namespace gemini_oracle::ref
