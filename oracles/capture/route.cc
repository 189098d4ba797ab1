#include "oracles/capture/route.h"

namespace gemini_oracle::capture {
namespace {

constexpr std::string_view kScriptPrefix = "/s/";

bool ConsumePrefix(std::string_view& text, std::string_view prefix) {
  if (!text.starts_with(prefix)) return false;
  text.remove_prefix(prefix.size());
  return true;
}

// "models/{model}:{method}" after the API version; the model is one path segment.
void ClassifyModelPath(std::string_view rest, Route& route) {
  if (!ConsumePrefix(rest, "models/")) return;
  const std::size_t colon = rest.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return;
  const std::string_view model = rest.substr(0, colon);
  const std::string_view method = rest.substr(colon + 1);
  if (model.find('/') != std::string_view::npos) return;
  if (method == "generateContent") {
    route.endpoint = Endpoint::kGenerateContent;
  } else if (method == "streamGenerateContent") {
    route.endpoint = Endpoint::kStreamGenerateContent;
  } else {
    return;
  }
  route.model = std::string(model);
}

}  // namespace

Route ParseRoute(std::string_view path) {
  Route route;
  std::string_view rest = path;
  if (ConsumePrefix(rest, kScriptPrefix)) {
    const std::size_t slash = rest.find('/');
    route.script_id = std::string(rest.substr(0, slash));
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  }
  route.api_path = std::string(rest);
  // SDKs use both API versions for the same endpoint; Vertex AI (Agent Platform) adds v1beta1.
  if (!ConsumePrefix(rest, "/v1beta/") && !ConsumePrefix(rest, "/v1/") &&
      !ConsumePrefix(rest, "/v1beta1/")) {
    return route;
  }
  // Vertex AI names the model under its publisher, in express mode (an API key) as
  // "publishers/google/models/{model}", with a project as
  // "projects/{project}/locations/{location}/publishers/google/models/{model}". The body is the
  // same GenerateContentRequest, so both are served as the Gemini API endpoint.
  if (ConsumePrefix(rest, "projects/")) {
    const std::size_t project_end = rest.find('/');
    if (project_end == 0 || project_end == std::string_view::npos) return route;
    rest.remove_prefix(project_end + 1);
    if (!ConsumePrefix(rest, "locations/")) return route;
    const std::size_t location_end = rest.find('/');
    if (location_end == 0 || location_end == std::string_view::npos) return route;
    rest.remove_prefix(location_end + 1);
    if (!ConsumePrefix(rest, "publishers/google/")) return route;
  } else {
    ConsumePrefix(rest, "publishers/google/");
  }
  ClassifyModelPath(rest, route);
  return route;
}

}  // namespace gemini_oracle::capture
