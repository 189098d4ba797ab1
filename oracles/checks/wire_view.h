#pragma once
// Shared readings of the wire and the case for the judges (not a public API).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oracles/capture/journal.h"
#include "oracles/checks/judge.h"
#include "oracles/checks/judge_json.h"
#include "oracles/model/call_pieces.h"
#include "oracles/model/case.h"
#include "oracles/model/driver_report.h"
#include "reference_impl/json.h"

namespace gemini_oracle::checks::detail {

/// A model turn that a request sends as several consecutive model contents (one per streamed
/// event, as Google's SDKs keep a streamed answer), which the judges read as one content
/// (INTERPRETING §8.5).
struct SplitTurn {
  std::size_t turn = 0;     // 0-based model turn of the request
  std::size_t content = 0;  // its one content in the body as read
  std::size_t sent_first = 0;             // its first content as sent
  std::vector<std::size_t> part_counts;   // the parts of each content as sent, in order
};

/// One journaled body, decoded kind-preservingly by the judges' own reader (judge_json.h): an
/// integer literal beyond 64 bits is a big integer, never a rounded double. `body` is empty
/// when it did not decode. When the case is known, a model turn sent as several consecutive
/// model contents is read as one content, its parts in order (`split_turns` says where).
struct DecodedRequest {
  std::optional<Json> body;
  std::string error;             // parse error text (positions only, no content)
  bool repeated_member = false;  // an object of the body names a member twice
  std::vector<SplitTurn> split_turns;
};

/// Decodes every body. With `c`, request k's model turns are grouped as INTERPRETING §8.5
/// says: when the request has exactly as many runs of consecutive model contents as the
/// conversation has turns at that point, each run is one turn, read as one content.
std::vector<DecodedRequest> DecodeJournal(const std::vector<capture::JournalEntry>& journal,
                                          const model::Case* c = nullptr);

/// A pointer into a body as the judges read it, as a pointer into the body as it was sent
/// (the content and part of a split turn as sent).
std::string SentPointer(const DecodedRequest& request, const std::string& pointer);

/// The judges' own ADR-226.8 equality (independent of the reference implementation's): recursive
/// and kind-strict except that numbers (integers, doubles, big integers) are equal when their
/// exact values are the same number (NumbersEqual). Object member order is free.
bool ArgumentsEqual(const Json& a, const Json& b);

/// A tool message's content decoded as JSON text the way a judge reads it, or nullopt when it
/// is not a JSON text the judges can hold (then the payload is text, as for the reference:
/// invalid JSON, a member name repeated in one object, nesting past kJudgeMaxDepth, a number
/// beyond a double such as 1e400). An
/// integer beyond 64 bits is kept exactly as a big integer. Never throws.
std::optional<Json> DecodeToolContent(std::string_view text);

/// The run's decoded journal: the shared one when JudgeAll made it, else decoded into `storage`.
const std::vector<DecodedRequest>& DecodedJournal(const CaseRun& run,
                                                  std::vector<DecodedRequest>& storage);

/// The `contents` array of a decoded body, or nullptr.
const Json* Contents(const std::optional<Json>& body);

/// The answer the server sent for an exchange, as the judges read it: `body` (for a streamed
/// answer the array of its events), or a `raw_body` read with DecodeJudgeJson when it is a JSON
/// object naming no member twice; null when it is not (such an answer holds no parts).
Json ScriptedBody(const model::Exchange& exchange);

/// The parts the server scripted for an exchange: candidates[0].content.parts of
/// ScriptedBody, or the concatenation over stream chunks when it is an array of responses;
/// [] otherwise.
Json ScriptedParts(const model::Exchange& exchange);

/// Where the events of a streamed exchange's turn begin and end among its parts: the running
/// part counts after each event that carries parts (the last one is the turn's part count).
/// Empty for an answer sent whole.
std::vector<std::size_t> ScriptedEventEnds(const model::Exchange& exchange);

/// Positions of the calls of `parts`, in parse order: the part that opens each call. A call
/// whose arguments arrive in pieces (INTERPRETING §5.6, model::GroupCalls) is one call at its
/// opening part; its other pieces are no calls.
std::vector<std::size_t> FunctionCallPositions(const Json& parts);

/// The call that opens at `position` as one functionCall object: its name, native id and
/// arguments assembled from its pieces (model::CallAt); null when no call opens there. Judges
/// read a call's name, id and args here, never from the opening part alone.
Json CallAt(const Json& parts, std::size_t position);

/// Positions of the pending calls of `parts` (their opening parts), in parse order: those not
/// answered inside their own content (ADR-226.B2). This is P of INTERPRETING §5.4: one public
/// call each, in the order the implementation reports them.
std::vector<std::size_t> PendingCallPositions(const Json& parts);

/// A turn's calls read once (model::GroupCalls) with what the judges ask of them: every call's
/// position (FunctionCallPositions), the pending ones (PendingCallPositions) and each call
/// (CallAt). A judge that asks about several calls of one turn reads it once into a CallsView
/// rather than rereading the turn per call.
struct CallsView {
  model::TurnCalls turn;
  std::vector<std::size_t> all;
  std::vector<std::size_t> pending;
  /// The call opening at `position` as one functionCall object, or nullptr.
  const Json* CallAt(std::size_t position) const;
  /// The index into `all` of the call opening at `position` (all.size() when none).
  std::size_t IndexOf(std::size_t position) const;
};
CallsView ReadCalls(const Json& parts);

/// Whether the implementation parsed the response of exchange `exchange` (0-based): the driver
/// says so, or the run went on past it (no refusal at or before it, a request sent for it).
bool ResponseParsed(const CaseRun& run, std::size_t exchange);

/// The case's initial assistant messages, in transcript order.
std::vector<const Json*> InitialAssistants(const model::Case& c);

/// provider_state.gemini.native_parts of a transcript message when it is an array; nullptr
/// for foreign and generic turns.
const Json* CapsuleNativeParts(const Json& message);

/// Positions of the role "model" contents of a request.
std::vector<std::size_t> ModelContentPositions(const Json& contents);

/// The call (index into FunctionCallPositions(parts)) a result's selector picks among the
/// pending calls (`call: i` is the i-th pending call, INTERPRETING §5.4), or nullopt when it
/// picks none or more than one.
std::optional<std::size_t> ResolveSelector(const model::CallSelector& selector,
                                           const Json& scripted_parts);
std::optional<std::size_t> ResolveSelector(const model::CallSelector& selector,
                                           const CallsView& calls);

/// A list as the object ADR-224.4 makes of it: its elements at keys "0", "1", ... in order.
Json NumericKeyObject(const Json& list);

/// A member of an object, or nullptr.
const Json* Member(const Json& object, const char* key);

/// Adds every string value inside `value` (recursively; not object keys) to `out`.
void CollectStrings(const Json& value, std::vector<std::string>& out);

/// Where two values first differ (kind-exact), relative to `pointer`; nullopt when equal.
std::optional<std::string> FirstDifference(const Json& expected, const Json& actual,
                                           const std::string& pointer);

/// Where a list in `expected` became an object in `actual` (ADR-224.6), or nullopt.
std::optional<std::string> ListTurnedObject(const Json& expected, const Json& actual,
                                            const std::string& pointer);

/// How a replayed value differs from the native one. Which clause a drift violates depends on
/// where it happens (ADR-224.F1 / D5 in INTERPRETING.md): kNumericKind is ADR-224.8 in replayed
/// native parts, ADR-224.F1 in results and no finding in public arguments; kObjectBecameList
/// is ADR-224.F1 everywhere; kListBecameObject is ADR-224.6 everywhere.
enum class Drift {
  kNumericKind,       // only an integer/float kind, value exact (1.0 -> 1)
  kObjectBecameList,  // an object decoded into a list ({} -> [], {"0":a} -> [a])
  kListBecameObject,  // a list cast into an object ([a] -> {"0":a})
  kOther,             // anything else: a member dropped, added or changed
};

struct DriftAt {
  Drift drift;
  std::string pointer;
};

/// Every difference between `expected` and `actual`, in document order (empty when equal).
std::vector<DriftAt> Drifts(const Json& expected, const Json& actual, const std::string& pointer);

/// The most serious drift: the first kOther, else the first kListBecameObject, else the first
/// kNumericKind, else the first kObjectBecameList (the only open one in every place).
std::optional<DriftAt> WorstDrift(const std::vector<DriftAt>& drifts);

/// `drifts` without those of kind `drift` (e.g. numeric kind where it is no finding).
std::vector<DriftAt> Without(std::vector<DriftAt> drifts, Drift drift);

/// Whether public arguments stand for native args: equal under ADR-226.8 (a list root as its
/// numeric-key map), or drifted only in ways ADR-224.F1 leaves open (an integer become a float,
/// a nested object become a list). A call with those drifts is still that call; the drift is
/// judged on its own.
bool StandsFor(const Json& native_args, const Json& public_args);

/// Which functionCall part each reported call is, one to one: for each call, an index into
/// `positions` (positions into `parts`), or positions.size() when it is none of them. A call
/// can be a part with the part's name and arguments (absent: {}) kind-exactly equal, else equal
/// under ADR-226.8, else drifted only as StandsFor allows, preferred in that order; the
/// matching pairs as many calls as can be paired, and calls handed over alike (same name,
/// kind-exactly the same arguments) take their parts in parse order, as nothing else tells
/// them apart.
std::vector<std::size_t> MatchReportedCalls(const Json& parts,
                                            const std::vector<std::size_t>& positions,
                                            const std::vector<model::ParsedCall>& calls);

}  // namespace gemini_oracle::checks::detail
