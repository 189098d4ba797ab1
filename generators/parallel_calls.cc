#include "generators/parallel_calls.h"

#include <algorithm>
#include <numeric>

#include "generators/case_writing.h"
#include "generators/json_values.h"

namespace gemini_oracle::generators {
namespace {

const char* ModeName(IdMode mode) {
  switch (mode) {
    case IdMode::kPresent: return "present";
    case IdMode::kAbsent: return "absent";
    case IdMode::kMixed: return "mixed";
    case IdMode::kDuplicated: return "duplicated";
    case IdMode::kEmpty: return "empty";
  }
  return "present";
}

// The native id of call c, or null for none.
Json NativeId(const ParallelCallsScenario& s, std::size_t c) {
  switch (s.ids) {
    case IdMode::kPresent: return Json("call_" + std::to_string(c + 1));
    case IdMode::kAbsent: return nullptr;
    case IdMode::kMixed: return c % 2 == 0 ? Json("call_" + std::to_string(c + 1)) : Json(nullptr);
    case IdMode::kDuplicated: return Json(c < 2 ? std::string("call_dup") : "call_" + std::to_string(c + 1));
    case IdMode::kEmpty: return Json(c == s.group_of.size() - 1 ? std::string() : "call_" + std::to_string(c + 1));
  }
  return nullptr;
}

}  // namespace

rc::Gen<ParallelCallsScenario> genParallelCallsScenario() {
  return rc::gen::mapcat(
      // The whole range at any size: RapidCheck scales inRange by the size it draws at.
      rc::gen::resize(rc::kNominalSize,
                      rc::gen::pair(rc::gen::inRange<int>(1, 6), rc::gen::inRange<int>(1, 4))),
      [](const auto& nk) {
        const int n = nk.first;
        const int k = std::min(nk.first, nk.second);
        return rc::gen::map(
            rc::gen::tuple(
                rc::gen::container<std::vector<int>>(static_cast<std::size_t>(n),
                                                     rc::gen::inRange<int>(0, k)),
                rc::gen::container<std::vector<Json>>(static_cast<std::size_t>(k), genObject(3)),
                rc::gen::elementOf(std::vector<IdMode>{IdMode::kPresent, IdMode::kAbsent,
                                                       IdMode::kMixed, IdMode::kDuplicated,
                                                       IdMode::kEmpty}),
                rc::gen::container<std::vector<Json>>(static_cast<std::size_t>(n), genObject(2)),
                rc::gen::container<std::vector<int>>(static_cast<std::size_t>(n),
                                                     rc::gen::arbitrary<int>())),
            [n](const auto& drawn) {
              ParallelCallsScenario s;
              s.group_of = std::get<0>(drawn);
              s.args_of_group = std::get<1>(drawn);
              s.ids = std::get<2>(drawn);
              // A duplicated id needs two calls.
              if (s.ids == IdMode::kDuplicated && n < 2) s.ids = IdMode::kPresent;
              s.results = std::get<3>(drawn);
              for (std::size_t c = 0; c < s.results.size(); ++c) s.results[c]["call"] = c;
              // Which result of identical calls without ids goes to which part is the
              // implementation's choice (i_identical_idless_calls_results_reversed), so such
              // calls return the same result.
              for (std::size_t c = 0; c < s.results.size(); ++c) {
                if (!NativeId(s, c).is_null()) continue;
                for (std::size_t first = 0; first < c; ++first) {
                  if (s.group_of[first] == s.group_of[c] && NativeId(s, first).is_null()) {
                    s.results[c] = s.results[first];
                    break;
                  }
                }
              }
              // The answer order: the calls sorted by a drawn key (a permutation).
              const auto& keys = std::get<4>(drawn);
              s.answer_order.resize(static_cast<std::size_t>(n));
              std::iota(s.answer_order.begin(), s.answer_order.end(), 0);
              std::stable_sort(s.answer_order.begin(), s.answer_order.end(),
                               [&keys](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
              return s;
            });
      });
}

std::string ExpectedErrorCode(const ParallelCallsScenario& s) {
  if (s.ids == IdMode::kDuplicated) return "native_id.duplicate";
  if (s.ids == IdMode::kEmpty) return "native_id.malformed";
  return "";
}

std::string ParallelCallsStem(const ParallelCallsScenario& s, std::uint64_t seed,
                              std::size_t index) {
  return std::string(ExpectedErrorCode(s).empty() ? "y_" : "n_") + "parallel_calls_s" +
         std::to_string(seed) + "_" + std::to_string(index);
}

Json ParallelCallsCase(const ParallelCallsScenario& s, std::uint64_t seed, std::size_t index) {
  const std::size_t n = s.group_of.size();
  const std::string error = ExpectedErrorCode(s);
  Json c = Json::object();
  c["description"] = "Generated: " + std::to_string(n) + " parallel calls in " +
                     std::to_string(s.args_of_group.size()) + " groups, native ids " +
                     ModeName(s.ids) + ", answered in a drawn order.";
  if (error.empty()) {
    c["clauses"] = Json::array({"ADR-226.20", "ADR-226.3", "ADR-226.4", "ADR-224.1"});
  } else {
    c["clauses"] = Json::array({"ADR-226.5"});
    c["rationale"] =
        error == "native_id.duplicate"
            ? "ADR-226: \"Malformed or duplicate native IDs in the tool parser or a correlated "
              "replay turn are refused with an existing typed provider exception.\" Two calls of "
              "the generated response share one native id."
            : "ADR-226: \"a present ID on an accepted named call must be a nonempty string\". "
              "The generated response's last call carries an empty id.";
  }
  c["features"] = Json::array({"parallel", "ids", "numbers", "results"});
  c["source"] = "generator parallel_calls, seed " + std::to_string(seed) + ", index " +
                std::to_string(index);
  c["options"] = ToolOptions(s.args_of_group.size());
  Json parts = Json::array();
  for (std::size_t call = 0; call < n; ++call) {
    const auto group = static_cast<std::size_t>(s.group_of[call]);
    Json fc = Json::object();
    const Json id = NativeId(s, call);
    if (!id.is_null()) fc["id"] = id;
    fc["name"] = ToolName(group);
    fc["args"] = s.args_of_group[group];
    parts.push_back(Json{{"functionCall", fc}});
  }
  Json first = Json{{"user", "Run the tools."}, {"response", WholeAnswer(parts)}};
  Json exchanges = Json::array();
  if (error.empty()) {
    Json results = Json::array();
    for (const std::size_t call : s.answer_order) {
      results.push_back(Json{{"call", call}, {"json", s.results[call]}});
    }
    first["then"] = Json{{"results", results}};
    exchanges.push_back(first);
    exchanges.push_back(Json{{"response", WholeAnswer(Json::array({Json{{"text", "Done."}}}))}});
    c["exchanges"] = exchanges;
    c["expect"] = Json{{"outcome", "accept"}, {"requests", 2}};
  } else {
    exchanges.push_back(first);
    c["exchanges"] = exchanges;
    c["expect"] = Json{{"outcome", "refuse"}, {"error", error}, {"phase", "parse"}, {"exchange", 1}};
  }
  return c;
}

}  // namespace gemini_oracle::generators
