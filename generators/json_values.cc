#include "generators/json_values.h"

#include "generators/drawing.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace gemini_oracle::generators {

const std::vector<Json>& NumericEdges() {
  static const std::vector<Json> edges = [] {
    std::vector<Json> out;
    out.emplace_back(1.0);
    out.emplace_back(-3.0);
    out.emplace_back(-0.0);
    out.emplace_back(0);
    out.emplace_back(std::int64_t{1} << 53);                // 2^53
    out.emplace_back((std::int64_t{1} << 53) + 1);          // 2^53 + 1
    out.emplace_back(std::numeric_limits<std::int64_t>::min());  // -2^63
    out.emplace_back(std::numeric_limits<std::int64_t>::max());  // 2^63 - 1
    out.emplace_back(std::numeric_limits<std::uint64_t>::max());  // 2^64 - 1
    out.emplace_back(1e308);
    out.emplace_back(5e-324);
    out.emplace_back(9007199254740992.0);     // 2^53 as a float
    out.emplace_back(9223372036854775808.0);  // 2^63 as a float
    out.emplace_back(18446744073709551616.0);  // 2^64 as a float
    out.emplace_back(0.1);
    out.emplace_back(2.5);
    return out;
  }();
  return edges;
}

const std::vector<Json>& EdgeNeighbours() {
  static const std::vector<Json> neighbours = [] {
    std::vector<Json> out;
    out.emplace_back(std::numeric_limits<std::int64_t>::max() - 1);
    out.emplace_back(std::numeric_limits<std::int64_t>::min() + 1);
    out.emplace_back(std::numeric_limits<std::uint64_t>::max() - 1);
    out.emplace_back(std::uint64_t{1} << 63);                      // 2^63 as an integer
    out.emplace_back(std::nextafter(9223372036854775808.0, 0.0));   // the double below 2^63
    out.emplace_back(std::nextafter(18446744073709551616.0, 0.0));  // the double below 2^64
    out.emplace_back(-9223372036854775808.0);                       // -2^63 as a float
    out.emplace_back(std::nextafter(-9223372036854775808.0, 0.0));
    out.emplace_back(std::nextafter(1e308, 0.0));
    out.emplace_back(1e-323);  // the subnormal above 5e-324
    out.emplace_back(std::nextafter(1.0, 2.0));
    out.emplace_back(std::nextafter(-3.0, 0.0));
    return out;
  }();
  return neighbours;
}

rc::Gen<Json> genNumber() {
  return rc::gen::oneOf(
      rc::gen::elementOf(NumericEdges()),
      rc::gen::elementOf(EdgeNeighbours()),
      rc::gen::map(rc::gen::inRange<std::int64_t>(-1000, 1000), [](std::int64_t n) { return Json(n); }),
      // An integral float near an edge, and the integer next to it.
      rc::gen::map(rc::gen::inRange<int>(-4, 5), [](int d) { return Json(9007199254740992.0 + d); }),
      rc::gen::map(rc::gen::inRange<int>(-4, 5),
                   [](int d) { return Json((std::int64_t{1} << 53) + d); }),
      rc::gen::map(rc::gen::inRange<int>(-50, 50), [](int n) { return Json(n + 0.0); }));
}

rc::Gen<Json> genNumericKeyMap() {
  // The whole range at any size: RapidCheck scales inRange by the size it draws at.
  return rc::gen::mapcat(rc::gen::resize(rc::kNominalSize, rc::gen::inRange<int>(0, 13)), [](int n) {
    return rc::gen::map(
        rc::gen::tuple(rc::gen::container<std::vector<std::int64_t>>(
                           static_cast<std::size_t>(n), rc::gen::inRange<std::int64_t>(-9, 10)),
                       rc::gen::inRange<int>(0, 4)),
        [n](const std::tuple<std::vector<std::int64_t>, int>& drawn) {
          const auto& [values, shape] = drawn;
          Json map = Json::object();
          for (int i = 0; i < n; ++i) {
            // 0: "0".."n-1" in order; 1: in reverse order; 2: every other index (sparse);
            // 3: with "01" and "-1" beside the indices.
            const int k = shape == 1 ? n - 1 - i : shape == 2 ? 2 * i : i;
            map[std::to_string(k)] = values[static_cast<std::size_t>(i)];
          }
          if (shape == 3 && n > 0) {
            map["01"] = values[0];
            map["-1"] = values[0];
          }
          return map;
        });
  });
}

namespace {

rc::Gen<Json> genScalar() {
  return rc::gen::oneOf(
      genNumber(),
      rc::gen::map(rc::gen::elementOf(std::vector<std::string>{"", "a", "Zürich", "line\nbreak",
                                                                "tab\t", "\"quoted\"", "1.0"}),
                   [](const std::string& s) { return Json(s); }),
      rc::gen::map(rc::gen::arbitrary<bool>(), [](bool b) { return Json(b); }),
      rc::gen::just(Json(nullptr)));
}

}  // namespace

rc::Gen<Json> genList(int depth) {
  const auto as_list = [](const std::vector<Json>& items) {
    Json list = Json::array();
    for (const auto& item : items) list.push_back(item);
    return list;
  };
  const auto item = rc::gen::lazy([depth] { return genJsonValue(depth - 1); });
  return rc::gen::oneOf(
      // Short lists of any values, empty ones included.
      rc::gen::map(rc::gen::resize(4, rc::gen::container<std::vector<Json>>(item)), as_list),
      // Lists of 11 to 14 scalars: their indices as keys ("10" before "2") order otherwise.
      rc::gen::mapcat(Between<std::size_t>(11, 15), [as_list](std::size_t n) {
        return rc::gen::map(rc::gen::container<std::vector<Json>>(n, genScalar()), as_list);
      }));
}

rc::Gen<Json> genJsonValue(int depth) {
  if (depth <= 0) return genScalar();
  return rc::gen::oneOf(genScalar(), genScalar(), genNumericKeyMap(), genObject(depth - 1),
                        genList(depth));
}

rc::Gen<Json> genObject(int depth) {
  const int below = depth < 0 ? 0 : (depth > 5 ? 5 : depth);
  return rc::gen::map(
      rc::gen::resize(4, rc::gen::container<std::vector<std::pair<std::string, Json>>>(
                             rc::gen::pair(rc::gen::elementOf(std::vector<std::string>{
                                               "a", "b", "city", "n", "0", "x_y", "Key"}),
                                           rc::gen::lazy([below] { return genJsonValue(below); })))),
      [](const std::vector<std::pair<std::string, Json>>& members) {
        Json object = Json::object();
        for (const auto& [key, value] : members) object[key] = value;
        return object;
      });
}

}  // namespace gemini_oracle::generators
