#pragma once
// Generators of JSON values where kinds matter (ADR-224, ADR-226.8): numeric edges, numeric-key
// maps, nested objects and lists of every kind, empty ones included.

#include <rapidcheck.h>

#include <vector>

#include "reference_impl/json.h"

namespace gemini_oracle::generators {

/// The numeric edges, each exactly as a case file holds it: 1.0, -3.0, -0.0, 0, 2^53, 2^53+1,
/// -2^63, 2^63-1, 2^64-1, 1e308, 5e-324, integral floats up to 2^64, and near neighbours.
/// RapidCheck's arbitrary<double> never yields -0.0, so the edges are listed, not drawn.
const std::vector<Json>& NumericEdges();

/// The nearest neighbours of the edges: 2^63-2, -2^63+1, 2^64-2, 2^63 as an integer, the
/// doubles just below 2^63, 2^64, -2^63 and 1e308, 1e-323, the double after 1.0, ...
const std::vector<Json>& EdgeNeighbours();

/// One of NumericEdges() or EdgeNeighbours(), or an integer or a double near 2^53 or small.
rc::Gen<Json> genNumber();

/// An object whose keys are list indices: "0".."n-1" (n up to 12, so that key order and
/// numeric order differ past 10), sparse, unordered, "01" and "-1" among them, or empty.
rc::Gen<Json> genNumericKeyMap();

/// Any JSON value up to `depth` levels of nesting (at most 6): scalars (numbers from
/// genNumber(), strings, booleans, null), lists and objects, empty ones and numeric-key maps
/// included.
rc::Gen<Json> genJsonValue(int depth);

/// A list of up to `depth` levels: short (0 to 4 values of any kind) or long (11 to 14
/// scalars, so that index keys sort otherwise than the indices).
rc::Gen<Json> genList(int depth);

/// An object (a Struct root: functionCall.args, an object tool result) of up to `depth` levels.
rc::Gen<Json> genObject(int depth);

}  // namespace gemini_oracle::generators
