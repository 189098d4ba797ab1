#pragma once
// One run of `gemini-oracle serve`: the suite runner's workers hand each case run to HTTP
// clients as the driver protocol's `run_case` message and wait for the client's `report`,
// `skipped` or `errored` (INTERPRETING §15.5). The same messages as a driver process speaks,
// so a client is a driver whose transport is HTTP.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "oracles/runner/driver.h"
#include "reference_impl/json.h"

namespace gemini_oracle::serve {

class RemoteRun {
 public:
  /// `case_timeout`: how long a client may hold a case run it took (zero: no limit); past it
  /// the case's verdict is `timeout`. Time in the queue never counts.
  explicit RemoteRun(std::set<std::string> capabilities,
                     std::chrono::milliseconds case_timeout = std::chrono::milliseconds(0));
  RemoteRun(const RemoteRun&) = delete;
  RemoteRun& operator=(const RemoteRun&) = delete;

  // --- the runner's side (worker threads)

  /// A driver for one worker: Run() publishes the case run and waits for a client's answer.
  std::unique_ptr<runner::Driver> MakeDriver();
  /// The progress callback's result of a case, from the worker thread that judged it.
  void OnResult(const nlohmann::json& result);
  /// The runner has judged every case.
  void MarkFinished();

  // --- the clients' side (HTTP threads)

  /// The next case run no client has taken (a `run_case` message), waiting up to `wait`;
  /// nullopt when none came. `done` is set when none ever will (finished or closed).
  std::optional<Json> TakeNext(std::chrono::milliseconds wait, bool& done);

  enum class ReplyStatus { kUnknownSeq, kAlreadyAnswered, kAccepted };
  struct ReplyOutcome {
    ReplyStatus status = ReplyStatus::kUnknownSeq;
    /// The case's result when this answer completed it (within the wait).
    std::optional<nlohmann::json> result;
    /// The case runs again (with every answer whole, or kept in memory): take the next run.
    bool more = false;
  };
  /// Hands a client's answer to the waiting worker, then waits up to `wait` for what follows.
  ReplyOutcome Reply(std::size_t seq, Json message, std::chrono::milliseconds wait);

  /// Every run still waiting, and every later one, ends as the driver's error; TakeNext
  /// reports done.
  void Close();
  bool closed() const;
  bool finished() const;

  /// The results judged so far, by case id.
  std::map<std::string, nlohmann::json> Results() const;

 private:
  class Driver;
  struct Job {
    Json message;
    const runner::Case* c = nullptr;
    std::size_t worker = 0;
    bool taken = false;
    std::chrono::steady_clock::time_point taken_at;
    std::optional<Json> reply;
  };
  struct WorkerState {
    std::size_t submitted = 0;  // case runs published, ever
    std::size_t judged = 0;     // results delivered, ever
    std::optional<nlohmann::json> last_result;
    bool cancelled = false;
  };

  runner::DriverReport Submit(std::size_t worker, const runner::Case& c,
                              const std::string& base_url, bool keep_in_memory);
  void Cancel(std::size_t worker);

  const std::set<std::string> capabilities_;
  const std::chrono::milliseconds case_timeout_;
  mutable std::mutex mu_;
  std::condition_variable changed_;
  std::size_t next_seq_ = 0;
  std::map<std::size_t, Job> jobs_;
  std::deque<std::size_t> untaken_;
  std::vector<WorkerState> workers_;
  std::map<std::string, nlohmann::json> results_;
  bool closed_ = false;
  bool finished_ = false;
};

}  // namespace gemini_oracle::serve
