#include "oracles/capture/capture_server.h"

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <utility>

#include "oracles/capture/google_error.h"
#include "oracles/capture/route.h"

namespace gemini_oracle::capture {
namespace {

constexpr char kHost[] = "127.0.0.1";
// A keep-alive connection holds a worker for its whole life, so the pool is sized for
// several concurrent clients rather than for the cores.
constexpr std::size_t kWorkerThreads = 16;
// cpp-httplib closes a keep-alive connection after 5 requests by default; a long
// conversation should stay on one connection, as it would against Google.
constexpr std::size_t kKeepAliveMaxRequests = 1000000;
constexpr char kAnyPath[] = R"([\s\S]*)";
constexpr char kJsonType[] = "application/json";
constexpr std::string_view kWho = "gemini-oracle capture: ";

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// cpp-httplib adds these to the request headers itself; the client never sent them.
bool IsInjectedHeader(std::string_view name) {
  return name == "REMOTE_ADDR" || name == "REMOTE_PORT" || name == "LOCAL_ADDR" ||
         name == "LOCAL_PORT";
}

bool IsFramingHeader(std::string_view name) {
  return EqualsIgnoreCase(name, "content-length") || EqualsIgnoreCase(name, "transfer-encoding");
}

std::string RawQuery(const httplib::Request& req) {
  const std::size_t mark = req.target.find('?');
  return mark == std::string::npos ? std::string() : req.target.substr(mark + 1);
}

std::string_view GoogleStatusFor(int code) {
  switch (code) {
    case 404:
      return "NOT_FOUND";
    case 429:
      return "RESOURCE_EXHAUSTED";
    case 500:
      return "INTERNAL";
    case 501:
      return "UNIMPLEMENTED";
    case 503:
      return "UNAVAILABLE";
    default:
      return code >= 400 && code < 500 ? "INVALID_ARGUMENT" : "UNKNOWN";
  }
}

void SetGoogleError(httplib::Response& res, int code, std::string_view status,
                    const std::string& message) {
  res.status = code;
  res.set_content(GoogleErrorBody(code, status, message), kJsonType);
}

void Serve(const ScriptedResponse& turn, httplib::Response& res) {
  res.status = turn.status;
  std::string content_type = kJsonType;
  for (const auto& [name, value] : turn.headers) {
    if (EqualsIgnoreCase(name, "content-type")) {
      content_type = value;
    } else if (!IsFramingHeader(name)) {
      res.set_header(name, value);
    }
  }
  // An SSE turn would set a chunked content provider here instead of a fixed body.
  res.set_content(turn.body, content_type);
}

struct Script {
  std::vector<ScriptedResponse> turns;
  std::size_t next_turn = 0;  // counts only the :generateContent requests it answered
};

}  // namespace

struct CaptureServer::Impl {
  httplib::Server server;
  std::thread listener;
  std::atomic<bool> listener_done{false};
  int port = -1;

  mutable std::mutex mu;
  std::map<std::string, Script> scripts;
  std::map<std::string, std::vector<JournalEntry>> journals;
  std::size_t total = 0;
  std::size_t next_id = 1;

  void Handle(const httplib::Request& req, httplib::Response& res);
  httplib::Server::HandlerResponse HandleHttpError(const httplib::Request& req,
                                                   httplib::Response& res);
  // Callers hold `mu`.
  void Record(const httplib::Request& req, const Route& route, bool scripted);
};

void CaptureServer::Impl::Record(const httplib::Request& req, const Route& route, bool scripted) {
  auto& journal = journals[route.script_id];
  JournalEntry entry;
  entry.order = total++;
  entry.index = journal.size();
  entry.method = req.method;
  entry.path = route.api_path;
  entry.query = RedactQuery(RawQuery(req));
  for (const auto& [name, value] : req.headers) {
    if (!IsInjectedHeader(name)) entry.headers.emplace_back(name, value);
  }
  entry.headers = RedactHeaders(std::move(entry.headers));
  entry.body = req.body;
  entry.scripted = scripted;
  journal.push_back(std::move(entry));
}

void CaptureServer::Impl::Handle(const httplib::Request& req, httplib::Response& res) {
  const Route route = ParseRoute(req.path);
  std::lock_guard lock(mu);
  const auto script = route.script_id.empty() ? scripts.end() : scripts.find(route.script_id);
  if (script == scripts.end()) {
    SetGoogleError(res, 404, "NOT_FOUND",
                   std::string(kWho) + "no script with id \"" + route.script_id + "\" (path " +
                       req.path + ")");
  } else if (route.endpoint == Endpoint::kUnknown || req.method != "POST") {
    SetGoogleError(res, 404, "NOT_FOUND",
                   std::string(kWho) + "no endpoint " + req.method + " " + route.api_path);
  } else if (route.endpoint == Endpoint::kStreamGenerateContent) {
    // The place where SSE turns will be served.
    SetGoogleError(res, 501, "UNIMPLEMENTED",
                   std::string(kWho) + "streamGenerateContent is not scripted");
  } else if (script->second.next_turn >= script->second.turns.size()) {
    SetGoogleError(res, 400, "FAILED_PRECONDITION",
                   std::string(kWho) + "no scripted response left for request " +
                       std::to_string(journals[route.script_id].size()) + " of script " +
                       route.script_id + " (" + std::to_string(script->second.turns.size()) +
                       " scripted)");
  } else {
    Serve(script->second.turns[script->second.next_turn++], res);
    Record(req, route, /*scripted=*/true);
    return;
  }
  Record(req, route, /*scripted=*/false);
}

httplib::Server::HandlerResponse CaptureServer::Impl::HandleHttpError(const httplib::Request& req,
                                                                      httplib::Response& res) {
  // Every answer of Handle() has a Content-Type, scripted error statuses included; only
  // cpp-httplib's own refusals (malformed request, CONNECT, TRACE, ...) lack one.
  if (res.has_header("Content-Type")) return httplib::Server::HandlerResponse::Unhandled;
  if (!req.method.empty()) {
    std::lock_guard lock(mu);
    Record(req, ParseRoute(req.path), /*scripted=*/false);
  }
  SetGoogleError(res, res.status, GoogleStatusFor(res.status),
                 std::string(kWho) + "the HTTP layer refused the request");
  return httplib::Server::HandlerResponse::Handled;
}

CaptureServer::CaptureServer() : impl_(std::make_unique<Impl>()) {
  Impl* impl = impl_.get();
  httplib::Server& server = impl->server;
  // Compile-time pool macros do nothing with Debian's prebuilt cpp-httplib.
  server.new_task_queue = [] { return new httplib::ThreadPool(kWorkerThreads); };
  server.set_tcp_nodelay(true);
  server.set_keep_alive_max_count(kKeepAliveMaxRequests);
  const auto handle = [impl](const httplib::Request& req, httplib::Response& res) {
    impl->Handle(req, res);
  };
  // Catch-all routes, so that stray requests are journaled and answered like Google would.
  server.Get(kAnyPath, handle)
      .Post(kAnyPath, handle)
      .Put(kAnyPath, handle)
      .Patch(kAnyPath, handle)
      .Delete(kAnyPath, handle)
      .Options(kAnyPath, handle);
  server.set_error_handler(httplib::Server::HandlerWithResponse(
      [impl](const httplib::Request& req, httplib::Response& res) {
        return impl->HandleHttpError(req, res);
      }));
  server.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
        SetGoogleError(res, 500, "INTERNAL", std::string(kWho) + "internal error");
      });
  impl->port = server.bind_to_any_port(kHost);
  if (impl->port < 0) throw std::runtime_error("capture server: cannot bind 127.0.0.1");
  // The socket is already listening, so clients may connect before this thread runs.
  impl->listener = std::thread([impl] {
    impl->server.listen_after_bind();
    impl->listener_done = true;
  });
}

CaptureServer::~CaptureServer() {
  // A stop() issued before the listener runs is lost and the listener never returns.
  while (!impl_->server.is_running() && !impl_->listener_done) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  impl_->server.stop();
  impl_->listener.join();
}

int CaptureServer::port() const { return impl_->port; }

std::string CaptureServer::AddScript(std::vector<ScriptedResponse> turns) {
  std::lock_guard lock(impl_->mu);
  std::string id = std::to_string(impl_->next_id++);
  // A stray request may have named this id before it existed; the script starts clean.
  impl_->journals.erase(id);
  impl_->scripts[id] = Script{std::move(turns)};
  return id;
}

std::string CaptureServer::BaseUrl(const std::string& script_id) const {
  return "http://" + std::string(kHost) + ":" + std::to_string(impl_->port) + "/s/" + script_id;
}

void CaptureServer::RemoveScript(const std::string& script_id) {
  std::lock_guard lock(impl_->mu);
  impl_->scripts.erase(script_id);
  impl_->journals.erase(script_id);
}

std::vector<JournalEntry> CaptureServer::Journal(const std::string& script_id) const {
  std::lock_guard lock(impl_->mu);
  const auto it = impl_->journals.find(script_id);
  return it == impl_->journals.end() ? std::vector<JournalEntry>() : it->second;
}

std::size_t CaptureServer::RequestCount(const std::string& script_id) const {
  std::lock_guard lock(impl_->mu);
  const auto it = impl_->journals.find(script_id);
  return it == impl_->journals.end() ? 0 : it->second.size();
}

std::size_t CaptureServer::TotalRequests() const {
  std::lock_guard lock(impl_->mu);
  return impl_->total;
}

}  // namespace gemini_oracle::capture
