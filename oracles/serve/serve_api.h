#pragma once
// `gemini-oracle serve`: the corpus as a small HTTP API, for implementations that cannot run a
// driver process (another container, a browser, a CI service). INTERPRETING §15.5 lists the
// routes; every body is JSON and the case runs are the driver protocol's own messages.

#include <httplib.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "oracles/checks/judge.h"

namespace gemini_oracle::serve {

/// The largest request body any route reads (a report's); more is refused with 413 before it is
/// parsed. A report grows with a case's exchanges and the transcripts it carries, not with the
/// case file alone: the corpus' largest report is far below this, but a
/// report a pipe carries (lines up to 64 MiB) can be refused here; serve takes the smaller
/// bound because it holds many clients' bodies at once: the worst body of this size (1.4
/// million empty arrays) peaks near 90 MB while parsed, some 22 times its text
/// (bench/serve_memory_bench prints the figures).
inline constexpr std::size_t kMaxBodyBytes = std::size_t{4} << 20;

/// The largest POST /runs body: a creation body is a few hundred bytes (a name, a capability
/// list, a filter), and its reader builds a tree and then a copy of it.
inline constexpr std::size_t kMaxCreateBodyBytes = std::size_t{64} << 10;

struct ServeSettings {
  std::filesystem::path source_root;  // fixtures/..., oracles/clauses.json
  std::filesystem::path fixtures;
  std::filesystem::path report_dir;  // each run's reports go to report_dir/<run id>/
  unsigned jobs = 1;                 // case runs open at once, per run
  /// Per case run, from when a client takes it; zero: none (closing ends the rest).
  std::chrono::milliseconds case_timeout{0};
  std::uint64_t seed = 1;
  std::string tool_version;
  /// Runs open (created, not closed) at once; more are refused with 429.
  std::size_t max_open_runs = 8;
  /// A run without a client request for this long is closed (reports written) when the open
  /// runs would otherwise refuse a new one; zero: never.
  std::chrono::seconds run_idle{1800};
  /// How long POST .../reports/{seq} waits for the case's verdict before answering without it.
  std::chrono::milliseconds verdict_wait{30000};
};

/// The body of POST /runs, read (INTERPRETING §15.5): what the run is created with.
struct RunRequest {
  std::set<std::string> capabilities;  // with stream-capture added for a protocol 1 streamer
  std::string filter;
  bool twins = true;
  bool strict = false;
  std::string profile_text = "adr";
  checks::Profile profile = checks::Profile::kAdr;
  std::string name = "unnamed", version, language;  // of `implementation`
};

/// Why a body is refused with 400: the rule (serve.json, serve.body) and the message; for a
/// body that is not JSON, also the JSON reader's rule (json.syntax, json.depth...) and the
/// 0-based byte offset where it failed.
struct BodyProblem {
  BodyProblem(std::string rule, std::string message, std::string json_rule = {},
              std::optional<std::size_t> offset = std::nullopt)
      : rule(std::move(rule)),
        message(std::move(message)),
        json_rule(std::move(json_rule)),
        offset(offset) {}
  std::string rule;
  std::string message;
  std::string json_rule;
  std::optional<std::size_t> offset;
};

/// Reads a POST /runs body (empty: every default). Never throws for any bytes.
std::variant<RunRequest, BodyProblem> ReadRunRequest(const std::string& body);

class ServeApi {
 public:
  explicit ServeApi(ServeSettings settings);
  ~ServeApi();  // closes every run still open
  ServeApi(const ServeApi&) = delete;
  ServeApi& operator=(const ServeApi&) = delete;

  /// Adds the routes to `server`.
  void Mount(httplib::Server& server);

  /// Stops creating runs and closes every open one, writing its reports (at shutdown);
  /// returns the summaries of the runs it closed.
  std::vector<nlohmann::json> CloseAll();

 private:
  struct Run;
  std::shared_ptr<Run> FindRun(const std::string& id);
  nlohmann::json CloseRun(Run& run);
  void CloseIdleRunsToMakeRoom();
  std::size_t OpenRuns() const;  // under mu_: open runs and creations under way

  ServeSettings settings_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<Run>> runs_;
  std::size_t next_run_ = 0;
  std::size_t reserved_ = 0;  // runs being created, counted as open
  bool stopping_ = false;     // CloseAll ran: no run is created any more
};

}  // namespace gemini_oracle::serve
