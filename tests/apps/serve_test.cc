// `gemini-oracle serve` as a process: a fixed port takes a burst of connections and is its
// alone, bodies are read within bounds, and a stop ends it whatever its clients do.

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <latch>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tests/loopback_client.h"
#include "tests/temp_dir.h"

extern char** environ;

namespace gemini_oracle {
namespace {

using ::testing::HasSubstr;
using testing::ReadText;
using testing::TempDir;
using Clock = std::chrono::steady_clock;

constexpr char kCase[] = R"({
  "description": "A text answer ends the conversation after one request",
  "clauses": ["ADR-224.12"],
  "exchanges": [{"user": "hello",
    "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [{"text": "hi"}]}}]}}}],
  "expect": {"outcome": "accept", "requests": 1}
}
)";

// A port nothing listens on now (the kernel's pick for a socket closed at once).
int FreePort() {
  const int sock = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(sock, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  ::getsockname(sock, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(sock);
  return ntohs(address.sin_port);
}

// One `gemini-oracle serve` process on a fixed port, with one small case; killed at scope end
// if still running.
class Serve {
 public:
  explicit Serve(int port) : port_(port) {
    folder_.Write("fixtures/VERSION", ReadText(testing::SourceRoot() / "fixtures" / "VERSION"));
    folder_.Write("fixtures/adr-224/y_text_answer.json", kCase);
  }
  ~Serve() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  Serve(const Serve&) = delete;
  Serve& operator=(const Serve&) = delete;

  void Start() {
    // GEMINI_ORACLE_BINARY in the environment runs the tests against another build.
    const char* other = std::getenv("GEMINI_ORACLE_BINARY");
    const std::string binary = other != nullptr && *other ? other : GEMINI_ORACLE_BINARY;
    const std::string root = testing::SourceRoot().string();
    const std::string fixtures = (folder_.path() / "fixtures").string();
    const std::string reports = this->reports().string();
    const std::string port = std::to_string(port_);
    std::vector<std::string> args = {binary,   "--source-root", root,    "serve",  "--fixtures",
                                     fixtures, "--report-dir",  reports, "--port", port};
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    const std::string log = output().string();
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    ASSERT_EQ(posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
  }

  // Whether it printed that it listens within 20 s (false also when it ended first).
  bool AwaitListening() {
    const auto give_up = Clock::now() + std::chrono::seconds(20);
    while (Clock::now() < give_up) {
      if (ReadText(output()).find("listening on") != std::string::npos) return true;
      if (Exited(std::chrono::milliseconds(50))) return false;
    }
    return false;
  }

  // The exit status once it ended within `wait`, else nullopt.
  std::optional<int> Exited(std::chrono::milliseconds wait) {
    const auto give_up = Clock::now() + wait;
    do {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return exit_status_;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    } while (Clock::now() < give_up);
    return pid_ > 0 ? std::nullopt : exit_status_;
  }

  void Signal(int signal_number) { ::kill(pid_, signal_number); }
  std::filesystem::path output() const { return folder_.path() / "serve.out"; }
  std::filesystem::path reports() const {
    return reports_.empty() ? folder_.path() / "reports" : reports_;
  }
  // Before Start: the report folder another serve uses (or one made beforehand).
  void UseReports(std::filesystem::path reports) { reports_ = std::move(reports); }
  httplib::Client Client() const {
    httplib::Client client("127.0.0.1", port_);
    client.set_read_timeout(std::chrono::seconds(30));
    return client;
  }

 private:
  TempDir folder_;
  int port_;
  std::filesystem::path reports_;
  pid_t pid_ = -1;
  std::optional<int> exit_status_;
};

int ConnectTo(int port) { return gemini_oracle::testing::ConnectLoopback(port, 10); }

using gemini_oracle::testing::SendAll;

// The JSON answer of a refused request, or a note of what came instead.
nlohmann::json Answer(const httplib::Result& result, int& status) {
  status = result ? result->status : -1;
  if (!result) return {{"transport", httplib::to_string(result.error())}};
  auto body = nlohmann::json::parse(result->body, nullptr, false);
  if (!body.is_object()) return {{"raw", result->body.substr(0, 200)}};
  return body;
}

// 300 clients connecting and asking at once all get an answer: the fixed port listens with a
// full backlog (cpp-httplib's 5 dropped up to half of them).
TEST(Serve, FixedPortAnswersABurstOf300) {
  constexpr int kClients = 300;
  const int port = FreePort();
  Serve fixed(port);
  fixed.Start();
  ASSERT_TRUE(fixed.AwaitListening()) << ReadText(fixed.output());
  std::atomic<int> answered{0};
  std::latch start(kClients);
  std::vector<std::thread> clients;
  for (int i = 0; i < kClients; ++i) {
    clients.emplace_back([&] {
      start.arrive_and_wait();
      const int sock = ConnectTo(port);
      if (sock < 0) return;
      SendAll(sock, "GET /runs/none HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      char head[16] = {};
      std::size_t got = 0;
      while (got < 12) {
        const ssize_t n = ::recv(sock, head + got, 12 - got, 0);
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
      }
      if (std::string(head, got) == "HTTP/1.1 404") ++answered;
      ::close(sock);
    });
  }
  for (auto& client : clients) client.join();
  EXPECT_EQ(answered.load(), kClients);
}

// A second serve on a port the first listens on stops at start with a usage error; the first
// keeps the port (with SO_REUSEPORT both listened, split the connections and numbered runs
// alike).
TEST(Serve, SecondServeOnTheSamePortFailsAtStart) {
  const int port = FreePort();
  Serve first(port), second(port);
  first.Start();
  ASSERT_TRUE(first.AwaitListening()) << ReadText(first.output());
  second.Start();
  const auto status = second.Exited(std::chrono::seconds(20));
  ASSERT_TRUE(status.has_value()) << "the second serve is running: " << ReadText(second.output());
  EXPECT_EQ(*status, 4);
  EXPECT_THAT(ReadText(second.output()), HasSubstr("the port is in use"));
  EXPECT_FALSE(first.Exited(std::chrono::milliseconds(0)).has_value());
}

// A second serve on another port but the same report folder stops at start with a usage error
// naming the folder: both would number their runs 1, 2... and write over each other's reports.
TEST(Serve, SecondServeOnTheSameReportFolderFailsAtStart) {
  Serve first(FreePort()), second(FreePort());
  first.Start();
  ASSERT_TRUE(first.AwaitListening()) << ReadText(first.output());
  second.UseReports(first.reports());
  second.Start();
  const auto status = second.Exited(std::chrono::seconds(20));
  ASSERT_TRUE(status.has_value()) << "the second serve is running: " << ReadText(second.output());
  EXPECT_EQ(*status, 4);
  const std::string said = ReadText(second.output());
  EXPECT_THAT(said, HasSubstr("--report-dir"));
  EXPECT_THAT(said, HasSubstr(first.reports().generic_string()));
  EXPECT_THAT(said, HasSubstr("another gemini-oracle process"));
  EXPECT_FALSE(first.Exited(std::chrono::milliseconds(0)).has_value());
}

// A serve started on a report folder an earlier serve wrote runs 1 and 7 into numbers its runs
// from 8, and the earlier runs' reports stay as they were.
TEST(Serve, RunIdsFollowTheRunFoldersAlreadyThere) {
  TempDir earlier;
  const auto reports = earlier.path() / "reports";
  earlier.Write("reports/1/index.json", "earlier run 1\n");
  earlier.Write("reports/7/index.json", "earlier run 7\n");
  earlier.Write("reports/12", "a file, not a run folder\n");
  earlier.Write("reports/30x/index.json", "not a run id\n");
  Serve serve(FreePort());
  serve.UseReports(reports);
  serve.Start();
  ASSERT_TRUE(serve.AwaitListening()) << ReadText(serve.output());
  int status = 0;
  auto created = Answer(serve.Client().Post("/runs", "{}", "application/json"), status);
  ASSERT_EQ(status, 201) << created.dump();
  EXPECT_EQ(created.value("run", ""), "8");
  auto closed = Answer(serve.Client().Post("/runs/8/close", "", "application/json"), status);
  EXPECT_EQ(status, 200) << closed.dump();
  EXPECT_TRUE(std::filesystem::exists(reports / "8" / "index.json"));
  EXPECT_EQ(ReadText(reports / "1" / "index.json"), "earlier run 1\n");
  EXPECT_EQ(ReadText(reports / "7" / "index.json"), "earlier run 7\n");
}

// A body nested tens of thousands deep is refused at once with 400 naming the rule and the
// offset, on the creation route (the case files' reader) and on the report route (the driver
// lines').
TEST(Serve, DeepNestingIsRefusedWithItsRule) {
  Serve serve(FreePort());
  serve.Start();
  ASSERT_TRUE(serve.AwaitListening()) << ReadText(serve.output());
  auto client = serve.Client();
  // 60,000 deep: within the creation body's 64 KiB; the report takes 100,000.
  const std::string deep(100000, '[');
  int status = 0;
  const auto started = Clock::now();
  auto answer = Answer(client.Post("/runs", deep.substr(0, 60000), "application/json"), status);
  EXPECT_EQ(status, 400) << answer.dump();
  EXPECT_EQ(answer.value("error", ""), "serve.json") << answer.dump();
  EXPECT_EQ(answer.value("rule", ""), "json.depth") << answer.dump();
  EXPECT_EQ(answer.value("offset", 0), 256) << answer.dump();

  auto created = Answer(client.Post("/runs", "{}", "application/json"), status);
  ASSERT_EQ(status, 201) << created.dump();
  const std::string run = created.value("run", "");
  answer = Answer(client.Post("/runs/" + run + "/reports/1", deep, "application/json"), status);
  EXPECT_EQ(status, 400) << answer.dump();
  EXPECT_EQ(answer.value("rule", ""), "json.depth") << answer.dump();
  EXPECT_EQ(answer.value("offset", 0), 512) << answer.dump();
  answer =
      Answer(client.Post("/runs/" + run + "/reports/1", "{\"type\": ", "application/json"), status);
  EXPECT_EQ(status, 400) << answer.dump();
  EXPECT_EQ(answer.value("rule", ""), "json.syntax") << answer.dump();
  EXPECT_TRUE(answer.contains("offset")) << answer.dump();
  // Generous: the refusals are a scan of 100 KB.
  EXPECT_LT(Clock::now() - started, std::chrono::seconds(10));
}

// Bodies past the limit are refused with 413 and a reason, sized or chunked, and the server
// answers the next request.
TEST(Serve, OversizeBodyIsRefusedWith413) {
  Serve serve(FreePort());
  serve.Start();
  ASSERT_TRUE(serve.AwaitListening()) << ReadText(serve.output());
  auto client = serve.Client();
  int status = 0;
  const std::string sixty_mb(60u << 20, '[');
  auto answer = Answer(client.Post("/runs", sixty_mb, "application/json"), status);
  EXPECT_EQ(status, 413) << answer.dump();
  EXPECT_EQ(answer.value("error", ""), "serve.body_too_large") << answer.dump();
  EXPECT_THAT(answer.value("message", ""), HasSubstr("4 MiB"));

  // Chunked: cpp-httplib itself reads such a body whole, whatever its limit.
  const std::size_t eight_mb = 8u << 20;
  std::size_t given = 0;
  auto chunked = Answer(client.Post(
                            "/runs",
                            [&](std::size_t, httplib::DataSink& sink) {
                              const std::string piece(64 * 1024, '[');
                              if (given >= eight_mb || !sink.write(piece.data(), piece.size())) {
                                sink.done();
                                return true;
                              }
                              given += piece.size();
                              return true;
                            },
                            "application/json"),
                        status);
  EXPECT_EQ(status, 413) << chunked.dump();
  EXPECT_EQ(chunked.value("error", ""), "serve.body_too_large") << chunked.dump();

  // A creation body has its own, smaller limit: it is parsed into a tree and copied.
  std::string padded = "{\"pad\": \"" + std::string(100 * 1024, 'x') + "\"}";
  auto create = Answer(client.Post("/runs", padded, "application/json"), status);
  EXPECT_EQ(status, 413) << create.dump();
  EXPECT_THAT(create.value("message", ""), HasSubstr("64 KiB"));

  auto after = Answer(serve.Client().Get("/runs/none"), status);
  EXPECT_EQ(status, 404) << after.dump();
}

// SIGTERM ends serve, with the reports of its open run written, while a client sends a header
// line every second (which no read timeout ever ends): the defect waited for the client to go.
TEST(Serve, SigtermEndsServeDespiteATricklingClient) {
  const int port = FreePort();
  Serve serve(port);
  serve.Start();
  ASSERT_TRUE(serve.AwaitListening()) << ReadText(serve.output());
  int status = 0;
  auto created = Answer(serve.Client().Post("/runs", "{}", "application/json"), status);
  ASSERT_EQ(status, 201) << created.dump();
  const std::string run = created.value("run", "");

  const int sock = ConnectTo(port);
  ASSERT_GE(sock, 0);
  std::atomic<bool> done{false};
  std::thread trickle([&] {
    SendAll(sock, "GET /runs/" + run + " HTTP/1.1\r\n");
    for (int i = 0; !done && i < 120; ++i) {
      if (!SendAll(sock, "X-Slow-" + std::to_string(i) + ": 1\r\n")) break;
      for (int tick = 0; !done && tick < 10; ++tick) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // a line or two is in
  serve.Signal(SIGTERM);
  // The defect took 60 to 87 s; 10 s proves that it ends at all. The time it took is printed.
  const auto signalled = Clock::now();
  const auto exited = serve.Exited(std::chrono::seconds(10));
  const auto stop_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - signalled).count();
  std::printf("serve stopped %lld ms after SIGTERM\n", static_cast<long long>(stop_ms));
  done = true;
  trickle.join();
  ::close(sock);
  ASSERT_TRUE(exited.has_value()) << ReadText(serve.output());
  EXPECT_EQ(*exited, 0) << ReadText(serve.output());
  EXPECT_THAT(ReadText(serve.output()), HasSubstr("run " + run + " closed"));
  EXPECT_TRUE(std::filesystem::exists(serve.reports() / run / "index.json"));
}

}  // namespace
}  // namespace gemini_oracle
