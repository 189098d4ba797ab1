#pragma once
// The in-memory form of one fixture file (fixtures/case.schema.json). Content stays
// gemini_oracle::Json (ordered) so member order and number kinds survive as written.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "reference_impl/json.h"

namespace gemini_oracle::model {

/// The verdict a file name states: y_ accept, n_ refuse before contact, i_ free.
enum class Expected { kAccept, kRefuse, kImplementationDefined };

/// "accept", "refuse", "implementation_defined" (the schema's `expect.outcome` values).
std::string_view ToString(Expected expected);
std::optional<Expected> ExpectedFromOutcome(std::string_view outcome);
/// From the file name's prefix (y_, n_, i_); nullopt for any other name.
std::optional<Expected> ExpectedFromFileName(std::string_view file_name);

/// A call picked by name (and, when several share it, by decoded arguments).
struct NamedCall {
  std::string name;
  std::optional<Json> args;
};

/// Which call of the new turn a result answers: a parse-order index or a name.
using CallSelector = std::variant<std::size_t, NamedCall>;

/// A tool result the conversation appends after an exchange.
struct Result {
  enum class Kind { kJson, kText, kError };
  CallSelector call;
  Kind kind = Kind::kJson;
  /// The JSON value for kJson; a JSON string for kText and kError.
  Json value;
  /// The tool runs only when an approval authorizes the call; otherwise the application
  /// appends the error result kDenialMessage instead (fixtures/INTERPRETING.md §14).
  bool gated = false;
  /// Gated: the approval id the application presents; empty: any approval of the call.
  std::string approval;
};

/// The error text of the result an application appends for a gated call no approval
/// authorizes (INTERPRETING §14).
inline constexpr const char* kDenialMessage = "not approved";

/// `then.approvals`: a person approves or denies one call of the new turn.
struct ApprovalAction {
  CallSelector call;
  bool approve = true;
  std::string id;  // unique within the case
};

std::string_view ToString(Result::Kind kind);

/// `then.call_order`: reverse (resolved when the call count is known) or explicit indices.
struct CallOrder {
  bool reverse = false;
  std::vector<std::size_t> indices;  // empty when `reverse`
};

/// What the conversation does with the new turn before the next request.
/// Applied in this order: normalize_numbers, call_order, approvals, suspend, results.
struct Actions {
  bool normalize_numbers = false;
  std::optional<CallOrder> call_order;
  std::vector<ApprovalAction> approvals;
  /// The application suspends the conversation into its store and resumes it in a fresh
  /// adapter object, editing nothing (ADR-226.18).
  bool suspend = false;
  std::vector<Result> results;
};

/// A streamed answer (`response.stream`, INTERPRETING §5.3): served to :streamGenerateContent
/// only, each event an SSE `data:` line and a blank line.
struct StreamScript {
  /// Each a GenerateContentResponse (or error) object, or a string served as data text as-is.
  std::vector<Json> events;
  std::string eol = "\r\n";  // framing: crlf (Google's), lf or cr
  /// Byte offsets where one HTTP chunk ends and the next begins; empty: one chunk per event.
  std::vector<std::size_t> split_at;
  std::uint64_t delay_ms = 0;  // before each chunk after the first
  /// Only this many bytes are sent, then the connection is closed mid-body.
  std::optional<std::size_t> cut_at;

  /// The stream's bytes, as the server would send them whole.
  std::string Bytes() const;
  /// Where each event's bytes begin and end in Bytes() (the default chunk boundaries).
  std::vector<std::size_t> EventEnds() const;
};

/// The events of a stream that a reader takes as responses, in order: the object events, and
/// the string events whose text is a JSON object.
Json StreamEventObjects(const std::vector<Json>& events);

/// The scripted answer of the capture server for one request.
struct ScriptedResponse {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;  // file order
  Json body;
  /// Served byte for byte instead of `body` (an answer that is not JSON).
  std::optional<std::string> raw_body;
  /// How long the server waits before answering (a slow model); 0 answers at once.
  std::uint64_t delay_ms = 0;
  /// A streamed answer instead of `body`; `body` then holds the array of its object events,
  /// the parts of which the judges read one after the other as one model turn.
  std::optional<StreamScript> stream;
};

struct Exchange {
  std::optional<std::string> user;
  std::optional<std::string> tool_mode;  // AUTO, ANY, NONE (closing request), VALIDATED
  ScriptedResponse response;
  Actions then;
};

/// The functionResponse answering call `call` (0-based, parse order) of model turn `turn`
/// (1-based over the conversation: the initial assistant turns, then one per exchange).
struct AnsweringCall {
  std::size_t turn = 1;
  std::size_t call = 0;
};

/// One kind-exact check of a journaled request body (1-based request number).
struct WireAssertion {
  std::size_t request = 1;
  /// Relative to the answering functionResponse when `answering` is set, else to the body.
  std::string pointer;
  /// The clause a failure cites; empty: the case's first clause.
  std::string clause;
  std::optional<AnsweringCall> answering;
  std::optional<Json> equals;
  bool absent = false;
  /// `view: "sent"`: `pointer` addresses the body as it was sent, a model turn sent as several
  /// contents included; else (`"joined"`) the body as the judges read it (INTERPRETING §8.5).
  bool as_sent = false;
};

struct Expect {
  Expected outcome = Expected::kAccept;
  std::optional<std::size_t> requests;  // accept (required), implementation_defined (optional)
  std::vector<WireAssertion> wire;      // accept
  std::string error;                    // refuse: a code of ref::ErrorCatalogue()
  std::string phase;                    // refuse: build, parse or http
  std::optional<std::size_t> exchange;  // refuse: 1-based exchange that must fail
  std::optional<std::size_t> message;   // refuse, optional: the transcript message it names
  std::optional<std::size_t> part;      // refuse, optional: the native part it names
  std::string note;                     // implementation_defined
};

struct Case;

/// How a derived streamed twin streams its original's answers (INTERPRETING §5.5).
enum class TwinKind {
  /// Only the last exchange's answer is streamed: its request is a streaming request carrying
  /// the existing state that whole answers and the initial transcript made (ADR-224.7, 226.17).
  kStreamingRequest,
  /// Every answer is streamed, one part per event (the state is captured from streams:
  /// ADR-226.B1, beyond).
  kEveryAnswer,
};

/// The case a streamed twin was derived from.
struct TwinOrigin {
  std::shared_ptr<const Case> original;
  TwinKind kind = TwinKind::kEveryAnswer;
};

struct Case {
  /// Path under the fixtures root without ".json", '/'-separated: "adr-226/y_x".
  std::string id;
  std::filesystem::path file;
  Expected expected = Expected::kAccept;  // from the file name
  std::string description;
  std::vector<std::string> clauses;
  std::vector<std::string> features;
  std::string source;
  /// Why the verdict follows from the ADRs (required on n_ and i_ cases).
  std::string rationale;
  Json options = Json::object();
  Json transcript = Json::array();
  /// The initial transcript was stored by an earlier run: it is suspended into the store and
  /// resumed before the first exchange, so older stored state is judged as loaded (ADR-226.18).
  bool stored = false;
  std::vector<Exchange> exchanges;
  Expect expect;
  Json raw;
  /// Set on a streamed twin derived at load time (model/streamed_twin.h), never on a file.
  std::optional<TwinOrigin> twin;

  /// The file stem ("y_x"): unique across the corpus because reports key on it.
  std::string Stem() const;
  /// The top folder of the id ("adr-226"); empty for a case at the root.
  std::string Folder() const;
  bool HasFeature(std::string_view feature) const;
  /// Whether the conversation goes through a store: `stored`, or a `then.suspend`.
  bool Suspends() const;
};

/// Builds a Case from a document that passed the schema. Throws std::invalid_argument when
/// a member has the wrong shape (the loader validates first, so that means a schema bug).
Case CaseFromJson(Json document, std::string id, std::filesystem::path file);

}  // namespace gemini_oracle::model
