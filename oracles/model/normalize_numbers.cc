#include "oracles/model/normalize_numbers.h"

#include <cmath>
#include <cstdint>

namespace gemini_oracle::model {

Json NormalizeNumbers(const Json& value) {
  if (value.is_number_float()) {
    const double d = value.get<double>();
    // 2^63 itself is outside the int64 range; every double below it with an integral value
    // converts exactly.
    if (std::isfinite(d) && std::trunc(d) == d && d >= -9223372036854775808.0 &&
        d < 9223372036854775808.0) {
      return Json(static_cast<std::int64_t>(d));
    }
    return value;
  }
  if (value.is_object()) {
    Json out = Json::object();
    for (auto it = value.begin(); it != value.end(); ++it) out[it.key()] = NormalizeNumbers(*it);
    return out;
  }
  if (value.is_array()) {
    Json out = Json::array();
    for (const auto& item : value) out.push_back(NormalizeNumbers(item));
    return out;
  }
  return value;
}

}  // namespace gemini_oracle::model
