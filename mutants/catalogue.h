#pragma once
// The fault catalogue (mutants/catalogue.json): what each named fault is, which clauses its
// kill proves, and where it lives. Loaded with a diagnostic (file:line:column, rule) for every
// problem, so a contributor's typo is named, never guessed at.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oracles/runner/clause_registry.h"
#include "oracles/runner/diagnostic.h"

namespace gemini_oracle::mutants {

/// The public bug a fault reproduces, and the case of fixtures/bugs/ that must kill it.
struct BugReport {
  std::string project;  // "Vercel AI SDK"
  std::string report;   // what went wrong, in a line
  std::string case_id;  // "bugs/y_native_id_echoed_not_replaced"
};

struct Fault {
  std::string id;  // "builder.response_id_omitted"
  std::vector<std::string> clauses;
  std::string file;      // "reference_impl/request_builder.cc"
  std::string function;  // "BuildResults"
  std::string description;
  std::optional<BugReport> bug;
  /// Why no case can kill it (it changes nothing observable); such a fault is listed apart
  /// and not counted in the score.
  std::optional<std::string> equivalent;
  /// The fault that must be killed before any other runs: proof the harness can kill.
  bool canary = false;

  /// The id's first segment ("builder"): the mutator name in the Stryker report.
  std::string Group() const;
};

struct Catalogue {
  std::vector<Fault> faults;  // in file order

  const Fault* Find(std::string_view id) const;
  const Fault* Canary() const;
};

struct CatalogueLoad {
  Catalogue catalogue;
  std::vector<runner::Diagnostic> diagnostics;
  bool ok() const { return diagnostics.empty(); }
};

/// Parses and checks a catalogue text. `display_name` names the file in diagnostics. Rules:
/// catalogue.json (not strict JSON), catalogue.shape (not an array of objects, a member of
/// the wrong kind or missing), catalogue.member (an unknown member: a typo never passes),
/// catalogue.id (malformed or repeated), catalogue.clause (not in the registry),
/// catalogue.canary (not exactly one canary, or an equivalent one), catalogue.bug (a case id
/// outside bugs/, or one named twice).
CatalogueLoad ParseCatalogue(std::string_view text, const std::string& display_name,
                             const runner::ClauseRegistry& registry);

/// Reads and parses a catalogue file (rule catalogue.read when it cannot be read).
CatalogueLoad LoadCatalogue(const std::filesystem::path& file, const std::string& display_name,
                            const runner::ClauseRegistry& registry);

/// <source root>/mutants/catalogue.json.
std::filesystem::path CataloguePath(const std::filesystem::path& source_root);

}  // namespace gemini_oracle::mutants
