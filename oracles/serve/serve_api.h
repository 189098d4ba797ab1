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
#include <string>
#include <vector>

namespace gemini_oracle::serve {

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
