#include "generators/conversation.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "generators/drawing.h"
#include "generators/json_values.h"
#include "oracles/model/normalize_numbers.h"

namespace gemini_oracle::generators {
namespace {

// Every function a generated conversation may call (tool_0 .. tool_3).
constexpr std::size_t kTools = 4;

// Arguments mostly shallow, some six levels deep.
Json DrawArguments() { return *genObject(DrawChance(15) ? 5 : *Between<int>(1, 4)); }

// What call `call` of a turn returns: every shape. Most results hold the call's index, so that
// a misassociated answer shows; some are empty ({} and [] must stay apart, ADR-224.2/.4).
ToolResult DrawResult(std::size_t call) {
  using Shape = ToolResult::Shape;
  ToolResult r;
  r.shape = *rc::gen::weightedElement<Shape>({{4, Shape::kObject},
                                              {2, Shape::kList},
                                              {2, Shape::kScalar},
                                              {1, Shape::kInvalidText},
                                              {1, Shape::kError}});
  const bool empty = DrawChance(15);
  switch (r.shape) {
    case Shape::kObject:
      r.value = empty ? Json::object() : *genObject(*Between<int>(1, 4));
      if (!empty) r.value["call"] = call;
      break;
    case Shape::kList:
      r.value = empty ? Json::array() : *genList(2);
      if (!empty) r.value.insert(r.value.begin(), Json(call));
      break;
    case Shape::kScalar: r.value = *genJsonValue(0); break;
    case Shape::kInvalidText:
      r.text = DrawChance(50) ? "{\"call\": " + std::to_string(call) + ", \"truncated\": "
                              : "done " + std::to_string(call);
      break;
    case Shape::kError:
      // An error message that is itself JSON text stays an error (ADR-224.5).
      r.text = DrawChance(30) ? "{\"code\": " + std::to_string(call) + "}"
                              : "tool " + std::to_string(call) + " failed";
      break;
  }
  return r;
}

std::vector<ToolResult> DrawResults(std::size_t calls) {
  std::vector<ToolResult> results;
  for (std::size_t c = 0; c < calls; ++c) results.push_back(DrawResult(c));
  return results;
}

// Applies a change to call 0's generic name or arguments; returns whether it keeps the match.
bool ApplyChange(ArgsChange change, PrefixTurn& p) {
  Json& native = p.native_args[0];
  Json& generic = p.generic_args[0];
  switch (change) {
    case ArgsChange::kNone: return true;
    case ArgsChange::kMembersReordered: {
      native["first"] = 1;  // at least two members
      Json reordered = Json::object();
      for (auto it = native.rbegin(); it != native.rend(); ++it) reordered[it.key()] = *it;
      generic = reordered;
      return true;
    }
    case ArgsChange::kIntegerAsDouble: {
      // An integer where the double nearest to it is exact, or is not.
      const Json integer = *rc::gen::element(Json((std::int64_t{1} << 53) + 1),
                                             Json(std::int64_t{1} << 53),
                                             Json(std::numeric_limits<std::int64_t>::max()),
                                             Json(std::numeric_limits<std::int64_t>::min()),
                                             Json(std::numeric_limits<std::uint64_t>::max()),
                                             Json(std::int64_t{12345}));
      native["big"] = integer;
      const double nearest = integer.is_number_unsigned()
                                 ? static_cast<double>(integer.get<std::uint64_t>())
                                 : static_cast<double>(integer.get<std::int64_t>());
      generic = native;
      generic["big"] = nearest;
      // Exact when the double converts back to the same integer: below 2^63 for a signed
      // integer (2^63 itself is out of its range), below 2^64 for an unsigned one.
      return integer.is_number_unsigned()
                 ? nearest < 18446744073709551616.0 &&
                       static_cast<std::uint64_t>(nearest) == integer.get<std::uint64_t>()
                 : nearest < 9223372036854775808.0 &&
                       static_cast<std::int64_t>(nearest) == integer.get<std::int64_t>();
    }
    case ArgsChange::kFractionTruncated:
      native["ratio"] = 2.5;
      generic = native;
      generic["ratio"] = 2;
      return false;
    case ArgsChange::kMemberAdded:
      generic = native;
      generic["added"] = true;
      return false;
    case ArgsChange::kMemberRemoved:
      native["removed"] = true;
      generic = native;
      generic.erase("removed");
      return false;
    case ArgsChange::kListReversed:
      native["items"] = Json::array({1, "two", 3.5});
      generic = native;
      generic["items"] = Json::array({3.5, "two", 1});
      return false;
    case ArgsChange::kNumberAsText:
      native["count"] = 7;
      generic = native;
      generic["count"] = "7";
      return false;
    case ArgsChange::kNameChanged:
      generic = native;
      p.generic_names[0] = p.names[0] == ToolName(0) ? ToolName(1) : ToolName(0);
      return false;
  }
  return true;
}

PrefixTurn DrawPrefix(Prefix kind) {
  PrefixTurn p;
  const bool identical = kind == Prefix::kOlderIdlessIdentical || kind == Prefix::kOlderAmbiguous;
  const std::size_t n = *Between<std::size_t>(identical ? 2 : 1, 5);
  const Json shared = *genObject(2);
  const std::size_t shared_name = *Between<std::size_t>(0, kTools);
  const bool call_style_public_ids = DrawChance(50);  // "call_1": the shape of native ids
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
      if (kind == Prefix::kForeignTurn && DrawChance(25)) {
        args = Json::array({args, *genJsonValue(1)});
      }
      p.native_args.push_back(args);
    }
    p.public_ids.push_back((call_style_public_ids ? "call_" : "tc_") + std::to_string(c + 1));
  }
  // Native ids: none on a foreign turn; all for an ambiguous capsule; none for ID-less
  // identical calls; all, none or every other one for a bound or an unambiguous older capsule.
  const bool distinct_owned = kind == Prefix::kOlderCapsule || kind == Prefix::kBoundCapsule;
  const int mode = distinct_owned ? *Between<int>(0, 3) : 0;
  for (std::size_t c = 0; c < n; ++c) {
    const bool has_id = kind == Prefix::kOlderAmbiguous ||
                        (distinct_owned && (mode == 0 || (mode == 2 && c % 2 == 0)));
    p.native_ids.push_back(has_id ? Json("call_" + std::to_string(c + 1)) : Json(nullptr));
  }
  p.generic_order = DrawPermutation(n);
  p.generic_names = p.names;
  p.generic_args = p.native_args;
  // A change to call 0 when it has a native id (an ID-less older turn needs no match,
  // ADR-226.13, and what a changed one means is open: i_idless_generic_call_renamed).
  if (distinct_owned && !p.native_ids[0].is_null() && DrawChance(50)) {
    p.change = *rc::gen::element(ArgsChange::kMembersReordered, ArgsChange::kIntegerAsDouble,
                                 ArgsChange::kFractionTruncated, ArgsChange::kMemberAdded,
                                 ArgsChange::kMemberRemoved, ArgsChange::kListReversed,
                                 ArgsChange::kNumberAsText, ArgsChange::kNameChanged);
    p.change_keeps_match = ApplyChange(p.change, p);
  }
  p.renormalized = kind != Prefix::kForeignTurn && DrawChance(30);
  if (p.renormalized) {
    for (auto& args : p.generic_args) args = model::NormalizeNumbers(args);
  }
  p.result_order = DrawPermutation(n);
  p.results = DrawResults(n);
  if (kind == Prefix::kOlderIdlessIdentical) {
    const std::vector<std::size_t> same_group(n, 0);
    ShareResultsOfIdenticalIdlessCalls(same_group, std::vector<bool>(n, false), p.results);
  }
  return p;
}

CallTurn DrawTurn(bool needs_user) {
  CallTurn t;
  t.user = needs_user || DrawChance(50);
  t.signed_text = DrawChance(20);
  t.thought = t.signed_text && DrawChance(30);
  const std::size_t n = *Between<std::size_t>(1, 5);
  const std::size_t k = std::min<std::size_t>(n, *Between<std::size_t>(1, 4));
  t.group_of = *rc::gen::container<std::vector<std::size_t>>(n, Between<std::size_t>(0, k));
  for (std::size_t g = 0; g < k; ++g) t.args_of_group.push_back(DrawArguments());
  t.ids = *rc::gen::weightedElement<TurnIds>(
      {{3, TurnIds::kPresent}, {1, TurnIds::kAbsent}, {1, TurnIds::kMixed}});
  if (DrawChance(25)) {
    t.event_sizes = DrawEventSizes(n + (t.signed_text ? 1 : 0));
    t.cut_permille = DrawCutPermille();
  }
  t.normalize = DrawChance(30);
  if (n > 1 && DrawChance(40)) t.call_order = DrawPermutation(n);
  t.suspend = DrawChance(20);
  t.answer_order = DrawPermutation(n);
  t.results = DrawResults(n);
  std::vector<bool> has_id;
  for (std::size_t c = 0; c < n; ++c) has_id.push_back(!t.NativeId(c).is_null());
  ShareResultsOfIdenticalIdlessCalls(t.group_of, has_id, t.results);
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
    case ArgsChange::kMemberRemoved: return "a member removed";
    case ArgsChange::kListReversed: return "a list reversed";
    case ArgsChange::kNumberAsText: return "a number held as text";
    case ArgsChange::kNameChanged: return "the function renamed";
  }
  return "none";
}

// Owned but without bindings: the older state ADR-226.11 to .13 speak of.
bool Older(Prefix prefix) {
  return prefix == Prefix::kOlderCapsule || prefix == Prefix::kOlderIdlessIdentical ||
         prefix == Prefix::kOlderAmbiguous;
}

bool Owned(Prefix prefix) { return prefix == Prefix::kBoundCapsule || Older(prefix); }

bool PrefixHasIds(const PrefixTurn& p) {
  return std::any_of(p.native_ids.begin(), p.native_ids.end(),
                     [](const Json& id) { return !id.is_null(); });
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
      case IdFault::kNotString: ids.back() = s.bad_id; break;
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
  if (turn.signed_text) {
    Json text = Json{{"text", "Calling the tools now."}};
    if (turn.thought) text["thought"] = true;
    parts.push_back(text);
  }
  for (std::size_t c = 0; c < turn.group_of.size(); ++c) {
    const std::size_t g = turn.group_of[c];
    parts.push_back(CallPart(ToolName(g), turn.args_of_group[g], ids[c]));
  }
  parts[0]["thoughtSignature"] = SignatureOf(signature_turn);
  return parts;
}

Json Answer(const Json& parts, const std::vector<std::size_t>& event_sizes,
            const std::vector<std::size_t>& cut_permille) {
  return event_sizes.empty() ? WholeAnswer(parts)
                             : StreamedAnswer(parts, event_sizes, cut_permille);
}

Json PrefixTranscript(const ConversationScenario& s) {
  const PrefixTurn& p = s.prefix_turn;
  Json transcript = Json::array({Json{{"role", "user"}, {"content", "Use the tools."}}});
  Json assistant = Json{{"role", "assistant"}, {"id", "turn_0"}, {"content", ""}};
  Json calls = Json::array();
  for (const std::size_t c : p.generic_order) {
    calls.push_back(Json{{"id", p.public_ids[c]},
                         {"name", p.generic_names[c]},
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
                              {"name", p.generic_names[c]},
                              {"content", p.results[c].Content()},
                              {"is_error", p.results[c].IsError()}});
  }
  return transcript;
}

// A streamed answer followed by another exchange: continuing after it is ADR-226.B1 (beyond).
bool ContinuesAfterStream(const ConversationScenario& s) {
  if (s.fault != IdFault::kNone) return false;  // a faulty scenario streams nothing
  return std::any_of(s.turns.begin(), s.turns.end(),
                     [](const CallTurn& t) { return t.Streamed(); });
}

// The rationale of a carried call that no longer matches its part (INTERPRETING §3.1): the
// sentence that demands the refusal, by the kind of change.
std::string MismatchRationale(const ConversationScenario& s) {
  const bool bound = s.prefix == Prefix::kBoundCapsule;
  std::string quote =
      bound ? "ADR-226: \"Validate the owning turn, one-to-one IDs, complete coverage and "
              "matching decoded call names/arguments before consuming the association.\""
            : "ADR-226: \"Older capsules without bindings may recover only an unambiguous "
              "name/decoded argument association. Never infer by position\"";
  if (IsNumericChange(s.prefix_turn.change)) {
    quote += " and \"Treat integer/float pairs as the same numeric value only when their "
             "conversion is exact and reversible; preserve strict separation from strings, "
             "booleans and other scalar kinds. ... Apply that comparison recursively to decoded "
             "arguments for captured and legacy associations.\"";
  }
  return quote + " The carried turn's first call (it has a native id) no longer matches its "
                 "part: " + ChangeName(s.prefix_turn.change) + ".";
}

}  // namespace

bool IsNumericChange(ArgsChange change) {
  return change == ArgsChange::kIntegerAsDouble || change == ArgsChange::kFractionTruncated ||
         change == ArgsChange::kNumberAsText;
}

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

Json TurnAnswer(const CallTurn& turn, std::size_t signature_turn) {
  return Answer(AnswerParts(turn, signature_turn), turn.event_sizes, turn.cut_permille);
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
    const bool refused_at_once =
        s.prefix == Prefix::kOlderAmbiguous || !s.prefix_turn.change_keeps_match;
    const std::size_t turns =
        refused_at_once ? 0 : *Between<std::size_t>(s.prefix == Prefix::kNone ? 1 : 0, 4);
    for (std::size_t t = 0; t < turns; ++t) {
      s.turns.push_back(DrawTurn(t == 0 && s.prefix == Prefix::kNone));
    }
    if (!s.turns.empty() && DrawChance(20)) {
      s.fault = *rc::gen::element(IdFault::kEmpty, IdFault::kNotString, IdFault::kDuplicate);
      CallTurn& last = s.turns.back();
      if (s.fault == IdFault::kDuplicate && last.group_of.size() < 2) s.fault = IdFault::kEmpty;
      if (s.fault == IdFault::kNotString) {
        s.bad_id = *rc::gen::element(Json(7), Json(true), Json{{"v", 1}},
                                     Json::array({"call_1"}), Json(1.5));
      }
      // A faulty answer is refused as it is parsed: sent whole (a streamed one is
      // ADR-226.B3's), and the conversation ends there; earlier streamed answers would make
      // reaching it beyond the ADRs (ADR-226.B1), so none is streamed.
      for (auto& turn : s.turns) {
        turn.event_sizes.clear();
        turn.cut_permille.clear();
      }
      last.suspend = false;  // its actions never run
    }
    // The final exchange: none after a fault; never served after a refusal before contact.
    const bool final_served = s.fault == IdFault::kNone && !refused_at_once;
    s.closing = final_served && !s.turns.empty() && DrawChance(30);
    s.final_user = DrawChance(30);
    if (final_served && DrawChance(20)) {
      s.final_event_sizes = DrawEventSizes(1);
      s.final_cut_permille = DrawCutPermille();
    }
    return s;
  });
}

std::string ExpectedErrorCode(const ConversationScenario& s) {
  if (s.prefix == Prefix::kOlderAmbiguous) return "legacy.ambiguous";
  if (!s.prefix_turn.change_keeps_match) {
    return s.prefix == Prefix::kBoundCapsule ? "binding.call_mismatch" : "legacy.unmatched";
  }
  switch (s.fault) {
    case IdFault::kNone: return "";
    case IdFault::kEmpty:
    case IdFault::kNotString: return "native_id.malformed";
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
  const PrefixTurn& p = s.prefix_turn;
  Json c = Json::object();

  // What the scenario holds, for its description, features and clauses.
  bool parallel = p.names.size() > 1, identical_groups = false, normalize = false;
  bool suspend = false, list_result = false, wrapped_result = false;
  std::size_t streamed_turns = 0;
  std::size_t turns_with_ids = Owned(s.prefix) && PrefixHasIds(p) ? 1 : 0;
  const auto note_results = [&](const std::vector<ToolResult>& results) {
    for (const auto& r : results) {
      list_result |= r.shape == ToolResult::Shape::kList;
      wrapped_result |= r.shape == ToolResult::Shape::kScalar ||
                        r.shape == ToolResult::Shape::kInvalidText ||
                        r.shape == ToolResult::Shape::kError;
    }
  };
  if (error.empty()) note_results(p.results);
  for (std::size_t t = 0; t < s.turns.size(); ++t) {
    const CallTurn& turn = s.turns[t];
    const bool acted = error.empty() || t + 1 < s.turns.size();  // its `then` runs
    const std::size_t n = turn.group_of.size();
    parallel |= n > 1;
    for (std::size_t a = 0; a < n; ++a) {
      for (std::size_t b = a + 1; b < n; ++b) {
        identical_groups |= acted && turn.group_of[a] == turn.group_of[b];
      }
    }
    normalize |= acted && turn.normalize;
    suspend |= acted && turn.suspend;
    streamed_turns += turn.Streamed() ? 1 : 0;
    turns_with_ids += turn.ids != TurnIds::kAbsent ? 1 : 0;
    if (acted) note_results(turn.results);
  }
  const bool final_streamed = !s.final_event_sizes.empty();
  std::string description = "Generated: " + std::string(PrefixName(s.prefix)) + ", " +
                            std::to_string(s.turns.size()) + " call turns";
  if (streamed_turns > 0) description += ", " + std::to_string(streamed_turns) + " streamed";
  if (s.fault != IdFault::kNone) description += ", last answer's ids faulty";
  if (!p.change_keeps_match) description += ", a carried call changed";
  if (error.empty() && s.closing) description += ", closing request";
  c["description"] = description + ".";

  // Clauses, the most specific first: outcome findings are reported under the first one.
  if (error == "binding.call_mismatch" || error == "legacy.unmatched") {
    // The association rule first; the argument rule (ADR-226.8) beside it when the change is to
    // the arguments, first when it is to their numbers.
    const char* association = error == "binding.call_mismatch" ? "ADR-226.7" : "ADR-226.11";
    if (p.change == ArgsChange::kNameChanged) {
      c["clauses"] = Json::array({association});
    } else if (IsNumericChange(p.change)) {
      c["clauses"] = Json::array({"ADR-226.8", association});
    } else {
      c["clauses"] = Json::array({association, "ADR-226.8"});
    }
    c["rationale"] = MismatchRationale(s);
  } else if (error == "legacy.ambiguous") {
    c["clauses"] = Json::array({"ADR-226.12", "ADR-226.11"});
    c["rationale"] =
        "ADR-226: \"Older capsules without bindings may recover only an unambiguous name/decoded "
        "argument association. Never infer by position; identical parallel signatures with "
        "populated native IDs must fail before contact.\" The carried turn's calls are identical "
        "and carry native IDs.";
  } else if (!error.empty()) {
    c["clauses"] = Json::array({"ADR-226.5"});
    c["rationale"] = NativeIdRationale(
        error, error == "native_id.duplicate"
                   ? "Two calls of the last generated answer share one native id."
                   : "A call of the last generated answer carries an id that is empty or not a "
                     "string.");
  } else if (ContinuesAfterStream(s)) {
    // Continuing after a streamed answer is promised by ADR-226.B1 only.
    c["clauses"] = Json::array({"ADR-226.B1"});
  } else {
    Json clauses = Json::array();
    const auto cite = [&clauses](const char* clause) {
      if (std::find(clauses.begin(), clauses.end(), Json(clause)) == clauses.end()) {
        clauses.push_back(clause);
      }
    };
    if (s.prefix == Prefix::kOlderCapsule) cite("ADR-226.11");
    if (Older(s.prefix)) cite("ADR-226.13");
    if (s.prefix == Prefix::kBoundCapsule) {
      cite(PrefixHasIds(p) ? "ADR-226.7" : "ADR-226.15");  // an ID-less turn's bindings: []
      if (PrefixHasIds(p)) cite("ADR-226.2");
    }
    if (s.prefix == Prefix::kForeignTurn) {
      cite("ADR-224.10");
      cite("ADR-226.16");
    }
    if (identical_groups) cite("ADR-226.20");
    if (normalize || p.renormalized || p.change != ArgsChange::kNone) cite("ADR-226.8");
    if (turns_with_ids > 1) cite("ADR-226.9");
    if (s.closing) cite("ADR-226.17");
    if (final_streamed) {
      cite("ADR-226.17");  // the same association on streaming requests
      cite("ADR-224.7");
    }
    if (suspend) cite("ADR-226.18");
    if (list_result) cite("ADR-224.4");
    if (wrapped_result) cite("ADR-224.5");
    if (turns_with_ids > 0) cite("ADR-226.3");
    cite("ADR-226.4");
    cite("ADR-226.1");
    cite("ADR-224.1");
    cite("ADR-224.2");
    cite("ADR-224.8");
    c["clauses"] = clauses;
  }

  Json features = Json::array({"ids", "numbers", "results", "replay", "signatures"});
  if (parallel) features.push_back("parallel");
  if (error.empty() && s.closing) features.push_back("closing");
  if (Older(s.prefix)) features.push_back("legacy");
  if (s.prefix == Prefix::kForeignTurn) features.push_back("foreign");
  if (suspend) features.push_back("persistence");
  if (streamed_turns > 0 || final_streamed) features.push_back("streaming");
  if (error.empty() && ContinuesAfterStream(s)) features.push_back("stream-capture");
  c["features"] = features;
  c["source"] = "generator conversation " + std::to_string(kConversationVersion) + ", seed " +
                std::to_string(seed) + ", index " + std::to_string(index);
  c["options"] = ToolOptions(kTools);
  if (s.prefix != Prefix::kNone) c["transcript"] = PrefixTranscript(s);

  Json exchanges = Json::array();
  for (std::size_t t = 0; t < s.turns.size(); ++t) {
    const CallTurn& turn = s.turns[t];
    Json exchange = Json::object();
    if (turn.user) exchange["user"] = "Turn " + std::to_string(t + 1) + ": use the tools.";
    exchange["response"] =
        Answer(PartsWithIds(turn, t + 1, AnswerIds(s, t)), turn.event_sizes, turn.cut_permille);
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
    final_exchange["response"] = Answer(Json::array({Json{{"text", "All done."}}}),
                                        s.final_event_sizes, s.final_cut_permille);
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
