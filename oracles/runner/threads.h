#pragma once
// Threads where a process or container limit (ulimit -u, a pids cgroup) may refuse them: a
// thread that cannot start is said on standard error, one line, and the work goes on with the
// threads that did start.

#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace gemini_oracle::runner {

/// One line on standard error, "gemini-oracle: note: TEXT": a condition of this machine, not
/// of any case.
void HarnessNote(const std::string& text);

/// Starts up to `count` threads running body(1) ... body(count) (0 is left to the caller's own
/// thread). At the first one refused it stops and says so, naming `what`; returns those that
/// started.
std::vector<std::thread> StartThreads(unsigned count, const std::function<void(unsigned)>& body,
                                      const std::string& what);

/// How many more threads this process can start now, up to `at_most`: starts that many, idle,
/// and ends them again.
unsigned ThreadsAvailable(unsigned at_most);

}  // namespace gemini_oracle::runner
