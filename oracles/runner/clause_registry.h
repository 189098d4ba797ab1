#pragma once
// The clause registry (oracles/clauses.json): the ids fixtures, oracles and mutants cite.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference_impl/json.h"

namespace gemini_oracle::runner {

/// must gates; open reports (gates with --strict); beyond gates the reference only.
enum class Level { kMust, kOpen, kBeyond };

std::string_view ToString(Level level);
std::optional<Level> LevelFromString(std::string_view text);

struct Clause {
  std::string id;   // "ADR-226.3"
  std::string adr;  // "ADR-226"
  Level level = Level::kMust;
  std::string summary;
  /// Why a must-clause has no case yet (the feature it needs is not built); empty otherwise.
  /// `clauses` reports such a clause as pending instead of failing.
  std::string pending;
  /// The part of a covered clause that no case can reach yet, and why; empty otherwise.
  std::string partial;
  /// The judging profiles (`run --profile`) under which the clause is judged; empty: all.
  /// ADR-224.4 and 224.5 are these ADRs' own encodings, judged only under `adr`.
  std::vector<std::string> profiles;
  /// When a check of this clause cannot run on a case (reported as `not_judged`); empty: never.
  std::string not_judged_when;
};

class ClauseRegistry {
 public:
  ClauseRegistry() = default;

  /// Reads a registry file; throws std::runtime_error naming the file and the problem
  /// (unreadable, not JSON, a malformed entry, a duplicate id).
  static ClauseRegistry Load(const std::filesystem::path& file);
  /// Same checks on an already parsed array.
  static ClauseRegistry FromJson(const Json& array);

  /// nullptr when the id is not registered.
  const Clause* Find(std::string_view id) const;
  bool Contains(std::string_view id) const { return Find(id) != nullptr; }
  std::optional<Level> LevelOf(std::string_view id) const;

  /// In registry (document) order.
  const std::vector<Clause>& clauses() const { return clauses_; }

 private:
  std::vector<Clause> clauses_;
};

/// <source root>/oracles/clauses.json.
std::filesystem::path ClausesPath(const std::filesystem::path& source_root);

}  // namespace gemini_oracle::runner
