#include "reference_impl/correlation.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "reference_impl/call_pieces.h"
#include "reference_impl/fault.h"
#include "reference_impl/json_equality.h"
#include "reference_impl/provider_error.h"

namespace gemini_oracle::ref {
namespace {

// A native functionCall part of a carried capsule.
struct NativeCall {
  std::size_t part = 0;
  std::string name;
  Json args = Json::object();
  std::optional<std::string> id;
};

[[noreturn]] void Refuse(const char* code, std::size_t turn, std::optional<std::size_t> part = {},
                         const char* field = "", std::optional<std::size_t> native_part = {}) {
  Position where;
  where.turn = turn;
  where.part = part;
  where.field = field;
  where.native_part = native_part;
  throw ProviderError(code, std::move(where));
}

// A refusal about native part `p` of the turn's capsule.
[[noreturn]] void RefuseNative(const char* code, std::size_t turn, std::size_t p,
                               const char* field) {
  Refuse(code, turn, p, field, p);
}

// ADR-226.8 signature match between a generic call and a native part.
bool SameCall(const ToolCall& call, const NativeCall& native) {
  return call.name == native.name && ArgumentsEqual(call.arguments, native.args);
}

// The parse codes of a call's pieces as they apply to a carried capsule: its shape and its
// grammar (an id only on a later piece included) are capsule.malformed, a piece's other id
// replay.native_id_malformed (ADR-226.6).
[[noreturn]] void RefuseCarried(const ProviderError& e, std::size_t turn) {
  Position where = e.position();
  where.turn = turn;
  where.native_part = where.part;
  throw ProviderError(
      e.code() == "native_id.malformed" ? "replay.native_id_malformed" : "capsule.malformed",
      std::move(where));
}

// Reads the capsule's function calls, each sent whole or in pieces (INTERPRETING §5.6): one
// native call per call, at the part that opens it; ADR-226.6 refuses malformed or duplicate
// carried IDs.
std::vector<NativeCall> ReadNativeCalls(const Json& parts, std::size_t turn) {
  std::vector<AssembledCall> assembled;
  try {
    assembled = ReadFunctionCalls(parts, /*carried=*/true);
  } catch (const ProviderError& e) {
    RefuseCarried(e, turn);
  }
  std::vector<NativeCall> calls;
  std::set<std::string> seen;
  const std::vector<bool> answered = CallsAnsweredInContent(parts);
  for (AssembledCall& call : assembled) {
    const std::size_t p = call.first();
    NativeCall native;
    native.part = p;
    native.name = std::move(call.name);
    native.args = std::move(call.args);
    if (call.id) {
      const Json& id = *call.id;
      if (!id.is_string() || (id.get_ref<const std::string&>().empty() &&
                              !GEMINI_FAULT("correlation.replay_empty_native_id_accepted"))) {
        RefuseNative("replay.native_id_malformed", turn, p, "id");
      }
      if (!seen.insert(id.get<std::string>()).second &&
          !GEMINI_FAULT("correlation.replay_duplicate_native_id_accepted")) {
        RefuseNative("replay.native_id_duplicate", turn, p, "id");
      }
      native.id = id.get<std::string>();
    }
    // ADR-226.B2: a call the server answered inside this content is replayed as received and
    // is no pending tool call: no generic call, no binding, nothing to answer.
    if (answered[p]) continue;
    calls.push_back(std::move(native));
  }
  return calls;
}

struct Binding {
  std::string tool_call_id;
  std::string native_id;
};

// ADR-226.15: a present field is always structurally validated.
std::vector<Binding> ReadBindings(const Json& field, std::size_t turn) {
  if (!field.is_array()) Refuse("binding.malformed", turn, {}, "tool_call_bindings");
  std::vector<Binding> bindings;
  for (std::size_t b = 0; b < field.size(); ++b) {
    const Json& entry = field[b];
    const auto valid = [&](const char* key) {
      const auto it = entry.find(key);
      return it != entry.end() && it->is_string() && !it->get_ref<const std::string&>().empty();
    };
    if (!entry.is_object() || entry.size() != 2 || !valid("tool_call_id") || !valid("native_id")) {
      Refuse("binding.malformed", turn, b, "tool_call_bindings");
    }
    bindings.push_back(
        {entry["tool_call_id"].get<std::string>(), entry["native_id"].get<std::string>()});
  }
  return bindings;
}

// ID-less turns carry no ID to echo, but a turn that lists generic calls must list the same
// calls as its native parts: each answer needs its call, and Gemini wants one answer per call
// (ADR-226.13 keeps *unambiguous* older turns). Identical ID-less calls are interchangeable,
// so taking them in order infers no ID. Native-only turns have no generic calls (226.14).
void LinkIdLess(const Message& message, std::size_t turn, const std::vector<NativeCall>& natives,
                TurnCorrelation& out) {
  if (message.tool_calls.empty() &&
      !GEMINI_FAULT("correlation.idless_native_only_turn_needs_calls")) {
    return;
  }
  std::vector<bool> used(natives.size(), false);
  for (std::size_t c = 0; c < message.tool_calls.size(); ++c) {
    const ToolCall& call = message.tool_calls[c];
    bool linked = false;
    for (std::size_t n = 0; n < natives.size() && !linked; ++n) {
      if (!used[n] && SameCall(call, natives[n])) {
        used[n] = true;
        linked = true;
        out.links[call.id] = CallLink{natives[n].part, natives[n].id};
      }
    }
    if (!linked) Refuse("replay.calls_mismatch", turn, c, "tool_calls");
    if (GEMINI_FAULT("correlation.identical_idless_calls_refused") &&
        std::any_of(natives.begin(), natives.end(), [&](const NativeCall& other) {
          return !used[&other - natives.data()] && SameCall(call, other);
        })) {
      Refuse("legacy.ambiguous", turn, c, "tool_calls");  // another native call fits too
    }
  }
  for (const auto& native : natives) {
    if (!used[&native - natives.data()]) {
      RefuseNative("replay.calls_mismatch", turn, native.part, "native_parts");
    }
  }
}

// ADR-226.7: validated captured bindings. The checks run in passes over the whole turn, so
// the code reported for state with several defects does not depend on binding order
// (fixtures/INTERPRETING.md, "Several defects in one case").
void LinkByBindings(const Message& message, std::size_t turn, const std::vector<Binding>& bindings,
                    const std::vector<NativeCall>& natives, TurnCorrelation& out) {
  std::unordered_map<std::string, std::size_t> call_index;
  for (std::size_t c = 0; c < message.tool_calls.size(); ++c) {
    call_index[message.tool_calls[c].id] = c;
  }
  std::unordered_map<std::string, std::size_t> native_index;
  for (std::size_t n = 0; n < natives.size(); ++n) {
    if (natives[n].id) native_index[*natives[n].id] = n;
  }
  // They belong to the owning turn ...
  for (std::size_t b = 0; b < bindings.size(); ++b) {
    if (!call_index.count(bindings[b].tool_call_id)) {
      Refuse("binding.unknown_call", turn, b, "tool_call_bindings");
    }
  }
  for (std::size_t b = 0; b < bindings.size(); ++b) {
    if (!native_index.count(bindings[b].native_id)) {
      Refuse("binding.unknown_native_id", turn, b, "tool_call_bindings");
    }
  }
  // ... are one-to-one ...
  std::set<std::string> bound_calls;
  std::set<std::string> bound_natives;
  for (std::size_t b = 0; b < bindings.size(); ++b) {
    if ((!bound_calls.insert(bindings[b].tool_call_id).second ||
         !bound_natives.insert(bindings[b].native_id).second) &&
        !GEMINI_FAULT("correlation.repeated_bindings_accepted")) {
      Refuse("binding.not_one_to_one", turn, b, "tool_call_bindings");
    }
  }
  // ... cover every native ID, and every generic call except one standing for an ID-less
  // native part ...
  for (const auto& native : natives) {
    if (native.id && !bound_natives.count(*native.id)) {
      Refuse("binding.incomplete", turn, native.part, "tool_call_bindings", native.part);
    }
  }
  std::vector<bool> used(natives.size(), false);
  for (std::size_t c = 0; c < message.tool_calls.size(); ++c) {
    const ToolCall& call = message.tool_calls[c];
    if (bound_calls.count(call.id)) continue;
    bool linked = false;
    for (std::size_t n = 0; n < natives.size() && !linked; ++n) {
      if (!natives[n].id && !used[n] && SameCall(call, natives[n])) {
        used[n] = true;
        linked = true;
        out.links[call.id] = CallLink{natives[n].part, std::nullopt};
      }
    }
    if (!linked && !GEMINI_FAULT("correlation.unbound_generic_call_allowed")) {
      Refuse("binding.incomplete", turn, c, "tool_calls");
    }
  }
  for (std::size_t n = 0; n < natives.size(); ++n) {
    if (!natives[n].id && !used[n] &&
        !GEMINI_FAULT("correlation.bound_turn_idless_native_call_uncovered")) {
      RefuseNative("replay.calls_mismatch", turn, natives[n].part, "native_parts");
    }
  }
  // ... and tie calls that match their native parts (ADR-226.8 rule).
  for (const Binding& binding : bindings) {
    const std::size_t c = call_index.at(binding.tool_call_id);
    const NativeCall& native = natives[native_index.at(binding.native_id)];
    const bool same = GEMINI_FAULT("correlation.bound_arguments_not_compared")
                          ? message.tool_calls[c].name == native.name
                          : SameCall(message.tool_calls[c], native);
    if (!same) Refuse("binding.call_mismatch", turn, c, "tool_calls", native.part);
    out.links[binding.tool_call_id] = CallLink{native.part, native.id};
    if (GEMINI_FAULT("correlation.bound_call_linked_by_position") && c < natives.size()) {
      out.links[binding.tool_call_id] = CallLink{natives[c].part, natives[c].id};
    }
  }
}

// ADR-226.11/12: older capsules recover only an unambiguous name/argument association.
void LinkLegacy(const Message& message, std::size_t turn, const std::vector<NativeCall>& natives,
                TurnCorrelation& out) {
  if (GEMINI_FAULT("correlation.legacy_linked_in_order")) {
    return LinkIdLess(message, turn, natives, out);  // first matching native call, in order
  }
  // Identical parallel signatures with populated native IDs cannot be told apart.
  for (std::size_t a = 0; a < natives.size(); ++a) {
    for (std::size_t b = a + 1; b < natives.size(); ++b) {
      if ((natives[a].id || natives[b].id) && natives[a].name == natives[b].name &&
          ArgumentsEqual(natives[a].args, natives[b].args)) {
        if (GEMINI_FAULT("correlation.legacy_ambiguity_linked_in_order")) {
          return LinkIdLess(message, turn, natives, out);  // a guess: identical calls in order
        }
        RefuseNative("legacy.ambiguous", turn, natives[b].part, "native_parts");
      }
    }
  }
  std::set<std::size_t> taken;
  for (std::size_t c = 0; c < message.tool_calls.size(); ++c) {
    const ToolCall& call = message.tool_calls[c];
    std::optional<std::size_t> match;
    for (std::size_t n = 0; n < natives.size(); ++n) {
      bool same = GEMINI_FAULT("correlation.legacy_matched_by_arguments_only")
                      ? ArgumentsEqual(call.arguments, natives[n].args)
                      : SameCall(call, natives[n]);
      if (GEMINI_FAULT("correlation.legacy_matched_with_library_equality")) {
        same = call.name == natives[n].name && call.arguments == natives[n].args;  // as doubles
      }
      if (!same || taken.count(n)) continue;
      if (match) {
        // Two untaken candidates: harmless only when neither has an ID to echo.
        if (natives[*match].id || natives[n].id) Refuse("legacy.ambiguous", turn, c, "tool_calls");
        continue;
      }
      match = n;
    }
    if (!match && GEMINI_FAULT("correlation.legacy_unmatched_call_linked_by_position") &&
        c < natives.size() && !taken.count(c)) {
      match = c;  // the native call at the same position
    }
    if (!match) {
      if (GEMINI_FAULT("errors.legacy_refusal_quotes_arguments")) {
        Refuse("legacy.unmatched", turn, c, ("tool_calls " + DumpJson(call.arguments)).c_str());
      }
      Refuse("legacy.unmatched", turn, c, "tool_calls");
    }
    taken.insert(*match);
    out.links[call.id] = CallLink{natives[*match].part, natives[*match].id};
  }
  // Coverage as with bindings: a native call with an ID must be answered, so it needs a call.
  for (std::size_t n = 0; n < natives.size(); ++n) {
    if (natives[n].id && !taken.count(n) &&
        !GEMINI_FAULT("correlation.legacy_unanswered_native_id_allowed")) {
      RefuseNative("legacy.unmatched", turn, natives[n].part, "native_parts");
    }
  }
  // An ID-less native call of a turn whose calls are answered needs its generic call too: its
  // answers travel in one user content with one functionResponse per functionCall (WIRE.1),
  // so leaving it out sends fewer responses than calls, which Gemini rejects. The turn then
  // lists generic calls that do not match its ID-less native calls one to one (ADR-226.13
  // keeps only *unambiguous* older turns; ADR-226.7 "complete coverage"). Checked after the
  // ID checks above, as where bindings exist (fixtures/INTERPRETING.md §12).
  for (std::size_t n = 0; n < natives.size(); ++n) {
    if (!natives[n].id && !taken.count(n)) {
      RefuseNative("replay.calls_mismatch", turn, natives[n].part, "native_parts");
    }
  }
}

}  // namespace

std::vector<bool> CallsAnsweredInContent(const Json& parts) {
  std::vector<bool> answered(parts.is_array() ? parts.size() : 0, false);
  if (!parts.is_array()) return answered;
  const auto call_of = [&](std::size_t p) -> const Json* {
    if (!parts[p].is_object()) return nullptr;
    const auto fc = parts[p].find("functionCall");
    return fc != parts[p].end() && fc->is_object() ? &*fc : nullptr;
  };
  const auto string_member = [](const Json& object, const char* key) -> const std::string* {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
      return nullptr;
    }
    return &it->get_ref<const std::string&>();
  };
  for (const Json& part : parts) {
    if (!part.is_object()) continue;
    const auto fr = part.find("functionResponse");
    if (fr == part.end() || !fr->is_object()) continue;
    const std::string* id = string_member(*fr, "id");
    const std::string* name = string_member(*fr, "name");
    // By ID when the response carries one; otherwise the first unanswered ID-less call of
    // that name, so several ID-less answers pair with their calls in order.
    for (std::size_t p = 0; p < parts.size(); ++p) {
      const Json* fc = call_of(p);
      if (fc == nullptr || answered[p]) continue;
      const std::string* call_id = string_member(*fc, "id");
      const std::string* call_name = string_member(*fc, "name");
      const bool match = id != nullptr ? call_id != nullptr && *call_id == *id
                                       : fc->find("id") == fc->end() && call_name != nullptr &&
                                             name != nullptr && *call_name == *name;
      if (match) {
        answered[p] = true;
        break;
      }
    }
  }
  return answered;
}

std::vector<TurnCorrelation> Correlate(const Transcript& transcript) {
  const auto& messages = transcript.messages;
  std::vector<TurnCorrelation> result(messages.size());

  std::unordered_map<std::string, std::size_t> public_id_uses;
  for (const auto& m : messages) {
    if (m.role != Role::kAssistant) continue;
    for (const auto& call : m.tool_calls) ++public_id_uses[call.id];
  }

  for (std::size_t turn = 0; turn < messages.size(); ++turn) {
    const Message& message = messages[turn];
    if (message.role != Role::kAssistant) continue;

    std::set<std::string> ids;
    for (std::size_t c = 0; c < message.tool_calls.size(); ++c) {
      const ToolCall& call = message.tool_calls[c];
      if (call.id.empty() || call.name.empty()) {
        Refuse("transcript.malformed", turn, c, "tool_calls");
      }
      if (!ids.insert(call.id).second) {
        Refuse("transcript.duplicate_tool_call_id", turn, c, "tool_calls");
      }
      // Decoded maps, or lists that degraded stored state left (repaired on the wire copy).
      if (!call.arguments.is_object() && !call.arguments.is_array() && !call.arguments.is_null()) {
        Refuse("transcript.malformed", turn, c, "arguments");
      }
    }

    // ADR-226.16: only the owned Gemini capsule is read; foreign payloads are ignored.
    auto capsule = message.provider_state.find(kGeminiCapsuleKey);
    if (capsule == message.provider_state.end() &&
        GEMINI_FAULT("correlation.foreign_payload_read_as_capsule")) {
      capsule = message.provider_state.begin();  // whatever provider stored the turn
    }
    if (capsule == message.provider_state.end() &&
        GEMINI_FAULT("correlation.capsule_found_by_shape")) {
      capsule = std::find_if(message.provider_state.begin(), message.provider_state.end(),
                             [](const Json& payload) {  // any payload that looks like ours
                               return payload.is_object() && payload.contains("owner") &&
                                      payload.contains("native_parts");
                             });
    }
    if (capsule == message.provider_state.end()) continue;
    if (!capsule->is_object()) Refuse("capsule.malformed", turn, {}, "provider_state");
    const auto owner = capsule->find("owner");
    const auto parts = capsule->find("native_parts");
    if (owner == capsule->end() || !owner->is_string() || parts == capsule->end() ||
        !parts->is_array()) {
      Refuse("capsule.malformed", turn, {}, "provider_state");
    }
    // ADR-226.7: the capsule belongs to the turn that carries it.
    if (owner->get_ref<const std::string&>() != message.id &&
        !GEMINI_FAULT("correlation.capsule_owner_not_checked")) {
      Refuse("capsule.owner_mismatch", turn, {}, "owner");
    }

    TurnCorrelation& out = result[turn];
    out.owned = true;
    const std::vector<NativeCall> natives = ReadNativeCalls(*parts, turn);
    bool has_native_ids = false;
    for (const auto& n : natives) has_native_ids = has_native_ids || n.id.has_value();
    // ADR-226.13/14: ID-less and native-only turns add no generic call-list requirement.
    const bool compatible =
        !has_native_ids ||
        (message.tool_calls.empty() && !GEMINI_FAULT("correlation.native_only_turn_needs_calls"));

    const auto field = capsule->find("tool_call_bindings");
    if (field != capsule->end() &&
        !(field->is_null() && GEMINI_FAULT("correlation.null_bindings_treated_as_absent"))) {
      const std::vector<Binding> bindings = ReadBindings(*field, turn);
      if (compatible) {
        if (!bindings.empty() && !GEMINI_FAULT("correlation.bindings_on_compatible_turn_ignored")) {
          Refuse("binding.unexpected", turn, {}, "tool_call_bindings");
        }
        if (has_native_ids && bindings.empty() &&
            GEMINI_FAULT("correlation.native_only_turn_empty_bindings_refused")) {
          Refuse("binding.incomplete", turn, {}, "tool_call_bindings");  // as if bindings were lost
        }
        LinkIdLess(message, turn, natives, out);
      } else {
        LinkByBindings(message, turn, bindings, natives, out);
      }
    } else if (compatible) {
      LinkIdLess(message, turn, natives, out);
    } else {
      LinkLegacy(message, turn, natives, out);
    }

    // ADR-226.10: a public ID tied to a native ID names no other call anywhere.
    for (std::size_t c = 0; c < message.tool_calls.size(); ++c) {
      const auto link = out.links.find(message.tool_calls[c].id);
      if (link != out.links.end() && link->second.native_id &&
          public_id_uses[message.tool_calls[c].id] > 1 &&
          !GEMINI_FAULT("correlation.public_id_reuse_not_checked")) {
        Refuse("binding.public_id_reused", turn, c, "tool_calls");
      }
    }
  }
  return result;
}

}  // namespace gemini_oracle::ref
