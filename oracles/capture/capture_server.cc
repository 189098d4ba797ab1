#include "oracles/capture/capture_server.h"

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>

#include "oracles/capture/google_error.h"
#include "oracles/capture/http_server_setup.h"
#include "oracles/capture/packed_journal.h"
#include "oracles/capture/route.h"

namespace gemini_oracle::capture {
namespace {

constexpr char kHost[] = "127.0.0.1";
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

std::string_view RawQuery(const httplib::Request& req) {
  const std::string_view target = req.target;
  const std::size_t mark = target.find('?');
  return mark == std::string_view::npos ? std::string_view() : target.substr(mark + 1);
}

// Whether the query holds the parameter alt=sse.
bool AsksForSse(std::string_view query) {
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    if (query.substr(0, amp) == "alt=sse") return true;
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return false;
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

// Sleeps for `delay` in short steps, returning false as soon as either flag is set.
bool SleepUnless(std::chrono::milliseconds delay, const std::atomic<bool>& stopping,
                 const std::atomic<bool>& removed) {
  const auto until = std::chrono::steady_clock::now() + delay;
  while (std::chrono::steady_clock::now() < until) {
    if (stopping || removed) return false;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
        std::chrono::milliseconds(5), until - std::chrono::steady_clock::now()));
  }
  return !(stopping || removed);
}

// `removed` is the turn's script's flag (set by RemoveScript), shared so that it outlives the
// script while a stream is still being served.
void Serve(const ScriptedResponse& turn, httplib::Response& res,
           const std::atomic<bool>& stopping, std::shared_ptr<const std::atomic<bool>> removed) {
  res.status = turn.status;
  std::string content_type = turn.streamed ? "text/event-stream" : kJsonType;
  for (const auto& [name, value] : turn.headers) {
    if (EqualsIgnoreCase(name, "content-type")) {
      // A stream is always exactly text/event-stream: cpp-httplib compresses other text/*
      // types, and a compressor holds every chunk until the body ends.
      if (!turn.streamed) content_type = value;
    } else if (!IsFramingHeader(name)) {
      res.set_header(name, value);
    }
  }
  if (turn.streamed) {
    // Chunk by chunk, each after its delay; the turn outlives the request (scripts never
    // change, and the handler's slot keeps them alive), but the provider runs after Handle()
    // returns, so it holds its own copy.
    auto chunks = std::make_shared<const std::vector<StreamChunk>>(turn.chunks);
    const bool cut = turn.cut;
    res.set_chunked_content_provider(
        content_type, [chunks, cut, &stopping, removed = std::move(removed),
                       next = std::size_t{0}](std::size_t, httplib::DataSink& sink) mutable {
          if (next == chunks->size()) {
            if (cut) return false;  // closes the connection without the chunked body's end
            sink.done();
            return true;
          }
          const StreamChunk& chunk = (*chunks)[next++];
          if (!SleepUnless(chunk.delay, stopping, *removed)) return false;
          if (!sink.is_writable()) return false;
          return chunk.bytes.empty() || sink.write(chunk.bytes.data(), chunk.bytes.size());
        });
    return;
  }
  // Copied rather than moved out of the script, so that the worker frees memory it allocated
  // itself: glibc frees another thread's memory under that thread's arena lock, which every
  // worker would then share.
  res.set_content(turn.body, content_type);
}

// Packs everything the journal keeps of a request into `out`, which it clears first. Secrets
// are redacted here, so they are never stored.
void Pack(const httplib::Request& req, const Route& route, std::string& out) {
  const std::string query = RedactQuery(RawQuery(req));
  std::size_t headers = 0;
  std::size_t size = PackedSize(req.method.size()) + PackedSize(route.api_path.size()) +
                     PackedSize(query.size()) + PackedSize(0) + PackedSize(req.body.size());
  for (const auto& [name, value] : req.headers) {
    if (IsInjectedHeader(name)) continue;
    ++headers;
    size += PackedSize(name.size()) +
            PackedSize(IsSecretHeader(name) ? kRedacted.size() : value.size());
  }
  out.clear();
  out.reserve(size);
  PackField(out, req.method);
  PackField(out, route.api_path);
  PackField(out, query);
  PackCount(out, headers);
  for (const auto& [name, value] : req.headers) {
    if (IsInjectedHeader(name)) continue;
    PackField(out, name);
    PackField(out, IsSecretHeader(name) ? kRedacted : std::string_view(value));
  }
  PackField(out, req.body);
}

// Each worker packs into its own buffer, which then needs no allocation per request.
std::string& PackBuffer() {
  thread_local std::string buffer;
  return buffer;
}

struct Script {
  std::vector<ScriptedResponse> turns;  // never changed once added
  std::size_t next_turn = 0;            // counts only the requests a scripted turn answered
};

// Everything kept under one id. Each has its own lock: connections on different scripts
// never wait for each other, and a slot outlives its removal while a handler still holds it.
struct Slot {
  std::mutex mu;
  // Ends the delays of waiting handlers when the slot is removed or the server stops.
  std::condition_variable delay_cut;
  bool removed = false;          // no longer under its id; a handler looks the id up again
  // Set with `removed`, read without the lock by streams still being served from the slot:
  // their chunk delays end at once.
  std::shared_ptr<std::atomic<bool>> streams_cut = std::make_shared<std::atomic<bool>>(false);
  std::optional<Script> script;  // none for an id that only stray requests named
  PackedJournal journal;
};

// An answer the script does not give: a Google error.
struct Refusal {
  int code = 0;
  std::string_view status;
  std::string message;
};

}  // namespace

struct CaptureServer::Impl {
  httplib::Server server;
  std::thread listener;
  std::atomic<bool> listener_done{false};
  int port = -1;

  // Guards the map only; requests take it shared, for one lookup.
  mutable std::shared_mutex slots_mu;
  std::unordered_map<std::string, std::shared_ptr<Slot>> slots;
  std::size_t next_id = 1;  // guarded by slots_mu
  std::atomic<std::size_t> total{0};
  std::atomic<bool> stopping{false};

  void Handle(const httplib::Request& req, httplib::Response& res);
  httplib::Server::HandlerResponse HandleHttpError(const httplib::Request& req,
                                                   httplib::Response& res);
  std::shared_ptr<Slot> Find(const std::string& script_id) const;
  std::shared_ptr<Slot> FindOrAdd(const std::string& script_id);
  // Locks the live slot of the id, creating an empty one when there is none.
  std::pair<std::shared_ptr<Slot>, std::unique_lock<std::mutex>> Lock(const std::string& script_id);
  // Callers hold slot.mu.
  void Append(std::string& packed, Slot& slot, bool scripted);
  // Waits out a turn's delay, releasing `lock` (on slot.mu) meanwhile; false when it was cut
  // short, with the refusal to answer instead.
  bool WaitOut(Slot& slot, std::unique_lock<std::mutex>& lock, std::chrono::milliseconds delay,
               const std::string& script_id, Refusal& refusal);
};

std::shared_ptr<Slot> CaptureServer::Impl::Find(const std::string& script_id) const {
  std::shared_lock lock(slots_mu);
  const auto it = slots.find(script_id);
  return it == slots.end() ? nullptr : it->second;
}

std::shared_ptr<Slot> CaptureServer::Impl::FindOrAdd(const std::string& script_id) {
  if (auto slot = Find(script_id)) return slot;
  std::lock_guard lock(slots_mu);
  auto& slot = slots[script_id];
  if (!slot) slot = std::make_shared<Slot>();
  return slot;
}

std::pair<std::shared_ptr<Slot>, std::unique_lock<std::mutex>> CaptureServer::Impl::Lock(
    const std::string& script_id) {
  for (;;) {
    std::shared_ptr<Slot> slot = FindOrAdd(script_id);
    std::unique_lock lock(slot->mu);
    // Removed between the lookup and the lock: the request comes after the removal.
    if (!slot->removed) return {std::move(slot), std::move(lock)};
  }
}

void CaptureServer::Impl::Append(std::string& packed, Slot& slot, bool scripted) {
  slot.journal.Append(total++, scripted, packed);
}

bool CaptureServer::Impl::WaitOut(Slot& slot, std::unique_lock<std::mutex>& lock,
                                  std::chrono::milliseconds delay, const std::string& script_id,
                                  Refusal& refusal) {
  const bool cut = slot.delay_cut.wait_for(lock, delay, [&] { return stopping || slot.removed; });
  if (!cut) return true;
  refusal = {503, "UNAVAILABLE",
             std::string(kWho) +
                 (stopping ? "the server stopped" : "script " + script_id + " was removed") +
                 " while the answer was delayed"};
  return false;
}

void CaptureServer::Impl::Handle(const httplib::Request& req, httplib::Response& res) {
  const Route route = ParseRoute(req.path);
  // Copying and redacting need no lock; under it the request is only numbered and stored.
  std::string& packed = PackBuffer();
  Pack(req, route, packed);
  Refusal refusal;
  // The empty id (a path outside /s/<id>/) journals stray requests and never has a script.
  auto [slot, lock] = Lock(route.script_id);
  if (!slot->script) {
    refusal = {404, "NOT_FOUND",
               std::string(kWho) + "no script with id \"" + route.script_id + "\" (path " +
                   req.path + ")"};
  } else if (route.endpoint == Endpoint::kUnknown || req.method != "POST") {
    refusal = {404, "NOT_FOUND",
               std::string(kWho) + "no endpoint " + req.method + " " + route.api_path};
  } else if (Script& script = *slot->script; script.next_turn >= script.turns.size()) {
    refusal = {400, "FAILED_PRECONDITION",
               std::string(kWho) + "no scripted response left for request " +
                   std::to_string(slot->journal.size()) + " of script " + route.script_id + " (" +
                   std::to_string(script.turns.size()) + " scripted)"};
  } else if (route.endpoint == Endpoint::kStreamGenerateContent && !AsksForSse(RawQuery(req))) {
    // Without alt=sse Google answers a stream as one JSON array, which no case scripts.
    refusal = {400, "FAILED_PRECONDITION",
               std::string(kWho) + ":streamGenerateContent is scripted as server-sent events "
                                   "only; add the query alt=sse"};
  } else if (const bool streams = route.endpoint == Endpoint::kStreamGenerateContent;
             script.turns[script.next_turn].streamed != streams) {
    refusal = {400, "FAILED_PRECONDITION",
               std::string(kWho) + "scripted response " + std::to_string(script.next_turn + 1) +
                   " of script " + route.script_id + " is " +
                   (streams ? "not streamed" : "streamed") + ", and the request used " +
                   (streams ? ":streamGenerateContent" : ":generateContent")};
  } else {
    // Turns never change, and `slot` keeps them alive after the lock is released.
    const ScriptedResponse& turn = script.turns[script.next_turn++];
    Append(packed, *slot, /*scripted=*/true);
    if (turn.delay > std::chrono::milliseconds::zero() &&
        !WaitOut(*slot, lock, turn.delay, route.script_id, refusal)) {
      lock.unlock();
      SetGoogleError(res, refusal.code, refusal.status, refusal.message);
      return;
    }
    lock.unlock();
    Serve(turn, res, stopping, slot->streams_cut);
    return;
  }
  Append(packed, *slot, /*scripted=*/false);
  lock.unlock();
  SetGoogleError(res, refusal.code, refusal.status, refusal.message);
}

httplib::Server::HandlerResponse CaptureServer::Impl::HandleHttpError(const httplib::Request& req,
                                                                      httplib::Response& res) {
  // Every answer of Handle() has a Content-Type, scripted error statuses included; only
  // cpp-httplib's own refusals (malformed request, CONNECT, TRACE, ...) lack one.
  if (res.has_header("Content-Type")) return httplib::Server::HandlerResponse::Unhandled;
  if (!req.method.empty()) {
    const Route route = ParseRoute(req.path);
    std::string& packed = PackBuffer();
    Pack(req, route, packed);
    auto [slot, lock] = Lock(route.script_id);
    Append(packed, *slot, /*scripted=*/false);
  }
  SetGoogleError(res, res.status, GoogleStatusFor(res.status),
                 std::string(kWho) + "the HTTP layer refused the request");
  return httplib::Server::HandlerResponse::Handled;
}

CaptureServer::CaptureServer() : impl_(std::make_unique<Impl>()) {
  Impl* impl = impl_.get();
  httplib::Server& server = impl->server;
  // A worker per live connection and a full accept queue: `run --jobs 64` opens that many
  // keep-alive connections at once (see http_server_setup.h).
  ConfigureForManyConnections(server);
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
  try {
    impl->port = BindToAnyPortWithFullBacklog(server, kHost);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("capture server: ") + e.what());
  }
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
  // Stop first, so that a connection whose delayed answer is cut short below closes right
  // after that answer instead of waiting for its next request.
  impl_->server.stop();
  impl_->stopping = true;
  std::vector<std::shared_ptr<Slot>> slots;
  {
    std::shared_lock lock(impl_->slots_mu);
    for (const auto& [id, slot] : impl_->slots) slots.push_back(slot);
  }
  for (const auto& slot : slots) {
    // Taking the lock orders this wake-up after a waiter's check of `stopping`.
    { std::lock_guard lock(slot->mu); }
    slot->delay_cut.notify_all();
  }
  impl_->listener.join();
}

int CaptureServer::port() const { return impl_->port; }

std::string CaptureServer::AddScript(std::vector<ScriptedResponse> turns) {
  auto slot = std::make_shared<Slot>();
  slot->script = Script{std::move(turns)};
  std::shared_ptr<Slot> stray;
  std::string id;
  {
    std::lock_guard lock(impl_->slots_mu);
    id = std::to_string(impl_->next_id++);
    // A stray request may have named this id before it existed; the script starts clean.
    std::shared_ptr<Slot>& entry = impl_->slots[id];
    stray = std::move(entry);
    entry = std::move(slot);
  }
  if (stray) {
    std::lock_guard lock(stray->mu);
    stray->removed = true;
  }
  return id;
}

std::string CaptureServer::BaseUrl(const std::string& script_id) const {
  return "http://" + std::string(kHost) + ":" + std::to_string(impl_->port) + "/s/" + script_id;
}

void CaptureServer::RemoveScript(const std::string& script_id) {
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard lock(impl_->slots_mu);
    const auto it = impl_->slots.find(script_id);
    if (it == impl_->slots.end()) return;
    slot = std::move(it->second);
    impl_->slots.erase(it);
  }
  {
    std::lock_guard lock(slot->mu);
    slot->removed = true;
  }
  *slot->streams_cut = true;
  // A handler still waiting out one of its delays answers now rather than hold its worker.
  slot->delay_cut.notify_all();
}

std::vector<JournalEntry> CaptureServer::Journal(const std::string& script_id) const {
  const std::shared_ptr<Slot> slot = impl_->Find(script_id);
  if (!slot) return {};
  std::lock_guard lock(slot->mu);
  std::vector<JournalEntry> journal;
  journal.reserve(slot->journal.size());
  for (std::size_t i = 0; i < slot->journal.size(); ++i) journal.push_back(slot->journal.At(i));
  return journal;
}

std::size_t CaptureServer::RequestCount(const std::string& script_id) const {
  const std::shared_ptr<Slot> slot = impl_->Find(script_id);
  if (!slot) return 0;
  std::lock_guard lock(slot->mu);
  return slot->journal.size();
}

std::size_t CaptureServer::TotalRequests() const { return impl_->total; }

}  // namespace gemini_oracle::capture
