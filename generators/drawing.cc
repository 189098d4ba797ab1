#include "generators/drawing.h"

#include <algorithm>
#include <numeric>

namespace gemini_oracle::generators {

bool DrawChance(int percent) { return *Between<int>(0, 100) < percent; }

std::vector<std::size_t> DrawPermutation(std::size_t n) {
  // The indices sorted by drawn keys: shrinks towards the identity.
  const auto keys = *rc::gen::container<std::vector<int>>(n, Between<int>(0, 1000));
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&keys](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  return order;
}

std::vector<std::size_t> DrawEventSizes(std::size_t parts) {
  std::vector<std::size_t> sizes;
  std::size_t left = parts;
  while (left > 0) {
    const std::size_t take = *Between<std::size_t>(1, left + 1);
    sizes.push_back(take);
    left -= take;
  }
  return sizes;
}

std::vector<std::size_t> DrawCutPermille() {
  const std::size_t count = *Between<std::size_t>(0, 4);
  return *rc::gen::container<std::vector<std::size_t>>(count, Between<std::size_t>(1, 1000));
}

}  // namespace gemini_oracle::generators
