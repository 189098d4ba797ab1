#include "oracles/capture/google_error.h"

#include <nlohmann/json.hpp>

namespace gemini_oracle::capture {

std::string GoogleErrorBody(int code, std::string_view status, std::string_view message) {
  // The capture library stays independent of the reference adapter it judges.
  nlohmann::ordered_json error = nlohmann::ordered_json::object();
  error["code"] = code;
  error["message"] = std::string(message);
  error["status"] = std::string(status);
  nlohmann::ordered_json body = nlohmann::ordered_json::object();
  body["error"] = std::move(error);
  return body.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace gemini_oracle::capture
