// Many concurrent keep-alive clients against one capture server, as `run --jobs 64` makes them.

#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <cstddef>
#include <latch>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "oracles/capture/capture_server.h"

namespace gemini_oracle::capture {
namespace {

using Clock = std::chrono::steady_clock;

constexpr char kGenerate[] = "/v1beta/models/gemini-2.5-flash:generateContent";

std::unique_ptr<httplib::Client> Connect(const CaptureServer& server) {
  auto client = std::make_unique<httplib::Client>("127.0.0.1", server.port());
  client->set_keep_alive(true);
  client->set_tcp_nodelay(true);
  return client;
}

std::string RequestBody(int client, int turn) {
  return R"({"contents":[{"role":"user","parts":[{"text":"client )" + std::to_string(client) +
         " asks " + std::to_string(turn) + R"("}]}]})";
}

std::string AnswerBody(int client, int turn) {
  return R"({"candidates":[{"content":{"role":"model","parts":[{"text":"client )" +
         std::to_string(client) + " answer " + std::to_string(turn) + R"("}]}}]})";
}

// What one client saw: the body of each answer, or the transport error in its place.
struct ClientRun {
  std::vector<std::string> answers;
  int transport_errors = 0;
};

// Serves 64 keep-alive clients that connect in one burst, each on its own script, with every
// answer and every journal entry where it belongs.
TEST(CaptureServerLoad, ServesManyKeepAliveClientsExactly) {
  constexpr int kClients = 64;
  constexpr int kTurns = 50;
  CaptureServer server;
  std::vector<std::string> ids;
  for (int c = 0; c < kClients; ++c) {
    std::vector<ScriptedResponse> turns;
    for (int t = 0; t < kTurns; ++t) turns.push_back({200, {}, AnswerBody(c, t)});
    ids.push_back(server.AddScript(std::move(turns)));
  }

  std::vector<ClientRun> runs(kClients);
  // All clients connect at once, and each keeps its connection until every client is done, as
  // the suite runner's jobs keep theirs between cases.
  std::latch start(kClients);
  std::latch done(kClients);
  std::vector<std::thread> threads;
  const auto began = Clock::now();
  for (int c = 0; c < kClients; ++c) {
    threads.emplace_back([&, c] {
      auto client = Connect(server);
      start.arrive_and_wait();
      const std::string path = "/s/" + ids[c] + kGenerate;
      for (int t = 0; t < kTurns; ++t) {
        auto res = client->Post(path, RequestBody(c, t), "application/json");
        if (res && res->status == 200) {
          runs[c].answers.push_back(res->body);
        } else {
          runs[c].answers.push_back(res ? "status " + std::to_string(res->status)
                                        : "transport: " + httplib::to_string(res.error()));
          if (!res) ++runs[c].transport_errors;
        }
      }
      done.arrive_and_wait();
    });
  }
  for (auto& t : threads) t.join();
  const auto elapsed = Clock::now() - began;

  int transport_errors = 0;
  for (int c = 0; c < kClients; ++c) {
    transport_errors += runs[c].transport_errors;
    ASSERT_EQ(runs[c].answers.size(), static_cast<std::size_t>(kTurns));
    for (int t = 0; t < kTurns; ++t) {
      EXPECT_EQ(runs[c].answers[t], AnswerBody(c, t)) << "client " << c << " turn " << t;
    }
    const auto journal = server.Journal(ids[c]);
    ASSERT_EQ(journal.size(), static_cast<std::size_t>(kTurns)) << "client " << c;
    for (int t = 0; t < kTurns; ++t) {
      EXPECT_EQ(journal[t].body, RequestBody(c, t)) << "client " << c << " turn " << t;
      EXPECT_EQ(journal[t].index, static_cast<std::size_t>(t));
      EXPECT_TRUE(journal[t].scripted);
    }
  }
  EXPECT_EQ(transport_errors, 0);
  EXPECT_EQ(server.TotalRequests(), static_cast<std::size_t>(kClients * kTurns));
  EXPECT_LT(elapsed, std::chrono::seconds(10));
}

// Serves each of 40 keep-alive connections promptly while all the others stay open and idle,
// more connections than a fixed worker pool of the usual size holds.
TEST(CaptureServerLoad, ServesMoreIdleConnectionsThanAnyFixedPool) {
  constexpr int kClients = 40;
  CaptureServer server;
  const std::string id = server.AddScript({});
  std::vector<std::unique_ptr<httplib::Client>> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.push_back(Connect(server));
    // A starved connection fails in 2 s instead of the library's 5 s read timeout.
    clients.back()->set_read_timeout(std::chrono::seconds(2));
  }
  // One request per client opens its connection, which then stays open and idle.
  for (int c = 0; c < kClients; ++c) {
    const auto sent = Clock::now();
    auto res = clients[c]->Post("/s/" + id + kGenerate, RequestBody(c, 0), "application/json");
    ASSERT_TRUE(res) << "client " << c << ": " << httplib::to_string(res.error());
    // Unscripted: the script has no turns, so each gets a Google error, journaled all the same.
    EXPECT_EQ(res->status, 400);
    EXPECT_LT(Clock::now() - sent, std::chrono::seconds(1)) << "client " << c;
  }
  // Every idle connection is still served at once.
  for (int c = kClients - 1; c >= 0; --c) {
    const auto sent = Clock::now();
    auto res = clients[c]->Post("/s/" + id + kGenerate, RequestBody(c, 1), "application/json");
    ASSERT_TRUE(res) << "client " << c << ": " << httplib::to_string(res.error());
    EXPECT_LT(Clock::now() - sent, std::chrono::seconds(1)) << "client " << c;
  }
  EXPECT_EQ(server.RequestCount(id), static_cast<std::size_t>(2 * kClients));
  clients.clear();
}

}  // namespace
}  // namespace gemini_oracle::capture
