#include "oracles/runner/descendants.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "oracles/runner/threads.h"

namespace gemini_oracle::runner::descendants {
namespace {

// Driver groups alive at once: one per worker (at most 256) and the probe. Atomic slots, so that
// the fallback signal handler may read them.
constexpr std::size_t kSlots = 1024;
std::array<std::atomic<pid_t>, kSlots> groups{};

std::mutex starting;          // held while a process starts and while everything is ended
bool ending = false;          // under `starting`
std::atomic<pid_t> owner{0};  // the process that called EndAllOnExit (not a forked child)
sigset_t stop_signals;
sigset_t original_mask;
std::terminate_handler previous_terminate = nullptr;
// This thread holds `starting` (StartGroup, EndAll) or is inside EndAll: std::terminate raised
// there must neither lock `starting` again (a deadlock) nor end everything twice.
// Set by the signal thread before it ends everything: the process is to die by that signal.
std::atomic<bool> stopping_by_signal{false};
thread_local bool holds_starting = false;
thread_local bool inside_end_all = false;

// A child is one the oracle started only if it began at or after the moment EndAllOnExit ran
// (clock ticks since boot, as /proc/PID/stat's starttime) and was not already a child then: a
// process started before the oracle was exec'd (`mariadbd & exec gemini-oracle run ...`) stays
// the oracle's child but is not the oracle's to end, nor is a descendant of it that an earlier
// death hands to the oracle.
unsigned long long began_ticks = 0;
constexpr std::size_t kEarlier = 256;
std::array<std::pair<pid_t, unsigned long long>, kEarlier> earlier{};  // (pid, starttime)
std::size_t earlier_count = 0;

// Ticks since boot now, on the clock /proc's starttime counts (the boot-time clock).
unsigned long long TicksNow() {
  timespec now{};
  if (::clock_gettime(CLOCK_BOOTTIME, &now) != 0) return 0;
  const long hz = ::sysconf(_SC_CLK_TCK);
  const unsigned long long per_second = hz > 0 ? static_cast<unsigned long long>(hz) : 100;
  return static_cast<unsigned long long>(now.tv_sec) * per_second +
         static_cast<unsigned long long>(now.tv_nsec) / (1000000000ULL / per_second);
}

struct Child {
  pid_t pid;
  unsigned long long started;  // /proc/PID/stat field 22
};

bool StartedEarlier(const Child& child) {
  if (child.started < began_ticks) return true;
  for (std::size_t i = 0; i < earlier_count; ++i) {
    if (earlier[i].first == child.pid && earlier[i].second == child.started) return true;
  }
  return false;
}

void Register(pid_t pgid) {
  for (auto& slot : groups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pgid)) return;
  }
  // Full (cannot happen with 256 workers): the sweep of children still finds the leader.
}

// This process's children, from each process's stat line: "pid (comm) state ppid ...". The
// command name may hold spaces and parentheses: the fields follow the last ')'; starttime is the
// 20th field after it (field 22 of the line).
std::vector<Child> Children() {
  std::vector<Child> found;
  const pid_t self = ::getpid();
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return found;
  while (const dirent* entry = ::readdir(proc)) {
    char* end = nullptr;
    const long pid = std::strtol(entry->d_name, &end, 10);
    if (pid <= 0 || end == entry->d_name || *end != '\0') continue;
    const std::string path = std::string("/proc/") + entry->d_name + "/stat";
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    char buffer[1024];
    const ssize_t n = ::read(fd, buffer, sizeof buffer - 1);
    ::close(fd);
    if (n <= 0) continue;
    buffer[n] = '\0';
    const char* close_paren = std::strrchr(buffer, ')');
    if (close_paren == nullptr) continue;
    char state = 0;
    long parent = 0;
    unsigned long long started = 0;
    if (std::sscanf(close_paren + 1,
                    " %c %ld %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
                    "%llu",
                    &state, &parent, &started) == 3 &&
        parent == self) {
      found.push_back({static_cast<pid_t>(pid), started});
    }
  }
  ::closedir(proc);
  return found;
}

// Kills and reaps children until none is left: a killed child's own children are handed to
// this process (a subreaper) before its death can be reaped, so the next round finds them.
// Children that began before the oracle are left alone (StartedEarlier).
void SweepChildren() {
  for (int round = 0; round < 1000; ++round) {
    std::vector<pid_t> children;
    for (const Child& child : Children()) {
      if (!StartedEarlier(child)) children.push_back(child.pid);
    }
    if (children.empty()) return;
    for (const pid_t child : children) ::kill(child, SIGKILL);
    // A killed process dies at once unless the kernel holds it (a stuck disk): bounded wait.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    for (const pid_t child : children) {
      for (;;) {
        const pid_t reaped = ::waitpid(child, nullptr, WNOHANG);
        if (reaped == child || (reaped < 0 && errno != EINTR)) break;  // ECHILD: reaped elsewhere
        if (std::chrono::steady_clock::now() >= deadline) return;
        ::usleep(1000);
      }
    }
  }
}

// Dies by the signal itself, so that a shell loop or make sees a process killed by SIGINT or
// SIGTERM rather than an ordinary exit: its default action restored, the signal unblocked in
// this thread and sent to this thread (raise), which the kernel delivers before raise returns.
// Not std::exit: the other threads are still running, and static destructors would race them.
// Only if the process somehow outlives that, the conventional 128 + the signal's number.
[[noreturn]] void DieBy(int number) {
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  ::sigaction(number, &fallback, nullptr);
  sigset_t just_this;
  sigemptyset(&just_this);
  sigaddset(&just_this, number);
  ::pthread_sigmask(SIG_UNBLOCK, &just_this, nullptr);
  ::raise(number);
  ::_exit(128 + number);
}

[[noreturn]] void WaitForStopSignal(std::string who) {
  int number = 0;
  while (::sigwait(&stop_signals, &number) != 0) {
  }
  const std::string line = who + ": stopped by " +
                           (number == SIGINT    ? "SIGINT"
                            : number == SIGTERM ? "SIGTERM"
                                                : "SIGHUP") +
                           "; ending the processes it started\n";
  [[maybe_unused]] const ssize_t w = ::write(STDERR_FILENO, line.data(), line.size());
  stopping_by_signal = true;
  EndAll();
  DieBy(number);
}

// Without a thread for signals (none could start): what is safe in a handler, the registered
// groups ended, then death by the signal.
void OnStopSignal(int number) {
  if (owner.load() == ::getpid()) {
    for (auto& slot : groups) {
      const pid_t pgid = slot.exchange(0);
      if (pgid > 0) ::kill(-pgid, SIGKILL);
    }
  }
  DieBy(number);
}

void OnTerminate() {
  EndAll();
  if (previous_terminate != nullptr) previous_terminate();
  std::abort();
}

// A forked child (a mutation run) is an ordinary process: signals as before, nothing to end.
void InForkedChild() { ::pthread_sigmask(SIG_SETMASK, &original_mask, nullptr); }

}  // namespace

void EndAllOnExit(const char* who) {
  if (owner.exchange(::getpid()) == ::getpid()) return;
  // Orphans below this process come back to it rather than to init (Linux 3.4+); without it,
  // the registered groups and the direct children are still ended.
  ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  // Before any thread starts: what is here now was not started by the oracle.
  began_ticks = TicksNow();
  for (const Child& child : Children()) {
    if (earlier_count < kEarlier) earlier[earlier_count++] = {child.pid, child.started};
  }
  sigemptyset(&stop_signals);
  for (const int number : {SIGINT, SIGTERM, SIGHUP}) {
    // One the parent ignores stays ignored (nohup; a script's background job and SIGINT).
    struct sigaction current {};
    if (::sigaction(number, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) continue;
    sigaddset(&stop_signals, number);
  }
  ::pthread_sigmask(SIG_BLOCK, &stop_signals, &original_mask);
  ::pthread_atfork(nullptr, nullptr, InForkedChild);
  std::atexit([] {
    EndAll();
    // The run ended while a stop signal is being handled (its cases cut short): the signal
    // thread is about to end the process by that signal; an ordinary exit status must not
    // win the race. Bounded, should that thread never get there.
    for (int i = 0; stopping_by_signal && i < 1000; ++i) ::usleep(10000);
  });
  previous_terminate = std::set_terminate(OnTerminate);
  try {
    std::thread(WaitForStopSignal, std::string(who)).detach();
  } catch (const std::system_error& e) {
    HarnessNote(std::string("no thread could start to take signals (") + e.code().message() +
                "): on SIGTERM or SIGINT only the drivers' process groups are ended");
    struct sigaction action {};
    action.sa_handler = OnStopSignal;
    sigemptyset(&action.sa_mask);
    for (const int number : {SIGINT, SIGTERM, SIGHUP}) {
      if (sigismember(&stop_signals, number) == 1) ::sigaction(number, &action, nullptr);
    }
    ::pthread_sigmask(SIG_SETMASK, &original_mask, nullptr);
  }
}

namespace {
// Marks this thread as holding `starting` for as long as the lock is held.
class HoldingStarting {
 public:
  HoldingStarting() { holds_starting = true; }
  ~HoldingStarting() { holds_starting = false; }
  HoldingStarting(const HoldingStarting&) = delete;
  HoldingStarting& operator=(const HoldingStarting&) = delete;
};
}  // namespace

int StartGroup(const std::function<int(pid_t&)>& spawn, pid_t& pid) {
  std::lock_guard lock(starting);
  const HoldingStarting holding;
  if (ending) return ECANCELED;
  const int error = spawn(pid);
  if (error == 0) Register(pid);
  return error;
}

void ForgetGroup(pid_t pgid) {
  if (pgid <= 0) return;
  for (auto& slot : groups) {
    pid_t expected = pgid;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

void EndAll() {
  if (owner.load() != ::getpid()) return;
  // Called again from inside itself (std::terminate while ending): the first call goes on.
  if (inside_end_all) return;
  inside_end_all = true;
  // std::terminate while this thread starts a process: it holds `starting` already.
  const bool held = holds_starting;
  std::unique_lock<std::mutex> lock;
  if (!held) lock = std::unique_lock(starting);
  holds_starting = true;
  ending = true;
  // Whole groups first, so that no driver sees its helpers die and starts more.
  for (auto& slot : groups) {
    const pid_t pgid = slot.exchange(0);
    if (pgid > 0) ::kill(-pgid, SIGKILL);
  }
  SweepChildren();
  holds_starting = held;
  inside_end_all = false;
}

}  // namespace gemini_oracle::runner::descendants
