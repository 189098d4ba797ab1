#include "generators/conversation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "generators/json_values.h"

namespace gemini_oracle::generators {
namespace {

// Every function a generated conversation may call (tool_0 .. tool_3).
constexpr std::size_t kTools = 4;

// The whole range at any size: RapidCheck scales inRange by the size it draws at.
template <typename T>
rc::Gen<T> Between(T low, T high_exclusive) {
  return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(low, high_exclusive));
}

bool Chance(int percent) { return *Between<int>(0, 100) < percent; }

// A permutation of 0..n-1: the indices sorted by drawn keys.
std::vector<std::size_t> DrawPermutation(std::size_t n) {
  const auto keys = *rc::gen::container<std::vector<int>>(n, Between<int>(0, 1000));
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&keys](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  return order;
}

// Parts per event for `parts` parts, each event holding at least one (cut points drawn).
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

// What call `call` of a turn returns: every shape, each told apart from the other calls' by
// the call index it holds (a misassociated answer shows), where the shape can hold one.
ToolResult DrawResult(std::size_t call) {
  using Shape = ToolResult::Shape;
  ToolResult r;
  r.shape = *rc::gen::weightedElement<Shape>({{4, Shape::kObject},
                                              {2, Shape::kList},
                                              {2, Shape::kScalar},
                                              {1, Shape::kInvalidText},
                                              {1, Shape::kError}});
  switch (r.shape) {
    case Shape::kObject:
      r.value = *genObject(2);
      r.value["call"] = call;
      break;
    case Shape::kList: {
      r.value = Json::array({call});
      for (const Json& item : *rc::gen::resize(4, rc::gen::container<std::vector<Json>>(
                                                     genJsonValue(2)))) {
        r.value.push_back(item);
      }
      break;
    }
    case Shape::kScalar: r.value = *genJsonValue(0); break;
    case Shape::kInvalidText:
      r.text = Chance(50) ? "{\"call\": " + std::to_string(call) + ", \"truncated\": "
                          : "done " + std::to_string(call);
      break;
    case Shape::kError: r.text = "tool " + std::to_string(call) + " failed"; break;
  }
  return r;
}

std::vector<ToolResult> DrawResults(std::size_t calls) {
  std::vector<ToolResult> results;
  for (std::size_t c = 0; c < calls; ++c) results.push_back(DrawResult(c));
  return results;
}

PrefixTurn DrawPrefix(Prefix kind) {
  PrefixTurn p;
  const bool identical = kind == Prefix::kOlderIdlessIdentical || kind == Prefix::kOlderAmbiguous;
  const std::size_t n = *Between<std::size_t>(identical ? 2 : 1, 5);
  const Json shared = *genObject(2);
  const std::size_t shared_name = *Between<std::size_t>(0, kTools);
  const bool call_style_public_ids = Chance(50);  // "call_1": the shape of native ids
  for (std::size_t c = 0; c < n; ++c) {
    if (identical) {
      p.names.push_back(ToolName(shared_name));
      p.native_args.push_back(shared);
    } else {
      p.names.push_back(ToolName(*Between<std::size_t>(0, kTools)));
      Json args = *genObject(2);
      // Calls of one name told apart by arguments (ADR-226.11: unambiguous).
      args["which"] = "call " + std::to_string(c);
      // A foreign turn's generic arguments may be a list (ADR-224.10).
      if (kind == Prefix::kForeignTurn && Chance(25)) {
        args = Json::array({args, *genJsonValue(1)});
      }
      p.native_args.push_back(args);
    }
    p.public_ids.push_back((call_style_public_ids ? "call_" : "tc_") + std::to_string(c + 1));
  }
  // Native ids: none on a foreign turn; all for an ambiguous capsule; none for ID-less
  // identical calls; any mix for an unambiguous capsule.
  const bool distinct_owned = kind == Prefix::kOlderCapsule || kind == Prefix::kBoundCapsule;
  const int mode = distinct_owned ? *Between<int>(0, 3) : 0;
  for (std::size_t c = 0; c < n; ++c) {
    const bool has_id = kind == Prefix::kOlderAmbiguous ||
                        (distinct_owned && (mode == 0 || (mode == 2 && c % 2 == 0)));
    p.native_ids.push_back(has_id ? Json("call_" + std::to_string(c + 1)) : Json(nullptr));
  }
  p.generic_order = DrawPermutation(n);
  p.renormalized = kind != Prefix::kForeignTurn && Chance(30);
  p.generic_args = p.native_args;
  // A change to one call with a native id (an ID-less older turn needs no match: ADR-226.13,
  // and what a changed one means there is open, i_idless_generic_call_renamed).
  if (distinct_owned && !p.native_ids[0].is_null() && Chance(50)) {
    p.change = *rc::gen::element(ArgsChange::kMembersReordered, ArgsChange::kIntegerAsDouble,
                                 ArgsChange::kFractionTruncated, ArgsChange::kMemberAdded,
                                 ArgsChange::kListReversed, ArgsChange::kNumberAsText);
    p.changed_call = 0;
    Json& native = p.native_args[0];
    Json& generic = p.generic_args[0];
    switch (p.change) {
      case ArgsChange::kNone: break;
      case ArgsChange::kMembersReordered: {
        native["first"] = 1;
        Json reordered = Json::object();
        for (auto it = native.rbegin(); it != native.rend(); ++it) reordered[it.key()] = *it;
        generic = reordered;
        break;
      }
      case ArgsChange::kIntegerAsDouble: {
        // An integer where the double nearest to it is exact, or is not.
        const Json integer = *rc::gen::element(
            Json((std::int64_t{1} << 53) + 1), Json(std::int64_t{1} << 53),
            Json(std::numeric_limits<std::int64_t>::max()),
            Json(std::numeric_limits<std::int64_t>::min()),
            Json(std::numeric_limits<std::uint64_t>::max()), Json(std::int64_t{12345}));
        native["big"] = integer;
        const double nearest = integer.is_number_unsigned()
                                   ? static_cast<double>(integer.get<std::uint64_t>())
                                   : static_cast<double>(integer.get<std::int64_t>());
        generic = native;
        generic["big"] = nearest;
        // Exact when the double converts back to the same integer: below 2^63 for a signed
        // integer (2^63 itself is out of its range), below 2^64 for an unsigned one.
        p.change_keeps_value =
            integer.is_number_unsigned()
                ? nearest < 18446744073709551616.0 &&
                      static_cast<std::uint64_t>(nearest) == integer.get<std::uint64_t>()
                : nearest < 9223372036854775808.0 &&
                      static_cast<std::int64_t>(nearest) == integer.get<std::int64_t>();
        break;
      }
      case ArgsChange::kFractionTruncated:
        native["ratio"] = 2.5;
        generic = native;
        generic["ratio"] = 2;
        p.change_keeps_value = false;
        break;
      case ArgsChange::kMemberAdded:
        generic = native;
        generic["added"] = true;
        p.change_keeps_value = false;
        break;
      case ArgsChange::kListReversed:
        native["items"] = Json::array({1, "two", 3.5});
        generic = native;
        generic["items"] = Json::array({3.5, "two", 1});
        p.change_keeps_value = false;
        break;
      case ArgsChange::kNumberAsText:
        native["count"] = 7;
        generic = native;
        generic["count"] = "7";
        p.change_keeps_value = false;
        break;
    }
  }
  if (p.renormalized) {
    for (auto& args : p.generic_args) args = RenormalizeNumbers(args);
  }
  p.result_order = DrawPermutation(n);
  p.results = DrawResults(n);
  // Which of identical ID-less results goes to which part is the implementation's choice
  // (i_identical_idless_calls_results_reversed): identical calls without ids return the same.
  if (kind == Prefix::kOlderIdlessIdentical) {
    for (auto& r : p.results) r = p.results[0];
  }
  return p;
}

CallTurn DrawTurn(bool needs_user) {
  CallTurn t;
  t.user = needs_user || Chance(50);
  t.signed_text = Chance(20);
  const std::size_t n = *Between<std::size_t>(1, 5);
  const std::size_t k = std::min<std::size_t>(n, *Between<std::size_t>(1, 4));
  t.group_of = *rc::gen::container<std::vector<std::size_t>>(n, Between<std::size_t>(0, k));
  t.args_of_group = *rc::gen::container<std::vector<Json>>(k, genObject(3));
  t.ids = *rc::gen::weightedElement<TurnIds>(
      {{3, TurnIds::kPresent}, {1, TurnIds::kAbsent}, {1, TurnIds::kMixed}});
  if (Chance(25)) t.event_sizes = DrawEventSizes(n + (t.signed_text ? 1 : 0));
  t.normalize = Chance(30);
  if (n > 1 && Chance(40)) t.call_order = DrawPermutation(n);
  t.suspend = Chance(20);
  t.answer_order = DrawPermutation(n);
  t.results = DrawResults(n);
  // Identical calls without ids (one group, no native id) return the same: which result goes
  // to which of them is the implementation's choice (i_identical_idless_calls_results_reversed).
  for (std::size_t c = 0; c < n; ++c) {
    if (!t.NativeId(c).is_null()) continue;
    for (std::size_t first = 0; first < c; ++first) {
      if (t.group_of[first] == t.group_of[c] && t.NativeId(first).is_null()) {
        t.results[c] = t.results[first];
        break;
      }
    }
  }
  return t;
}

const char* PrefixName(Prefix prefix) {
  switch (prefix) {
    case Prefix::kNone: return "fresh";
    case Prefix::kForeignTurn: return "foreign turn";
    case Prefix::kBoundCapsule: return "bound capsule";
    case Prefix::kOlderCapsule: return "older capsule";
    case Prefix::kOlderIdlessIdentical: return "ID-less identical older capsule";
    case Prefix::kOlderAmbiguous: return "ambiguous older capsule";
  }
  return "fresh";
}

const char* ChangeName(ArgsChange change) {
  switch (change) {
    case ArgsChange::kNone: return "none";
    case ArgsChange::kMembersReordered: return "members reordered";
    case ArgsChange::kIntegerAsDouble: return "an integer held as the nearest double";
    case ArgsChange::kFractionTruncated: return "a fraction truncated";
    case ArgsChange::kMemberAdded: return "a member added";
    case ArgsChange::kListReversed: return "a list reversed";
    case ArgsChange::kNumberAsText: return "a number held as text";
  }
  return "none";
}

// Owned but without bindings: the older state ADR-226.11 to .13 speak of.
bool Older(Prefix prefix) {
  return prefix == Prefix::kOlderCapsule || prefix == Prefix::kOlderIdlessIdentical ||
         prefix == Prefix::kOlderAmbiguous;
}

bool Owned(Prefix prefix) {
  return prefix == Prefix::kBoundCapsule || prefix == Prefix::kOlderCapsule ||
         prefix == Prefix::kOlderIdlessIdentical ||
         prefix == Prefix::kOlderAmbiguous;
}

// The native ids of the calls of turn `t` as its answer carries them, the fault included.
std::vector<Json> AnswerIds(const ConversationScenario& s, std::size_t t) {
  const CallTurn& turn = s.turns[t];
  std::vector<Json> ids;
  for (std::size_t c = 0; c < turn.group_of.size(); ++c) ids.push_back(turn.NativeId(c));
  if (t + 1 == s.turns.size()) {
    switch (s.fault) {
      case IdFault::kNone: break;
      case IdFault::kEmpty: ids.back() = ""; break;
      case IdFault::kNumber: ids.front() = 7; break;
      case IdFault::kDuplicate: ids[0] = ids[1] = "call_dup"; break;
    }
  }
  return ids;
}

Json CallPart(const std::string& name, const Json& args, const Json& id) {
  Json fc = Json::object();
  if (!id.is_null()) fc["id"] = id;
  fc["name"] = name;
  fc["args"] = args;
  return Json{{"functionCall", fc}};
}

Json PartsWithIds(const CallTurn& turn, std::size_t signature_turn, const std::vector<Json>& ids) {
  Json parts = Json::array();
  if (turn.signed_text) parts.push_back(Json{{"text", "Calling the tools now."}});
  for (std::size_t c = 0; c < turn.group_of.size(); ++c) {
    const std::size_t g = turn.group_of[c];
    parts.push_back(CallPart(ToolName(g), turn.args_of_group[g], ids[c]));
  }
  parts[0]["thoughtSignature"] = SignatureOf(signature_turn);
  return parts;
}

Json PrefixTranscript(const ConversationScenario& s) {
  const PrefixTurn& p = s.prefix_turn;
  Json transcript = Json::array({Json{{"role", "user"}, {"content", "Use the tools."}}});
  Json assistant = Json{{"role", "assistant"}, {"id", "turn_0"}, {"content", ""}};
  Json calls = Json::array();
  for (const std::size_t c : p.generic_order) {
    calls.push_back(Json{{"id", p.public_ids[c]},
                         {"name", p.names[c]},
                         {"arguments", p.generic_args[c]}});
  }
  assistant["tool_calls"] = calls;
  if (Owned(s.prefix)) {
    Json native = Json::array();
    for (std::size_t c = 0; c < p.names.size(); ++c) {
      native.push_back(CallPart(p.names[c], p.native_args[c], p.native_ids[c]));
    }
    native[0]["thoughtSignature"] = SignatureOf(0);
    Json capsule = Json{{"owner", "turn_0"}, {"native_parts", native}};
    if (s.prefix == Prefix::kBoundCapsule) {
      Json bindings = Json::array();
      for (std::size_t c = 0; c < p.names.size(); ++c) {
        if (p.native_ids[c].is_null()) continue;
        bindings.push_back(Json{{"tool_call_id", p.public_ids[c]}, {"native_id", p.native_ids[c]}});
      }
      capsule["tool_call_bindings"] = bindings;
    }
    assistant["provider_state"] = Json{{"gemini", capsule}};
  }
  transcript.push_back(assistant);
  for (const std::size_t c : p.result_order) {
    transcript.push_back(Json{{"role", "tool"},
                              {"tool_call_id", p.public_ids[c]},
                              {"name", p.names[c]},
                              {"content", p.results[c].Content()},
                              {"is_error", p.results[c].IsError()}});
  }
  return transcript;
}

bool Streamed(const CallTurn& t) { return !t.event_sizes.empty(); }

// A streamed answer followed by another exchange: continuing after it is ADR-226.B1 (beyond).
bool ContinuesAfterStream(const ConversationScenario& s) {
  for (std::size_t t = 0; t < s.turns.size(); ++t) {
    if (Streamed(s.turns[t]) && s.fault == IdFault::kNone) return true;
  }
  return false;
}

}  // namespace

Json CallTurn::NativeId(std::size_t c) const {
  switch (ids) {
    case TurnIds::kPresent: return Json("call_" + std::to_string(c + 1));
    case TurnIds::kAbsent: return nullptr;
    case TurnIds::kMixed:
      return c % 2 == 0 ? Json("call_" + std::to_string(c + 1)) : Json(nullptr);
  }
  return nullptr;
}

Json AnswerParts(const CallTurn& turn, std::size_t signature_turn) {
  std::vector<Json> ids;
  for (std::size_t c = 0; c < turn.group_of.size(); ++c) ids.push_back(turn.NativeId(c));
  return PartsWithIds(turn, signature_turn, ids);
}

Json RenormalizeNumbers(const Json& value) {
  if (value.is_number_float()) {
    const double d = value.get<double>();
    if (!std::isfinite(d) || std::trunc(d) != d) return value;
    if (d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
      return Json(static_cast<std::int64_t>(d));  // -0.0 becomes 0
    }
    if (d >= 0 && d < 18446744073709551616.0) return Json(static_cast<std::uint64_t>(d));
    return value;
  }
  if (value.is_object()) {
    Json out = Json::object();
    for (auto it = value.begin(); it != value.end(); ++it) out[it.key()] = RenormalizeNumbers(*it);
    return out;
  }
  if (value.is_array()) {
    Json out = Json::array();
    for (const auto& item : value) out.push_back(RenormalizeNumbers(item));
    return out;
  }
  return value;
}

rc::Gen<CallTurn> genCallTurn(bool needs_user) {
  return rc::gen::exec([needs_user] { return DrawTurn(needs_user); });
}

rc::Gen<ConversationScenario> genConversationScenario() {
  return rc::gen::exec([] {
    ConversationScenario s;
    s.prefix = *rc::gen::weightedElement<Prefix>({{4, Prefix::kNone},
                                                  {1, Prefix::kForeignTurn},
                                                  {2, Prefix::kBoundCapsule},
                                                  {2, Prefix::kOlderCapsule},
                                                  {1, Prefix::kOlderIdlessIdentical},
                                                  {1, Prefix::kOlderAmbiguous}});
    if (s.prefix != Prefix::kNone) s.prefix_turn = DrawPrefix(s.prefix);
    // Refused before the first request: nothing after it is reached.
    const bool refused_at_once = s.prefix == Prefix::kOlderAmbiguous ||
                                 !s.prefix_turn.change_keeps_value;
    const std::size_t turns =
        refused_at_once
            ? 0
            : *Between<std::size_t>(s.prefix == Prefix::kNone ? 1 : 0, 4);
    for (std::size_t t = 0; t < turns; ++t) {
      s.turns.push_back(DrawTurn(t == 0 && s.prefix == Prefix::kNone));
    }
    if (!s.turns.empty() && Chance(20)) {
      s.fault = *rc::gen::element(IdFault::kEmpty, IdFault::kNumber, IdFault::kDuplicate);
      CallTurn& last = s.turns.back();
      if (s.fault == IdFault::kDuplicate && last.group_of.size() < 2) s.fault = IdFault::kEmpty;
      // A faulty answer is refused as it is parsed: sent whole (a streamed one is
      // ADR-226.B3's), and the conversation ends there; earlier streamed answers would make
      // reaching it beyond the ADRs (ADR-226.B1), so none is streamed.
      for (auto& turn : s.turns) turn.event_sizes.clear();
      last.suspend = false;  // its actions never run
    }
    // The final exchange: none after a fault; never served after an ambiguous capsule.
    const bool final_served = s.fault == IdFault::kNone && !refused_at_once;
    s.closing = final_served && !s.turns.empty() && Chance(30);
    s.final_user = Chance(30);
    if (final_served && Chance(20)) s.final_event_sizes = DrawEventSizes(1);
    return s;
  });
}

std::string ExpectedErrorCode(const ConversationScenario& s) {
  if (s.prefix == Prefix::kOlderAmbiguous) return "legacy.ambiguous";
  if (!s.prefix_turn.change_keeps_value) {
    return s.prefix == Prefix::kBoundCapsule ? "binding.call_mismatch" : "legacy.unmatched";
  }
  switch (s.fault) {
    case IdFault::kNone: return "";
    case IdFault::kEmpty:
    case IdFault::kNumber: return "native_id.malformed";
    case IdFault::kDuplicate: return "native_id.duplicate";
  }
  return "";
}

std::string ConversationStem(const ConversationScenario& s, std::uint64_t seed,
                             std::size_t index) {
  return std::string(ExpectedErrorCode(s).empty() ? "y_" : "n_") + "conversation_s" +
         std::to_string(seed) + "_" + std::to_string(index);
}

Json ConversationCase(const ConversationScenario& s, std::uint64_t seed, std::size_t index) {
  const std::string error = ExpectedErrorCode(s);
  Json c = Json::object();

  // What the scenario holds, for its description, features and clauses.
  bool parallel = s.prefix_turn.names.size() > 1, identical_groups = false, normalize = false;
  bool suspend = false, streamed = !s.final_event_sizes.empty(), list_result = false;
  bool wrapped_result = false;
  std::size_t turns_with_ids = Owned(s.prefix) ? 1 : 0;
  std::size_t streamed_turns = 0;
  const auto note_results = [&](const std::vector<ToolResult>& results) {
    for (const auto& r : results) {
      list_result |= r.shape == ToolResult::Shape::kList;
      wrapped_result |= r.shape == ToolResult::Shape::kScalar ||
                        r.shape == ToolResult::Shape::kInvalidText;
    }
  };
  note_results(s.prefix_turn.results);
  for (const CallTurn& t : s.turns) {
    const std::size_t n = t.group_of.size();
    parallel |= n > 1;
    for (std::size_t a = 0; a < n; ++a) {
      for (std::size_t b = a + 1; b < n; ++b) identical_groups |= t.group_of[a] == t.group_of[b];
    }
    normalize |= t.normalize;
    suspend |= t.suspend;
    streamed |= Streamed(t);
    turns_with_ids += t.ids != TurnIds::kAbsent ? 1 : 0;
    note_results(t.results);
    streamed_turns += Streamed(t) ? 1 : 0;
  }
  // Under 100 characters (the corpus's rule): the drawn details are in the file itself.
  std::string description = "Generated: " + std::string(PrefixName(s.prefix)) + ", " +
                            std::to_string(s.turns.size()) + " call turns";
  if (streamed_turns > 0) description += ", " + std::to_string(streamed_turns) + " streamed";
  if (s.fault != IdFault::kNone) description += ", last answer's ids faulty";
  if (error.empty() && s.closing) description += ", closing request";
  c["description"] = description + ".";

  if (error == "binding.call_mismatch" || error == "legacy.unmatched") {
    c["clauses"] = error == "binding.call_mismatch" ? Json::array({"ADR-226.8", "ADR-226.7"})
                                                   : Json::array({"ADR-226.11", "ADR-226.8"});
    c["rationale"] =
        "ADR-226: \"Treat integer/float pairs as the same numeric value only when their "
        "conversion is exact and reversible; preserve strict separation from strings, booleans "
        "and other scalar kinds. ... Apply that comparison recursively to decoded arguments for "
        "captured and legacy associations.\" The carried turn's first call has generic arguments "
        "that no longer equal its native part's (" + std::string(ChangeName(s.prefix_turn.change)) +
        ").";
  } else if (error == "legacy.ambiguous") {
    c["clauses"] = Json::array({"ADR-226.12", "ADR-226.11"});
    c["rationale"] =
        "ADR-226: \"Older capsules without bindings may recover only an unambiguous name/decoded "
        "argument association. Never infer by position; identical parallel signatures with "
        "populated native IDs must fail before contact.\" The carried turn's calls are identical "
        "and carry native IDs.";
  } else if (!error.empty()) {
    c["clauses"] = Json::array({"ADR-226.5"});
    c["rationale"] =
        error == "native_id.duplicate"
            ? "ADR-226: \"Malformed or duplicate native IDs in the tool parser or a correlated "
              "replay turn are refused with an existing typed provider exception.\" Two calls of "
              "the last generated answer share one native id."
            : "ADR-226: \"a present ID on an accepted named call must be a nonempty string\". A "
              "call of the last generated answer carries an empty or numeric id.";
  } else if (ContinuesAfterStream(s)) {
    // Continuing after a streamed answer is promised by ADR-226.B1 only.
    c["clauses"] = Json::array({"ADR-226.B1"});
  } else {
    Json clauses = Json::array({"ADR-226.1", "ADR-226.3", "ADR-226.4", "ADR-224.1", "ADR-224.2",
                                "ADR-224.8"});
    if (identical_groups) clauses.push_back("ADR-226.20");
    if (normalize || s.prefix_turn.renormalized || s.prefix_turn.change != ArgsChange::kNone) {
      clauses.push_back("ADR-226.8");
    }
    if (s.prefix == Prefix::kBoundCapsule) {
      clauses.push_back("ADR-226.2");
      clauses.push_back("ADR-226.7");
    }
    if (turns_with_ids > 1) clauses.push_back("ADR-226.9");
    if (s.prefix == Prefix::kOlderCapsule) clauses.push_back("ADR-226.11");
    if (Older(s.prefix)) clauses.push_back("ADR-226.13");
    if (s.prefix == Prefix::kForeignTurn) {
      clauses.push_back("ADR-224.10");
      clauses.push_back("ADR-226.16");
    }
    if (s.closing) clauses.push_back("ADR-226.17");
    if (suspend) clauses.push_back("ADR-226.18");
    if (list_result) clauses.push_back("ADR-224.4");
    if (wrapped_result) clauses.push_back("ADR-224.5");
    c["clauses"] = clauses;
  }

  Json features = Json::array({"ids", "numbers", "results", "replay", "signatures"});
  if (parallel) features.push_back("parallel");
  if (error.empty() && s.closing) features.push_back("closing");
  if (Older(s.prefix)) features.push_back("legacy");
  if (s.prefix == Prefix::kForeignTurn) features.push_back("foreign");
  if (suspend) features.push_back("persistence");
  if (streamed) features.push_back("streaming");
  if (error.empty() && ContinuesAfterStream(s)) features.push_back("stream-capture");
  c["features"] = features;
  c["source"] =
      "generator conversation, seed " + std::to_string(seed) + ", index " + std::to_string(index);
  c["options"] = ToolOptions(kTools);
  if (s.prefix != Prefix::kNone) c["transcript"] = PrefixTranscript(s);

  Json exchanges = Json::array();
  for (std::size_t t = 0; t < s.turns.size(); ++t) {
    const CallTurn& turn = s.turns[t];
    Json exchange = Json::object();
    if (turn.user) exchange["user"] = "Turn " + std::to_string(t + 1) + ": use the tools.";
    const Json parts = PartsWithIds(turn, t + 1, AnswerIds(s, t));
    exchange["response"] = Streamed(turn) ? StreamedAnswer(parts, turn.event_sizes)
                                          : WholeAnswer(parts);
    const bool refused_here = !error.empty() && t + 1 == s.turns.size();
    if (!refused_here) {
      Json then = Json::object();
      if (turn.normalize) then["normalize_numbers"] = true;
      if (!turn.call_order.empty()) then["call_order"] = turn.call_order;
      if (turn.suspend) then["suspend"] = true;
      Json results = Json::array();
      for (const std::size_t call : turn.answer_order) {
        results.push_back(turn.results[call].CaseResult(call));
      }
      then["results"] = results;
      exchange["then"] = then;
    }
    exchanges.push_back(exchange);
  }
  if (s.fault == IdFault::kNone) {
    Json final_exchange = Json::object();
    if (s.final_user || (exchanges.empty() && s.prefix == Prefix::kNone)) {
      final_exchange["user"] = "Anything else?";
    }
    if (s.closing) final_exchange["tool_mode"] = "NONE";
    const Json parts = Json::array({Json{{"text", "All done."}}});
    final_exchange["response"] = s.final_event_sizes.empty()
                                     ? WholeAnswer(parts)
                                     : StreamedAnswer(parts, s.final_event_sizes);
    exchanges.push_back(final_exchange);
  }
  c["exchanges"] = exchanges;
  if (error.empty()) {
    c["expect"] = Json{{"outcome", "accept"}, {"requests", exchanges.size()}};
  } else if (s.turns.empty()) {  // refused before the first request
    c["expect"] = Json{{"outcome", "refuse"}, {"error", error}, {"phase", "build"},
                       {"exchange", 1}, {"message", 1}};
  } else {
    c["expect"] = Json{{"outcome", "refuse"}, {"error", error}, {"phase", "parse"},
                       {"exchange", s.turns.size()}};
  }
  return c;
}

}  // namespace gemini_oracle::generators
