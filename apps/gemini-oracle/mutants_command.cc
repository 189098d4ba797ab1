#include <fnmatch.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "apps/gemini-oracle/commands.h"
#include "mutants/catalogue.h"
#include "mutants/fingerprint.h"
#include "mutants/harness.h"
#include "mutants/index_section.h"
#include "mutants/stryker_report.h"
#include "oracles/model/streamed_twin.h"
#include "oracles/runner/case_loader.h"
#include "oracles/runner/run_context.h"
#include "reference_impl/fault.h"
#include "reports/index.h"
#include "reports/write_all.h"

namespace gemini_oracle::cli {
namespace {

std::string Seconds(double milliseconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f s", milliseconds / 1000.0);
  return text;
}

bool IsPattern(const std::string& filter) {
  return filter.find_first_of("*?[") != std::string::npos || filter.ends_with(".");
}

bool Matches(const std::string& filter, const std::string& id) {
  if (filter.ends_with(".")) return id.rfind(filter, 0) == 0;
  if (filter.find_first_of("*?[") != std::string::npos) {
    return ::fnmatch(filter.c_str(), id.c_str(), 0) == 0;
  }
  return filter == id;
}

}  // namespace

int MutantsCommand(const MutantsArgs& args, std::ostream& out, std::ostream& err) {
  const char* name = "gemini-oracle mutants: ";
  if (!ref::fault::kCompiledIn) {
    err << name
        << "this gemini-oracle has no fault points compiled in; build the mutants preset "
           "(./scripts/build mutants) and run build-mutants/bin/gemini-oracle mutants\n";
    return kExitBadInput;
  }
  std::optional<runner::CaseLoader> loader;
  runner::CorpusCheck corpus;
  mutants::CatalogueLoad catalogue;
  const auto catalogue_file =
      args.catalogue.empty() ? mutants::CataloguePath(args.source_root) : args.catalogue;
  try {
    loader.emplace(runner::CaseLoader::FromSourceRoot(args.source_root));
    catalogue =
        mutants::LoadCatalogue(catalogue_file, DisplayPath(catalogue_file), loader->registry());
    corpus = runner::CheckCorpus(args.fixtures, *loader, args.jobs);
    corpus.cases = model::WithStreamedTwins(corpus.cases);  // INTERPRETING §5.5
  } catch (const std::exception& e) {
    err << name << e.what() << "\n";
    return kExitBadInput;
  }
  for (const auto& d : catalogue.diagnostics) err << runner::FormatDiagnostic(d) << "\n";
  for (auto d : corpus.diagnostics) {
    d.file = DisplayPath(d.file);
    err << runner::FormatDiagnostic(d) << "\n";
  }
  if (!catalogue.ok() || !corpus.ok()) {
    err << name << "the catalogue or the corpus has problems (listed above); no fault was run\n";
    return kExitBadInput;
  }
  if (corpus.cases.empty()) {
    err << name << "no case found under " << DisplayPath(args.fixtures) << "\n";
    return kExitBadInput;
  }
  // A program older than its sources would report kills of code that no longer exists.
  if (const auto stale = mutants::StaleProgram(args.source_root)) {
    err << name << *stale << "\n";
    return kExitBadInput;
  }
  if (const auto unknown = mutants::FirstUnknownFault(catalogue.catalogue)) {
    err << name << "unknown fault id '" << *unknown << "' in " << DisplayPath(catalogue_file)
        << ": this build has no fault point for it (rebuild the mutants tree)\n";
    return kExitBadInput;
  }
  std::size_t uncatalogued = 0;
  for (const auto& point : ref::fault::Points()) {
    if (catalogue.catalogue.Find(point.id) == nullptr) ++uncatalogued;
  }

  // Which faults: every one, or those the filters name (an id, a group prefix "parser.", or
  // a glob). A filter naming no fault is an error, never an empty run that passes.
  std::vector<std::string> selected;
  for (const auto& filter : args.filters) {
    const auto* named = catalogue.catalogue.Find(filter);
    if (!IsPattern(filter) && named == nullptr) {
      err << name << "--filter: unknown fault id '" << filter << "' (see "
          << DisplayPath(catalogue_file) << ")\n";
      return kExitBadInput;
    }
    if (named != nullptr && named->canary) {
      err << name << "--filter: " << filter
          << " is the canary, which every run kills first; filter the faults to run after it\n";
      return kExitBadInput;
    }
  }
  for (const auto& fault : catalogue.catalogue.faults) {
    if (fault.canary) continue;
    bool wanted = args.filters.empty();
    for (const auto& filter : args.filters) wanted = wanted || Matches(filter, fault.id);
    if (wanted) selected.push_back(fault.id);
  }
  if (selected.empty() && !args.filters.empty()) {
    err << name << "--filter selects none of the faults of " << DisplayPath(catalogue_file)
        << "; a filter is a fault id, a group prefix ending in '.' (parser.) or a glob\n";
    return kExitBadInput;
  }
  // Held until the mutation run ends: another run into this folder would replace its files.
  std::optional<reports::ReportDirLock> report_lock;
  try {
    report_lock.emplace(args.report_dir);
    reports::PrepareReportDir(args.report_dir, true);
  } catch (const std::exception& e) {
    err << name << "--report-dir: " << e.what() << "\n";
    return kExitBadInput;
  }
  if (std::getenv("GEMINI_ORACLE_FAULT") != nullptr) {
    err << name << "GEMINI_ORACLE_FAULT is ignored: this command chooses the faults itself\n";
  }
  out << name << selected.size() << " faults and the canary over " << corpus.cases.size()
      << " cases, jobs " << args.jobs << ", seed " << args.seed << "\n";
  if (uncatalogued > 0) {
    out << name << uncatalogued << " fault point(s) of this build are not in "
        << DisplayPath(catalogue_file) << " and are not run\n";
  }

  mutants::HarnessOptions options;
  options.cases = corpus.cases;
  options.registry = &loader->registry();
  options.catalogue = catalogue.catalogue;
  options.selected = selected;
  options.whole_catalogue = args.filters.empty();
  options.jobs = args.jobs;
  options.case_timeout = args.case_timeout;
  options.fault_time_limit = args.fault_timeout;
  options.seed = args.seed;
  options.relative_to = std::filesystem::absolute(args.source_root);
  options.activate = args.activate;
  std::vector<std::string> equivalent_lines;
  options.on_result = [&](const mutants::FaultResult& r) {
    const std::string line = mutants::FaultLine(r);
    if (r.fault.canary) {
      out << "canary: " << line << "\n";
    } else if (r.fault.equivalent && r.status == mutants::Status::kIgnored) {
      equivalent_lines.push_back(line);
    } else {
      out << line << "\n";
    }
    for (const auto& problem : r.problems) out << "  problem: " << problem << "\n";
  };
  mutants::MutationRun run;
  try {
    run = mutants::RunMutants(options);
  } catch (const std::invalid_argument& e) {
    err << name << e.what() << "\n";
    return kExitBadInput;
  }

  const nlohmann::json section = mutants::MutationSection(run, options.whole_catalogue);
  if (!equivalent_lines.empty()) {
    out << "equivalent faults (not counted; the catalogue argues why none can be killed):\n";
    for (const auto& line : equivalent_lines) out << "  " << line << "\n";
  }
  int status = 0;
  if (run.stop != mutants::MutationRun::Stop::kNone) {
    err << name << "stopped: " << run.stop_reason << "\n";
    status |= kExitHarness;
  } else {
    const auto& counts = section["counts"];
    out << "mutation score: " << section["score"].dump() << "% (" << counts["killed"].dump()
        << " killed of "
        << (counts["total"].get<std::size_t>() - counts["equivalent"].get<std::size_t>()) << ", "
        << counts["survived"].dump() << " survived, " << counts["runtime_errors"].dump()
        << " runtime errors, " << counts["timeouts"].dump() << " timeouts; "
        << counts["equivalent"].dump() << " equivalent, not counted)\n";
    std::size_t bug_faults = 0, bug_kills = 0;
    for (const auto& row : section["faults"]) {
      if (!row.contains("bug")) continue;
      ++bug_faults;
      if (row["bug"].value("killed", false)) ++bug_kills;
    }
    const std::size_t runs = run.faults.size() + 1;  // and the canary
    out << "time: baseline " << Seconds(run.baseline_ms) << ", " << runs << " fault runs "
        << Seconds(run.mutation_ms) << " (" << Seconds(run.mutation_ms / static_cast<double>(runs))
        << " each, " << args.jobs << " at a time)\n";
    out << "bug cases: " << bug_kills << " of " << bug_faults
        << " kill the fault that reproduces their bug\n";
    for (const auto& id : run.unpaired_bug_cases) {
      out << "problem: bug case " << id << " is paired with no fault (bug.case in the catalogue)\n";
    }
    for (const auto& [clause, reason] : run.unproven_must_clauses) {
      if (reason.empty()) {
        out << "problem: must-clause " << clause << " is proven by no killed fault\n";
      } else {
        out << "not yet provable: " << clause << ": " << reason << "\n";
      }
    }
    if (!run.must_clauses_without_sole_proof.empty()) {
      out << "note: proven, but by no fault that only its own findings kill:";
      for (const auto& clause : run.must_clauses_without_sole_proof) out << " " << clause;
      out << "\n";
    }
    if (!options.whole_catalogue) {
      out << "(filtered run: bug pairing and must-clause proofs are checked on whole runs only)\n";
    }
    if (!run.Clean()) status |= kExitConformance;
    if (run.Count(mutants::Status::kRuntimeError) + run.Count(mutants::Status::kTimeout) > 0) {
      status |= kExitHarness;
    }
  }

  nlohmann::json context = nlohmann::json::object();
  context["tool"] = "gemini-oracle";
  context["tool_version"] = GEMINI_ORACLE_VERSION;
  context["implementation"] = "reference (mutation run baseline)";
  context["seed"] = args.seed;
  context["jobs"] = args.jobs;
  context["filter"] = [&] {
    std::string joined;
    for (const auto& f : args.filters) joined += (joined.empty() ? "" : " ") + f;
    return joined;
  }();
  context["case_timeout_ms"] = args.case_timeout.count();
  context["clause_levels"] = runner::ClauseLevels(loader->registry());
  nlohmann::json index = reports::BuildIndex(context, run.baseline_results);
  index["mutation"] = section;

  mutants::StrykerInput stryker;
  stryker.section = section;
  stryker.baseline_results = run.baseline_results;
  stryker.source_root = args.source_root;
  stryker.tool_version = GEMINI_ORACLE_VERSION;
  stryker.ci = std::getenv("CI") != nullptr;
  stryker.config = nlohmann::json::object();
  stryker.config["catalogue"] = DisplayPath(catalogue_file);
  stryker.config["filter"] = context["filter"];
  stryker.config["whole_catalogue"] = options.whole_catalogue;
  stryker.config["jobs"] = args.jobs;
  stryker.config["seed"] = args.seed;
  stryker.config["case_timeout_ms"] = args.case_timeout.count();
  stryker.config["fixtures"] = DisplayPath(args.fixtures);
  stryker.config["fingerprint"] =
      mutants::SourceFingerprint(args.source_root, args.fixtures, catalogue_file);
  stryker.config["clean"] = section["clean"];
  stryker.config["stop_reason"] = run.stop_reason;
  const nlohmann::json stryker_report = mutants::StrykerReport(stryker);
  std::vector<std::string> written;
  try {
    reports::WriteAll(index, args.report_dir, &stryker_report, &written);
  } catch (const std::exception& e) {
    err << name << e.what() << "\n";
    status |= kExitHarness;
  }
  std::vector<std::string> order = {reports::kMutantsReportName};
  for (const auto& file : reports::ReportFileNames()) order.push_back(file);
  out << "reports: " << reports::WrittenReports(DisplayPath(args.report_dir), order, written)
      << "\n";
  return status;
}

}  // namespace gemini_oracle::cli
