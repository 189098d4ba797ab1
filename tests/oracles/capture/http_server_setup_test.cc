#include "oracles/capture/http_server_setup.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace gemini_oracle::capture {
namespace {

using Clock = std::chrono::steady_clock;

// Counts tasks that have started and holds them until released, as connections hold workers.
class Gate {
 public:
  void Enter() {
    std::unique_lock lock(mu_);
    ++inside_;
    changed_.notify_all();
    changed_.wait(lock, [this] { return open_; });
  }
  // Whether `count` tasks are inside within 5 s.
  bool AwaitInside(int count) {
    std::unique_lock lock(mu_);
    return changed_.wait_for(lock, std::chrono::seconds(5), [&] { return inside_ >= count; });
  }
  void Open() {
    std::lock_guard lock(mu_);
    open_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  int inside_ = 0;
  bool open_ = false;
};

// Runs 40 blocking tasks at once: none waits for another to finish.
TEST(GrowingTaskQueue, RunsEveryTaskAtOnce) {
  constexpr int kTasks = 40;
  Gate gate;
  GrowingTaskQueue queue;
  for (int i = 0; i < kTasks; ++i) queue.enqueue([&gate] { gate.Enter(); });
  EXPECT_TRUE(gate.AwaitInside(kTasks));
  EXPECT_EQ(queue.workers_started(), static_cast<std::size_t>(kTasks));
  gate.Open();
  queue.shutdown();
}

// Hands a task to an idle worker instead of starting another.
TEST(GrowingTaskQueue, ReusesIdleWorkers) {
  GrowingTaskQueue queue;
  std::atomic<int> done{0};
  for (int i = 0; i < 20; ++i) {
    queue.enqueue([&done] { ++done; });
    const auto give_up = Clock::now() + std::chrono::seconds(5);
    while ((done.load() <= i || queue.idle_workers() == 0) && Clock::now() < give_up) {
      std::this_thread::yield();
    }
  }
  EXPECT_EQ(done.load(), 20);
  EXPECT_EQ(queue.workers_started(), 1u);
  queue.shutdown();
}

// Runs the tasks still queued at shutdown, then joins every worker.
TEST(GrowingTaskQueue, ShutdownRunsQueuedTasks) {
  std::atomic<int> done{0};
  {
    GrowingTaskQueue queue;
    for (int i = 0; i < 10; ++i) {
      queue.enqueue([&done] {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        ++done;
      });
    }
    queue.shutdown();
    EXPECT_EQ(done.load(), 10);
  }
  EXPECT_EQ(done.load(), 10);
}

}  // namespace
}  // namespace gemini_oracle::capture
