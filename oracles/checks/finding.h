#pragma once
// One judged fact about a case run: which clause it concerns, where on the wire, and why.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference_impl/json.h"

namespace gemini_oracle::checks {

/// Reason tags every finding message starts with ("<tag>: ..."). The runner maps them onto the
/// closed verdict set; outcome findings use the first four, every other judge "wire-violation".
inline constexpr std::string_view kShouldHaveAccepted = "should-have-accepted";
inline constexpr std::string_view kShouldHaveRefused = "should-have-refused";
inline constexpr std::string_view kWrongError = "wrong-error";
inline constexpr std::string_view kContactedBeforeRefusal = "contacted-before-refusal";
inline constexpr std::string_view kWireViolation = "wire-violation";
/// A check that could not run (the driver did not report what it needs, or the profile leaves
/// the clause out). Never gates and never counts as a pass: reports list it under
/// `not_judged` with its clause and reason.
inline constexpr std::string_view kNotJudged = "not-judged";

struct Finding {
  std::string clause;                  // "ADR-224.1"
  std::string level;                   // must | open | beyond
  std::optional<std::size_t> request;  // 1-based journal position; nullopt when not about one
  std::string pointer;                 // RFC 6901 into that request body; "" for the root/none
  Json expected;                       // null when not meaningful
  Json actual;                         // null when not meaningful
  /// "<tag>: <sentence>". Never quotes native content (IDs, arguments, signatures, text):
  /// whatever content a finding needs travels in `expected` / `actual` only.
  std::string message;
  /// Decided by the request's own bytes and what the server sent, whatever state the
  /// implementation captured: it keeps its level in a case whose premise the ADRs leave
  /// separate (a state captured from a stream, INTERPRETING §9).
  bool premise_free = false;
  /// `pointer` already addresses the request as it was sent, not the judges' joined view of a
  /// model turn sent as several contents (INTERPRETING §8.5).
  bool pointer_as_sent = false;
};

/// The level of a clause id: "open" for ADR-22x.F<n>, "beyond" for ADR-22x.B<n>, "must"
/// otherwise. This is the naming rule of oracles/clauses.json (a test keeps them in step).
std::string LevelOf(std::string_view clause);

/// The tag of a finding's message (text before the first ':'), e.g. "wire-violation".
std::string_view ReasonTag(const Finding& finding);

/// A not-judged note: which clause a check could not judge, and why.
Finding NotJudged(std::string clause, std::string reason);

/// Builds a finding with the level filled in and the message prefixed by `tag`.
Finding MakeFinding(std::string clause, std::string_view tag, std::optional<std::size_t> request,
                    std::string pointer, std::string message, Json expected = nullptr,
                    Json actual = nullptr);

/// One RFC 6901 reference token: '~' -> "~0", '/' -> "~1".
std::string EscapePointerToken(std::string_view token);

/// `base` + "/" + escaped token.
std::string PointerAppend(const std::string& base, std::string_view token);
std::string PointerAppend(const std::string& base, std::size_t index);

/// A compact one-line form for logs and test failure output.
std::string Describe(const Finding& finding);
std::string Describe(const std::vector<Finding>& findings);

}  // namespace gemini_oracle::checks
