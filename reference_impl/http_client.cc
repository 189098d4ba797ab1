#include "reference_impl/http_client.h"

#include <httplib.h>

#include <atomic>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "reference_impl/fault.h"
#include "reference_impl/provider_error.h"

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

Json GeminiHttpClient::GenerateContent(const std::string& model, const Json& body) {
  const std::string path = impl_->path_prefix + "/" + impl_->options.api_version + "/models/" +
                           std::string(BareModel(model)) + ":generateContent";
  const httplib::Headers headers = {{"x-goog-api-key", impl_->options.api_key}};
  const auto cancelled = [] {
    HttpFailure failure;
    failure.provider_message = "cancelled";
    return ProviderError("http.transport", std::move(failure));
  };
  if (impl_->cancelled) throw cancelled();
  const httplib::Result result =
      impl_->client.Post(path, headers, DumpJson(body), "application/json");
  if (impl_->cancelled) throw cancelled();
  if (!result) {
    HttpFailure failure;
    // The library's error name ("Connection", "Read", ...) quotes nothing of the exchange.
    failure.provider_message = httplib::to_string(result.error());
    throw ProviderError("http.transport", std::move(failure));
  }
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

}  // namespace gemini_oracle::ref
