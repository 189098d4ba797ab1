#include "oracles/capture/http_server_setup.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <future>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>

#include "tests/loopback_client.h"

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

// Ends workers idle past the limit, down to the minimum, and still runs tasks afterwards.
TEST(GrowingTaskQueue, RetiresIdleWorkersDownToTheMinimum) {
  constexpr int kTasks = 20;
  Gate gate;
  GrowingTaskQueue queue(std::chrono::milliseconds(100), 2);
  for (int i = 0; i < kTasks; ++i) queue.enqueue([&gate] { gate.Enter(); });
  ASSERT_TRUE(gate.AwaitInside(kTasks));
  EXPECT_EQ(queue.workers(), static_cast<std::size_t>(kTasks));
  gate.Open();
  const auto give_up = Clock::now() + std::chrono::seconds(10);
  while (queue.workers() > 2 && Clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(queue.workers(), 2u);
  std::atomic<int> done{0};
  queue.enqueue([&done] { ++done; });
  queue.shutdown();
  EXPECT_EQ(done.load(), 1);
}

int ConnectTo(int port) { return gemini_oracle::testing::ConnectLoopback(port); }

using gemini_oracle::testing::SendAll;

// The status code of the first answer on `sock` (0 when none came within 10 s).
int ReadStatus(int sock) {
  timeval wait{10, 0};
  ::setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  std::string head;
  char buffer[512];
  while (head.find("\r\n") == std::string::npos) {
    const ssize_t n = ::recv(sock, buffer, sizeof buffer, 0);
    if (n <= 0) break;
    head.append(buffer, static_cast<std::size_t>(n));
  }
  if (head.rfind("HTTP/1.1 ", 0) != 0 || head.size() < 12) return 0;
  return std::stoi(head.substr(9, 3));
}

// A BoundedServer listening on loopback whose POST /echo answers the body's length, and whose
// error handler answers with the size refusal, as `serve` does.
struct EchoServer {
  explicit EchoServer(std::size_t max_body) : server(max_body) {
    ConfigureForManyConnections(server);
    server.Post("/echo", [](const httplib::Request& req, httplib::Response& res) {
      res.set_content(std::to_string(req.body.size()), "text/plain");
    });
    server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
      if (const int refused = BoundedServer::RefusedForSize(); refused != 0) res.status = refused;
    });
    port = BindWithFullBacklog(server, "127.0.0.1", 0);
    listener = std::thread([this] {
      server.listen_after_bind();
      ended.set_value();
    });
  }
  ~EchoServer() {
    server.StopAndDisconnect();
    listener.join();
  }
  BoundedServer server;
  int port = 0;
  std::promise<void> ended;
  std::thread listener;
};

std::string Chunked(std::size_t bytes) {
  std::string request = "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
  const std::string chunk(4096, 'a');
  for (std::size_t sent = 0; sent < bytes; sent += chunk.size())
    request += "1000\r\n" + chunk + "\r\n";
  return request + "0\r\n\r\n";
}

// cpp-httplib buffers a chunked body whole whatever its payload limit; the server's stream
// refuses it past the limit, and the answer says 413.
TEST(BoundedServer, RefusesAChunkedBodyOverTheLimit) {
  EchoServer echo(64 * 1024);
  const int small = ConnectTo(echo.port);
  ASSERT_GE(small, 0);
  ASSERT_TRUE(SendAll(small, Chunked(32 * 1024)));
  EXPECT_EQ(ReadStatus(small), 200);
  ::close(small);
  const int large = ConnectTo(echo.port);
  ASSERT_GE(large, 0);
  SendAll(large, Chunked(4 * 1024 * 1024));  // the server may close before reading it all
  EXPECT_EQ(ReadStatus(large), 413);
  ::close(large);
}

// A head of endless header lines is refused with 431, not kept in memory.
TEST(BoundedServer, RefusesAnEndlessHead) {
  EchoServer echo(64 * 1024);
  const int sock = ConnectTo(echo.port);
  ASSERT_GE(sock, 0);
  std::string head = "POST /echo HTTP/1.1\r\nHost: x\r\n";
  for (int i = 0; i < 20000; ++i) head += "X-Filler-" + std::to_string(i) + ": 1\r\n";
  SendAll(sock, head);
  EXPECT_EQ(ReadStatus(sock), 431);
  ::close(sock);
}

// A client that sends a header line now and then never lets a read time out; stopping shuts
// its connection down, so the server returns without waiting for it.
TEST(BoundedServer, StopEndsATricklingConnection) {
  auto echo = std::make_unique<EchoServer>(64 * 1024);
  std::future<void> ended = echo->ended.get_future();
  const int sock = ConnectTo(echo->port);
  ASSERT_GE(sock, 0);
  std::atomic<bool> stop_trickling{false};
  std::thread trickle([&] {
    SendAll(sock, "GET /echo HTTP/1.1\r\n");
    for (int i = 0; !stop_trickling && i < 600; ++i) {
      if (!SendAll(sock, "X-Slow: " + std::to_string(i) + "\r\n")) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  const auto give_up = Clock::now() + std::chrono::seconds(5);
  while (echo->server.open_connections() == 0 && Clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(echo->server.open_connections(), 1u);
  echo->server.StopAndDisconnect();
  // The defect waited for the client to leave (a minute here); 10 s proves it ends at all.
  EXPECT_EQ(ended.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  stop_trickling = true;
  trickle.join();
  ::close(sock);
  echo.reset();
}

// Stopping before the listener runs is not lost: listen_after_bind() then returns at once.
TEST(BoundedServer, StopBeforeListenIsKept) {
  BoundedServer server(1024);
  BindWithFullBacklog(server, "127.0.0.1", 0);
  server.StopAndDisconnect();
  auto listening = std::async(std::launch::async, [&server] { server.listen_after_bind(); });
  EXPECT_EQ(listening.wait_for(std::chrono::seconds(10)), std::future_status::ready);
}

// A port one server listens on is refused to a second (cpp-httplib's default SO_REUSEPORT let
// both bind and split the connections).
TEST(BindWithFullBacklog, RefusesAPortInUse) {
  httplib::Server first, second;
  const int port = BindWithFullBacklog(first, "127.0.0.1", 0);
  try {
    BindWithFullBacklog(second, "127.0.0.1", port);
    ADD_FAILURE() << "a second server bound port " << port;
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::errc::address_in_use) << e.what();
  }
}

}  // namespace
}  // namespace gemini_oracle::capture
