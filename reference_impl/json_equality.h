#pragma once
// ADR-226.8: decoded-argument equality.

#include "reference_impl/json.h"

namespace gemini_oracle::ref {

/// Recursive and kind-strict, except that an integer and a float are equal when the
/// conversion between them is exact and reversible (1.0 == 1, -3.0 == -3, -0.0 == 0, but
/// 9007199254740993 != 9007199254740992.0). Strings, booleans, null, objects and lists never
/// equal a number or each other. Object member order is free.
bool ArgumentsEqual(const Json& a, const Json& b);

}  // namespace gemini_oracle::ref
