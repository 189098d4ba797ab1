#include "oracles/capture/http_server_setup.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <system_error>
#include <utility>

namespace gemini_oracle::capture {
namespace {

// cpp-httplib closes a keep-alive connection after 5 requests by default; a long
// conversation should stay on one connection, as it would against Google.
constexpr std::size_t kKeepAliveMaxRequests = 1000000;

}  // namespace

GrowingTaskQueue::~GrowingTaskQueue() {
  // cpp-httplib calls shutdown() before deleting the queue; this covers any other owner, since
  // destroying a joinable std::thread ends the program.
  shutdown();
}

void GrowingTaskQueue::enqueue(std::function<void()> task) {
  std::unique_lock lock(mu_);
  tasks_.push_back(std::move(task));
  if (tasks_.size() <= idle_) {
    lock.unlock();
    wake_.notify_one();
    return;
  }
  try {
    workers_.emplace_back([this] { Work(); });
    ++started_;
  } catch (const std::system_error&) {
    // Out of threads: the task stays queued for the next worker that finishes, which is the
    // fixed pool's behaviour and better than dropping a connection.
  }
}

void GrowingTaskQueue::shutdown() {
  std::vector<std::thread> workers;
  {
    std::lock_guard lock(mu_);
    shutting_down_ = true;
    workers.swap(workers_);
  }
  wake_.notify_all();
  for (auto& worker : workers) worker.join();
}

std::size_t GrowingTaskQueue::workers_started() const {
  std::lock_guard lock(mu_);
  return started_;
}

std::size_t GrowingTaskQueue::idle_workers() const {
  std::lock_guard lock(mu_);
  return idle_;
}

void GrowingTaskQueue::Work() {
  std::unique_lock lock(mu_);
  for (;;) {
    ++idle_;
    wake_.wait(lock, [this] { return !tasks_.empty() || shutting_down_; });
    --idle_;
    if (tasks_.empty()) return;  // shutting down with nothing left to run
    std::function<void()> task = std::move(tasks_.front());
    tasks_.pop_front();
    lock.unlock();
    task();
    task = nullptr;  // release what the task holds before waiting again
    lock.lock();
  }
}

void ConfigureForManyConnections(httplib::Server& server) {
  server.new_task_queue = [] { return new GrowingTaskQueue(); };
  // Without it every keep-alive answer on loopback waits for a delayed ACK (~40 ms).
  server.set_tcp_nodelay(true);
  server.set_keep_alive_max_count(kKeepAliveMaxRequests);
  // A body past this is refused (413) and journaled as unscripted: no implementation can
  // exhaust the journal's memory with one request.
  server.set_payload_max_length(64 * 1024 * 1024);
}

int BindToAnyPortWithFullBacklog(httplib::Server& server, const std::string& host) {
  int listening = -1;
  server.set_socket_options([&listening](socket_t sock) {
    httplib::default_socket_options(sock);  // SO_REUSEADDR / SO_REUSEPORT, as by default
    // Called for each address tried, before bind(); the last one is the socket that bound.
    listening = sock;
  });
  const int port = server.bind_to_any_port(host);
  // The callback refers to a local: nothing may call it after this function returns.
  server.set_socket_options(httplib::default_socket_options);
  if (port < 0 || listening < 0) throw std::runtime_error("cannot bind " + host);
  // Linux takes a second listen() on a listening socket as a new backlog, capped by
  // net.core.somaxconn.
  if (::listen(listening, SOMAXCONN) != 0) {
    const int error = errno;
    ::close(listening);
    throw std::system_error(error, std::generic_category(), "listen(" + host + ")");
  }
  return port;
}

}  // namespace gemini_oracle::capture
