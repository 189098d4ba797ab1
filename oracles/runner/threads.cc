#include "oracles/runner/threads.h"

#include <unistd.h>

#include <condition_variable>
#include <mutex>
#include <system_error>

namespace gemini_oracle::runner {

void HarnessNote(const std::string& text) {
  // One write per line, so that notes from several threads never interleave.
  const std::string line = "gemini-oracle: note: " + text + "\n";
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, line.data(), line.size());
}

std::vector<std::thread> StartThreads(unsigned count, const std::function<void(unsigned)>& body,
                                      const std::string& what) {
  std::vector<std::thread> threads;
  threads.reserve(count);
  for (unsigned k = 1; k <= count; ++k) {
    try {
      threads.emplace_back(body, k);
    } catch (const std::system_error& e) {
      HarnessNote(std::to_string(threads.size()) + " of " + std::to_string(count) + " " + what +
                  " started (" + e.code().message() + "); going on with " +
                  std::to_string(threads.size() + 1) + " in all");
      break;
    }
  }
  return threads;
}

unsigned ThreadsAvailable(unsigned at_most) {
  std::mutex mu;
  std::condition_variable released;
  bool done = false;
  std::vector<std::thread> idle;
  idle.reserve(at_most);
  for (unsigned k = 0; k < at_most; ++k) {
    try {
      idle.emplace_back([&] {
        std::unique_lock lock(mu);
        released.wait(lock, [&] { return done; });
      });
    } catch (const std::system_error&) {
      break;
    }
  }
  {
    std::lock_guard lock(mu);
    done = true;
  }
  released.notify_all();
  for (auto& thread : idle) thread.join();
  return static_cast<unsigned>(idle.size());
}

}  // namespace gemini_oracle::runner
