#pragma once
// What an implementation reports about one case run: the calls it parsed, the refusal it
// raised, its transcript snapshots. Judges read it beside the journal, never instead of it.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "reference_impl/json.h"

namespace gemini_oracle::model {

/// A call as the implementation parsed it, in parse order (the order of functionCall parts).
struct ParsedCall {
  std::string id;  // the public ID the implementation assigned
  std::string name;
  Json arguments;
};

/// A tool result the application handed back, as the driver reports it: which of the
/// exchange's `then.results` it was and the public id of the call it answered.
struct AnsweredCall {
  std::size_t result = 0;  // 0-based index into the exchange's then.results
  std::string call;        // public id, one of this exchange's `calls`
};

/// What the implementation reports about one exchange. Judges never trust it for what was
/// sent: the journal is the only account of the wire.
struct ExchangeReport {
  bool request_built = false;
  bool response_parsed = false;
  std::vector<ParsedCall> calls;
  /// The tool results handed back, in the order they were (a framework that runs the tool loop
  /// itself looks results up; INTERPRETING §15.2); nullopt when the driver does not say.
  std::optional<std::vector<AnsweredCall>> answered;
  /// The carried transcript serialized just before and just after building the request
  /// (ADR-224.9); empty when the implementation cannot expose it.
  std::string transcript_before_build;
  std::string transcript_after_build;
  /// The conversation's stored row (its raw bytes or a digest of them) read just before and
  /// just after building the request (ADR-224.9 for stored state); empty when the
  /// conversation was not in a store at that point.
  std::string stored_before_build;
  std::string stored_after_build;
};

/// A typed refusal the implementation raised.
struct Refusal {
  std::string code;          // dotted error code
  std::string phase;         // build, parse or http
  std::size_t exchange = 0;  // 1-based
  std::string message;       // the implementation's error text, judged for leaks (226.19)
  /// Where the refused state is, when the implementation says: the transcript message index
  /// and the index within its native parts (judged against the case's expect.message/part).
  std::optional<std::size_t> message_index;
  std::optional<std::size_t> part_index;
};

/// The application stopped the conversation after the implementation parsed an answer: the
/// case's `then` actions could not be applied to the calls it parsed (a selector picks no
/// single call, call_order is no permutation of them). The implementation's doing, judged like
/// any other run (INTERPRETING §5.4), never a harness error.
struct Stop {
  std::size_t exchange = 0;  // 1-based
  std::string reason;        // names selectors and counts, never native content
};

struct DriverReport {
  std::vector<ExchangeReport> exchanges;  // one per exchange reached
  std::optional<Stop> stopped;
  /// The conversation went through a store (suspended and resumed) during the run.
  bool persisted = false;
  std::optional<Refusal> refusal;
  /// Set when the harness itself failed (not a verdict on the implementation).
  std::optional<std::string> harness_error;
  /// The driver's own time limit for the case passed (serve: a client held a case run too
  /// long): the verdict is `timeout`, like the runner's case time limit.
  bool timed_out = false;
  /// Set when the driver declined the case (its reason): the verdict is `skipped`.
  std::optional<std::string> skipped;
};

}  // namespace gemini_oracle::model
