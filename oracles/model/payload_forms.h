#pragma once
// The wire forms of tool result payloads that the `results.distinct` rule of `check` compares.

#include "reference_impl/json.h"

namespace gemini_oracle::model {

/// The value a judge finds a tool result by on the wire (fixtures/INTERPRETING.md §8): a json
/// list becomes its numeric-key object ("0", "1", ... in order); a json object stays itself; a
/// json scalar, a text and an error are the bare value (the string for text and error), which
/// the adapter wraps in a one-member object of implementation-defined name (ADR-224.5).
Json PayloadWireForm(bool json, const Json& value);

/// Whether a judge could take one payload's functionResponse for the other's: equal wire forms,
/// or one form an object of exactly one member whose value equals the other, bare, form.
bool PayloadsClash(const Json& a_form, const Json& b_form);

}  // namespace gemini_oracle::model
