// Figures only, never assertions: the judges' reader of calls in pieces (INTERPRETING §5.6,
// oracles/model/call_pieces.h) on generated turns of 20,000 partialArgs entries.
//   build/bin/call_pieces_bench [entries]
// 1. one call, one entry per piece, each a new member ($.k<i>);
// 2. one call, one string continued over every entry ($.s);
// 3. 2,000 calls of entries/2000 entries each: the per-call reads judges make (their calls at
//    each position, a selector by name, the pending calls).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "oracles/checks/wire_view.h"
#include "oracles/model/call_pieces.h"
#include "oracles/model/server_answered.h"

namespace {

using gemini_oracle::Json;
namespace model = gemini_oracle::model;
namespace detail = gemini_oracle::checks::detail;

Json Piece(Json entry, bool more) {
  Json fc = Json::object();
  fc["partialArgs"] = Json::array({std::move(entry)});
  if (more) fc["willContinue"] = true;
  return Json{{"functionCall", std::move(fc)}};
}

Json ManyMembers(std::size_t n) {
  Json parts = Json::array();
  parts.push_back(Json{{"functionCall", {{"name", "f"}, {"willContinue", true}}}});
  for (std::size_t i = 0; i < n; ++i) {
    parts.push_back(Piece(Json{{"jsonPath", "$.k" + std::to_string(i)}, {"numberValue", i}}, true));
  }
  parts.push_back(Json{{"functionCall", Json::object()}});
  return parts;
}

Json OneString(std::size_t n) {
  Json parts = Json::array();
  parts.push_back(Json{{"functionCall", {{"name", "f"}, {"willContinue", true}}}});
  for (std::size_t i = 0; i < n; ++i) {
    parts.push_back(
        Piece(Json{{"jsonPath", "$.s"}, {"stringValue", "ab"}, {"willContinue", i + 1 < n}}, true));
  }
  parts.push_back(Json{{"functionCall", Json::object()}});
  return parts;
}

Json ManyCalls(std::size_t calls, std::size_t per_call) {
  Json parts = Json::array();
  for (std::size_t c = 0; c < calls; ++c) {
    parts.push_back(
        Json{{"functionCall", {{"name", "f" + std::to_string(c)}, {"willContinue", true}}}});
    for (std::size_t i = 0; i < per_call; ++i) {
      parts.push_back(Piece(Json{{"jsonPath", "$.k" + std::to_string(i)}, {"stringValue", "v"}},
                            i + 1 < per_call));
    }
  }
  return parts;
}

template <typename F>
double Seconds(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 20000;
  std::size_t sink = 0;
  {
    const Json parts = ManyMembers(n);
    const double s =
        Seconds([&] { sink += model::GroupCalls(parts).calls[0].call["args"].size(); });
    std::printf("one call, %zu members, one per piece: GroupCalls %.3f s\n", n, s);
  }
  {
    const Json parts = OneString(n);
    const double s = Seconds([&] { sink += model::GroupCalls(parts).calls.size(); });
    std::printf("one call, one string continued over %zu entries: GroupCalls %.3f s\n", n, s);
  }
  {
    const std::size_t calls = 2000;
    const Json parts = ManyCalls(calls, n / calls);
    const double group = Seconds([&] { sink += model::GroupCalls(parts).calls.size(); });
    const double pending = Seconds([&] { sink += detail::PendingCallPositions(parts).size(); });
    const auto positions = detail::PendingCallPositions(parts);
    const double match =
        Seconds([&] { sink += detail::MatchReportedCalls(parts, positions, {}).size(); });
    const double select = Seconds([&] {
      sink += detail::ResolveSelector(model::NamedCall{"f" + std::to_string(calls - 1), {}}, parts)
                  .value_or(0);
    });
    std::printf(
        "%zu calls x %zu entries: GroupCalls %.3f s, PendingCallPositions %.3f s, "
        "MatchReportedCalls (calls at every position) %.3f s, ResolveSelector by name %.3f s\n",
        calls, n / calls, group, pending, match, select);
  }
  return sink == 0 ? 1 : 0;
}
