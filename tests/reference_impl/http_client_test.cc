#include "reference_impl/http_client.h"

#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include "oracles/capture/capture_server.h"
#include "reference_impl/provider_error.h"

namespace gemini_oracle::ref {
namespace {

using capture::CaptureServer;
using capture::ScriptedResponse;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Pair;

constexpr char kModel[] = "gemini-2.5-flash";
constexpr char kKey[] = "AIzaSy-http-client-test-key-5d1e";
constexpr char kSentinel[] = "SENTINEL-7f3a";

ClientOptions OptionsFor(const std::string& base_url) {
  ClientOptions options;
  options.base_url = base_url;
  options.api_key = kKey;
  options.connect_timeout = std::chrono::milliseconds(1000);
  options.read_timeout = std::chrono::milliseconds(5000);
  return options;
}

// Runs one request against a script of one turn and returns the error it raised.
ProviderError FailureOf(const ScriptedResponse& turn) {
  CaptureServer server;
  const std::string id = server.AddScript({turn});
  GeminiHttpClient client(OptionsFor(server.BaseUrl(id)));
  try {
    client.GenerateContent(kModel, Json::object());
  } catch (const ProviderError& e) {
    return e;
  }
  ADD_FAILURE() << "no ProviderError";
  return ProviderError("http.transport", HttpFailure{});
}

std::string GoogleError(int code, const std::string& status, const std::string& message) {
  return R"({"error":{"code":)" + std::to_string(code) + R"(,"message":")" + message +
         R"(","status":")" + status + R"("}})";
}

// Returns the 2xx body parsed kind-preserving: 1.0 stays a float, -0.0 keeps its sign.
TEST(HttpClient, ReturnsParsedBodyKindPreserving) {
  CaptureServer server;
  const std::string id = server.AddScript(
      {{200,
        {},
        R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":)"
        R"({"x":1.0,"y":1,"z":-0.0,"big":18446744073709551615}}}]}}]})"}});
  GeminiHttpClient client(OptionsFor(server.BaseUrl(id)));
  const Json reply = client.GenerateContent(kModel, Json::object());
  const Json& args = reply["candidates"][0]["content"]["parts"][0]["functionCall"]["args"];
  EXPECT_TRUE(args["x"].is_number_float());
  EXPECT_TRUE(args["y"].is_number_integer());
  EXPECT_EQ(DumpJson(args["z"]), "-0.0");
  EXPECT_TRUE(args["big"].is_number_unsigned());
  // Member order as received.
  EXPECT_EQ(args.begin().key(), "x");
}

// Posts the compact body to {prefix}/{version}/models/{model}:generateContent with the key.
TEST(HttpClient, PostsToPrefixedPathWithApiKey) {
  CaptureServer server;
  const std::string id = server.AddScript({{200, {}, "{}"}, {200, {}, "{}"}});
  ClientOptions options = OptionsFor(server.BaseUrl(id) + "/");
  GeminiHttpClient client(options);
  Json body = ParseJson(R"({"contents":[{"role":"user","parts":[{"text":"hi"}]}],"n":1.0})");
  client.GenerateContent(kModel, body);
  client.GenerateContent("models/gemini-2.0-flash", body);

  const auto journal = server.Journal(id);
  ASSERT_EQ(journal.size(), 2u);
  EXPECT_EQ(journal[0].method, "POST");
  EXPECT_EQ(journal[0].path, "/v1beta/models/gemini-2.5-flash:generateContent");
  EXPECT_EQ(journal[1].path, "/v1beta/models/gemini-2.0-flash:generateContent");
  EXPECT_EQ(journal[0].query, "");
  EXPECT_EQ(journal[0].body, R"({"contents":[{"role":"user","parts":[{"text":"hi"}]}],"n":1.0})");
  EXPECT_THAT(journal[0].headers, Contains(Pair("x-goog-api-key", "REDACTED")));
  EXPECT_THAT(journal[0].headers, Contains(Pair("Content-Type", "application/json")));
  for (const auto& entry : journal) {
    EXPECT_THAT(entry.body + entry.query, Not(HasSubstr(kKey)));
    for (const auto& [name, value] : entry.headers) EXPECT_THAT(value, Not(HasSubstr(kKey)));
  }
}

// Uses the configured API version in the path.
TEST(HttpClient, UsesConfiguredApiVersion) {
  CaptureServer server;
  const std::string id = server.AddScript({{200, {}, "{}"}});
  ClientOptions options = OptionsFor(server.BaseUrl(id));
  options.api_version = "v1";
  GeminiHttpClient client(options);
  client.GenerateContent(kModel, Json::object());
  ASSERT_EQ(server.Journal(id).size(), 1u);
  EXPECT_EQ(server.Journal(id)[0].path, "/v1/models/gemini-2.5-flash:generateContent");
}

// Maps Google error JSON of 400, 429 and 500 to http.status with both statuses and the body.
TEST(HttpClient, MapsGoogleErrorsToHttpStatus) {
  const struct {
    int code;
    const char* status;
  } cases[] = {{400, "INVALID_ARGUMENT"}, {429, "RESOURCE_EXHAUSTED"}, {500, "INTERNAL"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.code);
    const std::string body = GoogleError(c.code, c.status, "quota or shape");
    const ProviderError e = FailureOf({c.code, {}, body});
    EXPECT_EQ(e.code(), "http.status");
    ASSERT_TRUE(e.http().has_value());
    EXPECT_EQ(e.http()->status, c.code);
    EXPECT_EQ(e.http()->google_status, c.status);
    EXPECT_EQ(e.http()->provider_message, "quota or shape");
    EXPECT_EQ(e.http()->raw_body, body);
  }
}

// Keeps a non-JSON error body as raw_body under http.status, with no Google status.
TEST(HttpClient, KeepsNonJsonErrorBody) {
  const ProviderError e = FailureOf({503, {{"Content-Type", "text/html"}}, "<html>down</html>"});
  EXPECT_EQ(e.code(), "http.status");
  ASSERT_TRUE(e.http().has_value());
  EXPECT_EQ(e.http()->status, 503);
  EXPECT_EQ(e.http()->google_status, "");
  EXPECT_EQ(e.http()->raw_body, "<html>down</html>");
}

// Raises http.body when a 2xx body is not JSON.
TEST(HttpClient, RejectsNonJsonSuccessBody) {
  const ProviderError e = FailureOf({200, {}, "{\"candidates\": [ truncated"});
  EXPECT_EQ(e.code(), "http.body");
  ASSERT_TRUE(e.http().has_value());
  EXPECT_EQ(e.http()->status, 200);
  EXPECT_EQ(e.http()->raw_body, "{\"candidates\": [ truncated");
}

// Raises http.body for a 2xx body whose object repeats a member name (readers disagree on it).
TEST(HttpClient, RejectsDuplicateMemberNames) {
  EXPECT_EQ(FailureOf({200, {}, R"({"candidates":[],"candidates":[{}]})"}).code(), "http.body");
}

// Raises http.body for a 2xx body nested past kMaxJsonDepth and for one holding a number
// beyond a double: neither can be read as sent.
TEST(HttpClient, RejectsTooDeepOrOverflowingSuccessBody) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(FailureOf({200, {}, deep}).code(), "http.body");
  EXPECT_EQ(FailureOf({200, {}, R"({"candidates":[],"usage":1e999})"}).code(), "http.body");
  EXPECT_EQ(FailureOf({200, {}, "[" + std::string(400, '9') + "]"}).code(), "http.body");
}

// Raises http.transport when nothing listens on the port.
TEST(HttpClient, ReportsConnectionRefusedAsTransport) {
  // A bound socket that never listens: connections are refused and no one else takes the port.
  const int sock = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(sock, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  ASSERT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  socklen_t len = sizeof addr;
  ASSERT_EQ(::getsockname(sock, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  const int port = ntohs(addr.sin_port);

  GeminiHttpClient client(OptionsFor("http://127.0.0.1:" + std::to_string(port) + "/s/1"));
  try {
    client.GenerateContent(kModel, Json::object());
    ADD_FAILURE() << "no ProviderError";
  } catch (const ProviderError& e) {
    EXPECT_EQ(e.code(), "http.transport");
    ASSERT_TRUE(e.http().has_value());
    EXPECT_EQ(e.http()->status, 0);
  }
  ::close(sock);
}

// Keeps the provider's message and body out of what(), which may be logged.
TEST(HttpClient, KeepsProviderTextOutOfWhat) {
  const std::string body =
      GoogleError(400, "INVALID_ARGUMENT", std::string("bad part: ") + kSentinel + " echoed");
  const ProviderError status_error = FailureOf({400, {}, body});
  EXPECT_EQ(status_error.code(), "http.status");
  EXPECT_THAT(status_error.http()->provider_message, HasSubstr(kSentinel));
  EXPECT_THAT(std::string(status_error.what()), Not(HasSubstr(kSentinel)));

  const ProviderError body_error = FailureOf({200, {}, std::string("oops ") + kSentinel});
  EXPECT_EQ(body_error.code(), "http.body");
  EXPECT_THAT(std::string(body_error.what()), Not(HasSubstr(kSentinel)));
}

// Refuses a base URL without a scheme before any contact.
TEST(HttpClient, RefusesBaseUrlWithoutScheme) {
  EXPECT_THROW(GeminiHttpClient(OptionsFor("127.0.0.1:1/s/1")), std::invalid_argument);
}

// A streamed answer, its events framed with CRLF and cut in pieces anywhere, comes back folded
// into the one response of the whole content, number kinds kept; the request goes to
// :streamGenerateContent?alt=sse with the key in its header.
TEST(HttpClient, StreamsAndFoldsTheEvents) {
  CaptureServer server;
  capture::ScriptedResponse turn;
  turn.streamed = true;
  const std::string events =
      "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"h\xc3\xa9llo\"}]},\"index\":0}]}\r\n\r\n"
      "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":"
      "{\"id\":\"c\",\"name\":\"f\",\"args\":{\"x\":1.0}}}]},\"finishReason\":\"STOP\",\"index\":0}]}\r\n\r\n";
  // Pieces of 3 bytes: cuts inside lines, between CR and LF, inside the UTF-8 sequence.
  for (std::size_t at = 0; at < events.size(); at += 3) {
    turn.chunks.push_back({events.substr(at, 3), std::chrono::milliseconds(0)});
  }
  const std::string id = server.AddScript({turn});
  GeminiHttpClient client(OptionsFor(server.BaseUrl(id)));
  const Json folded = [&] {
    try {
      return client.StreamGenerateContent(kModel, Json::object());
    } catch (const ProviderError& e) {
      return Json(e.code());
    }
  }();
  ASSERT_TRUE(folded.is_object()) << DumpJson(folded);
  EXPECT_EQ(folded["candidates"][0]["content"]["parts"][0]["text"], "h\xc3\xa9llo");
  EXPECT_TRUE(folded["candidates"][0]["content"]["parts"][1]["functionCall"]["args"]["x"]
                  .is_number_float());
  EXPECT_EQ(folded["candidates"][0]["finishReason"], "STOP");
  const auto journal = server.Journal(id);
  ASSERT_EQ(journal.size(), 1u);
  EXPECT_EQ(journal[0].path, "/v1beta/models/gemini-2.5-flash:streamGenerateContent");
  EXPECT_EQ(journal[0].query, "alt=sse");
}

// Runs one streamed request against a script of one turn and returns the code it raised.
std::string StreamFailure(const capture::ScriptedResponse& turn) {
  CaptureServer server;
  const std::string id = server.AddScript({turn});
  GeminiHttpClient client(OptionsFor(server.BaseUrl(id)));
  try {
    client.StreamGenerateContent(kModel, Json::object());
  } catch (const ProviderError& e) {
    EXPECT_EQ(std::string(e.what()).find(kSentinel), std::string::npos) << e.what();
    return e.code();
  }
  return "accepted";
}

capture::ScriptedResponse StreamOf(std::string bytes, bool cut = false) {
  capture::ScriptedResponse turn;
  turn.streamed = true;
  turn.chunks.push_back({std::move(bytes), std::chrono::milliseconds(0)});
  turn.cut = cut;
  return turn;
}

constexpr char kTextEvent[] =
    "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"hi\"}]}}]}\n\n";
constexpr char kLastEvent[] =
    "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"!\"}]},"
    "\"finishReason\":\"STOP\"}]}\n\n";

// Every way a stream can fail is a typed error, and no partial turn comes back: a cut, an error
// object mid-stream, an event that is not JSON, a stream that ends inside an event or holds
// none, an HTTP error status.
TEST(HttpClient, StreamFailuresAreTyped) {
  EXPECT_EQ(StreamFailure(StreamOf(std::string(kTextEvent) + kLastEvent)), "accepted");
  // Ended between two events, before the finishReason: no whole turn.
  EXPECT_EQ(StreamFailure(StreamOf(kTextEvent)), "http.stream");
  // An event of another type carries no part of the answer.
  EXPECT_EQ(StreamFailure(StreamOf(std::string(kTextEvent) + "event: ping\n" + kLastEvent)),
            "http.stream");
  EXPECT_EQ(StreamFailure(StreamOf(std::string(kTextEvent) + "data: {\"cand", /*cut=*/true)),
            "http.transport");
  EXPECT_EQ(StreamFailure(StreamOf(std::string(kTextEvent) + "data: " +
                                   GoogleError(500, "INTERNAL", kSentinel) + "\n\n")),
            "http.stream");
  EXPECT_EQ(StreamFailure(StreamOf(std::string(kTextEvent) + "data: " + kSentinel + "\n\n")),
            "http.body");
  EXPECT_EQ(StreamFailure(StreamOf(std::string(kTextEvent) + "data: {}")), "http.stream");
  EXPECT_EQ(StreamFailure(StreamOf(": only a comment\n\n")), "http.stream");
  capture::ScriptedResponse error = StreamOf(GoogleError(429, "RESOURCE_EXHAUSTED", kSentinel));
  error.status = 429;
  EXPECT_EQ(StreamFailure(error), "http.status");
}

// A stream cut mid-way leaves the client usable: its next request opens a new connection.
TEST(HttpClient, StreamsAgainAfterACut) {
  CaptureServer server;
  const std::string id = server.AddScript(
      {StreamOf(std::string(kTextEvent) + "data: {\"cand", /*cut=*/true),
       StreamOf(std::string(kTextEvent) + kLastEvent)});
  GeminiHttpClient client(OptionsFor(server.BaseUrl(id)));
  EXPECT_THROW(client.StreamGenerateContent(kModel, Json::object()), ProviderError);
  const Json folded = client.StreamGenerateContent(kModel, Json::object());
  EXPECT_EQ(folded["candidates"][0]["content"]["parts"].size(), 2u);
}

}  // namespace
}  // namespace gemini_oracle::ref
