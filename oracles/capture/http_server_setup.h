#pragma once
// cpp-httplib server settings that let many keep-alive clients connect and stay at once.

#include <httplib.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gemini_oracle::capture {

/// A task queue for httplib::Server::new_task_queue that never leaves a task waiting: it
/// hands each task to an idle worker, or starts one more worker when none is idle. Workers
/// are kept for later tasks, so their number is the peak of connections open at once;
/// shutdown() runs what is queued and joins them all.
///
/// cpp-httplib runs one task per accepted connection, and that task keeps its worker for the
/// connection's whole keep-alive life. With a fixed pool of N workers, connection N+1 is
/// accepted and then not read until another connection closes or idles out (5 s), and its
/// client times out meanwhile. One thread per live connection is what the server needs.
class GrowingTaskQueue final : public httplib::TaskQueue {
 public:
  GrowingTaskQueue() = default;
  ~GrowingTaskQueue() override;
  GrowingTaskQueue(const GrowingTaskQueue&) = delete;
  GrowingTaskQueue& operator=(const GrowingTaskQueue&) = delete;

  /// Not after shutdown().
  void enqueue(std::function<void()> task) override;
  void shutdown() override;

  /// Workers started so far; a worker starts only when every other one is busy.
  std::size_t workers_started() const;
  /// Workers waiting for a task.
  std::size_t idle_workers() const;

 private:
  void Work();

  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  std::vector<std::thread> workers_;
  std::size_t idle_ = 0;  // workers waiting for a task, each of which will take one
  std::size_t started_ = 0;
  bool shutting_down_ = false;
};

/// Runs the server's connections on a GrowingTaskQueue, with TCP_NODELAY, and keeps a
/// keep-alive connection open for as many requests as a client sends.
void ConfigureForManyConnections(httplib::Server& server);

/// bind_to_any_port(host), then raises the listen backlog to SOMAXCONN. cpp-httplib listens
/// with a backlog of 5, fixed when Debian compiled it. A burst of connections overflows that
/// queue: the kernel completes the handshakes with SYN cookies, drops the connections it
/// cannot queue, and later resets them, so a client that believes it is connected sees its
/// first request fail with a reset a second or more after sending it. Returns the port.
/// Throws std::runtime_error when it cannot bind and std::system_error when listen() fails.
int BindToAnyPortWithFullBacklog(httplib::Server& server, const std::string& host);

}  // namespace gemini_oracle::capture
