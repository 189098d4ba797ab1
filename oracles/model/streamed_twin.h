#pragma once
// Streamed twins (fixtures/INTERPRETING.md §5.5): every case whose answers can be streamed is
// also run with them streamed, and must send the same requests and end the same way. A twin is
// derived when the corpus is loaded, never written as a file, so each new case brings its
// streamed twins with it.

#include <memory>
#include <optional>
#include <vector>

#include "oracles/model/case.h"

namespace gemini_oracle::model {

/// An answer sent whole as Gemini streams it: one event per part (calls each at `parts[0]` of
/// their own event, as Gemini 3 sends parallel calls), the candidate's other members
/// (`finishReason`, ...) and the response's other members on the last event, `usageMetadata`
/// and `modelVersion` on every event; CRLF framing, cut inside each event's line, inside a UTF-8
/// sequence and between the CR and LF that end the data line. Folding the events gives back
/// the answer exactly.
/// Nullopt when the answer is no plain 200 answer of one candidate with parts and a
/// `finishReason` (an error, a raw body, several candidates, no parts).
std::optional<StreamScript> StreamedAnswer(const ScriptedResponse& response);

/// The streamed twins of `original`, in a fixed order:
/// - `<id>.streaming-request` (TwinKind::kStreamingRequest): the last answer streamed, one chunk
///   per event, when it carries no functionCall or functionResponse part, its request carries
///   earlier turns, and the case expects no refusal before that request or of that answer;
/// - `<id>.streamed` (TwinKind::kEveryAnswer): every answer that can be streamed, streamed;
///   the twin cites ADR-226.B1 only, since its state is captured from streams, and lists
///   feature `stream-capture` beside `streaming`.
/// A case that already streams, or a twin, has none.
std::vector<Case> StreamedTwins(const std::shared_ptr<const Case>& original);

/// `cases` in order, followed by the streamed twins of each, in the same order.
std::vector<Case> WithStreamedTwins(const std::vector<Case>& cases);

}  // namespace gemini_oracle::model
