#pragma once
// Drawing helpers shared by the generator families. The Draw* functions run inside
// rc::gen::exec (they draw with `*`), so RapidCheck shrinks what they draw.

#include <rapidcheck.h>

#include <cstddef>
#include <vector>

namespace gemini_oracle::generators {

/// An integer in [low, high) over the whole range at any size (RapidCheck's inRange uses less
/// of the range at smaller sizes).
template <typename T>
rc::Gen<T> Between(T low, T high_exclusive) {
  return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(low, high_exclusive));
}

/// True `percent` times in a hundred.
bool DrawChance(int percent);

/// A permutation of 0..n-1.
std::vector<std::size_t> DrawPermutation(std::size_t n);

/// Parts per event for `parts` parts, each event holding at least one.
std::vector<std::size_t> DrawEventSizes(std::size_t parts);

/// Up to three cut points of a stream's bytes, in thousandths of its length (StreamedAnswer).
std::vector<std::size_t> DrawCutPermille();

/// Identical calls without native ids (one group, no id) get the same result: which of them
/// gets which is the implementation's choice (i_identical_idless_calls_results_reversed), so a
/// generated case must not depend on it.
template <typename Result>
void ShareResultsOfIdenticalIdlessCalls(const std::vector<std::size_t>& group_of,
                                        const std::vector<bool>& has_id,
                                        std::vector<Result>& results) {
  for (std::size_t c = 0; c < results.size(); ++c) {
    if (has_id[c]) continue;
    for (std::size_t first = 0; first < c; ++first) {
      if (group_of[first] == group_of[c] && !has_id[first]) {
        results[c] = results[first];
        break;
      }
    }
  }
}

}  // namespace gemini_oracle::generators
