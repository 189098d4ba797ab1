#pragma once
// The one member lookup of the case model's readers (case, server-answered calls, twins).

#include "reference_impl/json.h"

namespace gemini_oracle::model {

/// A member of an object, or nullptr (also when `object` is no object).
const Json* Member(const Json& object, const char* key);

}  // namespace gemini_oracle::model
