// ADR-224.6, 224.7, 224.8 (open: 224.F1 for nested object/list kinds), 224.10, 226.4, 226.16: in
// request m the model contents are, in order, the initial transcript's assistant turns and then the
// scripted responses 1..m-1. Owned turns replay their native parts; foreign and generic turns are
// rebuilt from their generic calls and carry no native IDs.
#include <algorithm>

#include "oracles/checks/judge.h"
#include "oracles/checks/judge_json.h"
#include "oracles/checks/wire_view.h"
#include "oracles/model/call_pieces.h"
#include "oracles/model/server_answered.h"

namespace gemini_oracle::checks {
namespace {

struct ExpectedTurn {
  const Json* native_parts = nullptr;  // owned: the parts to replay; nullptr: foreign/generic
  Json scripted;                       // storage for a scripted response's parts
};

struct Context {
  std::size_t request = 0;
  std::string label;  // "model turn t"
  std::vector<Finding>* findings = nullptr;

  void Add(std::string clause, std::string pointer, std::string message, Json expected = nullptr,
           Json actual = nullptr) const {
    findings->push_back(MakeFinding(std::move(clause), kWireViolation, request, std::move(pointer),
                                    label + ": " + message, std::move(expected),
                                    std::move(actual)));
  }

  // A not-judged note, once per case for the same turn and reason.
  void Note(std::string clause, const std::string& reason) const {
    Finding note = NotJudged(std::move(clause), label + ": " + reason);
    for (const auto& f : *findings) {
      if (f.clause == note.clause && f.message == note.message) return;
    }
    findings->push_back(std::move(note));
  }
};

// A replayed value against its native value, by the one F1/kind rule of every judge:
// - a changed member (224.8), and a numeric kind only (1.0 replayed as 1) is 224.8 too in
//   native parts: ADR-226 "freshly captured native parts retain floats", and ADR-224 "Preserve
//   native order, signatures and every other member";
// - a nested list cast into an object: 224.6 ("actual nested lists must remain lists");
// - a nested object turned into a list ({} -> []): the open ADR-224.F1 ("The inherited
//   associative decoder also loses arbitrary nested object/list kinds ... That distinct audit
//   finding remains open").
void CompareValue(const Context& ctx, const Json& native, const Json& replayed,
                  const std::string& pointer, const std::string& what) {
  const auto worst = detail::WorstDrift(detail::Drifts(native, replayed, pointer));
  if (!worst) return;
  switch (worst->drift) {
    case detail::Drift::kOther:
      ctx.Add("ADR-224.8", worst->pointer, what + " differs from the native part", native,
              replayed);
      break;
    case detail::Drift::kListBecameObject:
      ctx.Add("ADR-224.6", worst->pointer, "a list nested in " + what + " became an object", native,
              replayed);
      break;
    case detail::Drift::kNumericKind:
      ctx.Add("ADR-224.8", worst->pointer,
              "a number in " + what + " changed its integer/float kind", native, replayed);
      break;
    case detail::Drift::kObjectBecameList:
      ctx.Add("ADR-224.F1", worst->pointer, "an object nested in " + what + " became a list",
              native, replayed);
      break;
  }
}

// A member of a part's own message (not of a Struct value such as args, where null is a value)
// whose value is null: Google reads JSON with the protobuf mapping, where null is the field's
// default, so a replay without it sends Google the same part. Whether a null id is an absent
// or a malformed id is left open by ADR-226 (INTERPRETING §8.3, §9): not judged.
void DroppedNullMember(const Context& ctx, const std::string& member) {
  ctx.Note("ADR-224.8", "a null " + member + " member of a native part is not replayed; "
                        "Google reads a null member as unset, so the part is the same");
}

void CompareFunctionCall(const Context& ctx, const Json& native, const Json& replayed,
                         const std::string& at) {
  for (auto it = native.begin(); it != native.end(); ++it) {
    const std::string pointer = PointerAppend(at, it.key());
    const auto other = replayed.find(it.key());
    if (other == replayed.end()) {
      if (it.value().is_null()) {
        DroppedNullMember(ctx, "functionCall." + it.key());
        continue;
      }
      // ADR-224.8: every member is kept (functionCall.id included: ADR-226.3 needs it).
      ctx.Add("ADR-224.8", pointer, "the replayed functionCall drops its " + it.key() + " member",
              it.value(), "absent");
      continue;
    }
    if (it.key() == "args") {
      // ADR-224.7: the root rule applies on replay; the only allowed change is a list root
      // becoming the numeric-key object.
      if (!other->is_object()) {
        ctx.Add("ADR-224.7", pointer, "replayed functionCall.args is not an object", "object",
                *other);
        continue;
      }
      Json root = it.value();
      if (!root.is_object() && !root.is_array()) {
        // A scalar native root (a string, say) has no defined replay form: ADR-224 turns
        // object and list roots into objects only. The object root is all that is judged.
        ctx.Note("ADR-224.8",
                 "the native functionCall.args is neither an object nor a list; "
                 "its replayed object has no defined form to compare");
        continue;
      }
      if (root.is_array()) root = detail::NumericKeyObject(root);
      CompareValue(ctx, root, *other, pointer, "functionCall.args");
      continue;
    }
    CompareValue(ctx, it.value(), *other, pointer, "functionCall." + it.key());
  }
  for (auto it = replayed.begin(); it != replayed.end(); ++it) {
    if (native.contains(it.key())) continue;
    if (it.key() == "args" && it.value().is_object() && it.value().empty()) {
      // A call without args and one with `args: {}` carry the same empty Struct; Google itself
      // sends `args: {}` for calls without arguments.
      continue;
    }
    if (it.key() == "id") {
      // ADR-226.4: a native part without an id is replayed without one; no id is added, not
      // even one the server sent elsewhere (a sibling's or an earlier turn's).
      ctx.Add("ADR-226.4", PointerAppend(at, it.key()),
              "the replayed functionCall carries an id its native part did not have", "absent",
              it.value());
      continue;
    }
    ctx.Add("ADR-224.8", PointerAppend(at, it.key()),
            "the replayed functionCall adds a " + it.key() + " member", "absent", it.value());
  }
}

void CompareParts(const Context& ctx, const Json& native, const Json& replayed,
                  const std::string& at) {
  if (native.empty()) {
    // A turn without parts may be replayed as one empty text part (Gemini needs a part).
    const bool empty_text =
        replayed.size() == 1 && SameJson(replayed[0], Json::parse(R"({"text":""})"));
    if (!replayed.empty() && !empty_text) {
      ctx.Add("ADR-224.8", at, "a turn without native parts replays parts", 0, replayed.size());
    }
    return;
  }
  if (native.size() != replayed.size()) {
    // ADR-224.8: native parts keep their number and order (no merging, no splitting).
    ctx.Add("ADR-224.8", at,
            "replays " + std::to_string(replayed.size()) + " parts for " +
                std::to_string(native.size()) + " native parts",
            native.size(), replayed.size());
    return;
  }
  for (std::size_t p = 0; p < native.size(); ++p) {
    const Json& np = native[p];
    const Json& rp = replayed[p];
    const std::string pointer = PointerAppend(at, p);
    if (!np.is_object()) continue;  // malformed stored state: a refusal case, not a replay
    if (!rp.is_object()) {
      ctx.Add("ADR-224.8", pointer, "a replayed part is not an object", "object", rp);
      continue;
    }
    for (auto it = np.begin(); it != np.end(); ++it) {
      const std::string member = PointerAppend(pointer, it.key());
      const auto other = rp.find(it.key());
      if (other == rp.end() && it.value().is_null()) {
        DroppedNullMember(ctx, it.key());
      } else if (other == rp.end()) {
        // ADR-224.8: signatures and every other member stay on their part.
        ctx.Add("ADR-224.8", member, "a replayed part drops its " + it.key() + " member",
                it.value(), "absent");
      } else if (it.key() == "functionCall" && it.value().is_object() && other->is_object()) {
        CompareFunctionCall(ctx, it.value(), *other, member);
      } else {
        CompareValue(ctx, it.value(), *other, member, it.key());
      }
    }
    for (auto it = rp.begin(); it != rp.end(); ++it) {
      if (np.contains(it.key())) continue;
      // ADR-224.8: a signature stays on the part it arrived on, never copied to a sibling.
      ctx.Add("ADR-224.8", PointerAppend(pointer, it.key()),
              it.key() == "thoughtSignature"
                  ? std::string("a thought signature appears on a part that had none")
                  : "a replayed part adds a " + it.key() + " member",
              "absent", it.value());
    }
  }
}

// ADR-224.10, 224.6, 226.16: a foreign or generic turn is rebuilt from its generic calls: one
// functionCall part per tool call, in order, with its name and its arguments (ADR-226.8
// equality; a list argument becomes the numeric-key object, nested lists stay lists), roots
// objects and no native IDs.
void CheckGeneric(const Context& ctx, const Json& message, const Json& replayed,
                  const std::string& at) {
  // The calls as wire_view.h says judges read them (INTERPRETING §5.6): a call sent in pieces
  // is one call, its name and id the pieces', its args assembled from them; the turn is read
  // once.
  const model::TurnCalls turn = model::GroupCalls(replayed);
  const auto positions = model::CallPositions(turn);
  std::vector<bool> args_object(replayed.size(), true);
  for (const model::PieceCall& call : turn.calls) {
    const std::size_t p = call.pieces.front();
    const Json& fc = call.call;
    const std::string pointer = PointerAppend(at, p) + "/functionCall";
    // An id on any of its pieces (the assembled call keeps the opening piece's).
    for (const std::size_t piece : call.pieces) {
      const Json* part_fc = detail::Member(replayed[piece], "functionCall");
      const Json* id = part_fc != nullptr ? detail::Member(*part_fc, "id") : nullptr;
      if (id == nullptr) continue;
      ctx.Add("ADR-226.16", PointerAppend(at, piece) + "/functionCall/id",
              "a foreign or generic turn's functionCall carries an id", "absent", *id);
    }
    if (const Json* args = detail::Member(fc, "args"); args != nullptr && !args->is_object()) {
      args_object[p] = false;
      ctx.Add("ADR-224.10", pointer + "/args",
              "a foreign or generic turn's functionCall.args is not an object", "object", *args);
    }
  }

  const Json* calls = detail::Member(message, "tool_calls");
  const std::size_t expected = calls != nullptr && calls->is_array() ? calls->size() : 0;
  if (positions.size() != expected) {
    // ADR-224.10: the rebuilt turn carries exactly the generic calls.
    ctx.Add("ADR-224.10", at,
            "rebuilds " + std::to_string(positions.size()) + " functionCall parts for " +
                std::to_string(expected) + " generic tool calls",
            expected, positions.size());
    return;
  }
  for (std::size_t i = 0; i < expected; ++i) {
    const Json& call = (*calls)[i];
    const std::size_t p = positions[i];
    const Json& fc = turn.calls[i].call;  // assembled from its pieces
    const std::string pointer = PointerAppend(at, p) + "/functionCall";
    const std::string what = "functionCall " + std::to_string(i) + " of a foreign or generic turn";
    const Json* name = detail::Member(call, "name");
    const Json* sent_name = detail::Member(fc, "name");
    if (name != nullptr && (sent_name == nullptr || !SameJson(*name, *sent_name))) {
      ctx.Add("ADR-224.10", pointer + "/name", what + " names another function than its call",
              *name, sent_name == nullptr ? Json("absent") : *sent_name);
      continue;  // another call's args: comparing them would only repeat the finding
    }
    if (!args_object[p]) continue;
    const Json* arguments = detail::Member(call, "arguments");
    if (arguments == nullptr || !(arguments->is_object() || arguments->is_array())) continue;
    Json root = *arguments;
    if (root.is_array()) root = detail::NumericKeyObject(root);
    const Json* args = detail::Member(fc, "args");
    const Json sent = args != nullptr ? *args : Json::object();
    const std::string args_at = pointer + "/args";
    if (detail::ArgumentsEqual(root, sent)) continue;
    if (auto where = detail::ListTurnedObject(root, sent, args_at)) {
      // ADR-224.6: a list nested inside a root stays a list.
      ctx.Add("ADR-224.6", *where, "a list nested in " + what + "'s args became an object", root,
              sent);
      continue;
    }
    // Numeric kinds are equal under ADR-226.8; a nested object turned into a list is the open
    // ADR-224.F1, as in every judge; anything else is a changed argument.
    const auto worst = detail::WorstDrift(
        detail::Without(detail::Drifts(root, sent, args_at), detail::Drift::kNumericKind));
    if (worst && worst->drift == detail::Drift::kObjectBecameList) {
      ctx.Add("ADR-224.F1", worst->pointer, "an object nested in " + what + "'s args became a list",
              root, sent);
      continue;
    }
    ctx.Add("ADR-224.10", worst ? worst->pointer : args_at,
            what + " has args that differ from its call's arguments (ADR-226.8 rule)", root, sent);
  }
}

std::string CountList(const std::vector<std::size_t>& counts) {
  std::string text;
  for (const std::size_t n : counts) text += (text.empty() ? "" : ", ") + std::to_string(n);
  return "{" + text + "}";
}

// INTERPRETING §8.5: a turn sent as several model contents is read as one; where the contents
// divide it is judged here. The contents Gemini sent are the events of a streamed answer, or the
// one content of an answer sent whole (a carried turn counts as one). Keeping them as received
// (one content per event, as Google's SDKs keep a streamed answer) or joining whole events keeps
// every part with the parts it arrived with: ADR-224 "Preserve native order, signatures and
// every other member". A content boundary inside an event, or an empty content, makes a content
// Gemini never sent: ADR-224.8, as a turn replayed in the wrong number of contents always was.
// A turn holding a pending call kept in several contents: Google's recordings show only text
// turns kept per event, and Gemini answers 400 when "function call turn comes immediately after
// a user turn or after a function response turn" is not met, which a call content after a model
// content may or may not meet: the open ADR-224.F2.
void JudgeDivision(const CaseRun& run, std::size_t request, std::size_t initial_turns,
                   const detail::SplitTurn& split, const Json& grouped_parts,
                   std::vector<Finding>& findings) {
  std::vector<std::size_t> allowed;
  if (split.turn >= initial_turns && split.turn - initial_turns < run.c.exchanges.size()) {
    allowed = detail::ScriptedEventEnds(run.c.exchanges[split.turn - initial_turns]);
  }
  std::vector<std::size_t> cuts;
  std::size_t running = 0;
  bool as_received = split.part_counts.back() > 0;
  for (std::size_t k = 0; k + 1 < split.part_counts.size(); ++k) {
    running += split.part_counts[k];
    cuts.push_back(running);
    if (split.part_counts[k] == 0 ||
        std::find(allowed.begin(), allowed.end(), running) == allowed.end()) {
      as_received = false;
    }
  }
  const std::string turn = "model turn " + std::to_string(split.turn + 1);
  const std::string pointer = "/contents/" + std::to_string(split.content);
  if (!as_received) {
    const std::string where =
        allowed.empty() ? "it arrived as one content"
                        : "its streamed events ended after parts " + CountList(allowed);
    findings.push_back(MakeFinding(
        "ADR-224.8", kWireViolation, request, pointer,
        turn + " is sent as " + std::to_string(split.part_counts.size()) +
            " model contents divided after parts " + CountList(cuts) + ", but " + where,
        Json(allowed), Json(cuts)));
    return;
  }
  const model::TurnCalls calls = model::GroupCalls(grouped_parts);  // read once (§5.6)
  const auto pending = model::PendingCallPositions(grouped_parts, calls);
  if (!pending.empty()) {
    findings.push_back(MakeFinding(
        "ADR-224.F2", kWireViolation, request, PointerAppend(pointer + "/parts", pending.front()),
        turn + " holds a pending call and is sent as " +
            std::to_string(split.part_counts.size()) +
            " model contents divided at its streamed events"));
    return;
  }
  // A call in pieces (INTERPRETING §5.6) divided between contents at its events, also one the
  // server answered itself: its pieces are one call kept in several contents, which is the
  // same open question (ADR-224.F2) as a pending call kept so.
  for (const model::PieceCall& call : calls.calls) {
    const std::size_t first = call.pieces.front();
    const std::size_t last = call.pieces.back();
    const bool divided = std::any_of(cuts.begin(), cuts.end(), [&](std::size_t cut) {
      return cut > first && cut <= last;
    });
    if (!divided) continue;
    findings.push_back(MakeFinding(
        "ADR-224.F2", kWireViolation, request, PointerAppend(pointer + "/parts", first),
        turn + " holds a call in pieces and is sent as " +
            std::to_string(split.part_counts.size()) +
            " model contents dividing its pieces at its streamed events"));
    return;
  }
}

}  // namespace

std::vector<Finding> JudgeReplay(const CaseRun& run) {
  std::vector<Finding> findings;
  std::vector<detail::DecodedRequest> storage;
  const auto& decoded = detail::DecodedJournal(run, storage);
  const auto initial = detail::InitialAssistants(run.c);
  for (std::size_t r = 0; r < decoded.size(); ++r) {
    const Json* contents = detail::Contents(decoded[r].body);
    if (contents == nullptr) continue;
    const std::size_t request = r + 1;

    std::vector<ExpectedTurn> turns;
    turns.reserve(initial.size() + r);
    for (const Json* message : initial) turns.push_back({detail::CapsuleNativeParts(*message), {}});
    for (std::size_t j = 1; j < request && j <= run.c.exchanges.size(); ++j) {
      turns.push_back({nullptr, detail::ScriptedParts(run.c.exchanges[j - 1])});
    }
    for (std::size_t t = initial.size(); t < turns.size(); ++t) {
      turns[t].native_parts = &turns[t].scripted;
    }

    for (const auto& split : decoded[r].split_turns) {
      const Json* grouped = split.content < contents->size()
                                ? detail::Member((*contents)[split.content], "parts")
                                : nullptr;
      if (grouped != nullptr) JudgeDivision(run, request, initial.size(), split, *grouped, findings);
    }
    const auto models = detail::ModelContentPositions(*contents);
    if (models.size() != turns.size()) {
      // ADR-224.8: every carried turn is replayed once, in order.
      findings.push_back(MakeFinding(
          "ADR-224.8", kWireViolation, request, "/contents",
          "request " + std::to_string(request) + " carries " + std::to_string(models.size()) +
              " model turns where the conversation has " + std::to_string(turns.size()),
          turns.size(), models.size()));
    }
    for (std::size_t t = 0; t < turns.size() && t < models.size(); ++t) {
      const std::string at = "/contents/" + std::to_string(models[t]) + "/parts";
      const Context ctx{request, "model turn " + std::to_string(t + 1), &findings};
      const Json* parts = detail::Member((*contents)[models[t]], "parts");
      if (parts == nullptr || !parts->is_array()) {
        ctx.Add("ADR-224.8", at, "a model content has no parts list");
        continue;
      }
      if (turns[t].native_parts != nullptr) {
        CompareParts(ctx, *turns[t].native_parts, *parts, at);
      } else {
        CheckGeneric(ctx, *initial[t], *parts, at);
      }
    }
  }
  return findings;
}

}  // namespace gemini_oracle::checks
