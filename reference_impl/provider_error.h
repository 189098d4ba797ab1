#pragma once
// The one typed error of the adapter (ADR-226: "an existing typed provider exception").

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gemini_oracle::ref {

/// One row of the error catalogue: a stable dotted code, the clause it enforces, a sentence.
struct ErrorCodeInfo {
  std::string_view code;
  std::string_view clause;
  std::string_view sentence;
};

/// Every code the adapter raises, in documentation order (docs/error-codes.md lists the same).
const std::vector<ErrorCodeInfo>& ErrorCatalogue();

/// Looks a code up; nullptr when unknown.
const ErrorCodeInfo* FindErrorCode(std::string_view code);

/// Where in the conversation the rule was broken. Positions only, never content (ADR-226.19).
struct Position {
  std::optional<std::size_t> turn;  // index into the transcript messages (0-based)
  std::optional<std::size_t> part;  // index into what `field` lists (native parts, tool calls,
                                    // bindings; response parts at parse time)
  std::string field;                // a field name of the data model, e.g. "tool_call_bindings"
  /// The index into the turn's capsule native_parts when the refusal concerns one native part
  /// (a carried functionCall, a bound or unmatched native call), whatever `part` counts.
  std::optional<std::size_t> native_part;
};

/// The stored state a build refusal concerns: the transcript message and, when one native part
/// of its capsule is at fault, that part. Indices only (ADR-226.19).
struct StateLocation {
  std::size_t message = 0;
  std::optional<std::size_t> native_part;
};

/// HTTP-level facts of a failed exchange (codes http.*). The provider's own message is kept
/// apart from what() because it may quote request content.
struct HttpFailure {
  int status = 0;
  std::string google_status;
  std::string provider_message;
  std::string raw_body;
};

class ProviderError : public std::runtime_error {
 public:
  /// `code` must be in ErrorCatalogue(); the message is composed from the catalogue sentence
  /// and the position, so no caller can leak native content into it.
  ProviderError(std::string_view code, Position position = {});
  ProviderError(std::string_view code, HttpFailure http);

  const std::string& code() const { return code_; }
  const std::string& clause() const { return clause_; }
  const Position& position() const { return position_; }
  const std::optional<HttpFailure>& http() const { return http_; }
  /// Set when the refusal concerns carried transcript state (build codes); nullopt for the
  /// server's answer (parse codes, whose positions index the response) and for http codes.
  std::optional<StateLocation> location() const;

 private:
  std::string code_;
  std::string clause_;
  Position position_;
  std::optional<HttpFailure> http_;
};

}  // namespace gemini_oracle::ref
