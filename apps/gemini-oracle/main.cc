// gemini-oracle: the conformance gate, the corpus checker and the traceability table.

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>
#include <thread>

#include "apps/gemini-oracle/commands.h"
#include "apps/gemini-oracle/report_commands.h"
#include "oracles/runner/descendants.h"

namespace cli = gemini_oracle::cli;

namespace {

// CLI11's own range check prints the bound of the type (a 309-digit number for size_t).
std::string AtLeastOne(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
    return "takes a whole number of at least 1, got '" + text + "'";
  }
  if (text.find_first_not_of('0') == std::string::npos) return "takes a number of at least 1";
  return {};
}

// From 1 to `most`, checked on the text: CLI11 saturates a number too large for the type.
std::function<std::string(const std::string&)> AtMost(std::size_t most) {
  return [most](const std::string& text) {
    std::string problem = AtLeastOne(text);
    const std::string bound = std::to_string(most);
    const std::string digits = text.substr(std::min(text.find_first_not_of('0'), text.size()));
    if (problem.empty() &&
        (digits.size() > bound.size() || (digits.size() == bound.size() && digits > bound))) {
      problem = "takes a number from 1 to " + bound;
    }
    return problem;
  };
}

// A path option whose empty value would silently mean the working folder.
std::string NotEmpty(const std::string& text) {
  return text.empty() ? "needs a path, got an empty one" : std::string();
}

std::string Seconds(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
      text.size() > 7) {
    return "takes whole seconds from 0 (no limit) to 9999999, got '" + text + "'";
  }
  return {};
}

// Whatever escapes a command (a port that cannot be bound, a thread that cannot start, memory
// exhausted) ends the process with a message and the harness bit, never with an abort.
template <typename Command>
int Guarded(const char* name, Command command) {
  try {
    return command();
  } catch (const std::exception& e) {
    std::cerr << "gemini-oracle " << name << ": internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "gemini-oracle " << name << ": internal error\n";
  }
  return cli::kExitHarness;
}

}  // namespace

int main(int argc, char** argv) {
  // Line by line even into a pipe, so a run that is killed still shows its seed and progress.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  CLI::App app{"gemini-oracle: conformance oracles for Gemini generateContent adapters"};
  app.require_subcommand(1);
  app.set_version_flag("--version", GEMINI_ORACLE_VERSION);
  std::string source_root = cli::DefaultSourceRoot().string();
  app.add_option("--source-root", source_root, "Folder holding fixtures/ and oracles/clauses.json")
      ->capture_default_str();

  cli::RunArgs run;
  std::string run_fixtures, report_dir = "reports/latest";
  std::size_t max_fail = 0;
  std::uint64_t seed = 0;
  auto* run_cmd = app.add_subcommand("run", "Run the corpus against the reference implementation");
  run_cmd->add_option("--fixtures", run_fixtures,
                      "Fixture folder (default: <source-root>/fixtures)");
  run_cmd->add_option("--report-dir", report_dir, "Where index.json, junit.xml, summary.md go")
      ->capture_default_str();
  run_cmd->add_option("--filter", run.filter,
                      "Clause id prefix (ADR-226.3), feature (parallel) or glob (adr-224/y_*)");
  run_cmd->add_flag("--strict", run.strict, "Open-level findings gate too");
  run_cmd
      ->add_option("--profile", run.profile,
                   "Encodings judged: adr (these ADRs' own: numeric-key list results, one-member "
                   "fallback wrapper) or gemini (any object root that preserves the result)")
      ->check(CLI::IsMember({"adr", "gemini"}))
      ->capture_default_str();
  run_cmd->add_option("--jobs,-j", run.jobs, "Cases in parallel")->check(CLI::Range(1u, 256u));
  run_cmd->add_option("--shard", run.shard,
                      "Run shard i of n (stable by case id; default: TEST_SHARD_INDEX and "
                      "TEST_TOTAL_SHARDS when a test runner sets them, else 1/1)");
  run_cmd->add_flag("--fail-fast", run.fail_fast, "Stop after the first gating result");
  run_cmd->add_flag("!--no-twins", run.twins,
                    "Run the cases only as written, without their streamed twins "
                    "(fixtures/INTERPRETING.md §5.5)");
  auto* max_fail_opt = run_cmd->add_option("--max-fail", max_fail, "Stop after N gating results")
                           ->check(AtLeastOne, "N >= 1");
  unsigned case_timeout_s = 60;
  run_cmd
      ->add_option("--case-timeout", case_timeout_s,
                   "Seconds one case may take before its verdict is timeout (0: no limit)")
      ->check(Seconds, "SECONDS")
      ->capture_default_str();
  run_cmd->add_flag("--keep-requests", run.keep_requests,
                    "Keep the request bodies of every case in the reports (default: failures)");
  auto* seed_opt = run_cmd->add_option("--seed", seed, "Execution-order seed (printed)");
  run_cmd->add_option("--fault", run.fault,
                      "Run under one catalogued fault (mutants builds; default: the environment "
                      "variable GEMINI_ORACLE_FAULT, else none)");
  run_cmd
      ->add_option("--impl", run.impl,
                   "The implementation: builtin (the in-process reference) or a driver command "
                   "speaking the driver protocol (fixtures/INTERPRETING.md §15)")
      ->capture_default_str();
  run_cmd->add_option("--expect", run.expect,
                      "The implementation's known failures (JSON: {implementation, known: [{id, "
                      "reason, link}]}): listed failures are `known`, a listed pass gates as "
                      "`unexpected_pass`");
  run_cmd->add_option("--error-map", run.error_map,
                      "With --impl: the driver's error classes mapped to the catalogue's codes "
                      "(JSON: {implementation, map: {class: code}}); without it, a driver "
                      "lacking typed-errors has its refusals judged without their code");
  std::string run_key_file;
  run_cmd->add_option("--store", run.store,
                      "Suspend and resume every conversation after every turn through this store: "
                      "sqlite:PATH or mariadb://USER@HOST:PORT/DB (password from "
                      "GEMINI_ORACLE_MARIADB_PASSWORD, never here)");
  run_cmd->add_option("--store-key-file", run_key_file,
                      "Key file for --store (default: GEMINI_ORACLE_STATE_KEY_FILE or "
                      "GEMINI_ORACLE_STATE_KEY, else an ephemeral key)");

  cli::StoreArgs store;
  std::string store_key_file;
  auto* store_cmd = app.add_subcommand(
      "store",
      "State store keys and maintenance: keygen, rekey (re-encrypt under the current "
      "key), info");
  store_cmd->add_option("action", store.action, "keygen | rekey | info")
      ->required()
      ->check(CLI::IsMember({"keygen", "rekey", "info"}));
  store_cmd->add_option("--store", store.store, "Store URL (rekey, info)");
  std::string store_out;
  store_cmd
      ->add_option("--out", store_out,
                   "keygen: create this key file (mode 600, never replacing a file) instead of "
                   "printing the key")
      ->check(NotEmpty);
  store_cmd->add_option("--key-file", store_key_file,
                        "Key file, current key first (default: GEMINI_ORACLE_STATE_KEY_FILE or "
                        "GEMINI_ORACLE_STATE_KEY)");

  cli::CheckArgs check;
  std::string check_fixtures;
  std::vector<std::string> check_paths;
  auto* check_cmd = app.add_subcommand("check", "Validate fixture files (schema and rules)");
  check_cmd->add_option("--fixtures", check_fixtures, "Fixture folder");
  check_cmd->add_option("paths", check_paths,
                        "Case files or folders to check (default: the whole corpus)");

  cli::ClausesArgs clauses;
  std::string clauses_fixtures;
  auto* clauses_cmd = app.add_subcommand("clauses", "Traceability: clause -> cases -> oracles");
  clauses_cmd->add_option("--fixtures", clauses_fixtures, "Fixture folder");
  clauses_cmd->add_flag("--json", clauses.json, "Print the table as JSON");
  std::string clauses_mutants = clauses.mutants_report.string();
  auto* clauses_mutants_opt = clauses_cmd->add_option(
      "--mutants", clauses_mutants,
      "Mutation report whose kills prove the clauses' oracles (gemini-oracle mutants)");
  clauses_mutants_opt->capture_default_str();

  cli::GenerateArgs generate;
  auto* generate_cmd = app.add_subcommand(
      "generate", "Write generated scenarios as case files (the same seed, the same bytes)");
  generate_cmd->add_option("--seed", generate.seed, "Seed of the whole set")->capture_default_str();
  generate_cmd
      ->add_option("--count", generate.count,
                   "How many cases of each family (1 to " +
                       std::to_string(cli::kMaxGenerateCount) + ")")
      ->check(AtMost(cli::kMaxGenerateCount))
      ->capture_default_str();
  generate_cmd->add_option("--out", generate.out, "Folder to write them into")
      ->required()
      ->check(NotEmpty);
  generate_cmd
      ->add_option("--family", generate.family,
                   "Which generator: all, parallel_calls, conversation or call_pieces")
      ->capture_default_str();

  cli::MutantsArgs mutants;
  std::string mutants_fixtures, mutants_catalogue;
  std::string mutants_report_dir = "reports/latest";
  unsigned mutants_timeout_s = 20;
  auto* mutants_cmd = app.add_subcommand(
      "mutants", "Mutation run: baseline, canary, then the corpus under every catalogued fault");
  mutants_cmd->add_option("--filter", mutants.filters,
                          "Fault id, group prefix ending in '.' (parser.) or glob; repeatable");
  mutants.jobs = std::max(1u, std::thread::hardware_concurrency());
  mutants_cmd->add_option("--jobs,-j", mutants.jobs, "Fault runs at once (processes)")
      ->check(CLI::Range(1u, 256u))
      ->capture_default_str();
  mutants_cmd->add_option("--fixtures", mutants_fixtures,
                          "Fixture folder (default: <source-root>/fixtures)");
  mutants_cmd->add_option("--catalogue", mutants_catalogue,
                          "Fault catalogue (default: <source-root>/mutants/catalogue.json)");
  mutants_cmd
      ->add_option("--report-dir", mutants_report_dir,
                   "Where mutants.json, index.json, summary.md... go")
      ->capture_default_str();
  mutants_cmd->add_option("--seed", mutants.seed, "Execution-order seed of every run (printed)")
      ->capture_default_str();
  mutants_cmd
      ->add_option("--case-timeout", mutants_timeout_s,
                   "Seconds one case may take under a fault before it is a timeout (not a kill)")
      ->check(Seconds, "SECONDS")
      ->capture_default_str();

  unsigned fault_timeout_s = 0;
  mutants_cmd
      ->add_option("--fault-timeout", fault_timeout_s,
                   "Seconds one fault run may take before it is stopped as a Timeout (0: 30 s "
                   "plus ten baseline runs)")
      ->check(Seconds, "SECONDS")
      ->capture_default_str();

  cli::CompareArgs compare;
  std::vector<std::string> compare_reports;
  std::string compare_out = compare.out.string();
  auto* compare_cmd = app.add_subcommand(
      "compare", "Reports of several implementations side by side: where their verdicts differ");
  compare_cmd->add_option("reports", compare_reports, "index.json files or report folders (2+)")
      ->required();
  compare_cmd->add_option("--out", compare_out, "Where compare.md, compare.html, compare.json go")
      ->capture_default_str();

  cli::ComplianceArgs compliance;
  std::string compliance_out = compliance.out.string();
  auto* compliance_cmd = app.add_subcommand(
      "compliance",
      "The compliance table of several implementations: clause matrix, defects, disagreements");
  compliance_cmd
      ->add_option("reports", compliance.reports,
                   "[LABEL=]index.json file or report folder, one per implementation (the "
                   "label heads its column; default: its implementation name)")
      ->required();
  compliance_cmd
      ->add_option("--out", compliance_out, "Where README.md, index.html, compliance.json go")
      ->capture_default_str();

  cli::MergeArgs merge;
  std::vector<std::string> merge_reports;
  std::string merge_report_dir = merge.report_dir.string();
  auto* merge_cmd = app.add_subcommand(
      "merge", "Join the reports of one run's shards (run --shard i/n) into the whole run's");
  merge_cmd->add_option("reports", merge_reports, "The shards' index.json files or report folders")
      ->required();
  merge_cmd
      ->add_option("--report-dir", merge_report_dir,
                   "Where the merged index.json, junit.xml, summary.md go")
      ->capture_default_str();

  cli::ServeArgs serve;
  std::string serve_fixtures;
  unsigned serve_timeout_s = 0;
  auto* serve_cmd = app.add_subcommand(
      "serve", "Serve the corpus as an HTTP API for implementations that cannot run a driver");
  serve_cmd->add_option("--fixtures", serve_fixtures,
                        "Fixture folder (default: <source-root>/fixtures)");
  serve_cmd->add_option("--host", serve.host, "Address to listen on (loopback by default)")
      ->capture_default_str();
  serve_cmd->add_option("--port", serve.port, "Port (0: any free port, printed)")
      ->check(CLI::Range(0, 65535))
      ->capture_default_str();
  serve_cmd
      ->add_option("--report-dir", serve.report_dir,
                   "Each closed run's reports go to DIR/<run id>/")
      ->capture_default_str();
  serve_cmd->add_option("--jobs,-j", serve.jobs, "Case runs open at once, per run")
      ->check(CLI::Range(1u, 256u))
      ->capture_default_str();
  serve_cmd
      ->add_option("--case-timeout", serve_timeout_s,
                   "Seconds a client may take per case before its verdict is timeout (0: no limit)")
      ->check(Seconds, "SECONDS")
      ->capture_default_str();
  unsigned serve_idle_s = 1800;
  serve_cmd
      ->add_option("--run-idle", serve_idle_s,
                   "Seconds without a client request after which an open run is closed (its "
                   "reports written) to make room for a new one (0: never)")
      ->check(Seconds, "SECONDS")
      ->capture_default_str();
  serve_cmd->add_option("--max-runs", serve.max_runs, "Runs open at once (more get 429)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000}))
      ->capture_default_str();
  serve_cmd->add_option("--seed", serve.seed, "Execution-order seed of every run")
      ->capture_default_str();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int status = app.exit(e);
    return status == 0 ? 0 : cli::kExitBadInput;
  }
  const std::filesystem::path root(source_root);
  const auto fixtures_or = [&](const std::string& given) {
    return given.empty() ? root / "fixtures" : std::filesystem::path(given);
  };
  // The commands that start processes (drivers, fault runs) end them on every way out,
  // signals included; before any thread starts, since threads inherit the blocked signals.
  if (*run_cmd || *mutants_cmd) {
    gemini_oracle::runner::descendants::EndAllOnExit(*run_cmd ? "gemini-oracle run"
                                                              : "gemini-oracle mutants");
  }
  if (*run_cmd) {
    run.source_root = root;
    run.fixtures = fixtures_or(run_fixtures);
    run.report_dir = report_dir;
    if (*max_fail_opt) run.max_fail = max_fail;
    if (*seed_opt) run.seed = seed;
    run.case_timeout = std::chrono::seconds(case_timeout_s);
    run.progress = isatty(STDERR_FILENO) != 0;
    run.store_key_file = run_key_file;
    return Guarded("run", [&] { return cli::RunCommand(run, std::cout, std::cerr); });
  }
  if (*serve_cmd) {
    serve.source_root = root;
    serve.fixtures = fixtures_or(serve_fixtures);
    serve.case_timeout = std::chrono::seconds(serve_timeout_s);
    serve.run_idle = std::chrono::seconds(serve_idle_s);
    return Guarded("serve", [&] { return cli::ServeCommand(serve, std::cout, std::cerr); });
  }
  if (*store_cmd) {
    store.key_file = store_key_file;
    store.out = store_out;
    return Guarded("store", [&] { return cli::StoreCommand(store, std::cout, std::cerr); });
  }
  if (*check_cmd) {
    check.source_root = root;
    check.fixtures = fixtures_or(check_fixtures);
    for (const auto& p : check_paths) check.paths.emplace_back(p);
    return Guarded("check", [&] { return cli::CheckCommand(check, std::cout, std::cerr); });
  }
  if (*generate_cmd) {
    return Guarded("generate",
                   [&] { return cli::GenerateCommand(generate, std::cout, std::cerr); });
  }
  if (*mutants_cmd) {
    mutants.source_root = root;
    mutants.fixtures = fixtures_or(mutants_fixtures);
    mutants.report_dir = mutants_report_dir;
    if (!mutants_catalogue.empty()) mutants.catalogue = mutants_catalogue;
    mutants.case_timeout = std::chrono::seconds(mutants_timeout_s);
    mutants.fault_timeout = std::chrono::seconds(fault_timeout_s);
    return Guarded("mutants", [&] { return cli::MutantsCommand(mutants, std::cout, std::cerr); });
  }
  if (*compare_cmd) {
    for (const auto& p : compare_reports) compare.reports.emplace_back(p);
    compare.out = compare_out;
    return Guarded("compare", [&] { return cli::CompareCommand(compare, std::cout, std::cerr); });
  }
  if (*compliance_cmd) {
    compliance.source_root = root;
    compliance.out = compliance_out;
    return Guarded("compliance",
                   [&] { return cli::ComplianceCommand(compliance, std::cout, std::cerr); });
  }
  if (*merge_cmd) {
    for (const auto& p : merge_reports) merge.reports.emplace_back(p);
    merge.report_dir = merge_report_dir;
    return Guarded("merge", [&] { return cli::MergeCommand(merge, std::cout, std::cerr); });
  }
  clauses.source_root = root;
  clauses.fixtures = fixtures_or(clauses_fixtures);
  clauses.mutants_report = clauses_mutants;
  clauses.mutants_report_given = clauses_mutants_opt->count() > 0;
  return Guarded("clauses", [&] { return cli::ClausesCommand(clauses, std::cout, std::cerr); });
}
