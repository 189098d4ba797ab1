#include "reference_impl/http_client.h"

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "reference_impl/fault.h"
#include "reference_impl/provider_error.h"
#include "reference_impl/sse_parser.h"
#include "reference_impl/stream_accumulator.h"

namespace gemini_oracle::ref {
namespace {

struct SplitUrl {
  std::string scheme_host_port;  // "http://127.0.0.1:4242"
  std::string path_prefix;       // "/s/7", or "" for none
};

SplitUrl SplitBaseUrl(const std::string& base_url) {
  const std::size_t scheme_end = base_url.find("://");
  if (scheme_end == std::string::npos || scheme_end == 0) {
    throw std::invalid_argument("GeminiHttpClient: base_url needs a scheme");
  }
  const std::size_t path_start = base_url.find('/', scheme_end + 3);
  if (path_start == scheme_end + 3) {
    throw std::invalid_argument("GeminiHttpClient: base_url needs a host");
  }
  SplitUrl split;
  split.scheme_host_port = base_url.substr(0, path_start);
  if (path_start != std::string::npos) split.path_prefix = base_url.substr(path_start);
  while (!split.path_prefix.empty() && split.path_prefix.back() == '/') {
    split.path_prefix.pop_back();
  }
  return split;
}

// Google's SDKs accept both "gemini-2.5-flash" and "models/gemini-2.5-flash".
std::string_view BareModel(std::string_view model) {
  constexpr std::string_view kModels = "models/";
  if (model.starts_with(kModels)) model.remove_prefix(kModels.size());
  return model;
}

// Takes error.status and error.message from a Google error JSON; leaves them empty when the
// body has another shape.
HttpFailure MapFailure(const httplib::Response& res) {
  HttpFailure failure;
  failure.status = res.status;
  failure.raw_body = res.body;
  const Json parsed = Json::parse(res.body, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return failure;
  const auto error = parsed.find("error");
  if (error == parsed.end() || !error->is_object()) return failure;
  if (const auto status = error->find("status"); status != error->end() && status->is_string()) {
    failure.google_status = status->get<std::string>();
  }
  if (const auto message = error->find("message");
      message != error->end() && message->is_string()) {
    failure.provider_message = message->get<std::string>();
  }
  return failure;
}

}  // namespace

struct GeminiHttpClient::Impl {
  Impl(ClientOptions opts, SplitUrl split)
      : options(std::move(opts)),
        path_prefix(std::move(split.path_prefix)),
        client(split.scheme_host_port) {}

  ClientOptions options;
  std::string path_prefix;
  httplib::Client client;
  std::atomic<bool> cancelled{false};
};

GeminiHttpClient::GeminiHttpClient(ClientOptions options) {
  SplitUrl split = SplitBaseUrl(options.base_url);
  impl_ = std::make_unique<Impl>(std::move(options), std::move(split));
  httplib::Client& client = impl_->client;
  if (!client.is_valid()) throw std::invalid_argument("GeminiHttpClient: unusable base_url");
  client.set_keep_alive(true);
  // Without it every keep-alive request on loopback waits for delayed ACKs (~40 ms).
  client.set_tcp_nodelay(true);
  client.set_follow_location(false);
  client.set_connection_timeout(impl_->options.connect_timeout);
  client.set_read_timeout(impl_->options.read_timeout);
  client.set_write_timeout(impl_->options.read_timeout);
}

GeminiHttpClient::~GeminiHttpClient() = default;

void GeminiHttpClient::Cancel() {
  impl_->cancelled = true;
  // Shuts the socket of a request in flight, so the waiting thread's read fails now.
  impl_->client.stop();
}

void GeminiHttpClient::ResetCancel() { impl_->cancelled = false; }

void GeminiHttpClient::Rebase(const std::string& base_url) {
  SplitUrl split = SplitBaseUrl(base_url);
  if (split.scheme_host_port != SplitBaseUrl(impl_->options.base_url).scheme_host_port) {
    throw std::invalid_argument("GeminiHttpClient::Rebase: another origin");
  }
  impl_->options.base_url = base_url;
  impl_->path_prefix = std::move(split.path_prefix);
}

namespace {

ProviderError Cancelled() {
  HttpFailure failure;
  failure.provider_message = "cancelled";
  return ProviderError("http.transport", std::move(failure));
}

ProviderError TransportFailure(httplib::Error error) {
  HttpFailure failure;
  // The library's error name ("Connection", "Read", ...) quotes nothing of the exchange.
  failure.provider_message = httplib::to_string(error);
  return ProviderError("http.transport", std::move(failure));
}

}  // namespace

std::string GeminiHttpClient::PathOf(const std::string& model, const char* method) const {
  return impl_->path_prefix + "/" + impl_->options.api_version + "/models/" +
         std::string(BareModel(model)) + ":" + method;
}

Json GeminiHttpClient::GenerateContent(const std::string& model, const Json& body) {
  const std::string path = PathOf(model, "generateContent");
  const httplib::Headers headers = {{"x-goog-api-key", impl_->options.api_key}};
  if (impl_->cancelled) throw Cancelled();
  const httplib::Result result =
      impl_->client.Post(path, headers, DumpJson(body), "application/json");
  if (impl_->cancelled) throw Cancelled();
  if (!result) throw TransportFailure(result.error());
  const httplib::Response& res = *result;
  const bool json_error_body = GEMINI_FAULT("http.error_status_with_json_body_parsed") &&
                               Json::accept(res.body);  // only the body is looked at
  if ((res.status < 200 || res.status > 299) && !json_error_body) {
    throw ProviderError("http.status", MapFailure(res));
  }
  const auto not_json = [&res] {
    HttpFailure failure;
    failure.status = res.status;
    failure.raw_body = res.body;
    return ProviderError("http.body", std::move(failure));
  };
  // A repeated member name means different things to different parsers: not a usable answer.
  if (FindDuplicateKey(res.body)) throw not_json();
  try {
    // Integer literals beyond exact reach stay marked, so the parser can refuse them where
    // they would be used (functionCall.args) instead of using a rounded double.
    if (GEMINI_FAULT("http.body_parsed_without_exceptions")) {
      return Json::parse(res.body, nullptr, /*allow_exceptions=*/false);  // discarded, unchecked
    }
    return ParseJsonMarkingInexactIntegers(res.body);
  } catch (const Json::exception&) {
    throw not_json();
  }
}

Json GeminiHttpClient::StreamGenerateContent(const std::string& model, const Json& body) {
  // An error body is kept up to this size for diagnostics; a longer one is cut there.
  constexpr std::size_t kMaxErrorBody = std::size_t{1} << 20;
  // A whole stream larger than this is refused (http.body): the folded turn is held in memory.
  constexpr std::size_t kMaxStreamBytes = std::size_t{256} << 20;
  httplib::Request req;
  req.method = "POST";
  req.path = PathOf(model, "streamGenerateContent") + "?alt=sse";
  req.headers.emplace("x-goog-api-key", impl_->options.api_key);
  req.headers.emplace("Accept", "text/event-stream");
  req.headers.emplace("Content-Type", "application/json");
  req.body = DumpJson(body);
  int status = 0;
  std::string error_body;
  SseParser parser;
  StreamAccumulator accumulator;
  std::vector<SseEvent> events;
  std::exception_ptr refused;  // the first refusal of an event; the stream is abandoned there
  std::size_t received = 0;
  req.response_handler = [&status](const httplib::Response& res) {
    status = res.status;
    return true;
  };
  const auto too_large = [&] {
    HttpFailure failure;
    failure.status = status;
    return std::make_exception_ptr(ProviderError("http.body", std::move(failure)));
  };
  req.content_receiver = [&](const char* data, std::size_t size, std::uint64_t, std::uint64_t) {
    if (impl_->cancelled) return false;  // Cancel() stops a stream at its next piece
    if (status < 200 || status > 299) {
      error_body.append(data, std::min(size, kMaxErrorBody - std::min(kMaxErrorBody, error_body.size())));
      return true;
    }
    received += size;
    if (received > kMaxStreamBytes) {
      refused = too_large();
      return false;
    }
    try {
      parser.Feed(std::string_view(data, size), events);
      // Each event as it completes: a mid-stream error stops the read at once. Events of
      // another type than the default (`event: ping`, ...) carry no part of the answer.
      for (const SseEvent& event : events) {
        if (event.type.empty() || event.type == "message") accumulator.Add(event.data);
      }
      events.clear();
    } catch (const std::length_error&) {
      refused = too_large();
      return false;
    } catch (const ProviderError&) {
      refused = std::current_exception();
      return false;
    }
    return true;
  };
  if (impl_->cancelled) throw Cancelled();
  const httplib::Result result = impl_->client.send(req);
  if (impl_->cancelled) throw Cancelled();
  if (refused) std::rethrow_exception(refused);
  if (!result) throw TransportFailure(result.error());
  status = result->status;  // also for a status whose response has no body (204)
  if (status < 200 || status > 299) {
    httplib::Response res = *result;
    res.body = std::move(error_body);
    throw ProviderError("http.status", MapFailure(res));
  }
  // The stream ended cleanly at the HTTP level but not at the event level: the last event
  // never closed, there was none, or the first candidate never got its finishReason (Google's
  // last event always carries one; a body framed by the connection's close ends cleanly
  // wherever the connection is cut). No whole turn arrived.
  Json folded = accumulator.Response();
  const auto candidates = folded.find("candidates");
  const bool unfinished = candidates != folded.end() && candidates->is_array() &&
                          !candidates->empty() && (*candidates)[0].is_object() &&
                          !(*candidates)[0].contains("finishReason");
  if ((parser.InsideEvent() || accumulator.events() == 0 || unfinished) &&
      !GEMINI_FAULT("stream.unfinished_stream_accepted")) {
    HttpFailure failure;
    failure.status = status;
    throw ProviderError("http.stream", std::move(failure));
  }
  return folded;
}

}  // namespace gemini_oracle::ref
