#include "oracles/serve/remote_run.h"

#include "oracles/runner/driver_protocol.h"

namespace gemini_oracle::serve {
namespace {

// The worker a thread serves: set when its driver publishes a run, read when the runner
// reports that worker's result from the same thread (SuiteOptions::progress).
thread_local std::optional<std::size_t> tls_worker;

}  // namespace

class RemoteRun::Driver final : public runner::Driver {
 public:
  Driver(RemoteRun& run, std::size_t worker) : run_(run), worker_(worker) {}
  std::string Name() const override { return "serve"; }
  runner::DriverReport Run(const runner::Case& c, const std::string& base_url) override {
    return run_.Submit(worker_, c, base_url, false);
  }
  bool Persists(const runner::Case& c) const override {
    return c.Suspends() && run_.capabilities_.count(runner::protocol::kPersistence) > 0;
  }
  runner::DriverReport RunInMemory(const runner::Case& c, const std::string& base_url) override {
    return run_.Submit(worker_, c, base_url, true);
  }
  void Cancel() override { run_.Cancel(worker_); }

 private:
  RemoteRun& run_;
  std::size_t worker_;
};

RemoteRun::RemoteRun(std::set<std::string> capabilities, std::chrono::milliseconds case_timeout)
    : capabilities_(std::move(capabilities)), case_timeout_(case_timeout) {}

std::unique_ptr<runner::Driver> RemoteRun::MakeDriver() {
  std::lock_guard lock(mu_);
  workers_.emplace_back();
  return std::make_unique<Driver>(*this, workers_.size() - 1);
}

runner::DriverReport RemoteRun::Submit(std::size_t worker, const runner::Case& c,
                                       const std::string& base_url, bool keep_in_memory) {
  tls_worker = worker;
  runner::DriverReport report;
  std::unique_lock lock(mu_);
  workers_[worker].cancelled = false;  // a cancellation is repeated at every watchdog tick
  if (closed_) {
    report.harness_error = "no report: the run was closed before this case was answered";
    return report;
  }
  const std::size_t seq = ++next_seq_;
  Job& job = jobs_[seq];
  job.message = runner::protocol::RunCaseMessage(c, base_url, seq, keep_in_memory);
  job.c = &c;
  job.worker = worker;
  untaken_.push_back(seq);
  ++workers_[worker].submitted;
  changed_.notify_all();
  // The limit starts when a client takes the run; a run nobody took waits as long as needed.
  const auto overdue = [&] {
    const Job& j = jobs_[seq];
    return case_timeout_.count() > 0 && j.taken &&
           std::chrono::steady_clock::now() >= j.taken_at + case_timeout_;
  };
  const auto answered_or_ended = [&] {
    return jobs_[seq].reply.has_value() || closed_ || workers_[worker].cancelled || overdue();
  };
  while (!answered_or_ended()) {
    const Job& j = jobs_[seq];
    if (case_timeout_.count() > 0 && j.taken) {
      changed_.wait_until(lock, j.taken_at + case_timeout_);
    } else {
      changed_.wait(lock);  // TakeNext notifies, and the deadline starts then
    }
  }
  std::optional<Json> reply = std::move(jobs_[seq].reply);
  const bool late = !reply && overdue();
  jobs_.erase(seq);
  std::erase(untaken_, seq);
  if (!reply) {
    report.harness_error = closed_ ? "no report: the run was closed before this case was answered"
                           : late  ? "no report within " + std::to_string(case_timeout_.count()) +
                                        " ms of a client taking the case run (--case-timeout)"
                                  : "no report within the case time limit";
    report.timed_out = late;
    return report;
  }
  lock.unlock();
  const runner::protocol::Reply parsed = runner::protocol::ParseReply(*reply, seq, c);
  if (const auto* garbled = std::get_if<runner::protocol::Garbled>(&parsed)) {
    report.harness_error = "client: " + garbled->why;
  } else if (const auto* skipped = std::get_if<runner::protocol::Skipped>(&parsed)) {
    report.skipped = skipped->reason;
  } else if (const auto* errored = std::get_if<runner::protocol::Errored>(&parsed)) {
    report.harness_error = "client errored: " + errored->context;
  } else {
    report = std::get<runner::DriverReport>(parsed);
  }
  return report;
}

void RemoteRun::Cancel(std::size_t worker) {
  std::lock_guard lock(mu_);
  workers_[worker].cancelled = true;
  changed_.notify_all();
}

void RemoteRun::OnResult(const nlohmann::json& result) {
  std::lock_guard lock(mu_);
  if (result.contains("id") && result["id"].is_string()) {
    results_[result["id"].get<std::string>()] = result;
  }
  if (tls_worker && *tls_worker < workers_.size()) {
    WorkerState& state = workers_[*tls_worker];
    ++state.judged;
    state.last_result = result;
  }
  changed_.notify_all();
}

void RemoteRun::MarkFinished() {
  std::lock_guard lock(mu_);
  finished_ = true;
  changed_.notify_all();
}

std::optional<Json> RemoteRun::TakeNext(std::chrono::milliseconds wait, bool& done) {
  std::unique_lock lock(mu_);
  changed_.wait_for(lock, wait, [&] { return !untaken_.empty() || closed_ || finished_; });
  done = untaken_.empty() && (closed_ || finished_);
  if (untaken_.empty() || closed_) return std::nullopt;
  const std::size_t seq = untaken_.front();
  untaken_.pop_front();
  jobs_[seq].taken = true;
  jobs_[seq].taken_at = std::chrono::steady_clock::now();
  changed_.notify_all();  // its worker now waits for the deadline
  return jobs_[seq].message;
}

RemoteRun::ReplyOutcome RemoteRun::Reply(std::size_t seq, Json message,
                                         std::chrono::milliseconds wait) {
  ReplyOutcome outcome;
  std::unique_lock lock(mu_);
  const auto it = jobs_.find(seq);
  if (it == jobs_.end()) return outcome;  // never published, or already finished
  if (it->second.reply) {
    outcome.status = ReplyStatus::kAlreadyAnswered;
    return outcome;
  }
  outcome.status = ReplyStatus::kAccepted;
  const std::size_t worker = it->second.worker;
  const std::size_t submitted = workers_[worker].submitted;
  const std::size_t judged = workers_[worker].judged;
  it->second.reply = std::move(message);
  std::erase(untaken_, seq);  // answered without being taken: still answered
  changed_.notify_all();
  // After its answer a worker either publishes the case's next run or judges the case.
  changed_.wait_for(lock, wait, [&] {
    return workers_[worker].submitted != submitted || workers_[worker].judged != judged || closed_;
  });
  if (workers_[worker].judged != judged) {
    outcome.result = workers_[worker].last_result;
  } else if (workers_[worker].submitted != submitted) {
    outcome.more = true;
  }
  return outcome;
}

void RemoteRun::Close() {
  std::lock_guard lock(mu_);
  closed_ = true;
  changed_.notify_all();
}

bool RemoteRun::closed() const {
  std::lock_guard lock(mu_);
  return closed_;
}

bool RemoteRun::finished() const {
  std::lock_guard lock(mu_);
  return finished_;
}

std::map<std::string, nlohmann::json> RemoteRun::Results() const {
  std::lock_guard lock(mu_);
  return results_;
}

}  // namespace gemini_oracle::serve
