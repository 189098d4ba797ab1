#pragma once
// The judges of one case run. Each reads the raw journal (decoding every body itself with
// kind-preserving parsing), the case and the driver's report, and returns findings. None of
// them calls the reference request builder: they judge any implementation from the wire.

#include <optional>
#include <string_view>
#include <vector>

#include "oracles/capture/journal.h"
#include "oracles/checks/finding.h"
#include "oracles/model/case.h"
#include "oracles/model/driver_report.h"

namespace gemini_oracle::checks {

namespace detail {
struct DecodedRequest;
}  // namespace detail

/// Which encodings the judges require (fixtures/INTERPRETING.md §9.1).
/// - kAdr: these ADRs' own encodings too: a list result at numeric keys (ADR-224.4), a
///   scalar, text or error result in a one-member wrapper (ADR-224.5), an object result as the
///   root itself. The default: the gate of implementations of ADR-224/226.
/// - kGemini: what any Gemini adapter owes the wire contract and the ADRs' portable clauses:
///   any object root that preserves the result value is accepted.
enum class Profile { kAdr, kGemini };

std::string_view ToString(Profile profile);
std::optional<Profile> ProfileFromString(std::string_view text);

/// Everything a judge sees. Journal position i (0-based) is request i+1, sent for exchange i+1.
struct CaseRun {
  const model::Case& c;
  const std::vector<capture::JournalEntry>& journal;
  const model::DriverReport& report;
  /// The journal bodies decoded once by JudgeAll; judges called alone decode for themselves.
  const std::vector<detail::DecodedRequest>* decoded = nullptr;
  Profile profile = Profile::kAdr;
  /// False when the implementation's refusal codes are not the catalogue's (a driver without
  /// `typed-errors` and no error map for its class, INTERPRETING §15.4): a refusal is then
  /// judged on its being there, its exchange and the requests sent before it; code and phase are
  /// reported not judged.
  bool refusal_code_judged = true;
  /// When the run suspended the conversation into a store: the same case run again with the
  /// conversation kept in memory (its journal and report), for the resume-equivalence judge.
  const std::vector<capture::JournalEntry>* baseline_journal = nullptr;
  const model::DriverReport* baseline_report = nullptr;
  /// When the case is a streamed twin (INTERPRETING §5.5): its original run the same way with
  /// every answer sent whole, for the stream-equivalence judge.
  const std::vector<capture::JournalEntry>* whole_journal = nullptr;
  const model::DriverReport* whole_report = nullptr;
};

/// ADR-224.12: every journaled body decodes as a JSON object with a `contents` array.
std::vector<Finding> JudgeDecoding(const CaseRun& run);
/// The case's verdict facts: accepted or refused as the case says, with the right code, phase
/// and exchange, and no contact before a pre-contact refusal. Silent for implementation_defined.
std::vector<Finding> JudgeOutcome(const CaseRun& run);
/// ADR-224.1, 224.2: functionCall.args and functionResponse.response roots are objects.
std::vector<Finding> JudgeStructRoots(const CaseRun& run);
/// ADR-224.2-224.6, 224.F1, 226.3, 226.4, 226.16, 226.20, WIRE.1, WIRE.2: every
/// functionResponse of every request, judged against the call it answers. The call is
/// identified without the payload (its id, its name, its position among same-name calls), so
/// the name and ID checks always run; the payload is judged per profile against the case's
/// result for that call (`then.results`, the initial transcript's tool messages).
std::vector<Finding> JudgeResults(const CaseRun& run);
/// ADR-224.6-224.8, 224.10, 226.4, 226.16 (open: 224.F1): model turns replay their native
/// parts; foreign and generic turns are rebuilt from their generic calls.
std::vector<Finding> JudgeReplay(const CaseRun& run);
/// ADR-226.1, 226.4: no ID on the wire the server never sent; public IDs nonempty and unique
/// across the conversation (how they were made is not observable).
std::vector<Finding> JudgeIds(const CaseRun& run);
/// ADR-224.11: each public call's arguments equal its native args (ADR-226.8 rule); a numeric
/// kind difference only is reported under the open ADR-224.F1.
std::vector<Finding> JudgePublicArguments(const CaseRun& run);
/// ADR-224.12 and the case's clauses: each `expect.wire` assertion holds, cited under its own
/// `clause` (else the case's first); an `answering` assertion is relative to the
/// functionResponse the results judge identifies as the answer to that call.
/// An assertion on a member the ADRs do not govern (one outside `contents`) fails under
/// kRecordingFidelity whatever its `clause`; a whole body's `contents` keeps its clause.
std::vector<Finding> JudgeWireAssertions(const CaseRun& run);
/// REF.B1 (beyond): members the ADRs do not govern are sent as the case's options give them.
/// ADR-224 governs "these two API-known roots" and replayed native parts, all inside `contents`;
/// `tools`, `toolConfig`, `generationConfig`, `systemInstruction` are each framework's own.
inline constexpr std::string_view kRecordingFidelity = "REF.B1";
/// Whether a body pointer addresses `contents` or a member inside it.
bool AddressesContents(std::string_view pointer);
/// Whether a wire assertion pins a member outside `contents`: its pointer addresses one, or it
/// is a whole body ("") whose `equals` holds members beside `contents`.
bool PinsUngovernedMembers(const model::WireAssertion& assertion);
/// ADR-224.9: the carried transcript, and the stored row of a suspended conversation, are
/// unchanged by building a request.
std::vector<Finding> JudgeNoRewrite(const CaseRun& run);
/// ADR-226.18: with suspension and resume between turns, the requests (kind-exact) and the
/// outcome are those of the conversation kept in memory; a difference only between nested
/// empty objects and lists is the open ADR-224.F1. Silent without a baseline run.
std::vector<Finding> JudgeResumeEquivalence(const CaseRun& run);
/// ADR-224.7, 226.17 (ADR-226.B1 for a twin that captures from streams): a streamed twin sends
/// the contents, and ends the way, of its original with every answer sent whole. Silent for a
/// case that is no twin.
std::vector<Finding> JudgeStreamEquivalence(const CaseRun& run);
/// Whether the run was refused while reading a streamed answer: the refused exchange's request
/// (the last one sent) went to :streamGenerateContent and was answered by the script, and the
/// refusal came after it was sent (INTERPRETING §9). Reading a streamed
/// answer is ADR-226.B1's: ADR-226 leaves "new streamed capture" separate.
bool RefusedReadingStreamedAnswer(const model::Case& c,
                                  const std::vector<capture::JournalEntry>& journal,
                                  const model::DriverReport& report);
/// REF.B1: a request with a tool mode disables function calling as the case asks (mode NONE, or
/// no function declared, which Google documents as the same), or sets the mode it names.
std::vector<Finding> JudgeClosing(const CaseRun& run);
/// ADR-226.19: a refusal message exposes no native content.
std::vector<Finding> JudgeLeaks(const CaseRun& run);

using JudgeFn = std::vector<Finding> (*)(const CaseRun&);

struct Judge {
  std::string_view name;  // "outcome", "struct_roots", ...
  JudgeFn run;
  /// The clauses its findings can cite: the traceability table (`gemini-oracle clauses`).
  std::vector<std::string_view> clauses;
};

/// Every judge, in the order JudgeAll runs them.
const std::vector<Judge>& Judges();

/// All findings of all judges, judge by judge, each in wire order.
std::vector<Finding> JudgeAll(const CaseRun& run);

}  // namespace gemini_oracle::checks
