#include "oracles/runner/descendants.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <exception>
#include <thread>

// Each test forks a process that plays the oracle (EndAllOnExit is once per process) and
// watches it from outside: how it ends, and which of its processes survive it.
namespace gemini_oracle::runner::descendants {
namespace {

// A `sleep 300` in a process group of its own, as a driver is started.
int SpawnSleeper(pid_t& pid) {
  pid = ::fork();
  if (pid < 0) return errno;
  if (pid == 0) {
    ::setpgid(0, 0);
    ::execlp("sleep", "sleep", "300", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  return 0;
}

// A `sleep 300` as a plain child (a process the oracle's sweep must find by its parent).
pid_t ForkSleeper() {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execlp("sleep", "sleep", "300", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

// Waits for `pid` at most `seconds`; kills it and fails the test when it does not end.
int WaitFor(pid_t pid, int seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  int status = 0;
  for (;;) {
    const pid_t reaped = ::waitpid(pid, &status, WNOHANG);
    if (reaped == pid) return status;
    if (reaped < 0 && errno != EINTR) {
      ADD_FAILURE() << "waitpid: " << errno;
      return -1;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      ADD_FAILURE() << "process " << pid << " did not end within " << seconds << " s";
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void ReadPids(int fd, pid_t* pids, int count) {
  std::size_t want = sizeof(pid_t) * static_cast<std::size_t>(count);
  auto* at = reinterpret_cast<char*>(pids);
  while (want > 0) {
    const ssize_t n = ::read(fd, at, want);
    ASSERT_GT(n, 0) << "the oracle stand-in ended before saying its processes";
    at += n;
    want -= static_cast<std::size_t>(n);
  }
}

bool Gone(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

TEST(Descendants, AStopSignalEndsTheProcessesAndKillsTheOracleByThatSignal) {
  for (const int number : {SIGTERM, SIGINT}) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    std::fflush(nullptr);
    const pid_t oracle = ::fork();
    ASSERT_GE(oracle, 0);
    if (oracle == 0) {
      ::close(fds[0]);
      EndAllOnExit("descendants_test");
      pid_t driver = 0;
      if (StartGroup(SpawnSleeper, driver) != 0) ::_exit(3);
      [[maybe_unused]] const ssize_t w = ::write(fds[1], &driver, sizeof driver);
      for (;;) ::pause();
    }
    ::close(fds[1]);
    pid_t driver = 0;
    ReadPids(fds[0], &driver, 1);
    ::close(fds[0]);
    ::kill(oracle, number);
    const int status = WaitFor(oracle, 30);
    ASSERT_TRUE(WIFSIGNALED(status)) << "signal " << number << ": ended with status " << status
                                     << " instead of dying by the signal";
    EXPECT_EQ(WTERMSIG(status), number);
    EXPECT_TRUE(Gone(driver)) << "the driver outlived the oracle";
  }
}

TEST(Descendants, ChildrenFromBeforeTheOracleOutliveItTheOnesItStartedDoNot) {
  // Orphans come back to this test, which can then see whether they are still alive.
  ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::fflush(nullptr);
  const pid_t oracle = ::fork();
  ASSERT_GE(oracle, 0);
  if (oracle == 0) {
    ::close(fds[0]);
    // `database & exec gemini-oracle run ...`: a child from before, in the oracle's own group.
    pid_t pids[3] = {ForkSleeper(), 0, 0};
    // The moment EndAllOnExit takes counts in clock ticks: make "after" clearly later.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EndAllOnExit("descendants_test");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (StartGroup(SpawnSleeper, pids[1]) != 0) ::_exit(3);
    pids[2] = ForkSleeper();  // started by the oracle outside any registered group
    [[maybe_unused]] const ssize_t w = ::write(fds[1], pids, sizeof pids);
    EndAll();
    ::_exit(0);
  }
  ::close(fds[1]);
  pid_t pids[3] = {0, 0, 0};
  ReadPids(fds[0], pids, 3);
  ::close(fds[0]);
  const int status = WaitFor(oracle, 30);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  // The earlier child is this test's now: alive (not reaped yet) or it was killed.
  int earlier_status = 0;
  const pid_t reaped = ::waitpid(pids[0], &earlier_status, WNOHANG);
  EXPECT_EQ(reaped, 0) << "the child from before the oracle was ended with it";
  if (reaped == 0) {
    ::kill(pids[0], SIGKILL);
    ::waitpid(pids[0], nullptr, 0);
  }
  EXPECT_TRUE(Gone(pids[1])) << "the registered driver outlived the oracle";
  EXPECT_TRUE(Gone(pids[2])) << "a child the oracle started outlived it";
}

TEST(Descendants, TerminateWhileStartingAProcessEndsWithoutHanging) {
  std::fflush(nullptr);
  const pid_t oracle = ::fork();
  ASSERT_GE(oracle, 0);
  if (oracle == 0) {
    EndAllOnExit("descendants_test");
    pid_t pid = 0;
    // std::terminate while StartGroup holds its lock: EndAll runs in the terminate handler.
    StartGroup([](pid_t&) -> int { std::terminate(); }, pid);
    ::_exit(0);
  }
  const int status = WaitFor(oracle, 30);
  ASSERT_TRUE(WIFSIGNALED(status)) << "status " << status;
  EXPECT_EQ(WTERMSIG(status), SIGABRT);
}

}  // namespace
}  // namespace gemini_oracle::runner::descendants
