#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>

#include "apps/gemini-oracle/commands.h"
#include "mutants/catalogue.h"
#include "mutants/proofs.h"
#include "oracles/checks/judge.h"
#include "oracles/model/streamed_twin.h"
#include "oracles/runner/case_loader.h"

namespace gemini_oracle::cli {
namespace {

// One Markdown row of the traceability table.
void PrintRow(const nlohmann::json& row, std::ostream& out) {
  std::string oracles;
  for (const auto& o : row["oracles"])
    oracles += (oracles.empty() ? "" : ", ") + o.get<std::string>();
  std::string status_text = row["status"].get<std::string>();
  if (status_text == "pending") status_text += ": " + row["pending"].get<std::string>();
  if (status_text == "covered" && !row["partial"].get<std::string>().empty()) {
    status_text += " except " + row["partial"].get<std::string>();
  }
  if (const auto when = row["not_judged_when"].get<std::string>(); !when.empty()) {
    status_text += "; not judged when " + when;
  }
  std::string profiles;
  for (const auto& p : row["profiles"])
    profiles += (profiles.empty() ? "" : ", ") + p.get<std::string>();
  // Proving faults when a current report says so (* marks a fault only this clause's
  // findings killed); otherwise the catalogued ones, unconfirmed.
  std::string faults;
  const bool confirmed = row["proof"] != "unknown";
  for (const auto& f : confirmed ? row["proving_faults"] : row["catalogued_faults"]) {
    const std::string id = f.get<std::string>();
    const bool only = std::find(row["sole_faults"].begin(), row["sole_faults"].end(), f) !=
                      row["sole_faults"].end();
    faults += (faults.empty() ? "" : ", ") + id + (only ? "*" : "");
  }
  if (!confirmed && !faults.empty()) faults += " (not run)";
  if (row["proof"] == "unproven") status_text += "; UNPROVEN: no killed fault proves its oracles";
  out << "| " << row["id"].get<std::string>() << " | " << row["level"].get<std::string>() << " | "
      << row["cases"].size() << " | " << (oracles.empty() ? "-" : oracles) << " | "
      << (faults.empty() ? "-" : faults) << " | " << profiles << " | " << status_text << " |\n";
}

// The rows of one kind: the ADRs' must and open clauses, or the beyond ones.
void PrintTable(const nlohmann::json& table, bool beyond, std::ostream& out) {
  out << "| clause | level | cases | oracles | faults | profiles | status |\n"
         "|---|---|---|---|---|---|---|\n";
  for (const auto& row : table) {
    if ((row["level"] == "beyond") == beyond) PrintRow(row, out);
  }
}

}  // namespace

// Traceability: every clause, the cases citing it, the judges checking it and the killed
// faults proving those judges. A must-clause without a case fails, unless the registry marks
// it pending with the reason; so does one that a current, whole mutation report leaves
// unproven.
int ClausesCommand(const ClausesArgs& args, std::ostream& out, std::ostream& err) {
  std::optional<runner::CaseLoader> loader;
  runner::CorpusCheck corpus;
  try {
    loader.emplace(runner::CaseLoader::FromSourceRoot(args.source_root));
    corpus = runner::CheckCorpus(args.fixtures, *loader);
    corpus.cases = model::WithStreamedTwins(corpus.cases);  // INTERPRETING §5.5
  } catch (const std::exception& e) {
    err << "gemini-oracle clauses: " << e.what() << "\n";
    return kExitBadInput;
  }
  std::map<std::string, std::vector<std::string>> cases_of;
  for (const auto& c : corpus.cases) {
    for (const auto& id : c.clauses) cases_of[id].push_back(c.id);
    // An assertion on a member outside `contents` is evidence for REF.B1 whatever it cites.
    const bool fidelity = std::any_of(c.expect.wire.begin(), c.expect.wire.end(),
                                      &checks::PinsUngovernedMembers);
    auto& ref = cases_of[std::string(checks::kRecordingFidelity)];
    if (fidelity && std::find(ref.begin(), ref.end(), c.id) == ref.end()) ref.push_back(c.id);
  }
  const auto catalogue_file = mutants::CataloguePath(args.source_root);
  const auto catalogue =
      mutants::LoadCatalogue(catalogue_file, DisplayPath(catalogue_file), loader->registry());
  for (const auto& d : catalogue.diagnostics) err << runner::FormatDiagnostic(d) << "\n";
  std::map<std::string, std::vector<std::string>> faults_of;
  for (const auto& fault : catalogue.catalogue.faults) {
    if (fault.canary) continue;
    for (const auto& id : fault.clauses) faults_of[id].push_back(fault.id);
  }
  const mutants::ClauseProofs proofs = mutants::ReadClauseProofs(
      args.mutants_report, args.source_root, args.fixtures, catalogue_file);
  std::map<std::string, std::set<std::string>> judges_of;
  for (const auto& judge : checks::Judges()) {
    for (const auto& id : judge.clauses) judges_of[std::string(id)].insert(std::string(judge.name));
  }

  int status = corpus.ok() && catalogue.ok() ? 0 : kExitBadInput;
  if (!corpus.ok()) {
    // The table below counts only the cases that loaded; say why the exit status is 4.
    for (auto d : corpus.diagnostics) {
      d.file = DisplayPath(d.file);
      err << runner::FormatDiagnostic(d) << "\n";
    }
    err << "gemini-oracle clauses: " << corpus.diagnostics.size()
        << " problem(s) in the fixtures (listed above); their cases are not counted below\n";
  }
  std::size_t uncovered = 0, unproven = 0;
  nlohmann::json table = nlohmann::json::array();
  for (const auto& clause : loader->registry().clauses()) {
    const auto& cases = cases_of[clause.id];
    const auto& judges = judges_of[clause.id];
    const bool must = clause.level == runner::Level::kMust;
    const bool pending = !clause.pending.empty();
    const bool missing = must && cases.empty() && !pending;
    if (missing) ++uncovered;
    nlohmann::json row = nlohmann::json::object();
    row["id"] = clause.id;
    row["level"] = std::string(runner::ToString(clause.level));
    // must: every implementation; open: with --strict; beyond: the reference implementation.
    row["gates"] = must ? "all" : clause.level == runner::Level::kOpen ? "strict" : "reference";
    row["cases"] = cases;
    row["oracles"] = std::vector<std::string>(judges.begin(), judges.end());
    row["pending"] = clause.pending;
    row["partial"] = clause.partial;
    row["profiles"] = clause.profiles.empty() ? std::vector<std::string>{"adr", "gemini"}
                                              : clause.profiles;
    row["not_judged_when"] = clause.not_judged_when;
    // Faults: those the catalogue says prove the clause, and those a current mutation report
    // shows killed by findings of it (`sole`: by no other clause's findings).
    row["catalogued_faults"] = faults_of[clause.id];
    const auto& proving = proofs.proving.count(clause.id) ? proofs.proving.at(clause.id)
                                                          : std::set<std::string>{};
    const auto& sole = proofs.sole.count(clause.id) ? proofs.sole.at(clause.id)
                                                    : std::set<std::string>{};
    row["proving_faults"] = std::vector<std::string>(proving.begin(), proving.end());
    row["sole_faults"] = std::vector<std::string>(sole.begin(), sole.end());
    const bool report_counts = proofs.unusable.empty();
    row["proof"] = !report_counts     ? "unknown"
                   : !proving.empty() ? "proven"
                   : !must            ? "none"
                   : pending          ? "pending"
                                      : "unproven";
    if (row["proof"] == "unproven") ++unproven;
    // Only a must-clause without a case fails; open and beyond ones are shown as such.
    row["status"] = !cases.empty() ? "covered"
                    : missing      ? "uncovered"
                    : pending      ? "pending"
                                   : "no case";
    table.push_back(std::move(row));
  }
  if (args.json) {
    out << table.dump(2) << "\n";
  } else {
    // The ADRs' own clauses first; beyond ones, which gate the reference alone, apart.
    PrintTable(table, /*beyond=*/false, out);
    out << "\nBeyond the ADRs: gate the reference implementation only, reported for others "
           "(INTERPRETING §9)\n\n";
    PrintTable(table, /*beyond=*/true, out);
  }
  std::size_t covered = 0;
  std::string pending;
  for (const auto& row : table) {
    if (row["status"] == "covered") ++covered;
    if (row["status"] == "pending") pending += " " + row["id"].get<std::string>();
    if (row["status"] == "uncovered") {
      err << "gemini-oracle clauses: must-clause " << row["id"].get<std::string>()
          << " has no case\n";
    }
  }
  err << "gemini-oracle clauses: " << covered << " of " << table.size()
      << " clauses have cases; pending must-clauses:" << (pending.empty() ? " none" : pending)
      << "\n";
  if (proofs.unusable.empty()) {
    err << "gemini-oracle clauses: mutation proofs from " << DisplayPath(args.mutants_report)
        << ": " << unproven << " must-clause(s) unproven ('*': only this clause's findings "
           "killed the fault)\n";
    for (const auto& row : table) {
      if (row["proof"] == "unproven") {
        err << "gemini-oracle clauses: must-clause " << row["id"].get<std::string>()
            << " is proven by no killed fault\n";
      }
    }
  } else {
    err << "gemini-oracle clauses: faults not confirmed: " << DisplayPath(args.mutants_report)
        << ": " << proofs.unusable << "\n";
    // A report asked for by name that proves nothing is a check that could not run.
    if (args.mutants_report_given) status |= kExitBadInput;
  }
  if (uncovered > 0 || unproven > 0) status |= kExitConformance;
  return status;
}

}  // namespace gemini_oracle::cli
