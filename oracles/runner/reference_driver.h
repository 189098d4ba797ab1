#pragma once
// Runs a case with the reference implementation, in-process, over real HTTP.

#include <functional>
#include <memory>
#include <mutex>

#include "oracles/runner/driver.h"
#include "reference_impl/http_client.h"

namespace gemini_oracle::runner {

class ReferenceDriver : public Driver {
 public:
  /// Rewrites a built request body before it is sent. Empty for the real reference; tests
  /// and the fault-injection harness use it to prove that the judges catch a broken wire.
  using RequestHook = std::function<void(Json& request)>;

  ReferenceDriver() = default;
  explicit ReferenceDriver(RequestHook hook) : hook_(std::move(hook)) {}

  std::string Name() const override { return hook_ ? "reference+hook" : "reference"; }
  DriverReport Run(const Case& c, const std::string& base_url) override;
  void Cancel() override;

 private:
  RequestHook hook_;
  std::mutex client_mutex_;  // Cancel() runs on the watchdog thread
  // Kept across cases: the capture server gives each case its own path under one origin,
  // so one keep-alive connection serves them all.
  std::unique_ptr<ref::GeminiHttpClient> client_;
};

/// ADR-226 context: what frameworks and databases do to generic arguments (1.0 -> 1,
/// -0.0 -> 0), recursively. Exposed for tests and for foreign drivers' documentation.
Json NormalizeNumbers(const Json& value);

}  // namespace gemini_oracle::runner
