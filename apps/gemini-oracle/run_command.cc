#include <chrono>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "apps/gemini-oracle/commands.h"
#include "oracles/runner/case_loader.h"
#include "oracles/runner/reference_driver.h"
#include "oracles/runner/suite_runner.h"
#include "reports/index.h"
#include "reports/write_all.h"

namespace gemini_oracle::cli {

std::filesystem::path DefaultSourceRoot() {
  if (const char* env = std::getenv("GEMINI_ORACLE_SOURCE_DIR"); env && *env) return env;
  return GEMINI_ORACLE_DEFAULT_SOURCE_DIR;
}

std::string DisplayPath(const std::filesystem::path& path) {
  std::error_code error;
  const auto cwd = std::filesystem::current_path(error);
  if (error) return path.generic_string();
  const auto relative =
      std::filesystem::absolute(path, error).lexically_normal().lexically_relative(cwd);
  if (error || relative.empty() || *relative.begin() == "..") return path.generic_string();
  return relative.generic_string();
}

namespace {

std::string ReadVersion(const std::filesystem::path& fixtures) {
  std::ifstream in(fixtures / "VERSION");
  std::string version;
  std::getline(in, version);
  return version.empty() ? "unknown" : version;
}

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

}  // namespace

int RunCommand(const RunArgs& args, std::ostream& out, std::ostream& err) {
  int status = 0;
  const auto shard = runner::ParseShard(args.shard);
  if (!shard) {
    err << "gemini-oracle run: --shard takes i/n with 1 <= i <= n, got '" << args.shard << "'\n";
    return kExitBadInput;
  }
  std::optional<runner::CaseLoader> loader;
  runner::CorpusCheck corpus;
  try {
    loader.emplace(runner::CaseLoader::FromSourceRoot(args.source_root));
    corpus = runner::CheckCorpus(args.fixtures, *loader, args.jobs);
  } catch (const std::exception& e) {
    err << "gemini-oracle run: " << e.what() << "\n";
    return kExitBadInput;
  }
  // A bad fixture is reported and never counts as a pass; the rest still runs.
  for (auto d : corpus.diagnostics) {
    d.file = DisplayPath(d.file);
    err << runner::FormatDiagnostic(d) << "\n";
  }
  if (!corpus.ok()) status |= kExitBadInput;

  std::vector<runner::Case> selected;
  for (auto& c : corpus.cases) {
    if (runner::MatchesFilter(c, args.filter) && runner::InShard(c, *shard)) {
      selected.push_back(std::move(c));
    }
  }
  const std::uint64_t seed = args.seed.value_or(ClockSeed());
  out << "gemini-oracle run: " << selected.size() << " cases, seed " << seed << ", jobs "
      << args.jobs << ", shard " << shard->index << "/" << shard->count << "\n";
  if (selected.empty()) {
    err << "gemini-oracle run: no case selected; nothing was checked\n";
    return status | kExitBadInput;
  }

  runner::SuiteOptions options;
  options.strict = args.strict;
  options.jobs = args.jobs;
  options.fail_fast = args.fail_fast;
  options.max_fail = args.max_fail;
  options.seed = seed;
  options.relative_to = std::filesystem::absolute(args.source_root);
  options.progress = [&](const nlohmann::json& result, std::size_t done, std::size_t total) {
    const bool gating = reports::Gates(result);
    if (args.progress) {
      err << "\r\033[K[" << done << "/" << total << "] " << result["verdict"].get<std::string>()
          << " " << result["id"].get<std::string>() << std::flush;
    }
    if (gating) {
      if (args.progress) err << "\n";
      err << result["verdict"].get<std::string>() << ": " << result["id"].get<std::string>() << " ("
          << result["reason"].get<std::string>() << ")\n";
    }
  };
  const auto started_at = UtcNow();
  nlohmann::json results = runner::RunSuite(
      selected, loader->registry(), [] { return std::make_unique<runner::ReferenceDriver>(); },
      options);
  if (args.progress) err << "\r\033[K" << std::flush;

  nlohmann::json context = nlohmann::json::object();
  context["tool"] = "gemini-oracle";
  context["tool_version"] = GEMINI_ORACLE_VERSION;
  context["suite_version"] = ReadVersion(args.fixtures);
  context["seed"] = seed;
  context["started_at"] = started_at;
  context["implementation"] = "reference";
  context["strict"] = args.strict;
  context["filter"] = args.filter;
  context["shard"] = args.shard;
  context["jobs"] = args.jobs;
  context["bad_fixtures"] = corpus.diagnostics.size();
  nlohmann::json levels = nlohmann::json::object();
  for (const auto& clause : loader->registry().clauses()) {
    levels[clause.id] = std::string(runner::ToString(clause.level));
  }
  context["clause_levels"] = levels;
  const nlohmann::json index = reports::BuildIndex(context, results);
  try {
    reports::WriteAll(index, args.report_dir);
  } catch (const std::exception& e) {
    err << "gemini-oracle run: " << e.what() << "\n";
    status |= kExitHarness;
  }

  const nlohmann::json& s = index["summary"];
  const auto count = [&](const char* key) { return s.value(key, 0); };
  if (count("errors") + count("timeouts") > 0) status |= kExitHarness;
  if (count("failed") > 0) status |= kExitConformance;
  out << "reports: " << args.report_dir.string()
      << "/{index.json,junit.xml,summary.md,summary.html}\n";
  out << "details: " << count("errors") << " errors, " << count("timeouts") << " timeouts, "
      << count("known") << " known, " << count("implementation_defined")
      << " implementation-defined, " << corpus.diagnostics.size() << " bad fixture diagnostics\n";
  out << "gemini-oracle: " << count("passed") << " passed, "
      << count("failed") + count("errors") + count("timeouts") << " failed, " << count("skipped")
      << " skipped\n";
  return status;
}

}  // namespace gemini_oracle::cli
