#pragma once
// cpp-httplib server settings that let many keep-alive clients connect and stay at once.

#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace gemini_oracle::capture {

/// A task queue for httplib::Server::new_task_queue that never leaves a task waiting: it
/// hands each task to an idle worker, or starts one more worker when none is idle. A worker
/// idle for `idle_limit` ends (down to `min_workers`), so a burst of connections does not
/// leave its threads behind; shutdown() runs what is queued and joins them all.
///
/// cpp-httplib runs one task per accepted connection, and that task keeps its worker for the
/// connection's whole keep-alive life. With a fixed pool of N workers, connection N+1 is
/// accepted and then not read until another connection closes or idles out (5 s), and its
/// client times out meanwhile. One thread per live connection is what the server needs.
class GrowingTaskQueue final : public httplib::TaskQueue {
 public:
  static constexpr std::chrono::milliseconds kDefaultIdleLimit{30000};
  static constexpr std::size_t kDefaultMinWorkers = 4;

  explicit GrowingTaskQueue(std::chrono::milliseconds idle_limit = kDefaultIdleLimit,
                            std::size_t min_workers = kDefaultMinWorkers);
  ~GrowingTaskQueue() override;
  GrowingTaskQueue(const GrowingTaskQueue&) = delete;
  GrowingTaskQueue& operator=(const GrowingTaskQueue&) = delete;

  /// Not after shutdown().
  void enqueue(std::function<void()> task) override;
  void shutdown() override;

  /// Workers started so far; a worker starts only when every other one is busy.
  std::size_t workers_started() const;
  /// Workers alive now (busy or idle), retired ones not counted.
  std::size_t workers() const;
  /// Workers waiting for a task.
  std::size_t idle_workers() const;

 private:
  using Workers = std::list<std::thread>;
  void Work(Workers::iterator self);
  void JoinRetired();

  const std::chrono::milliseconds idle_limit_;
  const std::size_t min_workers_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  Workers workers_;
  Workers retired_;       // ended or ending; joined by the next enqueue() or shutdown()
  std::size_t idle_ = 0;  // workers waiting for a task, each of which will take one
  std::size_t started_ = 0;
  bool shutting_down_ = false;
};

/// Runs the server's connections on a GrowingTaskQueue, with TCP_NODELAY, and keeps a
/// keep-alive connection open for as many requests as a client sends.
void ConfigureForManyConnections(httplib::Server& server);

/// Binds `server` to host:port (0: any free port) and listens with a backlog of SOMAXCONN;
/// returns the port. The socket takes SO_REUSEADDR alone: cpp-httplib's default adds
/// SO_REUSEPORT, with which a second process binds the same port and the kernel splits the
/// connections between the two. cpp-httplib listens with a backlog of 5, fixed when Debian
/// compiled it: a burst of connections overflows that queue, the kernel completes the
/// handshakes with SYN cookies, drops what it cannot queue and later resets it, so a client
/// that believes it is connected sees its first request fail a second or more later.
/// Throws std::system_error: its code is the bind's (std::errc::address_in_use for a port
/// taken) or listen()'s.
int BindWithFullBacklog(httplib::Server& server, const std::string& host, int port);

/// BindWithFullBacklog(server, host, 0).
int BindToAnyPortWithFullBacklog(httplib::Server& server, const std::string& host);

/// An httplib::Server that owns its connections: it reads each request through a stream that
/// refuses to deliver more than `max_request_bytes` (request line, headers and body together;
/// cpp-httplib buffers a line without end and a chunked body without limit), and it can end
/// every connection at once. Use instead of httplib::Server where clients are not trusted.
class BoundedServer : public httplib::Server {
 public:
  /// `max_body_bytes`: the payload limit (413 past it); a request's head may add
  /// kMaxHeadBytes.
  explicit BoundedServer(std::size_t max_body_bytes);
  ~BoundedServer() override;

  static constexpr std::size_t kMaxHeadBytes = 64 * 1024;

  /// Stops accepting, whether or not listen_after_bind() has started yet, and shuts down every
  /// open connection, so a worker blocked on a client returns at once. listen_after_bind()
  /// returns once the handlers running now have returned.
  void StopAndDisconnect();

  /// Connections accepted and not yet closed.
  std::size_t open_connections() const;

  /// In a handler or error handler: 413 when the request being answered was refused for its
  /// body's size (cpp-httplib answers an over-long chunked body with a plain 400), 431 for its
  /// head's; 0 otherwise and outside a BoundedServer's worker.
  static int RefusedForSize();

 private:
  bool process_and_close_socket(socket_t sock) override;

  const std::size_t max_body_bytes_;
  mutable std::mutex mu_;
  std::set<socket_t> open_;
  bool disconnecting_ = false;
  socket_t stopped_listener_ = INVALID_SOCKET;  // shut down by StopAndDisconnect, closed last
};

}  // namespace gemini_oracle::capture
