#include <iomanip>
#include <iostream>
#include <map>
#include <set>

#include "apps/gemini-oracle/commands.h"
#include "oracles/checks/judge.h"
#include "oracles/runner/case_loader.h"

namespace gemini_oracle::cli {

// Traceability: every clause, the cases citing it and the judges checking it. A must-clause
// without a case fails, unless the registry marks it pending with the reason.
int ClausesCommand(const ClausesArgs& args, std::ostream& out, std::ostream& err) {
  std::optional<runner::CaseLoader> loader;
  runner::CorpusCheck corpus;
  try {
    loader.emplace(runner::CaseLoader::FromSourceRoot(args.source_root));
    corpus = runner::CheckCorpus(args.fixtures, *loader);
  } catch (const std::exception& e) {
    err << "gemini-oracle clauses: " << e.what() << "\n";
    return kExitBadInput;
  }
  std::map<std::string, std::vector<std::string>> cases_of;
  for (const auto& c : corpus.cases) {
    for (const auto& id : c.clauses) cases_of[id].push_back(c.id);
  }
  std::map<std::string, std::set<std::string>> judges_of;
  for (const auto& judge : checks::Judges()) {
    for (const auto& id : judge.clauses) judges_of[std::string(id)].insert(std::string(judge.name));
  }

  int status = corpus.ok() ? 0 : kExitBadInput;
  if (!corpus.ok()) {
    // The table below counts only the cases that loaded; say why the exit status is 4.
    for (auto d : corpus.diagnostics) {
      d.file = DisplayPath(d.file);
      err << runner::FormatDiagnostic(d) << "\n";
    }
    err << "gemini-oracle clauses: " << corpus.diagnostics.size()
        << " problem(s) in the fixtures (listed above); their cases are not counted below\n";
  }
  std::size_t uncovered = 0;
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
    row["cases"] = cases;
    row["oracles"] = std::vector<std::string>(judges.begin(), judges.end());
    row["pending"] = clause.pending;
    row["partial"] = clause.partial;
    row["profiles"] = clause.profiles.empty() ? std::vector<std::string>{"adr", "gemini"}
                                              : clause.profiles;
    row["not_judged_when"] = clause.not_judged_when;
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
    out << "| clause | level | cases | oracles | profiles | status |\n|---|---|---|---|---|---|\n";
    for (const auto& row : table) {
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
      out << "| " << row["id"].get<std::string>() << " | " << row["level"].get<std::string>()
          << " | " << row["cases"].size() << " | " << (oracles.empty() ? "-" : oracles) << " | "
          << profiles << " | " << status_text << " |\n";
    }
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
  if (uncovered > 0) status |= kExitConformance;
  return status;
}

}  // namespace gemini_oracle::cli
