#pragma once
// Multi-turn conversations (ADR-224, ADR-226): turns of parallel calls whose native ids recur
// from turn to turn, generic call lists reordered and their numbers renormalized, results of
// every shape appended in any order, suspension and resume, answers streamed in drawn events and
// cut into HTTP chunks at drawn bytes, closing requests, and carried state to start from: a
// foreign turn, a bound capsule, or an older capsule without bindings (unambiguous, ID-less
// identical, or ambiguous) whose generic arguments the application may have changed. Each
// scenario knows, from how it was built, what the conversation must do.

#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <vector>

#include "generators/case_writing.h"
#include "reference_impl/json.h"

namespace gemini_oracle::generators {

/// The family's version, named in each case's `source`: it changes whenever the same seed
/// would draw other cases, so "seed S, index i" always names one case.
inline constexpr int kConversationVersion = 2;

/// The carried turn a conversation starts from.
enum class Prefix {
  kNone,
  kForeignTurn,            // another provider's turn: generic calls only (ADR-224.10, 226.16)
  kBoundCapsule,           // owned, with tool_call_bindings for its native ids (ADR-226.2, .7)
  kOlderCapsule,           // owned, no bindings, calls told apart by arguments (ADR-226.11)
  kOlderIdlessIdentical,   // owned, no bindings, identical calls without ids (ADR-226.13)
  kOlderAmbiguous,         // owned, no bindings, identical calls with ids (ADR-226.12)
};

/// What the application did to one call's generic name or arguments after the capsule captured
/// them. Matching compares names and decoded arguments recursively, kind-strict, int/float
/// equal only when exact, member order free (ADR-226.7, .8, .11): some changes keep the match,
/// the others break it.
enum class ArgsChange {
  kNone,
  kMembersReordered,      // keeps the match
  kIntegerAsDouble,       // an integer member held as the nearest double: kept only when exact
  kFractionTruncated,     // 2.5 -> 2
  kMemberAdded,
  kMemberRemoved,
  kListReversed,
  kNumberAsText,          // 7 -> "7"
  kNameChanged,           // the generic call names another declared function
};

/// Whether a change is to the numbers' values (ADR-226.8) rather than to the structure.
bool IsNumericChange(ArgsChange change);

/// The carried turn: its calls as the generic transcript and (owned kinds) the capsule hold them.
struct PrefixTurn {
  std::vector<std::string> names;         // per native call, as the capsule holds them
  std::vector<std::string> generic_names;  // per native call, as the generic transcript does
  std::vector<Json> native_args;          // per native call, as the capsule holds them
  std::vector<Json> generic_args;         // per native call, as the generic transcript does
  std::vector<Json> native_ids;           // per native call: a string, or null for none
  std::vector<std::string> public_ids;    // per native call
  std::vector<std::size_t> generic_order;  // the generic tool_calls list, as native indices
  bool renormalized = false;  // generic arguments went through model::NormalizeNumbers
  ArgsChange change = ArgsChange::kNone;  // on call 0, which then has a native id
  bool change_keeps_match = true;         // the changed call still matches its part
  std::vector<std::size_t> result_order;  // tool messages, as native indices
  std::vector<ToolResult> results;        // per native call
};

/// How the calls of one answer carry native ids (only accepted forms; faults are separate).
enum class TurnIds { kPresent, kAbsent, kMixed };

/// One exchange answered with calls, then the application's actions.
struct CallTurn {
  bool user = true;                // a user message precedes the request
  bool signed_text = false;        // a signed text part precedes the calls
  bool thought = false;            // ... marked as a thought
  std::vector<std::size_t> group_of;  // per call: its group (same name and arguments)
  std::vector<Json> args_of_group;    // per group: an object, up to six levels deep
  TurnIds ids = TurnIds::kPresent;
  std::vector<std::size_t> event_sizes;   // streamed: parts per event; empty: sent whole
  std::vector<std::size_t> cut_permille;  // streamed: HTTP chunk cuts (StreamedAnswer)
  bool normalize = false;
  std::vector<std::size_t> call_order;  // a permutation of the calls; empty: kept
  bool suspend = false;
  std::vector<std::size_t> answer_order;  // results appended in this order (call indices)
  std::vector<ToolResult> results;        // per call

  /// The native id of call c (null when it has none), before any fault.
  Json NativeId(std::size_t c) const;
  bool Streamed() const { return !event_sizes.empty(); }
};

/// A fault in the last answer's native ids, refused when it is parsed (ADR-226.5).
enum class IdFault { kNone, kEmpty, kNotString, kDuplicate };

struct ConversationScenario {
  Prefix prefix = Prefix::kNone;
  PrefixTurn prefix_turn;
  std::vector<CallTurn> turns;
  IdFault fault = IdFault::kNone;  // on the last turn's answer; nothing follows it
  Json bad_id;                     // kNotString: the id (a number, boolean, object or list)
  bool closing = false;            // the final request disables tools
  std::vector<std::size_t> final_event_sizes;  // the final text answer streamed; empty: whole
  std::vector<std::size_t> final_cut_permille;
  bool final_user = false;         // a user message precedes the final request
};

/// One turn of calls with its actions (a user message first when `needs_user`). Identical calls
/// without native ids return the same result: which of them gets which is the implementation's
/// choice (i_identical_idless_calls_results_reversed).
rc::Gen<CallTurn> genCallTurn(bool needs_user);

rc::Gen<ConversationScenario> genConversationScenario();

/// The expected refusal code ("" when the conversation must be accepted), from the
/// construction alone, before the first request: an ambiguous older capsule as
/// legacy.ambiguous (ADR-226.12); a bound call that no longer matches its part as
/// binding.call_mismatch (ADR-226.7, .8), an older one as legacy.unmatched (ADR-226.11, .8);
/// when the answer is parsed, an empty id or one that is not a string as native_id.malformed
/// and a repeated one as native_id.duplicate (ADR-226.5).
std::string ExpectedErrorCode(const ConversationScenario& scenario);

/// The case file (fixtures/case.schema.json), its `source` naming the generator, seed and index.
Json ConversationCase(const ConversationScenario& scenario, std::uint64_t seed, std::size_t index);

/// The file stem: y_ or n_ by the expected outcome, the family, the seed and the index.
std::string ConversationStem(const ConversationScenario& scenario, std::uint64_t seed,
                             std::size_t index);

/// The parts of a turn's answer: the signed text part when there is one, then one functionCall
/// per call with its native id, the first part signed with SignatureOf(signature_turn).
Json AnswerParts(const CallTurn& turn, std::size_t signature_turn);

/// The answer of a turn, whole or streamed as the turn says.
Json TurnAnswer(const CallTurn& turn, std::size_t signature_turn);

}  // namespace gemini_oracle::generators
