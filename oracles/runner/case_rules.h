#pragma once
// The lint rules of `check` beyond the schema. Each has a stable name that diagnostics
// carry in brackets, so scripts and tests match on the name, never on the wording.

#include <string>
#include <string_view>
#include <vector>

#include "oracles/runner/clause_registry.h"
#include "reference_impl/json.h"

namespace gemini_oracle::runner::rules {

inline constexpr std::string_view kFileRead = "file.read";
inline constexpr std::string_view kFileName = "file.name";
inline constexpr std::string_view kFileKind = "file.kind";
inline constexpr std::string_view kFileSize = "file.size";
inline constexpr std::string_view kJsonSyntax = "json.syntax";
inline constexpr std::string_view kJsonBom = "json.bom";
inline constexpr std::string_view kJsonDepth = "json.depth";
inline constexpr std::string_view kJsonNumberRange = "json.number_range";
inline constexpr std::string_view kJsonDuplicateKey = "json.duplicate_key";
inline constexpr std::string_view kSchema = "schema";
inline constexpr std::string_view kPrefixExpect = "prefix.expect";
inline constexpr std::string_view kClauseUnknown = "clause.unknown";
inline constexpr std::string_view kIdUnique = "id.unique";
inline constexpr std::string_view kDescriptionStyle = "description.style";
inline constexpr std::string_view kErrorUnknown = "error.unknown";
inline constexpr std::string_view kSelectorRange = "selector.range";
inline constexpr std::string_view kSelectorMatch = "selector.match";
inline constexpr std::string_view kWireRequest = "wire.request";
inline constexpr std::string_view kRefuseExchange = "refuse.exchange";
inline constexpr std::string_view kExpectRequests = "expect.requests";
inline constexpr std::string_view kResultText = "result.text";
// A carried tool message's content that is JSON nests no deeper than a case file may (§2): the
// judges read a request carrying it decoded, which deeper content would put beyond their reach.
inline constexpr std::string_view kTranscriptContent = "transcript.content";
// stored/suspend need feature persistence, approvals and gated results feature approvals
// (so `--filter persistence` selects every case that goes through a store).
inline constexpr std::string_view kFeatureDeclared = "feature.declared";
// Approval ids are unique in the case; a gated result's `approval` names one recorded in its
// own or an earlier exchange; `approval` appears on gated results only.
inline constexpr std::string_view kApprovalReference = "approval.reference";
// An n_ or i_ case says why its verdict follows from the ADR text (INTERPRETING §3).
inline constexpr std::string_view kRationalePresent = "rationale.present";
// A streamed response's split_at offsets rise strictly inside the stream, and its cut_at lies
// within it (INTERPRETING §5.3); a case that streams lists feature streaming.
inline constexpr std::string_view kStreamBytes = "stream.bytes";

// A must-level literal assertion pins nothing INTERPRETING §8.3 leaves open: no number's kind
// inside a functionResponse.response (ADR-224.F1 for results), no nested object that a list
// could stand for ({} or numeric keys) below a functionCall.args or functionResponse.response
// root. Such an assertion cites the open clause, or asserts less.
inline constexpr std::string_view kWireStricterThanRule = "wire.stricter_than_rule";

// The function calls of a y_ or i_ case's scripted answers and carried capsules keep the
// grammar of calls in pieces (INTERPRETING §5.6, read by model::GroupCalls): a turn that
// breaks it has no calls the judges can read, so only an n_ case holds one.
inline constexpr std::string_view kPiecesGrammar = "pieces.grammar";
// A case holding a call in pieces cites only beyond clauses (INTERPRETING §5.6 "Levels": what
// an implementation makes of such a call is capture from a stream, ADR-226.B1), so the judges'
// demotion of what rests on streamed capture applies to all of it.
inline constexpr std::string_view kPiecesLevel = "pieces.level";

/// Every rule name, in the order above.
const std::vector<std::string_view>& AllRules();

/// A rule broken at the value `pointer` names.
struct Finding {
  std::string rule;
  std::string pointer;
  std::string message;
};

/// Runs the per-file rules (prefix.expect through refuse.exchange, except id.unique which
/// needs the whole corpus). Defensive about shapes, so it also runs on documents the schema
/// rejected and reports everything in one pass.
std::vector<Finding> CheckDocument(const Json& document, std::string_view file_name,
                                   const ClauseRegistry& registry);

/// The pending calls of a scripted response body as functionCall objects, in parse order (for
/// a streamed body, a JSON array of chunks, chunk after chunk): P of INTERPRETING §5.4. A call
/// answered by a functionResponse inside the same content (ADR-226.B2) is left out; a call in
/// pieces (§5.6) is one call with its assembled args (model::GroupCalls).
std::vector<Json> FunctionCallsOf(const Json& body);

/// The number of pending calls in a scripted response body (candidates[0].content.parts; for a
/// streamed body, the chunks' parts as one content): a call in pieces (§5.6) counts once.
std::size_t CountFunctionCalls(const Json& body);

}  // namespace gemini_oracle::runner::rules
