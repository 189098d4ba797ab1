// `then.normalize_numbers` (INTERPRETING §5.4): literal controls.
#include "oracles/model/normalize_numbers.h"

#include <gtest/gtest.h>

namespace gemini_oracle::model {
namespace {

// Renormalizes integral floats the way frameworks and databases do, leaving the rest alone.
TEST(NormalizeNumbers, IntegralFloatsBecomeIntegers) {
  const Json in = ParseJson(
      R"({"a":1.0,"b":-3.0,"c":-0.0,"d":1.5,"e":"1.0","f":[2.0,{"g":7.0}],"h":1e300,"i":true})");
  const Json out = NormalizeNumbers(in);
  EXPECT_EQ(DumpJson(out),
            R"({"a":1,"b":-3,"c":0,"d":1.5,"e":"1.0","f":[2,{"g":7}],"h":1e+300,"i":true})");
  EXPECT_TRUE(out["a"].is_number_integer());
  EXPECT_TRUE(out["d"].is_number_float());
  EXPECT_TRUE(out["h"].is_number_float());  // beyond the int64 range it stays a float
  EXPECT_EQ(DumpJson(NormalizeNumbers(ParseJson("[9007199254740992.0,-9223372036854775808.0]"))),
            "[9007199254740992,-9223372036854775808]");
}

// 2^63 and above stay floats: no 64-bit signed integer holds them (INTERPRETING §5.4).
TEST(NormalizeNumbers, TheInt64RangeOnly) {
  EXPECT_EQ(DumpJson(NormalizeNumbers(ParseJson("[9223372036854775808.0,18446744073709551616.0]"))),
            DumpJson(ParseJson("[9223372036854775808.0,18446744073709551616.0]")));
  EXPECT_TRUE(NormalizeNumbers(Json(9223372036854774784.0)).is_number_integer());
}

}  // namespace
}  // namespace gemini_oracle::model
