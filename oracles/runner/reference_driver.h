#pragma once
// Runs a case with the reference implementation, in-process, over real HTTP.

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "oracles/runner/driver.h"
#include "reference_impl/http_client.h"
#include "reference_impl/store/keyring.h"
#include "reference_impl/store/state_store.h"


namespace gemini_oracle::runner {

class ReferenceDriver : public Driver {
 public:
  /// Rewrites a built request body before it is sent. Empty for the real reference; tests
  /// and the fault-injection harness use it to prove that the judges catch a broken wire.
  using RequestHook = std::function<void(Json& request)>;

  /// Where the application suspends conversations (`run --store`).
  struct StoreSettings {
    /// A store URL (ref::OpenStateStore): every conversation is suspended and resumed after
    /// every turn. Empty: only cases that ask for it (`stored`, `then.suspend`) go through a
    /// store, a temporary SQLite file of this driver under an ephemeral key.
    std::string url;
    /// The keys for `url`; nullopt: an ephemeral key.
    std::optional<ref::Keyring> keyring;
    /// The longest one store call may wait (ref::OpenStateStore), the case time limit: the
    /// watchdog's cancel reaches the HTTP connection, not a store call. Zero: the defaults.
    std::chrono::milliseconds wait_limit{0};
  };

  ReferenceDriver() = default;
  explicit ReferenceDriver(RequestHook hook) : hook_(std::move(hook)) {}
  explicit ReferenceDriver(StoreSettings store, RequestHook hook = {})
      : hook_(std::move(hook)), store_settings_(std::move(store)) {}
  ~ReferenceDriver() override;

  std::string Name() const override { return hook_ ? "reference+hook" : "reference"; }
  DriverReport Run(const Case& c, const std::string& base_url) override;
  bool Persists(const Case& c) const override;
  DriverReport RunInMemory(const Case& c, const std::string& base_url) override;
  void Cancel() override;

 private:
  DriverReport RunConversation(const Case& c, const std::string& base_url, bool persist);
  ref::StateStore& Store();

  RequestHook hook_;
  StoreSettings store_settings_;
  std::unique_ptr<ref::StateStore> store_;  // opened at the first case that suspends
  std::filesystem::path temporary_store_dir_;  // removed with the driver
  std::mutex client_mutex_;  // Cancel() runs on the watchdog thread
  // Kept across cases: the capture server gives each case its own path under one origin,
  // so one keep-alive connection serves them all.
  std::unique_ptr<ref::GeminiHttpClient> client_;
};

}  // namespace gemini_oracle::runner
