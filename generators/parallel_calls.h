#pragma once
// Parallel calls (ADR-226.20, 226.3, 226.4, 226.5): n calls in k groups of identical name and
// arguments, native ids present, absent, mixed, duplicated or empty, results answered in any
// order. Each scenario knows, from how it was built, what the conversation must do.

#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <vector>

#include "reference_impl/json.h"

namespace gemini_oracle::generators {

/// How the calls of a response carry native ids: all, none, every other one; or, refused, two
/// calls sharing one, the last one empty, the last one not a string.
enum class IdMode { kPresent, kAbsent, kMixed, kDuplicated, kEmpty, kNotString };

struct ParallelCallsScenario {
  /// Per call: its group (calls of one group share name and arguments).
  std::vector<int> group_of;
  /// Per group: its arguments (an object, up to six levels deep).
  std::vector<Json> args_of_group;
  IdMode ids = IdMode::kPresent;
  Json not_string_id;  // kNotString: the last call's id (a number, boolean, object or list)
  /// Per call: its result (distinct per call, so that a misassociation shows).
  std::vector<Json> results;
  /// The order in which the application appends the results (a permutation of the calls).
  std::vector<std::size_t> answer_order;
};

/// The family's version, named in each case's `source`: it changes whenever the same seed
/// would draw other cases, so "seed S, index i" always names one case.
inline constexpr int kParallelCallsVersion = 2;

rc::Gen<ParallelCallsScenario> genParallelCallsScenario();

/// The expected outcome, from the construction alone: a duplicated id is refused as
/// native_id.duplicate, an empty one or one that is not a string as native_id.malformed, when
/// the response is parsed (ADR-226: "Malformed or duplicate native IDs in the tool parser ...
/// are refused"; "a present ID on an accepted named call must be a nonempty string");
/// anything else is accepted.
std::string ExpectedErrorCode(const ParallelCallsScenario& scenario);

/// The case file of a scenario (fixtures/case.schema.json), named by `stem`, its `source` naming
/// the generator, the seed and the index.
Json ParallelCallsCase(const ParallelCallsScenario& scenario, std::uint64_t seed,
                       std::size_t index);

/// The file stem: y_ or n_ by the expected outcome, then the family, the seed and the index.
std::string ParallelCallsStem(const ParallelCallsScenario& scenario, std::uint64_t seed,
                              std::size_t index);

}  // namespace gemini_oracle::generators
