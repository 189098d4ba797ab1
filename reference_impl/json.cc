#include "reference_impl/json.h"

#include <cmath>
#include <cstring>

namespace gemini_oracle {

Json ParseJson(std::string_view text) { return Json::parse(text.begin(), text.end()); }

std::string DumpJson(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

namespace {

bool IsInteger(const Json& v) { return v.is_number_integer(); }  // int64 or uint64

bool IntegersEqual(const Json& a, const Json& b) {
  if (a.is_number_unsigned() && b.is_number_unsigned()) {
    return a.get<std::uint64_t>() == b.get<std::uint64_t>();
  }
  if (!a.is_number_unsigned() && !b.is_number_unsigned()) {
    return a.get<std::int64_t>() == b.get<std::int64_t>();
  }
  const Json& s = a.is_number_unsigned() ? b : a;  // the signed one
  const Json& u = a.is_number_unsigned() ? a : b;
  const std::int64_t sv = s.get<std::int64_t>();
  return sv >= 0 && static_cast<std::uint64_t>(sv) == u.get<std::uint64_t>();
}

}  // namespace

bool KindExactEqual(const Json& a, const Json& b) {
  if (IsInteger(a) && IsInteger(b)) return IntegersEqual(a, b);
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case Json::value_t::object: {
      if (a.size() != b.size()) return false;
      for (auto it = a.begin(); it != a.end(); ++it) {
        auto other = b.find(it.key());
        if (other == b.end() || !KindExactEqual(it.value(), *other)) return false;
      }
      return true;
    }
    case Json::value_t::array: {
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!KindExactEqual(a[i], b[i])) return false;
      }
      return true;
    }
    case Json::value_t::number_float: {
      // Bitwise, so that -0.0 and 0.0 stay apart.
      const double x = a.get<double>();
      const double y = b.get<double>();
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    default:
      return a == b;
  }
}

}  // namespace gemini_oracle
