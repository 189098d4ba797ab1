#include "oracles/capture/http_server_setup.h"

#include <arpa/inet.h>
#include <malloc.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <utility>

namespace gemini_oracle::capture {
namespace {

using Clock = std::chrono::steady_clock;

// cpp-httplib closes a keep-alive connection after 5 requests by default; a long
// conversation should stay on one connection, as it would against Google.
constexpr std::size_t kKeepAliveMaxRequests = 1000000;

// How long a connection whose request was refused for its size keeps reading (and dropping)
// what the client still sends before it closes.
constexpr std::chrono::milliseconds kLingerLimit{2000};

// A request at least this large has its freed memory handed back to the system at once.
constexpr std::size_t kTrimAfterBytes = std::size_t{1} << 20;

// poll() for one socket, retried on EINTR; the milliseconds are a whole timeout.
int PollOne(socket_t sock, short events, int timeout_ms) {
  pollfd entry{sock, events, 0};
  for (;;) {
    const int ready = ::poll(&entry, 1, timeout_ms);
    if (ready >= 0 || errno != EINTR) return ready;
  }
}

int Milliseconds(time_t sec, time_t usec) {
  return static_cast<int>(std::min<long long>(
      static_cast<long long>(sec) * 1000 + static_cast<long long>(usec) / 1000, 1 << 30));
}

void AddressOf(socket_t sock, bool peer, std::string& ip, int& port) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  auto* raw = reinterpret_cast<sockaddr*>(&address);
  if ((peer ? ::getpeername(sock, raw, &length) : ::getsockname(sock, raw, &length)) != 0) return;
  char text[INET6_ADDRSTRLEN] = {};
  if (address.ss_family == AF_INET) {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(&address);
    ::inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
    port = ntohs(v4->sin_port);
  } else if (address.ss_family == AF_INET6) {
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&address);
    ::inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
    port = ntohs(v6->sin6_port);
  }
  ip = text;
}

// One connection of a BoundedServer, kept across its keep-alive requests (bytes read ahead
// belong to the next request). Delivers at most kMaxHeadBytes until the blank line that ends
// a request's head, and at most the body limit plus that after it; past either, every read
// fails and the request is marked too large.
class ConnectionStream final : public httplib::Stream {
 public:
  ConnectionStream(socket_t sock, int read_timeout_ms, int write_timeout_ms,
                   std::size_t max_body_bytes)
      : sock_(sock),
        read_timeout_ms_(read_timeout_ms),
        write_timeout_ms_(write_timeout_ms),
        max_request_bytes_(max_body_bytes + BoundedServer::kMaxHeadBytes) {}

  // Waits up to `timeout_ms` for the next request's first byte; false at its end or on EOF.
  bool AwaitRequest(int timeout_ms) {
    if (offset_ < filled_) return true;
    return PollOne(sock_, POLLIN, timeout_ms) > 0;
  }
  void StartRequest() {
    delivered_ = 0;
    head_done_ = false;
    blank_line_match_ = 0;
    refused_status_ = 0;
  }
  int refused_status() const { return refused_status_; }
  std::size_t request_bytes() const { return delivered_; }
  void Refuse(int status) { refused_status_ = status; }

  bool is_readable() const override {
    return offset_ < filled_ || PollOne(sock_, POLLIN, read_timeout_ms_) > 0;
  }
  bool is_writable() const override {
    pollfd entry{sock_, POLLOUT, 0};
    int ready;
    do {
      ready = ::poll(&entry, 1, write_timeout_ms_);
    } while (ready < 0 && errno == EINTR);
    return ready > 0 && (entry.revents & (POLLERR | POLLHUP | POLLNVAL)) == 0;
  }

  ssize_t read(char* ptr, std::size_t size) override {
    if (refused_status_ != 0) return -1;
    if (offset_ == filled_) {
      if (PollOne(sock_, POLLIN, read_timeout_ms_) <= 0) return -1;
      ssize_t n;
      do {
        n = ::recv(sock_, buffer_.data(), buffer_.size(), 0);
      } while (n < 0 && errno == EINTR);
      if (n <= 0) return n;
      offset_ = 0;
      filled_ = static_cast<std::size_t>(n);
    }
    std::size_t n = std::min(size, filled_ - offset_);
    const bool head = !head_done_;
    if (head) n = ScanHead(n);
    if (delivered_ + n > (head ? BoundedServer::kMaxHeadBytes : max_request_bytes_)) {
      refused_status_ = head ? 431 : 413;
      return -1;
    }
    std::memcpy(ptr, buffer_.data() + offset_, n);
    offset_ += n;
    delivered_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, std::size_t size) override {
    if (!is_writable()) return -1;
    ssize_t n;
    do {
      n = ::send(sock_, ptr, size, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    return n;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    AddressOf(sock_, true, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    AddressOf(sock_, false, ip, port);
  }
  socket_t socket() const override { return sock_; }

 private:
  // How many of the next `n` buffered bytes to deliver: up to and including the head's blank
  // line (CR LF CR LF), so the head's own limit applies to the head alone.
  std::size_t ScanHead(std::size_t n) {
    static constexpr char kBlankLine[] = "\r\n\r\n";
    for (std::size_t i = 0; i < n; ++i) {
      const char c = buffer_[offset_ + i];
      if (c == kBlankLine[blank_line_match_]) {
        ++blank_line_match_;
      } else {
        blank_line_match_ = c == '\r' ? 1 : 0;
      }
      if (blank_line_match_ == 4) {
        head_done_ = true;
        return i + 1;
      }
    }
    return n;
  }

  const socket_t sock_;
  const int read_timeout_ms_;
  const int write_timeout_ms_;
  const std::size_t max_request_bytes_;
  std::array<char, 16 * 1024> buffer_{};
  std::size_t offset_ = 0;
  std::size_t filled_ = 0;
  std::size_t delivered_ = 0;  // bytes of the current request handed to cpp-httplib
  bool head_done_ = false;
  std::size_t blank_line_match_ = 0;
  int refused_status_ = 0;  // 413 (body) or 431 (head) once a limit was hit
};

// The connection a BoundedServer worker is serving on this thread.
thread_local ConnectionStream* current_connection = nullptr;

// Closing with unread bytes resets the connection, and a client still sending a refused body
// may then lose the answer: read and drop what comes, for a while, before closing.
void LingerThenClose(socket_t sock) {
  ::shutdown(sock, SHUT_WR);
  const auto give_up = Clock::now() + kLingerLimit;
  std::array<char, 16 * 1024> sink;
  for (auto now = Clock::now(); now < give_up; now = Clock::now()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(give_up - now);
    if (PollOne(sock, POLLIN, static_cast<int>(left.count()) + 1) <= 0) break;
    ssize_t n;
    do {
      n = ::recv(sock, sink.data(), sink.size(), 0);
    } while (n < 0 && errno == EINTR);
    if (n <= 0) break;
  }
}

}  // namespace

GrowingTaskQueue::GrowingTaskQueue(std::chrono::milliseconds idle_limit, std::size_t min_workers)
    : idle_limit_(idle_limit), min_workers_(min_workers) {}

GrowingTaskQueue::~GrowingTaskQueue() {
  // cpp-httplib calls shutdown() before deleting the queue; this covers any other owner, since
  // destroying a joinable std::thread ends the program.
  shutdown();
}

void GrowingTaskQueue::enqueue(std::function<void()> task) {
  JoinRetired();
  std::unique_lock lock(mu_);
  tasks_.push_back(std::move(task));
  if (tasks_.size() <= idle_) {
    lock.unlock();
    wake_.notify_one();
    return;
  }
  // The worker starts under the lock, so it finds its own entry in workers_ when it runs.
  const auto self = workers_.emplace(workers_.end());
  try {
    *self = std::thread([this, self] { Work(self); });
    ++started_;
  } catch (const std::system_error&) {
    // Out of threads: the task stays queued for the next worker that finishes, which is the
    // fixed pool's behaviour and better than dropping a connection.
    workers_.erase(self);
  }
}

void GrowingTaskQueue::shutdown() {
  Workers workers;
  {
    std::lock_guard lock(mu_);
    shutting_down_ = true;
    workers.swap(workers_);
  }
  wake_.notify_all();
  for (auto& worker : workers) worker.join();
  JoinRetired();
}

std::size_t GrowingTaskQueue::workers_started() const {
  std::lock_guard lock(mu_);
  return started_;
}

std::size_t GrowingTaskQueue::workers() const {
  std::lock_guard lock(mu_);
  return workers_.size();
}

std::size_t GrowingTaskQueue::idle_workers() const {
  std::lock_guard lock(mu_);
  return idle_;
}

void GrowingTaskQueue::JoinRetired() {
  Workers retired;
  {
    std::lock_guard lock(mu_);
    retired.swap(retired_);
  }
  for (auto& worker : retired) worker.join();  // each has left Work() or is about to
}

void GrowingTaskQueue::Work(Workers::iterator self) {
  std::unique_lock lock(mu_);
  for (;;) {
    ++idle_;
    const bool woken =
        wake_.wait_for(lock, idle_limit_, [this] { return !tasks_.empty() || shutting_down_; });
    --idle_;
    if (!woken) {
      if (workers_.size() <= min_workers_) continue;
      // Idle past the limit: join the workers retired before this one (so their stacks are
      // freed now, not at the next connection), leave this one to the next joiner, and end.
      Workers earlier;
      earlier.swap(retired_);
      retired_.splice(retired_.end(), workers_, self);
      lock.unlock();
      for (auto& worker : earlier) worker.join();
      return;
    }
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
  // exhaust the journal's memory with one request. A BoundedServer keeps its own limit.
  if (dynamic_cast<BoundedServer*>(&server) == nullptr) {
    server.set_payload_max_length(64 * 1024 * 1024);
  }
}

int BindWithFullBacklog(httplib::Server& server, const std::string& host, int port) {
  int listening = -1;
  server.set_socket_options([&listening](socket_t sock) {
    // SO_REUSEADDR: a restarted server binds while its old connections are in TIME_WAIT.
    // Never SO_REUSEPORT, which lets another process bind the same port.
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    // Called for each address tried, before bind(); the last one is the socket that bound.
    listening = sock;
  });
  errno = 0;
  const int bound =
      port == 0 ? server.bind_to_any_port(host) : (server.bind_to_port(host, port) ? port : -1);
  // A failed bind() leaves its errno: cpp-httplib only closes the socket after it.
  const int bind_error = errno;
  // The callback refers to a local: nothing may call it after this function returns.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  const std::string where = host + ":" + std::to_string(port);
  if (bound < 0 || listening < 0) {
    throw std::system_error(bind_error != 0 ? bind_error : EADDRNOTAVAIL, std::generic_category(),
                            "cannot bind " + where);
  }
  // Linux takes a second listen() on a listening socket as a new backlog, capped by
  // net.core.somaxconn.
  if (::listen(listening, SOMAXCONN) != 0) {
    const int error = errno;
    ::close(listening);
    throw std::system_error(error, std::generic_category(), "listen(" + where + ")");
  }
  return bound;
}

int BindToAnyPortWithFullBacklog(httplib::Server& server, const std::string& host) {
  return BindWithFullBacklog(server, host, 0);
}

BoundedServer::BoundedServer(std::size_t max_body_bytes) : max_body_bytes_(max_body_bytes) {
  set_payload_max_length(max_body_bytes);
  // A client that asks before sending a body too large is refused before it sends it.
  set_expect_100_continue_handler([this](const httplib::Request& req, httplib::Response& res) {
    const std::string length = req.get_header_value("Content-Length");
    char* end = nullptr;
    errno = 0;
    const unsigned long long bytes = std::strtoull(length.c_str(), &end, 10);
    const bool too_large = !length.empty() && end != nullptr && *end == '\0' &&
                           (errno == ERANGE || bytes > max_body_bytes_);
    if (!too_large) return 100;
    if (current_connection != nullptr) current_connection->Refuse(413);
    res.status = 413;
    return 413;
  });
}

BoundedServer::~BoundedServer() {
  if (stopped_listener_ != INVALID_SOCKET) ::close(stopped_listener_);
}

void BoundedServer::StopAndDisconnect() {
  // Not httplib::Server::stop(): it does nothing before listen_after_bind() has started, and
  // it leaves every connection to end on its own, which a client can put off forever.
  const socket_t listener = svr_sock_.exchange(INVALID_SOCKET);
  std::lock_guard lock(mu_);
  disconnecting_ = true;
  if (listener != INVALID_SOCKET) {
    // Wakes accept(); closed only in the destructor, so that the number is not reused while
    // the accepting thread may still pass it to accept().
    ::shutdown(listener, SHUT_RDWR);
    stopped_listener_ = listener;
  }
  for (const socket_t sock : open_) ::shutdown(sock, SHUT_RDWR);
}

std::size_t BoundedServer::open_connections() const {
  std::lock_guard lock(mu_);
  return open_.size();
}

int BoundedServer::RefusedForSize() {
  return current_connection == nullptr ? 0 : current_connection->refused_status();
}

bool BoundedServer::process_and_close_socket(socket_t sock) {
  {
    std::lock_guard lock(mu_);
    if (disconnecting_) {
      ::shutdown(sock, SHUT_RDWR);
      ::close(sock);
      return false;
    }
    open_.insert(sock);
  }
  ConnectionStream stream(sock, Milliseconds(read_timeout_sec_, read_timeout_usec_),
                          Milliseconds(write_timeout_sec_, write_timeout_usec_), max_body_bytes_);
  current_connection = &stream;
  // As cpp-httplib's own loop: requests while the server runs, up to the keep-alive count,
  // each within the keep-alive timeout of the previous one.
  bool ret = false;
  const int keep_alive_ms = Milliseconds(keep_alive_timeout_sec_, 0);
  for (std::size_t count = keep_alive_max_count_;
       svr_sock_ != INVALID_SOCKET && count > 0 && stream.AwaitRequest(keep_alive_ms); --count) {
    stream.StartRequest();
    bool connection_closed = false;
    ret = process_request(stream, count == 1, connection_closed, nullptr);
    // The pages a large body and its tree were freed into stay in this thread's malloc arena,
    // where no other worker takes them: a few such requests on different workers would keep
    // tens of MB each.
    if (stream.request_bytes() >= kTrimAfterBytes) ::malloc_trim(0);
    if (!ret || connection_closed || stream.refused_status() != 0) break;
  }
  current_connection = nullptr;
  // What follows a refused request is the rest of it, never a request.
  if (stream.refused_status() != 0) LingerThenClose(sock);
  {
    std::lock_guard lock(mu_);
    open_.erase(sock);
  }
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return ret;
}

}  // namespace gemini_oracle::capture
