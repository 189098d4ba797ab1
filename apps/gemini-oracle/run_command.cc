#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>

#include "apps/gemini-oracle/commands.h"
#include "apps/gemini-oracle/exit_status.h"
#include "apps/gemini-oracle/store_settings.h"
#include "oracles/model/streamed_twin.h"
#include "oracles/runner/case_loader.h"
#include "oracles/runner/diagnostic.h"
#include "oracles/runner/error_map.h"
#include "oracles/runner/expectations.h"
#include "oracles/runner/process_driver.h"
#include "oracles/runner/reference_driver.h"
#include "oracles/runner/run_context.h"
#include "oracles/runner/suite_runner.h"
#include "reference_impl/fault.h"
#include "reference_impl/provider_error.h"
#include "reference_impl/store/state_store.h"
#include "reports/index.h"
#include "reports/write_all.h"

namespace gemini_oracle::cli {

std::filesystem::path DefaultSourceRoot() {
  if (const char* env = std::getenv("GEMINI_ORACLE_SOURCE_DIR"); env && *env) return env;
  return GEMINI_ORACLE_DEFAULT_SOURCE_DIR;
}

std::string DisplayPath(const std::filesystem::path& path) {
  // Made terminal-safe: a name holding ESC or a newline must not drive the terminal or split a
  // `file:line:col` line.
  std::error_code error;
  const auto cwd = std::filesystem::current_path(error);
  if (error) return runner::TerminalSafe(path.generic_string());
  const auto relative =
      std::filesystem::absolute(path, error).lexically_normal().lexically_relative(cwd);
  if (error || relative.empty() || *relative.begin() == "..") {
    return runner::TerminalSafe(path.generic_string());
  }
  return runner::TerminalSafe(relative.generic_string());
}

namespace {

std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::ostringstream out;
  out << std::put_time(&tm, "%Y-%m-%dT%H:%M:%SZ");
  return out.str();
}

std::uint64_t ClockSeed() {
  return static_cast<std::uint64_t>(
             std::chrono::high_resolution_clock::now().time_since_epoch().count()) %
         1000000007ULL;
}

// The shard to run: --shard, else the one a test runner names (TEST_SHARD_INDEX is 0-based,
// as Bazel and others set it), else 1/1. Writes the shard status file a runner asks for, which
// says the program honours sharding. nullopt (with a message) when malformed.
std::optional<runner::Shard> ShardToRun(const std::string& given, std::string& text,
                                        std::ostream& err) {
  if (!given.empty()) {
    text = given;
    auto shard = runner::ParseShard(given);
    if (!shard) {
      err << "gemini-oracle run: --shard takes i/n with 1 <= i <= n, got '" << given << "'\n";
    }
    return shard;
  }
  const char* index = std::getenv("TEST_SHARD_INDEX");
  const char* total = std::getenv("TEST_TOTAL_SHARDS");
  const bool has_index = index != nullptr && *index != '\0';
  const bool has_total = total != nullptr && *total != '\0';
  if (!has_index && !has_total) {
    text = "1/1";
    return runner::Shard{};
  }
  const auto whole = [](const char* digits) -> std::optional<std::size_t> {
    const std::string s(digits == nullptr ? "" : digits);
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) {
      return std::nullopt;
    }
    return static_cast<std::size_t>(std::stoul(s));
  };
  const auto i = whole(index);
  const auto n = whole(total);
  if (!has_index || !has_total || !i || !n || *n == 0 || *i >= *n) {
    err << "gemini-oracle run: TEST_SHARD_INDEX and TEST_TOTAL_SHARDS must both be set, "
           "0 <= index < total\n";
    return std::nullopt;
  }
  if (const char* status = std::getenv("TEST_SHARD_STATUS_FILE"); status && *status) {
    std::ofstream touch(status, std::ios::app);
  }
  text = std::to_string(*i + 1) + "/" + std::to_string(*n);
  return runner::Shard{*i + 1, *n};
}

}  // namespace

int RunCommand(const RunArgs& args, std::ostream& out, std::ostream& err) {
  int status = 0;
  std::string shard_text;
  const auto shard = ShardToRun(args.shard, shard_text, err);
  if (!shard) return kExitBadInput;
  // A fault this build lacks is refused: the run would silently be a baseline run.
  try {
    ref::fault::SetActiveFromEnvironment();
    if (!args.fault.empty()) ref::fault::SetActive(args.fault);
  } catch (const ref::fault::UnknownFault& e) {
    err << "gemini-oracle run: " << (args.fault.empty() ? "GEMINI_ORACLE_FAULT: " : "--fault: ")
        << e.what() << "\n";
    return kExitBadInput;
  }
  const std::string fault = ref::fault::ActiveId();
  // Before anything runs: a run that cannot write its verdict must not start, and the
  // previous run's reports must not survive a run that dies. The folder is held until the
  // run ends: a second run into it would replace this run's reports.
  std::optional<reports::ReportDirLock> report_lock;
  try {
    report_lock.emplace(args.report_dir);
    reports::PrepareReportDir(args.report_dir);
  } catch (const std::exception& e) {
    err << "gemini-oracle run: --report-dir: " << e.what() << "\n";
    return kExitBadInput;
  }
  std::optional<runner::CaseLoader> loader;
  runner::CorpusCheck corpus;
  try {
    loader.emplace(runner::CaseLoader::FromSourceRoot(args.source_root));
    corpus = runner::CheckCorpus(args.fixtures, *loader, args.jobs);
    // INTERPRETING §5.5: each case also runs with its answers streamed.
    if (args.twins) corpus.cases = model::WithStreamedTwins(corpus.cases);
  } catch (const std::exception& e) {
    err << "gemini-oracle run: " << e.what() << "\n";
    return kExitBadInput;
  }
  // Known failures: a file with any problem, or listing a case the corpus lacks, stops the run
  // before anything runs (a stale list would hide nothing, but must not pass unnoticed).
  std::optional<runner::Expectations> expectations;
  if (!args.expect.empty()) {
    auto load = runner::LoadExpectations(args.expect);
    if (load.ok()) {
      std::set<std::string> ids;
      for (const auto& c : model::WithStreamedTwins(corpus.cases)) ids.insert(c.id);
      // A listed case whose file is broken today is still a case: its bad-fixture result is
      // never rewritten, and the run reports the file, rather than refusing the list.
      for (const auto& entry : runner::BadFixtureResults(corpus.diagnostics, args.fixtures,
                                                         runner::Shard{}, runner::SuiteOptions{})) {
        ids.insert(entry["id"].get<std::string>());
      }
      load.diagnostics = runner::UnknownCaseDiagnostics(load.expectations, ids);
    }
    if (!load.ok()) {
      for (auto d : load.diagnostics) {
        d.file = DisplayPath(d.file);
        err << runner::FormatDiagnostic(d) << "\n";
      }
      err << "gemini-oracle run: --expect: the expectations file has problems; nothing ran\n";
      return kExitBadInput;
    }
    expectations = std::move(load.expectations);
  }
  // A bad fixture is reported (here and in every report) and never counts as a pass; the
  // rest still runs.
  for (auto d : corpus.diagnostics) {
    d.file = DisplayPath(d.file);
    err << runner::FormatDiagnostic(d) << "\n";
  }

  std::size_t matching = 0;
  std::vector<runner::Case> selected;
  for (auto& c : corpus.cases) {
    if (!runner::MatchesFilter(c, args.filter)) continue;
    ++matching;
    if (runner::InShard(c, *shard)) selected.push_back(std::move(c));
  }
  const auto store =
      CheckedStoreSettings(args.store, args.store_key_file, "gemini-oracle run", out, err, status,
                           args.case_timeout);
  if (!store) return status;
  const std::uint64_t seed = args.seed.value_or(ClockSeed());
  out << "gemini-oracle run: " << selected.size() << " cases, seed " << seed << ", jobs "
      << args.jobs << ", shard " << shard->index << "/" << shard->count
      << (args.shard.empty() && shard->count > 1 ? " (TEST_SHARD_INDEX/TEST_TOTAL_SHARDS)" : "")
      << "\n";
  if (!fault.empty()) {
    out << "gemini-oracle run: fault " << fault
        << " is active: these verdicts judge a deliberately broken implementation\n";
  }
  if (matching == 0 && !corpus.cases.empty()) {
    err << "gemini-oracle run: --filter '" << args.filter << "' selects none of the "
        << corpus.cases.size()
        << " cases; a filter is a clause id prefix (ADR-226.3, ADR-), a feature (parallel) or a "
           "glob over ids and file names (adr-226/y_*, *identical*)\n";
    return status | kExitBadInput;
  }
  if (corpus.cases.empty() && corpus.ok()) {
    err << "gemini-oracle run: no case found under " << DisplayPath(args.fixtures)
        << "; nothing was checked\n";
    return status | kExitBadInput;
  }
  if (selected.empty() && matching > 0) {
    // More shards than cases is a valid CI matrix: this shard simply has nothing to do.
    out << "gemini-oracle run: shard " << shard->index << "/" << shard->count
        << " holds none of the " << matching << " selected cases\n";
  }

  runner::SuiteOptions options;
  options.strict = args.strict;
  options.beyond_gates = true;  // the reference implementation: its beyond clauses are its own
  options.profile = checks::ProfileFromString(args.profile).value_or(checks::Profile::kAdr);
  options.jobs = args.jobs;
  options.fail_fast = args.fail_fast;
  options.max_fail = args.max_fail;
  options.seed = seed;
  options.case_timeout = args.case_timeout;
  options.keep_requests = args.keep_requests;
  options.relative_to = std::filesystem::absolute(args.source_root);
  const auto started = std::chrono::steady_clock::now();
  auto last_line = started;
  std::size_t failing = 0;
  options.progress = [&](const nlohmann::json& result, std::size_t done, std::size_t total) {
    const bool gating = reports::Gates(result);
    if (gating) ++failing;
    if (args.progress) {
      err << "\r\033[K[" << done << "/" << total << "] " << result["verdict"].get<std::string>()
          << " " << runner::TerminalSafe(result["id"].get<std::string>()) << std::flush;
    }
    if (gating) {
      if (args.progress) err << "\n";
      // A case id is its file name: made safe like every displayed path.
      err << result["verdict"].get<std::string>() << ": "
          << runner::TerminalSafe(result["id"].get<std::string>()) << " ("
          << runner::TerminalSafe(result["reason"].get<std::string>()) << ")\n";
    }
    if (!args.progress) {
      // Not a terminal (a CI log): a line every tenth of the run and at least every 5 s.
      const auto now = std::chrono::steady_clock::now();
      const std::size_t step = std::max<std::size_t>(1, (total + 9) / 10);
      if (done % step == 0 || done == total || now - last_line >= std::chrono::seconds(5)) {
        last_line = now;
        err << "progress: " << done << "/" << total << " cases, " << failing << " gating, "
            << std::chrono::duration_cast<std::chrono::milliseconds>(now - started).count()
            << " ms\n";
      }
    }
  };
  const auto started_at = UtcNow();
  const runner::ReferenceDriver::StoreSettings store_settings = *store;
  // The implementation: the in-process reference, or a driver process (INTERPRETING §15)
  // whose hello says what it can run; a case needing more is skipped with the reason.
  const bool builtin = args.impl.empty() || args.impl == "builtin";
  std::string implementation = fault.empty() ? "reference" : "reference with fault " + fault;
  runner::DriverFactory make_driver = [&store_settings] {
    return std::make_unique<runner::ReferenceDriver>(store_settings);
  };
  std::string refusal_codes = "typed: the catalogue's codes";
  if (builtin && !args.error_map.empty()) {
    err << "gemini-oracle run: --error-map is for a driver (--impl) without typed errors; the "
           "built-in implementation reports the catalogue's codes\n";
    return kExitBadInput;
  }
  if (!builtin) {
    if (!args.store.empty() || !fault.empty()) {
      err << "gemini-oracle run: --store and --fault are the built-in implementation's; a "
             "driver keeps its own store and runs its own code\n";
      return kExitBadInput;
    }
    runner::ProcessDriver::Options driver_options;
    driver_options.command = args.impl;
    // The driver's answer within the case's time limit (past it the case is a timeout anyway).
    driver_options.reply_timeout = args.case_timeout.count() > 0
                                       ? args.case_timeout + std::chrono::seconds(1)
                                       : std::chrono::hours(24);
    runner::ProcessDriver probe(driver_options);
    std::set<std::string> catalogue_codes;  // docs/error-codes.md, which cases are checked against
    for (const auto& info : ref::ErrorCatalogue()) catalogue_codes.emplace(info.code);
    if (!args.error_map.empty()) {
      auto load = runner::LoadErrorMap(args.error_map, catalogue_codes);
      if (!load.ok()) {
        for (auto d : load.diagnostics) {
          d.file = DisplayPath(d.file);
          err << runner::FormatDiagnostic(d) << "\n";
        }
        err << "gemini-oracle run: --error-map: the map has problems; nothing ran\n";
        return kExitBadInput;
      }
      options.error_map = std::move(load.map.codes);
    }
    try {
      const auto& hello = probe.Hello();
      options.capabilities = hello.capabilities;
      driver_options.capabilities = hello.capabilities;
      implementation = hello.name + (hello.version.empty() ? "" : " " + hello.version) +
                       (hello.language.empty() ? "" : " (" + hello.language + ")");
    } catch (const std::exception& e) {
      err << "gemini-oracle run: the driver " << e.what() + std::string(" (--impl)") << "\n";
      return kExitHarness;
    }
    // Beyond clauses gate the reference alone (INTERPRETING §9); the reference's own driver
    // process names itself so and keeps them gating.
    options.beyond_gates = probe.Hello().name == "gemini-oracle-reference";
    if (options.capabilities->count("typed-errors") != 0) {
      refusal_codes = "typed: the driver reports the catalogue's codes";
      if (!args.error_map.empty()) {
        err << "gemini-oracle run: --error-map is not used: the driver declares typed-errors, "
               "so its codes are the catalogue's\n";
      }
    } else if (!args.error_map.empty()) {
      refusal_codes = "mapped by " + DisplayPath(args.error_map) + " (" +
                      std::to_string(options.error_map.size()) +
                      " classes); a class it lacks is not judged";
    } else {
      refusal_codes =
          "not judged: the driver lacks typed-errors and no --error-map was given; refusals are "
          "judged on refusal, exchange and the requests sent before it";
    }
    out << "gemini-oracle run: refusal codes " << refusal_codes << "\n";
    out << "gemini-oracle run: implementation " << implementation << "\n";
    make_driver = [driver_options] {
      return std::make_unique<runner::ProcessDriver>(driver_options);
    };
  }
  nlohmann::json results =
      selected.empty() ? nlohmann::json::array()
                       : runner::RunSuite(selected, loader->registry(), make_driver, options);
  if (args.progress) err << "\r\033[K" << std::flush;
  const nlohmann::json bad =
      runner::BadFixtureResults(corpus.diagnostics, args.fixtures, *shard, options);
  // The exit bit follows the reports: the shard that holds a bad file says so.
  if (!bad.empty()) status |= kExitBadInput;
  runner::AddBadFixtureResults(results, bad);  // sorted by id, one result per id
  if (expectations) runner::ApplyExpectations(*expectations, results);

  nlohmann::json context = nlohmann::json::object();
  context["tool"] = "gemini-oracle";
  context["tool_version"] = GEMINI_ORACLE_VERSION;
  context["suite_version"] = runner::ReadSuiteVersion(args.fixtures);
  context["seed"] = seed;
  context["started_at"] = started_at;
  context["implementation"] = implementation;
  context["refusal_codes"] = refusal_codes;
  if (!fault.empty()) context["fault"] = fault;
  // Only the redacted URL: a report never carries a password or a key.
  context["store"] = args.store.empty() ? std::string("temporary sqlite (suspending cases only)")
                                        : ref::RedactedStoreUrl(args.store);
  context["strict"] = args.strict;
  context["profile"] = std::string(checks::ToString(options.profile));
  context["filter"] = args.filter;
  context["shard"] = shard_text;
  if (expectations) {
    context["expectations"] = {{"file", DisplayPath(expectations->file)},
                               {"implementation", expectations->implementation},
                               {"listed", expectations->known.size()}};
  }
  context["jobs"] = args.jobs;
  context["case_timeout_ms"] = args.case_timeout.count();
  context["bad_fixtures"] = bad.size();
  context["clause_levels"] = runner::ClauseLevels(loader->registry());
  const nlohmann::json index = reports::BuildIndex(context, results);
  std::vector<std::string> written;
  try {
    reports::WriteAll(index, args.report_dir, nullptr, &written);
  } catch (const std::exception& e) {
    err << "gemini-oracle run: " << e.what() << "\n";
    status |= kExitHarness;
  }

  const nlohmann::json& s = index["summary"];
  const auto count = [&](const char* key) { return s.value(key, std::size_t{0}); };
  // Bad fixtures are errors in the reports, but their exit bit is the bad-input one.
  status |= ResultExitBits(index["results"]);
  out << "reports: "
      << reports::WrittenReports(DisplayPath(args.report_dir), reports::ReportFileNames(), written)
      << "\n";
  out << "gemini-oracle: " << count("passed") << " passed, " << count("failed") << " failed, "
      << count("skipped") << " skipped, " << count("implementation_defined")
      << " implementation-defined, " << count("errors") << " errors (" << bad.size()
      << " bad fixtures), " << count("timeouts") << " timeouts, " << count("known") << " known, "
      << count("unexpected_passes") << " unexpected passes; " << count("total") << " in all\n";
  return status;
}

}  // namespace gemini_oracle::cli
