#pragma once
// The pieces every generated case file is made of (fixtures/case.schema.json): scripted answers
// whole or streamed, tool declarations, results in the three forms a case can give them.

#include <cstddef>
#include <string>
#include <vector>

#include "reference_impl/json.h"

namespace gemini_oracle::generators {

/// The model every generated case names.
inline constexpr const char* kGeneratedModel = "gemini-3-pro-preview";

/// A whole answer: `{"body": GenerateContentResponse}` holding `parts` in one model content.
Json WholeAnswer(Json parts);

/// A streamed answer: the parts divided into events of `event_sizes` parts each (their sum is
/// the number of parts), the last event carrying finishReason STOP. `cut_permille` cuts the
/// stream's bytes into HTTP chunks (`split_at`) at those thousandths of its length, anywhere,
/// inside an event or between two; none: one chunk per event.
Json StreamedAnswer(const Json& parts, const std::vector<std::size_t>& event_sizes,
                    const std::vector<std::size_t>& cut_permille = {});

/// The rationale of a refused native id (fixtures/INTERPRETING.md §3.1): the ADR sentence that
/// demands the refusal of `code` (native_id.duplicate or native_id.malformed), then `what`.
std::string NativeIdRationale(const std::string& code, const std::string& what);

/// `options` declaring the functions tool_0 .. tool_{count-1}.
Json ToolOptions(std::size_t count);

/// The function name of group `group`.
std::string ToolName(std::size_t group);

/// The thought signature of generated turn `turn` (base64 text, distinct per turn).
std::string SignatureOf(std::size_t turn);

/// What a tool returned (INTERPRETING §5.2): a JSON text (of an object, a list or a scalar: the
/// case's `json`, which the application passes on as JSON text), text that is not JSON, or an
/// error.
struct ToolResult {
  enum class Shape { kObject, kList, kScalar, kInvalidText, kError };
  Shape shape = Shape::kObject;
  Json value;  // kObject, kList, kScalar: the value the JSON text holds
  std::string text;  // kInvalidText: the text; kError: the message

  /// The case form: {"call": call, "json"|"text"|"error": ...}.
  Json CaseResult(std::size_t call) const;
  /// The generic tool message's content (text), as a transcript holds it.
  std::string Content() const;
  bool IsError() const { return shape == Shape::kError; }
};

const char* ShapeName(ToolResult::Shape shape);

}  // namespace gemini_oracle::generators
