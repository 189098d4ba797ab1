#include "generators/parallel_calls.h"

#include <algorithm>
#include <numeric>

#include "generators/case_writing.h"
#include "generators/drawing.h"
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
    case IdMode::kNotString: return "not a string";
  }
  return "present";
}

// The native id of call c, or null for none.
Json NativeId(const ParallelCallsScenario& s, std::size_t c) {
  const bool last = c + 1 == s.group_of.size();
  const Json usual = Json("call_" + std::to_string(c + 1));
  switch (s.ids) {
    case IdMode::kPresent: return usual;
    case IdMode::kAbsent: return nullptr;
    case IdMode::kMixed: return c % 2 == 0 ? usual : Json(nullptr);
    case IdMode::kDuplicated: return c < 2 ? Json("call_dup") : usual;
    case IdMode::kEmpty: return last ? Json("") : usual;
    case IdMode::kNotString: return last ? s.not_string_id : usual;
  }
  return nullptr;
}

}  // namespace

rc::Gen<ParallelCallsScenario> genParallelCallsScenario() {
  return rc::gen::exec([] {
    ParallelCallsScenario s;
    const std::size_t n = *Between<std::size_t>(1, 6);
    const std::size_t k = std::min(n, *Between<std::size_t>(1, 4));
    s.group_of = *rc::gen::container<std::vector<int>>(n, Between<int>(0, static_cast<int>(k)));
    // Arguments mostly shallow, some six levels deep.
    for (std::size_t g = 0; g < k; ++g) {
      s.args_of_group.push_back(*genObject(DrawChance(15) ? 5 : *Between<int>(1, 4)));
    }
    s.ids = *rc::gen::element(IdMode::kPresent, IdMode::kAbsent, IdMode::kMixed,
                              IdMode::kDuplicated, IdMode::kEmpty, IdMode::kNotString);
    // A duplicated id needs two calls.
    if (s.ids == IdMode::kDuplicated && n < 2) s.ids = IdMode::kPresent;
    if (s.ids == IdMode::kNotString) {
      s.not_string_id = *rc::gen::element(Json(7), Json(true), Json{{"v", 1}},
                                          Json::array({"call_1"}), Json(1.5));
    }
    for (std::size_t c = 0; c < n; ++c) {
      Json result = *genObject(2);
      result["call"] = c;  // told apart, so that a misassociated answer shows
      s.results.push_back(result);
    }
    std::vector<std::size_t> groups(s.group_of.begin(), s.group_of.end());
    std::vector<bool> has_id;
    for (std::size_t c = 0; c < n; ++c) has_id.push_back(!NativeId(s, c).is_null());
    ShareResultsOfIdenticalIdlessCalls(groups, has_id, s.results);
    s.answer_order = DrawPermutation(n);
    return s;
  });
}

std::string ExpectedErrorCode(const ParallelCallsScenario& s) {
  switch (s.ids) {
    case IdMode::kDuplicated: return "native_id.duplicate";
    case IdMode::kEmpty:
    case IdMode::kNotString: return "native_id.malformed";
    default: return "";
  }
}

std::string ParallelCallsStem(const ParallelCallsScenario& s, std::uint64_t seed,
                              std::size_t index) {
  return std::string(ExpectedErrorCode(s).empty() ? "y_" : "n_") + "parallel_calls_s" +
         std::to_string(seed) + "_" + std::to_string(index);
}

Json ParallelCallsCase(const ParallelCallsScenario& s, std::uint64_t seed, std::size_t index) {
  const std::size_t n = s.group_of.size();
  const std::string error = ExpectedErrorCode(s);
  bool identical = false, with_id = false, idless = false;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = a + 1; b < n; ++b) identical |= s.group_of[a] == s.group_of[b];
    (NativeId(s, a).is_null() ? idless : with_id) = true;
  }
  Json c = Json::object();
  c["description"] = "Generated: " + std::to_string(n) + " parallel calls in " +
                     std::to_string(s.args_of_group.size()) + " groups, native ids " +
                     ModeName(s.ids) + ", answered in a drawn order.";
  if (error.empty()) {
    // The most specific clause first: outcome findings are reported under it.
    Json clauses = Json::array();
    if (identical) clauses.push_back("ADR-226.20");
    if (with_id) clauses.push_back("ADR-226.3");
    if (idless) clauses.push_back("ADR-226.4");
    clauses.push_back("ADR-224.1");
    clauses.push_back("ADR-224.2");
    c["clauses"] = clauses;
  } else {
    c["clauses"] = Json::array({"ADR-226.5"});
    c["rationale"] = NativeIdRationale(
        error, error == "native_id.duplicate"
                   ? "Two calls of the generated response share one native id."
                   : "The generated response's last call carries an id that is empty or not a "
                     "string.");
  }
  c["features"] = Json::array({"parallel", "ids", "numbers", "results"});
  c["source"] = "generator parallel_calls " + std::to_string(kParallelCallsVersion) + ", seed " +
                std::to_string(seed) + ", index " + std::to_string(index);
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
