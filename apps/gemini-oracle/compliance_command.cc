// gemini-oracle compliance: reads the reports and the clause registry, then writes the
// compliance table (reports/compliance.h).
#include <ostream>

#include "apps/gemini-oracle/commands.h"
#include "apps/gemini-oracle/report_commands.h"
#include "oracles/runner/clause_registry.h"
#include "reports/compliance.h"
#include "reports/report_file.h"

namespace gemini_oracle::cli {
namespace {

// The registry as the page needs it; levels spelled as in clauses.json.
nlohmann::json ClauseRows(const runner::ClauseRegistry& registry) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& clause : registry.clauses()) {
    rows.push_back({{"id", clause.id},
                    {"level", std::string(runner::ToString(clause.level))},
                    {"summary", clause.summary},
                    {"profiles", clause.profiles}});
  }
  return rows;
}

}  // namespace

int ComplianceCommand(const ComplianceArgs& args, std::ostream& out, std::ostream& err) {
  if (args.reports.empty()) {
    err << "gemini-oracle compliance: needs at least one report ([LABEL=]PATH)\n";
    return kExitBadInput;
  }
  // Everything is read before anything is written: bad input leaves no half table.
  std::vector<reports::ComplianceInput> inputs;
  nlohmann::json clauses;
  try {
    for (const auto& argument : args.reports) {
      const std::size_t eq = argument.find('=');
      std::string label = eq == std::string::npos ? std::string() : argument.substr(0, eq);
      const std::string path = eq == std::string::npos ? argument : argument.substr(eq + 1);
      reports::LoadedReport report = reports::LoadReport(path);
      if (label.empty()) {
        const auto context = report.index.find("context");
        if (context != report.index.end() && context->is_object()) {
          label = context->value("implementation", std::string());
        }
      }
      if (label.empty()) label = path;
      inputs.push_back({std::move(label), std::move(report)});
    }
    clauses = ClauseRows(runner::ClauseRegistry::Load(runner::ClausesPath(args.source_root)));
  } catch (const std::exception& e) {
    err << "gemini-oracle compliance: " << e.what() << "\n";
    return kExitBadInput;
  }
  nlohmann::json compliance;
  try {
    compliance = reports::BuildCompliance(inputs, clauses);
  } catch (const std::invalid_argument& e) {
    err << "gemini-oracle compliance: " << e.what() << "\n";
    return kExitBadInput;
  }
  std::error_code error;
  std::filesystem::create_directories(args.out, error);
  if (error || !std::filesystem::is_directory(args.out, error)) {
    err << "gemini-oracle compliance: --out: " << DisplayPath(args.out)
        << ": cannot create the folder\n";
    return kExitBadInput;
  }
  try {
    reports::WriteCompliance(compliance, args.out);
  } catch (const std::exception& e) {
    err << "gemini-oracle compliance: " << e.what() << "\n";
    return kExitHarness;
  }
  for (const auto& warning : compliance["warnings"]) {
    err << "gemini-oracle compliance: warning: " << warning.get<std::string>() << "\n";
  }
  out << "gemini-oracle compliance: " << inputs.size() << " implementations, "
      << compliance["clauses"].size() << " clauses, " << compliance["disagreements"].size()
      << " cases where they disagree\n";
  out << "reports: " << DisplayPath(args.out) << "/{README.md,index.html,compliance.json}\n";
  return 0;
}

}  // namespace gemini_oracle::cli
