#pragma once
// An implementation's known failures (`run --expect FILE`): a listed case that fails, errs or
// times out gets the verdict `known` with the listed reason; a listed case that passes is an
// `unexpected_pass`, which gates, so the list only ever shrinks (INTERPRETING §15.3).

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "oracles/runner/diagnostic.h"

namespace gemini_oracle::runner {

/// One cause of failure an expectations file names once (its `causes` member) and many entries
/// cite: a behaviour of the implementation and the clauses it breaks.
struct FailureCause {
  std::string key;   // [a-z0-9-]+, unique in the file
  std::string text;  // what the implementation does, and the clauses
  std::string link;  // optional: the upstream issue or a source line
};

struct KnownFailure {
  std::string reason;  // why it fails: the behaviour and the clause it breaks
  std::string link;    // optional: an issue or a source line
  /// The file's causes this failure has, in the order listed (empty: `reason` alone).
  std::vector<FailureCause> causes;
};

struct Expectations {
  std::filesystem::path file;
  std::string implementation;                 // informational: whom the list is about
  std::map<std::string, KnownFailure> known;  // by exact case id (twins have their own)
};

/// Reads an expectations file:
///   {"implementation": "...",
///    "causes": {"<key>": {"text": "...", "link": "..."}},               (optional)
///    "known": [{"id": "...", "reason": "...", "link": "..."},
///              {"id": "...", "causes": ["<key>", ...]}]}
/// An entry gives either its own `reason` or the `causes` it has (the reason is then their
/// texts); every cause is cited by some entry.
/// Every problem (unreadable, not JSON, a member of the wrong kind, an unknown member, an
/// empty reason, an id listed twice) is a Diagnostic naming the file, line, column and rule
/// (expect.*); nothing is kept from a file with a problem.
struct ExpectationsLoad {
  Expectations expectations;
  std::vector<Diagnostic> diagnostics;
  bool ok() const { return diagnostics.empty(); }
};
ExpectationsLoad LoadExpectations(const std::filesystem::path& file);

/// Listed ids that name no case of the corpus (`corpus_ids`, twins included): a stale or
/// mistyped entry, reported as a Diagnostic (rule expect.unknown_case).
std::vector<Diagnostic> UnknownCaseDiagnostics(const Expectations& expectations,
                                               const std::set<std::string>& corpus_ids);

/// Rewrites the verdicts of listed results in place: fail, error and timeout become `known`
/// (the original verdict and reason kept under `known_failure`; `expected`, the case's outcome, is left alone), pass becomes `unexpected_pass`.
/// Skipped and implementation-defined results are left as they are (nothing was shown).
/// Results that are bad fixtures are never rewritten: a broken file is never "known".
void ApplyExpectations(const Expectations& expectations, nlohmann::json& results);

}  // namespace gemini_oracle::runner
