#pragma once
// Folds the events of a streamed answer (each a whole GenerateContentResponse carrying only
// its new parts) into one response: for everything the adapter reads (each candidate's parts,
// finishReason, usageMetadata) the one a non-streaming call returns for the same content, so
// that the same parser, correlation and bindings apply to both (ADR-226: "Use the same
// association on closing and streaming requests carrying existing state").

#include <cstddef>
#include <string_view>
#include <vector>

#include "reference_impl/json.h"

namespace gemini_oracle::ref {

class StreamAccumulator {
 public:
  /// One event's data. Throws ProviderError http.body when it is not a JSON object (or
  /// repeats a member name), and http.stream when it is an error object (`{"error": ...}`,
  /// Google's mid-stream failure): the turn so far is then never used.
  void Add(std::string_view data);

  /// The folded response, its candidates in index order. Each candidate (by its `index`, else
  /// by its position in the event: proto3 JSON leaves out the default index 0, so an absent
  /// index and 0 are one) gets every
  /// event's `content.parts` in arrival order, each part exactly as received: no text is
  /// merged and no signature moves, so a signature stays on the part it arrived with, an
  /// empty-text part with a signature included (ADR-224: "Preserve native order, signatures
  /// and every other member"). A call repeated in a later event is one more part, judged like
  /// any other (a repeated native id is refused by the parser). The pieces of a call whose
  /// arguments stream (`willContinue`, `partialArgs`) are parts like any other here: the parser
  /// reads them into one call (INTERPRETING §5.6), and they are replayed as they came. Every other
  /// member, of the response and of a candidate, is the last event's value (`finishReason`,
  /// `usageMetadata`, which grows from event to event, `modelVersion`, ...; also
  /// `citationMetadata`, which Google's SDK would concatenate and which nothing here reads).
  Json Response() const;

  std::size_t events() const { return events_; }

 private:
  Json response_ = Json::object();
  std::vector<Json> keys_;  // the index of each folded candidate, in response_["candidates"]
  std::size_t events_ = 0;
};

}  // namespace gemini_oracle::ref
