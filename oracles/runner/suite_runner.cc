#include "oracles/runner/suite_runner.h"

#include <fnmatch.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <numeric>
#include <random>
#include <thread>

#include "oracles/capture/capture_server.h"
#include "oracles/checks/judge.h"
#include "reports/index.h"

namespace gemini_oracle::runner {
namespace {

std::uint64_t Fnv1a(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  return hash;
}

// Reason tags the outcome judge puts first in its messages (GUIDE §3.5, closed verdict set).
std::string ReasonOf(const checks::Finding& finding) {
  static const char* const kTags[] = {"should-have-accepted", "should-have-refused", "wrong-error",
                                      "contacted-before-refusal", "wire-violation"};
  for (const char* tag : kTags) {
    if (finding.message.rfind(tag, 0) == 0) return tag;
  }
  return "wire-violation";
}

nlohmann::json FindingJson(const checks::Finding& f, bool gating) {
  nlohmann::json out = nlohmann::json::object();
  out["clause"] = f.clause;
  out["level"] = f.level;
  out["gating"] = gating;
  out["pointer"] = f.pointer;
  if (f.request) out["request"] = *f.request;
  // Converted through text so the sorted report keeps the values' kinds (1.0 stays 1.0).
  out["expected"] = nlohmann::json::parse(DumpJson(f.expected));
  out["actual"] = nlohmann::json::parse(DumpJson(f.actual));
  out["message"] = f.message;
  return out;
}

nlohmann::json BaseResult(const Case& c, const SuiteOptions& options) {
  nlohmann::json r = nlohmann::json::object();
  r["id"] = c.id;
  std::filesystem::path file = c.file;
  if (!options.relative_to.empty()) {
    const auto relative =
        c.file.lexically_normal().lexically_relative(options.relative_to.lexically_normal());
    if (!relative.empty() && *relative.begin() != "..") file = relative;
  }
  r["file"] = file.generic_string();
  r["description"] = c.description;
  r["clauses"] = c.clauses;
  r["features"] = c.features;
  r["expected"] = std::string(ToString(c.expected));
  r["findings"] = nlohmann::json::array();
  r["requests"] = 0;
  r["request_bytes"] = 0;
  r["duration_ms"] = 0.0;
  r["reason"] = "";
  return r;
}

bool IsGating(const checks::Finding& f, bool strict) {
  if (f.level == "must" || f.level == "beyond") return true;  // beyond gates the reference
  return strict && f.level == "open";
}

nlohmann::json RunOne(const Case& c, capture::CaptureServer& server, Driver& driver,
                      const ClauseRegistry& registry, const SuiteOptions& options) {
  nlohmann::json result = BaseResult(c, options);
  for (const auto& feature : options.unsupported_features) {
    if (c.HasFeature(feature)) {
      result["verdict"] = std::string(reports::kSkipped);
      result["reason"] = "unsupported feature: " + feature;
      return result;
    }
  }
  const auto started = std::chrono::steady_clock::now();
  std::vector<capture::ScriptedResponse> turns;
  for (const auto& ex : c.exchanges) {
    capture::ScriptedResponse turn;
    turn.status = ex.response.status;
    turn.headers = ex.response.headers;
    turn.body = ex.response.raw_body ? *ex.response.raw_body : DumpJson(ex.response.body);
    turns.push_back(std::move(turn));
  }
  const std::string script = server.AddScript(std::move(turns));
  DriverReport report;
  try {
    report = driver.Run(c, server.BaseUrl(script));
  } catch (const std::exception& e) {
    report.harness_error = std::string("driver threw: ") + e.what();
  }
  const std::vector<capture::JournalEntry> journal = server.Journal(script);
  server.RemoveScript(script);
  result["requests"] = journal.size();
  std::size_t request_bytes = 0;
  for (const auto& entry : journal) request_bytes += entry.body.size();
  result["request_bytes"] = request_bytes;

  if (report.harness_error) {
    result["verdict"] = std::string(reports::kError);
    result["reason"] = *report.harness_error;
  } else {
    std::vector<checks::Finding> findings = checks::JudgeAll(checks::CaseRun{c, journal, report});
    // The registry decides levels, so promoting a clause is a one-line data change.
    for (auto& f : findings) {
      if (const auto level = registry.LevelOf(f.clause)) f.level = std::string(ToString(*level));
    }
    std::optional<std::string> reason;
    for (const auto& f : findings) {
      const bool gating = IsGating(f, options.strict);
      result["findings"].push_back(FindingJson(f, gating));
      if (gating && !reason) reason = ReasonOf(f);
    }
    // An i_ case leaves its one behaviour open, not the rest of the wire: a gating finding
    // (an array root, a leaked ID) still fails it.
    if (c.expected == Expected::kImplementationDefined && !reason) {
      result["verdict"] = std::string(reports::kImplementationDefined);
      result["reason"] = report.refusal ? "refused: " + report.refusal->code : "accepted";
    } else if (reason) {
      result["verdict"] = std::string(reports::kFail);
      result["reason"] = *reason;
    } else {
      result["verdict"] = std::string(reports::kPass);
    }
  }
  const auto elapsed = std::chrono::steady_clock::now() - started;
  result["duration_ms"] =
      std::round(std::chrono::duration<double, std::milli>(elapsed).count() * 1000.0) / 1000.0;
  return result;
}

}  // namespace

std::optional<Shard> ParseShard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  // Digits only: stoul would take " 1" and "+1".
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i != slash && !std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
  }
  try {
    std::size_t used = 0;
    const auto index = std::stoul(text.substr(0, slash), &used);
    if (used != slash) return std::nullopt;
    const std::string rest = text.substr(slash + 1);
    const auto count = std::stoul(rest, &used);
    if (used != rest.size() || count == 0 || index == 0 || index > count) return std::nullopt;
    return Shard{index, count};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool InShard(const Case& c, const Shard& shard) {
  return Fnv1a(c.id) % shard.count == shard.index - 1;
}

bool MatchesFilter(const Case& c, const std::string& filter) {
  if (filter.empty()) return true;
  if (filter.rfind("ADR-", 0) == 0) {
    // "ADR-226" and "ADR-226." select the whole ADR; "ADR-226.1" does not select ADR-226.10.
    return std::any_of(c.clauses.begin(), c.clauses.end(), [&](const std::string& id) {
      if (id.rfind(filter, 0) != 0) return false;
      return id.size() == filter.size() || filter.back() == '.' || id[filter.size()] == '.';
    });
  }
  if (c.HasFeature(filter)) return true;
  const std::string stem = c.Stem();
  return fnmatch(filter.c_str(), c.id.c_str(), 0) == 0 ||
         fnmatch(filter.c_str(), stem.c_str(), 0) == 0;
}

nlohmann::json RunSuite(const std::vector<Case>& cases, const ClauseRegistry& registry,
                        const DriverFactory& make_driver, const SuiteOptions& options) {
  std::vector<nlohmann::json> results(cases.size());
  std::vector<std::size_t> order(cases.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(options.seed);
  std::shuffle(order.begin(), order.end(), rng);

  capture::CaptureServer server;
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> gating{0};
  std::atomic<bool> stop{false};
  std::mutex progress_mutex;
  std::size_t done = 0;
  const std::size_t fail_limit =
      options.fail_fast ? 1 : options.max_fail.value_or(static_cast<std::size_t>(-1));

  auto worker = [&] {
    std::unique_ptr<Driver> driver = make_driver();
    for (;;) {
      const std::size_t slot = next.fetch_add(1);
      if (slot >= order.size()) return;
      const std::size_t i = order[slot];
      nlohmann::json result;
      if (stop.load()) {
        result = BaseResult(cases[i], options);
        result["verdict"] = std::string(reports::kSkipped);
        result["reason"] = "not run: failure limit reached";
      } else {
        try {
          result = RunOne(cases[i], server, *driver, registry, options);
        } catch (const std::exception& e) {
          // A throwing judge or writer must not end the run; the case reports it.
          result = BaseResult(cases[i], options);
          result["verdict"] = std::string(reports::kError);
          result["reason"] = std::string("harness: ") + e.what();
        }
        if (reports::Gates(result) && gating.fetch_add(1) + 1 >= fail_limit) stop.store(true);
      }
      std::lock_guard<std::mutex> lock(progress_mutex);
      results[i] = std::move(result);
      ++done;
      if (options.progress) options.progress(results[i], done, cases.size());
    }
  };
  const unsigned jobs = std::max(1u, options.jobs);
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < jobs; ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();

  nlohmann::json array = nlohmann::json::array();
  for (auto& r : results) array.push_back(std::move(r));
  return array;
}

}  // namespace gemini_oracle::runner
