#include "mutants/harness.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <map>
#include <stdexcept>

#include "oracles/checks/finding.h"
#include "oracles/runner/reference_driver.h"
#include "reports/index.h"

namespace gemini_oracle::mutants {
namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// What the parent needs of one case of a fault run; the baseline keeps whole entries.
nlohmann::json Compact(const nlohmann::json& results) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : results) {
    nlohmann::json entry = nlohmann::json::object();
    entry["id"] = r.value("id", "");
    entry["verdict"] = r.value("verdict", "");
    entry["reason"] = r.value("reason", "");
    // A wire finding proves the oracle of its own clause; an outcome finding (a refusal due
    // and missing, or the wrong one) proves the outcome check of every clause the case cites.
    std::set<std::string> gating, cited;
    for (const auto& f : r.value("findings", nlohmann::json::array())) {
      if (!f.value("gating", false)) continue;
      gating.insert(f.value("clause", ""));
      cited.insert(f.value("clause", ""));
      const std::string message = f.value("message", "");
      const std::string_view tag = std::string_view(message).substr(0, message.find(':'));
      const auto case_clauses = r.value("clauses", nlohmann::json::array());
      const bool cites_case = std::find(case_clauses.begin(), case_clauses.end(),
                                        f.value("clause", "")) != case_clauses.end();
      if (cites_case && (tag == checks::kShouldHaveAccepted || tag == checks::kShouldHaveRefused ||
                         tag == checks::kWrongError)) {
        for (const auto& c : case_clauses) {
          if (c.is_string()) gating.insert(c.get<std::string>());
        }
      }
    }
    entry["gating_clauses"] = gating;
    entry["finding_clauses"] = cited;
    entry["twin"] = r.contains("twin_of");
    out.push_back(std::move(entry));
  }
  return out;
}

bool WriteAllTo(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// Runs in the child: the corpus under `fault` ("" for the baseline), the results as JSON on
// `fd`. Never returns.
[[noreturn]] void RunChild(const HarnessOptions& options, const std::string& fault, int fd) {
  int status = 0;
  std::string text;
  try {
    if (!fault.empty()) options.activate(fault);
    runner::SuiteOptions suite;
    suite.jobs = 1;
    suite.seed = options.seed;
    suite.case_timeout = options.case_timeout;
    suite.beyond_gates = true;  // the reference implementation's own promises
    suite.relative_to = options.relative_to;
    const auto make_driver = options.make_driver
                                 ? options.make_driver
                                 : runner::DriverFactory([] {
                                     return std::make_unique<runner::ReferenceDriver>();
                                   });
    const nlohmann::json results =
        runner::RunSuite(options.cases, *options.registry, make_driver, suite);
    text = (fault.empty() ? results : Compact(results)).dump(-1, ' ', false,
                                                            nlohmann::json::error_handler_t::replace);
  } catch (const std::exception& e) {
    nlohmann::json error = nlohmann::json::object();
    error["harness_error"] = e.what();
    text = error.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    status = 3;
  }
  if (!WriteAllTo(fd, text)) status = 4;
  ::close(fd);
  ::_exit(status);
}

struct Job {
  std::size_t slot = 0;
  std::string fault;  // "" for the baseline
  std::chrono::milliseconds limit{0};
};

struct Finished {
  std::string output;
  bool crashed = false;
  bool timed_out = false;
  int signal = 0;
  int exit_code = 0;
  double duration_ms = 0;
};

// Runs the jobs in child processes, at most `parallel` at once, and hands each result to
// `done` in slot order.
void RunChildren(const HarnessOptions& options, std::deque<Job> jobs, unsigned parallel,
                 const std::function<void(const Job&, const Finished&)>& done) {
  struct Running {
    Job job;
    pid_t pid = -1;
    int fd = -1;
    Clock::time_point started;
    Finished result;
  };
  std::vector<Running> running;
  std::map<std::size_t, std::pair<Job, Finished>> ready;
  std::size_t next_slot = jobs.empty() ? 0 : jobs.front().slot;
  const auto deliver = [&] {
    for (auto it = ready.find(next_slot); it != ready.end(); it = ready.find(next_slot)) {
      done(it->second.first, it->second.second);
      ready.erase(it);
      ++next_slot;
    }
  };
  const auto reap = [&](Running& child, bool kill_it) {
    if (kill_it) ::kill(child.pid, SIGKILL);
    int wait_status = 0;
    while (::waitpid(child.pid, &wait_status, 0) < 0 && errno == EINTR) {
    }
    ::close(child.fd);
    child.result.duration_ms = MillisecondsSince(child.started);
    if (WIFSIGNALED(wait_status) && !child.result.timed_out) {
      child.result.crashed = true;
      child.result.signal = WTERMSIG(wait_status);
    } else if (WIFEXITED(wait_status)) {
      child.result.exit_code = WEXITSTATUS(wait_status);
    }
    ready.emplace(child.job.slot, std::make_pair(child.job, std::move(child.result)));
  };
  // A failure to start a run (no file descriptor, no process left) stops the harness, but
  // never leaves the runs already started behind.
  const auto stop_all = [&] {
    for (auto& child : running) {
      ::kill(child.pid, SIGKILL);
      while (::waitpid(child.pid, nullptr, 0) < 0 && errno == EINTR) {
      }
      ::close(child.fd);
    }
    running.clear();
  };
  while (!jobs.empty() || !running.empty()) {
    while (!jobs.empty() && running.size() < std::max(1u, parallel)) {
      int pipe_fds[2];
      if (::pipe(pipe_fds) != 0) {
        stop_all();
        throw std::runtime_error(std::string("cannot create a pipe for a fault run: ") +
                                 std::strerror(errno));
      }
      Running child;
      child.job = std::move(jobs.front());
      jobs.pop_front();
      child.started = Clock::now();
      const pid_t pid = ::fork();
      if (pid < 0) {
        const int error = errno;
        ::close(pipe_fds[0]);
        ::close(pipe_fds[1]);
        stop_all();
        throw std::runtime_error(std::string("cannot start a fault run: ") + std::strerror(error));
      }
      if (pid == 0) {
        ::close(pipe_fds[0]);
        RunChild(options, child.job.fault, pipe_fds[1]);
      }
      ::close(pipe_fds[1]);
      child.pid = pid;
      child.fd = pipe_fds[0];
      running.push_back(std::move(child));
    }
    std::vector<pollfd> fds;
    for (const auto& child : running) fds.push_back({child.fd, POLLIN, 0});
    ::poll(fds.data(), fds.size(), 100);
    for (std::size_t i = running.size(); i-- > 0;) {
      Running& child = running[i];
      bool finished = false;
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        char buffer[65536];
        const ssize_t n = ::read(child.fd, buffer, sizeof buffer);
        if (n > 0) {
          child.result.output.append(buffer, static_cast<std::size_t>(n));
        } else if (n == 0 || errno != EINTR) {
          finished = true;
        }
      }
      const bool over_time = child.job.limit.count() > 0 &&
                             Clock::now() - child.started > child.job.limit;
      if (finished || over_time) {
        child.result.timed_out = !finished && over_time;
        reap(child, !finished);
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
    deliver();
  }
  deliver();
}

bool Contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// Classifies one fault run from its compact results.
FaultResult Judge(const Fault& fault, const Finished& run) {
  FaultResult result;
  result.fault = fault;
  if (const auto* point = ref::fault::Find(fault.id)) result.point = *point;
  result.duration_ms = run.duration_ms;
  if (run.timed_out) {
    result.status = Status::kTimeout;
    result.reason = "the fault run passed its time limit and was stopped";
    return result;
  }
  if (run.crashed) {
    result.status = Status::kRuntimeError;
    result.reason = "the fault run crashed (signal " + std::to_string(run.signal) + ")";
    return result;
  }
  nlohmann::json results;
  try {
    results = nlohmann::json::parse(run.output);
  } catch (const nlohmann::json::exception&) {
    result.status = Status::kRuntimeError;
    result.reason = "the fault run ended (exit " + std::to_string(run.exit_code) +
                    ") without readable results";
    return result;
  }
  if (results.is_object()) {
    result.status = Status::kRuntimeError;
    result.reason = "harness error: " + results.value("harness_error", std::string("unknown"));
    return result;
  }
  std::map<std::string, std::vector<std::string>> gating_of;
  bool timeouts = false;
  // A streamed twin repeats its original's conversation (INTERPRETING §5.5): what a kill proves
  // is read from the cases as written, and from the twins only for a fault no written case
  // kills (a fault of the streaming paths), so that a twin's own clauses do not blur which
  // oracles a fault's kill proves.
  bool written_kill = false;
  for (const auto& r : results) {
    written_kill = written_kill || (r.value("verdict", "") == reports::kFail && !r.value("twin", false));
  }
  for (const auto& r : results) {
    ++result.cases_run;
    const std::string verdict = r.value("verdict", "");
    const std::string id = r.value("id", "");
    if (verdict == reports::kFail) {
      result.killed_by.push_back(id);
      if (written_kill && r.value("twin", false)) continue;
      auto& clauses = gating_of[id];
      for (const auto& c : r["gating_clauses"]) clauses.push_back(c.get<std::string>());
      result.killing_clauses.insert(clauses.begin(), clauses.end());
      for (const auto& c : r["finding_clauses"]) result.finding_clauses.insert(c.get<std::string>());
    } else if (verdict == reports::kError || verdict == reports::kTimeout) {
      ++result.case_errors;
      timeouts = timeouts || verdict == reports::kTimeout;
    }
  }
  std::sort(result.killed_by.begin(), result.killed_by.end());
  for (const auto& clause : fault.clauses) {
    if (result.killing_clauses.count(clause)) result.proven_clauses.push_back(clause);
  }
  if (result.killed_by.empty()) {
    if (fault.equivalent) {
      result.status = Status::kIgnored;
      result.reason = *fault.equivalent;
    } else if (result.case_errors > 0) {
      // A crash or a hang of a case is not a kill: the oracle did not say "wrong".
      result.status = timeouts ? Status::kTimeout : Status::kRuntimeError;
      result.reason = std::to_string(result.case_errors) +
                      " case(s) ended in a harness error or a time limit, none failed";
    } else {
      result.status = Status::kSurvived;
    }
    return result;
  }
  result.status = Status::kKilled;
  // The line names the bug case when it kills, else the first case killing under a clause
  // the fault cites, else the first killer.
  const auto cites_own = [&](const std::string& id) {
    for (const auto& c : gating_of[id]) {
      if (Contains(fault.clauses, c)) return true;
    }
    return false;
  };
  if (fault.bug && Contains(result.killed_by, fault.bug->case_id)) {
    result.killing_case = fault.bug->case_id;
  } else {
    const auto own = std::find_if(result.killed_by.begin(), result.killed_by.end(), cites_own);
    const auto counted = std::find_if(result.killed_by.begin(), result.killed_by.end(),
                                      [&](const std::string& id) { return gating_of.count(id) > 0; });
    result.killing_case = own != result.killed_by.end()       ? *own
                          : counted != result.killed_by.end() ? *counted
                                                              : result.killed_by.front();
  }
  const auto& clauses = gating_of[result.killing_case];
  const auto cited = std::find_if(clauses.begin(), clauses.end(), [&](const std::string& c) {
    return Contains(fault.clauses, c);
  });
  result.killing_clause = cited != clauses.end() ? *cited
                          : clauses.empty()      ? std::string()
                                                 : clauses.front();
  if (fault.equivalent) {
    result.problems.push_back("catalogued as equivalent, but killed: the argument does not hold");
  }
  if (result.proven_clauses.empty() && !fault.canary) {
    std::string found;
    for (const auto& c : result.killing_clauses) found += (found.empty() ? "" : ", ") + c;
    result.problems.push_back("killed only under clauses it does not cite (" + found +
                              "): its catalogue entry or an oracle is wrong");
  }
  if (!result.proven_clauses.empty() && result.proven_clauses.size() < fault.clauses.size()) {
    std::string unproven;
    for (const auto& c : fault.clauses) {
      if (!Contains(result.proven_clauses, c)) unproven += (unproven.empty() ? "" : ", ") + c;
    }
    result.problems.push_back("cites " + unproven +
                              ", which its kill does not prove: no killing finding concerns it");
  }
  if (fault.bug && !Contains(result.killed_by, fault.bug->case_id)) {
    result.problems.push_back("its bug case " + fault.bug->case_id +
                              " does not kill it: that case proves nothing about its bug");
  }
  return result;
}

std::chrono::milliseconds FaultLimit(const HarnessOptions& options, double baseline_ms) {
  if (options.fault_time_limit.count() > 0) return options.fault_time_limit;
  // Generous against a slow machine, short against a hang: ten baselines and half a minute,
  // never less than one case's own limit.
  const auto derived = std::chrono::milliseconds(30000 + static_cast<long long>(10 * baseline_ms));
  return std::max(derived, options.case_timeout + std::chrono::milliseconds(5000));
}

}  // namespace

std::string_view ToString(Status status) {
  switch (status) {
    case Status::kKilled:
      return "Killed";
    case Status::kSurvived:
      return "Survived";
    case Status::kRuntimeError:
      return "RuntimeError";
    case Status::kTimeout:
      return "Timeout";
    case Status::kIgnored:
      return "Ignored";
  }
  return "RuntimeError";
}

std::size_t MutationRun::Count(Status status) const {
  return static_cast<std::size_t>(std::count_if(
      faults.begin(), faults.end(), [status](const FaultResult& r) { return r.status == status; }));
}

double MutationRun::Score() const {
  std::size_t valid = 0, killed = 0;
  for (const auto& r : faults) {
    if (r.fault.equivalent) continue;  // a killed "equivalent" fault is a problem, not a point
    ++valid;
    if (r.status == Status::kKilled) ++killed;
  }
  return valid == 0 ? 100.0 : 100.0 * static_cast<double>(killed) / static_cast<double>(valid);
}

bool MutationRun::Clean() const {
  if (stop != Stop::kNone || !unpaired_bug_cases.empty()) return false;
  for (const auto& r : faults) {
    if (!r.problems.empty()) return false;
    if (!r.fault.equivalent && r.status != Status::kKilled) return false;
  }
  for (const auto& [clause, why] : unproven_must_clauses) {
    if (why.empty()) return false;
  }
  return true;
}

std::optional<std::string> FirstUnknownFault(const Catalogue& catalogue) {
  for (const auto& fault : catalogue.faults) {
    if (ref::fault::Find(fault.id) == nullptr) return fault.id;
  }
  return std::nullopt;
}

std::string FaultLine(const FaultResult& r) {
  std::string line = r.point.file.empty() ? r.fault.file : r.point.file;
  if (r.point.line > 0) line += ":" + std::to_string(r.point.line);
  const std::string label = r.fault.equivalent && r.status == Status::kIgnored
                                ? "Equivalent"
                                : std::string(ToString(r.status));
  line += ": " + label + ": " + r.fault.description + " [" + r.fault.id + "]";
  if (r.status == Status::kKilled) {
    line += " by " + r.killing_case;
    if (!r.killing_clause.empty()) line += " (" + r.killing_clause + ")";
  } else if (!r.reason.empty() && r.status != Status::kIgnored) {
    line += " (" + r.reason + ")";
  }
  return line;
}

MutationRun RunMutants(const HarnessOptions& given) {
  HarnessOptions options = given;
  if (!options.activate) options.activate = [](const std::string& id) { ref::fault::SetActive(id); };
  if (options.registry == nullptr) throw std::invalid_argument("the harness needs a clause registry");
  const Fault* canary = options.catalogue.Canary();
  if (canary == nullptr) throw std::invalid_argument("the catalogue has no canary fault");
  std::vector<const Fault*> selected;
  for (const auto& id : options.selected) {
    const Fault* fault = options.catalogue.Find(id);
    if (fault == nullptr) throw std::invalid_argument("unknown fault id '" + id + "'");
    if (!fault->canary) selected.push_back(fault);
  }
  for (const Fault* fault : selected) {
    if (ref::fault::Find(fault->id) == nullptr) {
      throw std::invalid_argument("unknown fault id '" + fault->id +
                                  "': this build has no fault point for it");
    }
  }
  if (ref::fault::Find(canary->id) == nullptr) {
    throw std::invalid_argument("unknown fault id '" + canary->id +
                                "' (the canary): this build has no fault point for it");
  }

  MutationRun run;
  // 1. The baseline: every case must pass without a fault, or no kill means anything.
  const auto baseline_limit = options.case_timeout * static_cast<long>(options.cases.size() + 1);
  RunChildren(options, {Job{0, "", baseline_limit}}, 1, [&](const Job&, const Finished& done) {
    run.baseline_ms = done.duration_ms;
    nlohmann::json results;
    try {
      results = nlohmann::json::parse(done.output);
    } catch (const nlohmann::json::exception&) {
      results = nullptr;
    }
    if (!results.is_array()) {
      run.stop = MutationRun::Stop::kHarness;
      run.stop_reason =
          done.crashed    ? "the baseline run crashed (signal " + std::to_string(done.signal) + ")"
          : done.timed_out ? std::string("the baseline run passed its time limit")
          : results.is_object()
              ? "the baseline run failed: " + results.value("harness_error", std::string())
              : std::string("the baseline run ended without readable results");
      return;
    }
    run.baseline_results = std::move(results);
  });
  if (run.stop != MutationRun::Stop::kNone) return run;
  std::string failing;
  std::size_t failures = 0;
  for (const auto& r : run.baseline_results) {
    if (!reports::Gates(r)) continue;
    if (++failures <= 5) failing += (failing.empty() ? "" : ", ") + r.value("id", std::string());
  }
  if (failures > 0) {
    run.stop = MutationRun::Stop::kBaselineFailed;
    run.stop_reason = "the baseline (no fault) does not pass: " + std::to_string(failures) +
                      " case(s) gate (" + failing + (failures > 5 ? ", ..." : "") +
                      "); a kill would prove nothing, so no fault was run";
    return run;
  }
  const auto limit = FaultLimit(options, run.baseline_ms);

  // 2. The canary: a harness that cannot kill is found before it passes anything.
  const auto mutation_started = Clock::now();
  RunChildren(options, {Job{0, canary->id, limit}}, 1, [&](const Job&, const Finished& done) {
    run.canary = Judge(*canary, done);
  });
  if (options.on_result) options.on_result(*run.canary);
  if (run.canary->status != Status::kKilled) {
    run.stop = MutationRun::Stop::kCanarySurvived;
    run.stop_reason = "the canary fault " + canary->id + " was not killed (" +
                      std::string(ToString(run.canary->status)) +
                      "): this harness cannot kill, so no survivor would mean anything";
    return run;
  }

  // 3. Every selected fault.
  std::deque<Job> jobs;
  for (std::size_t i = 0; i < selected.size(); ++i) jobs.push_back(Job{i, selected[i]->id, limit});
  run.faults.resize(selected.size());
  RunChildren(options, std::move(jobs), options.jobs, [&](const Job& job, const Finished& done) {
    run.faults[job.slot] = Judge(*selected[job.slot], done);
    if (options.on_result) options.on_result(run.faults[job.slot]);
  });
  run.mutation_ms = MillisecondsSince(mutation_started);

  if (options.whole_catalogue) {
    std::set<std::string> paired;
    for (const auto& fault : options.catalogue.faults) {
      if (fault.bug) paired.insert(fault.bug->case_id);
    }
    std::set<std::string> corpus;
    for (const auto& c : options.cases) {
      corpus.insert(c.id);
      if (c.twin) continue;  // a twin reproduces its original's bug, which is paired
      if (c.id.rfind("bugs/", 0) == 0 && !paired.count(c.id)) run.unpaired_bug_cases.push_back(c.id);
    }
    for (auto& r : run.faults) {
      if (r.fault.bug && !corpus.count(r.fault.bug->case_id)) {
        r.problems.push_back("its bug case " + r.fault.bug->case_id + " is not in the corpus");
      }
    }
    for (const auto& clause : options.registry->clauses()) {
      if (clause.level != runner::Level::kMust) continue;
      const bool proven = std::any_of(run.faults.begin(), run.faults.end(), [&](const auto& r) {
        return r.status == Status::kKilled && Contains(r.proven_clauses, clause.id);
      });
      if (!proven) {
        run.unproven_must_clauses.emplace_back(clause.id, clause.pending);
        continue;
      }
      const bool alone = std::any_of(run.faults.begin(), run.faults.end(), [&](const auto& r) {
        return r.status == Status::kKilled && r.finding_clauses.size() == 1 &&
               r.finding_clauses.count(clause.id) == 1 && Contains(r.proven_clauses, clause.id);
      });
      if (!alone) run.must_clauses_without_sole_proof.push_back(clause.id);
    }
  }
  return run;
}

}  // namespace gemini_oracle::mutants
