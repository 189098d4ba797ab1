#pragma once
// `then.normalize_numbers` (fixtures/INTERPRETING.md §5.4): what frameworks and databases do to
// decoded generic arguments, one definition for every runner and generator.

#include "reference_impl/json.h"

namespace gemini_oracle::model {

/// Every float whose value is integral and which a signed 64-bit integer holds exactly
/// (-2^63 <= value < 2^63) becomes that integer (1.0 -> 1, -3.0 -> -3, -0.0 -> 0), recursively
/// inside objects and lists. Other floats (1.5, 1e300, 2^63 and above), strings, booleans,
/// null and keys are left alone. The value is the same under ADR-226.8.
Json NormalizeNumbers(const Json& value);

}  // namespace gemini_oracle::model
