#include "oracles/capture/capture_server.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace gemini_oracle::capture {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::Pair;

constexpr char kGenerate[] = "/v1beta/models/gemini-2.5-flash:generateContent";
constexpr char kSecret[] = "AIzaSy-capture-test-secret-91c2";

ScriptedResponse Ok(std::string body) { return ScriptedResponse{200, {}, std::move(body)}; }

std::string ScriptPath(const std::string& id, const std::string& rest) { return "/s/" + id + rest; }

std::unique_ptr<httplib::Client> Connect(const CaptureServer& server) {
  auto client = std::make_unique<httplib::Client>("127.0.0.1", server.port());
  client->set_keep_alive(true);
  client->set_tcp_nodelay(true);
  return client;
}

// Everything the journal holds as one string, to search for leaked secrets.
std::string Flatten(const std::vector<JournalEntry>& journal) {
  std::string all;
  for (const auto& e : journal) {
    all += e.method + "\n" + e.path + "\n" + e.query + "\n" + e.body + "\n";
    for (const auto& [name, value] : e.headers) all += name + ": " + value + "\n";
  }
  return all;
}

// Google-style error JSON: {"error":{"code":N,"message":"...","status":"..."}}.
void ExpectGoogleError(const httplib::Result& res, int code, const std::string& status) {
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->status, code);
  EXPECT_EQ(res->get_header_value("Content-Type"), "application/json");
  const nlohmann::json body = nlohmann::json::parse(res->body);
  EXPECT_EQ(body["error"]["code"], code);
  EXPECT_EQ(body["error"]["status"], status);
  EXPECT_TRUE(body["error"]["message"].is_string());
}

// Waits until the server has journaled `count` requests under the id, for at most 5 s.
bool AwaitRequests(const CaptureServer& server, const std::string& id, std::size_t count) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (server.RequestCount(id) < count) {
    if (std::chrono::steady_clock::now() > give_up) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

ScriptedResponse Slow(std::string body, std::chrono::milliseconds delay) {
  ScriptedResponse turn = Ok(std::move(body));
  turn.delay = delay;
  return turn;
}

// Serves each scripted turn once, in order, with its status, headers and exact body bytes.
TEST(CaptureServer, ServesScriptedTurnsInOrder) {
  CaptureServer server;
  const std::string first = R"({"candidates":[{"content":{"role":"model","parts":[]}}]})";
  const std::string second =
      R"({"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}})";
  const std::string third = "not json at all \x01\xff";
  const std::string id = server.AddScript({
      Ok(first),
      {429, {{"Retry-After", "7"}}, second},
      {200, {{"Content-Type", "text/plain"}}, third},
  });
  auto client = Connect(server);

  auto r1 = client->Post(ScriptPath(id, kGenerate), "{}", "application/json");
  ASSERT_TRUE(r1);
  EXPECT_EQ(r1->status, 200);
  EXPECT_EQ(r1->body, first);
  EXPECT_EQ(r1->get_header_value("Content-Type"), "application/json");

  auto r2 = client->Post(ScriptPath(id, kGenerate), "{}", "application/json");
  ASSERT_TRUE(r2);
  EXPECT_EQ(r2->status, 429);
  EXPECT_EQ(r2->body, second);
  EXPECT_EQ(r2->get_header_value("Retry-After"), "7");

  auto r3 = client->Post(ScriptPath(id, kGenerate), "{}", "application/json");
  ASSERT_TRUE(r3);
  EXPECT_EQ(r3->status, 200);
  EXPECT_EQ(r3->body, third);
  EXPECT_EQ(r3->get_header_value("Content-Type"), "text/plain");
}

// Accepts the same endpoint under /v1/ as under /v1beta/.
TEST(CaptureServer, ServesBothApiVersions) {
  CaptureServer server;
  const std::string id = server.AddScript({Ok(R"({"n":1})"), Ok(R"({"n":2})")});
  auto client = Connect(server);
  auto r1 = client->Post(ScriptPath(id, "/v1/models/gemini-2.0-flash:generateContent"), "{}",
                         "application/json");
  auto r2 = client->Post(ScriptPath(id, kGenerate), "{}", "application/json");
  ASSERT_TRUE(r1);
  ASSERT_TRUE(r2);
  EXPECT_EQ(r1->body, R"({"n":1})");
  EXPECT_EQ(r2->body, R"({"n":2})");
  EXPECT_EQ(server.Journal(id)[0].path, "/v1/models/gemini-2.0-flash:generateContent");
}

// Serves Vertex AI's model paths (express mode and with a project) as the same endpoint, and
// nothing that only looks like them.
TEST(CaptureServer, ServesVertexModelPaths) {
  CaptureServer server;
  const std::string id =
      server.AddScript({Ok(R"({"n":1})"), Ok(R"({"n":2})"), Ok(R"({"n":3})")});
  auto client = Connect(server);
  for (const char* path :
       {"/v1beta1/publishers/google/models/gemini-3-pro:generateContent",
        "/v1/projects/p-1/locations/global/publishers/google/models/gemini-3-pro:generateContent",
        "/v1beta1/projects/p/locations/us/publishers/google/models/m:generateContent"}) {
    auto r = client->Post(ScriptPath(id, path), "{}", "application/json");
    ASSERT_TRUE(r) << path;
    EXPECT_EQ(r->status, 200) << path;
  }
  ASSERT_EQ(server.Journal(id).size(), 3u);
  EXPECT_EQ(server.Journal(id)[0].path,
            "/v1beta1/publishers/google/models/gemini-3-pro:generateContent");
  for (const char* path :
       {"/v1beta1/publishers/other/models/m:generateContent",
        "/v1/projects/p/publishers/google/models/m:generateContent",
        "/v1/projects//locations/l/publishers/google/models/m:generateContent",
        "/v2/publishers/google/models/m:generateContent"}) {
    ExpectGoogleError(client->Post(ScriptPath(id, path), "{}", "application/json"), 404,
                      "NOT_FOUND");
  }
  const auto journal = server.Journal(id);
  ASSERT_EQ(journal.size(), 7u);
  for (std::size_t i = 0; i < journal.size(); ++i) EXPECT_EQ(journal[i].scripted, i < 3) << i;
}

// Journals method, prefix-free path, raw query and headers, with every API key redacted.
TEST(CaptureServer, JournalsRequestWithKeysRedacted) {
  CaptureServer server;
  const std::string id = server.AddScript({Ok("{}")});
  auto client = Connect(server);
  const httplib::Headers headers = {{"X-Goog-Api-Key", kSecret}, {"X-Trace", "abc"}};
  auto res = client->Post(ScriptPath(id, std::string(kGenerate) + "?alt=json&key=" + kSecret),
                          headers, "{}", "application/json");
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200);

  const auto journal = server.Journal(id);
  ASSERT_EQ(journal.size(), 1u);
  const JournalEntry& entry = journal[0];
  EXPECT_EQ(entry.method, "POST");
  EXPECT_EQ(entry.path, kGenerate);
  EXPECT_EQ(entry.query, "alt=json&key=REDACTED");
  EXPECT_THAT(entry.headers, Contains(Pair("X-Goog-Api-Key", "REDACTED")));
  EXPECT_THAT(entry.headers, Contains(Pair("X-Trace", "abc")));
  EXPECT_THAT(entry.headers, Contains(Pair("Content-Type", "application/json")));
  EXPECT_THAT(entry.headers, Not(Contains(Pair("REMOTE_ADDR", ::testing::_))));
  EXPECT_TRUE(entry.scripted);
  EXPECT_THAT(Flatten(journal), Not(HasSubstr(kSecret)));
}

// Keeps request body bytes untouched: no reparse of 1.0, -0.0, 2^64-1 or odd spacing.
TEST(CaptureServer, JournalsRawBodyBytes) {
  CaptureServer server;
  const std::string id = server.AddScript({Ok("{}")});
  const std::string body =
      "{ \"a\" :1.0,\"b\":-0.0 ,\n\t\"c\":18446744073709551615,  \"d\":\"\\u00e9\",\"e\":{}, "
      "\"f\":[] }\r\n";
  auto client = Connect(server);
  ASSERT_TRUE(client->Post(ScriptPath(id, kGenerate), body, "application/json"));
  const auto journal = server.Journal(id);
  ASSERT_EQ(journal.size(), 1u);
  EXPECT_EQ(journal[0].body, body);
}

// Numbers requests by arrival across the server and within each script.
TEST(CaptureServer, JournalsArrivalOrder) {
  CaptureServer server;
  const std::string a = server.AddScript({Ok("{}"), Ok("{}")});
  const std::string b = server.AddScript({Ok("{}")});
  auto client = Connect(server);
  ASSERT_TRUE(client->Post(ScriptPath(a, kGenerate), "{\"n\":0}", "application/json"));
  ASSERT_TRUE(client->Post(ScriptPath(b, kGenerate), "{\"n\":1}", "application/json"));
  ASSERT_TRUE(client->Post(ScriptPath(a, kGenerate), "{\"n\":2}", "application/json"));

  const auto ja = server.Journal(a);
  const auto jb = server.Journal(b);
  ASSERT_EQ(ja.size(), 2u);
  ASSERT_EQ(jb.size(), 1u);
  EXPECT_EQ(ja[0].order, 0u);
  EXPECT_EQ(ja[0].index, 0u);
  EXPECT_EQ(ja[0].body, "{\"n\":0}");
  EXPECT_EQ(jb[0].order, 1u);
  EXPECT_EQ(jb[0].index, 0u);
  EXPECT_EQ(ja[1].order, 2u);
  EXPECT_EQ(ja[1].index, 1u);
  EXPECT_EQ(ja[1].body, "{\"n\":2}");
}

// Answers a request past the end of the script with 400 FAILED_PRECONDITION and journals it.
TEST(CaptureServer, RefusesRequestsPastTheScript) {
  CaptureServer server;
  const std::string id = server.AddScript({Ok("{}")});
  auto client = Connect(server);
  ASSERT_TRUE(client->Post(ScriptPath(id, kGenerate), "{}", "application/json"));
  auto res = client->Post(ScriptPath(id, kGenerate), "{\"late\":true}", "application/json");
  ExpectGoogleError(res, 400, "FAILED_PRECONDITION");
  EXPECT_THAT(nlohmann::json::parse(res->body)["error"]["message"].get<std::string>(),
              HasSubstr("no scripted response left for request 1 of script " + id));

  const auto journal = server.Journal(id);
  ASSERT_EQ(journal.size(), 2u);
  EXPECT_TRUE(journal[0].scripted);
  EXPECT_FALSE(journal[1].scripted);
  EXPECT_EQ(journal[1].body, "{\"late\":true}");
}

// Answers an unknown script id with 404 NOT_FOUND and journals it under that id.
TEST(CaptureServer, RefusesUnknownScriptId) {
  CaptureServer server;
  auto client = Connect(server);
  ExpectGoogleError(client->Post(ScriptPath("999", kGenerate), "{}", "application/json"), 404,
                    "NOT_FOUND");
  const auto journal = server.Journal("999");
  ASSERT_EQ(journal.size(), 1u);
  EXPECT_FALSE(journal[0].scripted);
  EXPECT_EQ(journal[0].path, kGenerate);
}

// Answers unknown paths and methods with 404 NOT_FOUND without consuming a turn.
TEST(CaptureServer, RefusesUnknownPathsAndMethods) {
  CaptureServer server;
  const std::string id = server.AddScript({Ok(R"({"turn":0})")});
  auto client = Connect(server);
  ExpectGoogleError(client->Get(ScriptPath(id, kGenerate)), 404, "NOT_FOUND");
  ExpectGoogleError(client->Post(ScriptPath(id, "/v1beta/models/gemini-2.5-flash:countTokens"),
                                 "{}", "application/json"),
                    404, "NOT_FOUND");
  ExpectGoogleError(client->Delete(ScriptPath(id, "/v1beta/models")), 404, "NOT_FOUND");
  ExpectGoogleError(client->Post(kGenerate, "{}", "application/json"), 404, "NOT_FOUND");

  auto res = client->Post(ScriptPath(id, kGenerate), "{}", "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->body, R"({"turn":0})");

  const auto journal = server.Journal(id);
  ASSERT_EQ(journal.size(), 4u);
  EXPECT_EQ(journal[0].method, "GET");
  EXPECT_EQ(journal[2].method, "DELETE");
  EXPECT_FALSE(journal[0].scripted);
  EXPECT_FALSE(journal[1].scripted);
  EXPECT_FALSE(journal[2].scripted);
  EXPECT_TRUE(journal[3].scripted);
  // Requests outside /s/<id>/ are journaled under the empty id.
  ASSERT_EQ(server.Journal("").size(), 1u);
  EXPECT_EQ(server.Journal("")[0].path, kGenerate);
}

constexpr char kStream[] = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse";

ScriptedResponse Streamed(std::vector<StreamChunk> chunks, bool cut = false) {
  ScriptedResponse turn;
  turn.streamed = true;
  turn.chunks = std::move(chunks);
  turn.cut = cut;
  return turn;
}

// A streamed turn is served as text/event-stream, its chunks' bytes exactly and in order, each
// as an HTTP chunk of its own (a chunked body is never merged across chunks on reading).
TEST(CaptureServer, ServesStreamedTurnChunkByChunk) {
  CaptureServer server;
  const std::vector<StreamChunk> chunks = {{"data: {\"a\":", std::chrono::milliseconds(0)},
                                           {"1}\r\n\r\ndata: {}\r", std::chrono::milliseconds(30)},
                                           {"\n\r\n", std::chrono::milliseconds(30)}};
  const std::string id = server.AddScript({Streamed(chunks)});
  auto client = Connect(server);
  std::vector<std::string> pieces;
  std::string content_type;
  httplib::Request req;
  req.method = "POST";
  req.path = ScriptPath(id, kStream);
  req.body = "{}";
  req.response_handler = [&](const httplib::Response& res) {
    content_type = res.get_header_value("Content-Type");
    return true;
  };
  req.content_receiver = [&](const char* data, std::size_t size, std::uint64_t, std::uint64_t) {
    pieces.emplace_back(data, size);
    return true;
  };
  const auto res = client->send(req);
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(content_type, "text/event-stream");
  std::string all;
  for (const auto& piece : pieces) all += piece;
  EXPECT_EQ(all, "data: {\"a\":1}\r\n\r\ndata: {}\r\n\r\n");
  EXPECT_GE(pieces.size(), 3u);
  const auto journal = server.Journal(id);
  ASSERT_EQ(journal.size(), 1u);
  EXPECT_EQ(journal[0].query, "alt=sse");
  EXPECT_TRUE(journal[0].scripted);
}

// A cut turn closes the connection after its chunks without ending the chunked body: the
// client's read fails, having received the bytes before the cut.
TEST(CaptureServer, CutsStreamMidWay) {
  CaptureServer server;
  const std::string id = server.AddScript({Streamed({{"data: {}\n\n", {}}, {"data: {\"x\"", {}}}, true)});
  auto client = Connect(server);
  std::string received;
  httplib::Request req;
  req.method = "POST";
  req.path = ScriptPath(id, kStream);
  req.body = "{}";
  req.content_receiver = [&](const char* data, std::size_t size, std::uint64_t, std::uint64_t) {
    received.append(data, size);
    return true;
  };
  const auto res = client->send(req);
  EXPECT_FALSE(res);
  EXPECT_EQ(received, "data: {}\n\ndata: {\"x\"");
}

// A streamed turn is not served to :generateContent, nor a plain one to :streamGenerateContent:
// refused, journaled as unscripted, and the turn is still there for the right request.
TEST(CaptureServer, ServesTurnsOnlyToTheirOwnEndpoint) {
  CaptureServer server;
  const std::string id = server.AddScript({Streamed({{"data: {}\n\n", {}}}), Ok("{}")});
  auto client = Connect(server);
  ExpectGoogleError(client->Post(ScriptPath(id, kGenerate), "{}", "application/json"), 400,
                    "FAILED_PRECONDITION");
  // Without alt=sse Google would answer a JSON array: refused, the turn kept.
  ExpectGoogleError(client->Post(ScriptPath(id, "/v1beta/models/gemini-2.5-flash:streamGenerateContent"),
                                 "{}", "application/json"),
                    400, "FAILED_PRECONDITION");
  auto streamed = client->Post(ScriptPath(id, kStream), "{}", "application/json");
  ASSERT_TRUE(streamed);
  EXPECT_EQ(streamed->body, "data: {}\n\n");
  ExpectGoogleError(client->Post(ScriptPath(id, kStream), "{}", "application/json"), 400,
                    "FAILED_PRECONDITION");
  auto plain = client->Post(ScriptPath(id, kGenerate), "{}", "application/json");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->body, "{}");
  const auto journal = server.Journal(id);
  ASSERT_EQ(journal.size(), 5u);
  EXPECT_FALSE(journal[0].scripted);
  EXPECT_FALSE(journal[1].scripted);
  EXPECT_TRUE(journal[2].scripted);
  EXPECT_FALSE(journal[3].scripted);
  EXPECT_TRUE(journal[4].scripted);
}

// Destroying the server while a stream waits out a chunk's delay ends it at once.
TEST(CaptureServer, StopEndsADelayedStream) {
  auto server = std::make_unique<CaptureServer>();
  const std::string id =
      server->AddScript({Streamed({{"data: {}\n\n", {}}, {"data: {}\n\n", std::chrono::seconds(30)}})});
  bool whole = true;
  std::thread reader([port = server->port(), path = ScriptPath(id, kStream), &whole] {
    httplib::Client client("127.0.0.1", port);
    whole = static_cast<bool>(client.Post(path, "{}", "application/json"));
  });
  ASSERT_TRUE(AwaitRequests(*server, id, 1));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto started = std::chrono::steady_clock::now();
  server.reset();
  reader.join();
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
  EXPECT_FALSE(whole);  // the client saw the stream cut, not a finished body
}

// Removing the script ends a stream waiting out a chunk's delay the same way.
TEST(CaptureServer, RemoveScriptEndsADelayedStream) {
  CaptureServer server;
  const std::string id =
      server.AddScript({Streamed({{"data: {}\n\n", {}}, {"data: {}\n\n", std::chrono::seconds(30)}})});
  bool whole = true;
  std::thread reader([port = server.port(), path = ScriptPath(id, kStream), &whole] {
    httplib::Client client("127.0.0.1", port);
    whole = static_cast<bool>(client.Post(path, "{}", "application/json"));
  });
  ASSERT_TRUE(AwaitRequests(server, id, 1));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto started = std::chrono::steady_clock::now();
  server.RemoveScript(id);
  reader.join();
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
  EXPECT_FALSE(whole);
}

// A scripted Content-Type does not change a stream's: always exactly text/event-stream, which
// cpp-httplib never compresses (a compressor would hold every chunk until the end).
TEST(CaptureServer, StreamsAreNeverCompressed) {
  CaptureServer server;
  ScriptedResponse turn = Streamed({{"data: {}\n\n", {}}});
  turn.headers = {{"Content-Type", "text/event-stream; charset=UTF-8"}};
  const std::string id = server.AddScript({turn});
  auto client = Connect(server);
  const auto res = client->Post(ScriptPath(id, kStream), {{"Accept-Encoding", "gzip, deflate"}},
                                "{}", "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->get_header_value("Content-Type"), "text/event-stream");
  EXPECT_EQ(res->get_header_value("Content-Encoding"), "");
  EXPECT_EQ(res->body, "data: {}\n\n");
}

// Serves two scripts from two threads at once and keeps their journals apart.
TEST(CaptureServer, ServesConcurrentScriptsApart) {
  CaptureServer server;
  constexpr int kTurns = 40;
  std::vector<ScriptedResponse> turns_a, turns_b;
  for (int i = 0; i < kTurns; ++i) {
    turns_a.push_back(Ok(R"({"s":"a","i":)" + std::to_string(i) + "}"));
    turns_b.push_back(Ok(R"({"s":"b","i":)" + std::to_string(i) + "}"));
  }
  const std::string a = server.AddScript(std::move(turns_a));
  const std::string b = server.AddScript(std::move(turns_b));
  EXPECT_NE(server.BaseUrl(a), server.BaseUrl(b));

  const auto run = [&server](const std::string& id, const std::string& tag,
                             std::vector<std::string>* bodies) {
    auto client = Connect(server);
    for (int i = 0; i < kTurns; ++i) {
      auto res =
          client->Post(ScriptPath(id, kGenerate), tag + std::to_string(i), "application/json");
      bodies->push_back(res ? res->body : "transport error");
    }
  };
  std::vector<std::string> got_a, got_b;
  std::thread ta(run, a, "a", &got_a);
  std::thread tb(run, b, "b", &got_b);
  ta.join();
  tb.join();

  const auto ja = server.Journal(a);
  const auto jb = server.Journal(b);
  ASSERT_EQ(ja.size(), static_cast<std::size_t>(kTurns));
  ASSERT_EQ(jb.size(), static_cast<std::size_t>(kTurns));
  for (int i = 0; i < kTurns; ++i) {
    EXPECT_EQ(got_a[i], R"({"s":"a","i":)" + std::to_string(i) + "}");
    EXPECT_EQ(got_b[i], R"({"s":"b","i":)" + std::to_string(i) + "}");
    EXPECT_EQ(ja[i].body, "a" + std::to_string(i));
    EXPECT_EQ(jb[i].body, "b" + std::to_string(i));
    EXPECT_EQ(ja[i].index, static_cast<std::size_t>(i));
    EXPECT_TRUE(ja[i].scripted);
    EXPECT_TRUE(jb[i].scripted);
  }
  EXPECT_EQ(server.TotalRequests(), static_cast<std::size_t>(2 * kTurns));
}

// Counts requests per script and across the server, unscripted ones included.
TEST(CaptureServer, CountsRequests) {
  CaptureServer server;
  const std::string a = server.AddScript({Ok("{}")});
  const std::string b = server.AddScript({});
  EXPECT_EQ(server.RequestCount(a), 0u);
  EXPECT_EQ(server.TotalRequests(), 0u);
  auto client = Connect(server);
  ASSERT_TRUE(client->Post(ScriptPath(a, kGenerate), "{}", "application/json"));
  ASSERT_TRUE(client->Post(ScriptPath(a, kGenerate), "{}", "application/json"));
  ASSERT_TRUE(client->Post(ScriptPath(b, kGenerate), "{}", "application/json"));
  EXPECT_EQ(server.RequestCount(a), 2u);
  EXPECT_EQ(server.RequestCount(b), 1u);
  EXPECT_EQ(server.RequestCount("nope"), 0u);
  EXPECT_EQ(server.TotalRequests(), 3u);
}

// Hands out distinct ids and base URLs that name the bound port.
TEST(CaptureServer, BaseUrlNamesPortAndScript) {
  CaptureServer server;
  EXPECT_GT(server.port(), 0);
  const std::string a = server.AddScript({});
  const std::string b = server.AddScript({});
  EXPECT_NE(a, b);
  EXPECT_EQ(server.BaseUrl(a), "http://127.0.0.1:" + std::to_string(server.port()) + "/s/" + a);
}

// Forgets a removed script: its journal is dropped and later requests are unscripted.
TEST(CaptureServer, RemoveScriptForgetsIt) {
  CaptureServer server;
  const std::string id = server.AddScript({Ok("{}"), Ok("{}")});
  auto client = Connect(server);
  ASSERT_TRUE(client->Post(ScriptPath(id, kGenerate), "{}", "application/json"));
  server.RemoveScript(id);
  EXPECT_THAT(server.Journal(id), IsEmpty());
  ExpectGoogleError(client->Post(ScriptPath(id, kGenerate), "{}", "application/json"), 404,
                    "NOT_FOUND");
  ASSERT_EQ(server.Journal(id).size(), 1u);
  EXPECT_FALSE(server.Journal(id)[0].scripted);
}

// Shuts down promptly while idle, also right after construction and after a closed client.
TEST(CaptureServer, DestroysQuicklyWhenIdle) {
  const auto start = std::chrono::steady_clock::now();
  { CaptureServer server; }
  {
    CaptureServer server;
    const std::string id = server.AddScript({Ok("{}")});
    auto client = Connect(server);
    ASSERT_TRUE(client->Post(ScriptPath(id, kGenerate), "{}", "application/json"));
    client.reset();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

// Answers a delayed turn after its delay, journals it on arrival, and answers other scripts
// meanwhile.
TEST(CaptureServer, DelaysTheAnswerOfATurn) {
  using Clock = std::chrono::steady_clock;
  constexpr auto kDelay = std::chrono::milliseconds(1000);
  CaptureServer server;
  const std::string slow = server.AddScript({Slow(R"({"slow":1})", kDelay), Ok(R"({"slow":2})")});
  const std::string fast = server.AddScript({Ok(R"({"fast":1})")});

  httplib::Result first(nullptr, httplib::Error::Unknown);
  httplib::Result second(nullptr, httplib::Error::Unknown);
  Clock::duration first_took{};
  std::atomic<bool> first_answered{false};
  std::thread slow_client([&] {
    auto client = Connect(server);
    const auto sent = Clock::now();
    first = client->Post(ScriptPath(slow, kGenerate), "{\"n\":1}", "application/json");
    first_took = Clock::now() - sent;
    first_answered = true;
    second = client->Post(ScriptPath(slow, kGenerate), "{\"n\":2}", "application/json");
  });
  ASSERT_TRUE(AwaitRequests(server, slow, 1));
  auto client = Connect(server);
  auto other = client->Post(ScriptPath(fast, kGenerate), "{}", "application/json");
  const bool other_before_slow = !first_answered;
  slow_client.join();

  ASSERT_TRUE(other);
  EXPECT_EQ(other->body, R"({"fast":1})");
  EXPECT_TRUE(other_before_slow);
  ASSERT_TRUE(first) << httplib::to_string(first.error());
  EXPECT_EQ(first->status, 200);
  EXPECT_EQ(first->body, R"({"slow":1})");
  EXPECT_GE(first_took, kDelay);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->body, R"({"slow":2})");
  const auto journal = server.Journal(slow);
  ASSERT_EQ(journal.size(), 2u);
  EXPECT_EQ(journal[0].body, "{\"n\":1}");
  EXPECT_TRUE(journal[0].scripted);
}

// Ends a handler's delay as soon as its script is removed, answering 503 UNAVAILABLE.
TEST(CaptureServer, RemoveScriptEndsADelayAtOnce) {
  using Clock = std::chrono::steady_clock;
  CaptureServer server;
  const std::string id = server.AddScript({Slow("{}", std::chrono::seconds(30))});
  httplib::Result res(nullptr, httplib::Error::Unknown);
  Clock::time_point answered;
  std::thread waiting([&] {
    auto client = Connect(server);
    res = client->Post(ScriptPath(id, kGenerate), "{}", "application/json");
    answered = Clock::now();
  });
  ASSERT_TRUE(AwaitRequests(server, id, 1));
  const auto removed = Clock::now();
  server.RemoveScript(id);
  waiting.join();

  ExpectGoogleError(res, 503, "UNAVAILABLE");
  EXPECT_THAT(nlohmann::json::parse(res->body)["error"]["message"].get<std::string>(),
              HasSubstr("script " + id + " was removed"));
  EXPECT_LT(answered - removed, std::chrono::seconds(1));
}

// Shuts down at once while a handler waits out a long delay, answering it 503 UNAVAILABLE.
TEST(CaptureServer, DestroysPromptlyWhileAnAnswerIsDelayed) {
  using Clock = std::chrono::steady_clock;
  auto server = std::make_unique<CaptureServer>();
  const std::string id = server->AddScript({Slow("{}", std::chrono::seconds(30))});
  const int port = server->port();
  httplib::Result res(nullptr, httplib::Error::Unknown);
  std::thread waiting([&res, port, path = ScriptPath(id, kGenerate)] {
    httplib::Client client("127.0.0.1", port);
    client.set_keep_alive(true);
    client.set_tcp_nodelay(true);
    res = client.Post(path, "{}", "application/json");
  });
  ASSERT_TRUE(AwaitRequests(*server, id, 1));
  const auto start = Clock::now();
  server.reset();
  const auto took = Clock::now() - start;
  waiting.join();

  EXPECT_LT(took, std::chrono::seconds(1));
  ExpectGoogleError(res, 503, "UNAVAILABLE");
}

}  // namespace
}  // namespace gemini_oracle::capture
