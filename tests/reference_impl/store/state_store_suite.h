#pragma once
// The one suite both backends pass (ADR-226.18): every TEST_P of StateStoreSuite runs against
// SQLite (sqlite_instantiation.cc, label unit) and MariaDB (mariadb_instantiation.cc, label
// mariadb) through the same interface.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "reference_impl/store/keyring.h"
#include "reference_impl/store/sql_backend.h"
#include "reference_impl/store/state_store.h"
#include "tests/mariadb_settings.h"
#include "tests/reference_impl/store/store_test_support.h"

namespace gemini_oracle::ref::testing {

class StateStoreSuite : public ::testing::TestWithParam<BackendParam> {
 protected:
  void SetUp() override {
    try {
      location_ = GetParam().make();
    } catch (const LocationUnavailable& e) {
      if (gemini_oracle::testing::MariaDbRequired()) {
        FAIL() << e.what() << ". " << gemini_oracle::testing::kMariaDbRequiredHint;
      }
      GTEST_SKIP() << e.what() << ". " << gemini_oracle::testing::kMariaDbRequiredHint;
    }
  }

  std::string Url() const { return location_->Url(); }

  /// A store over this test's place (created and migrated on first open).
  std::unique_ptr<StateStore> Open() { return OpenStateStore(Url(), keyring_); }
  std::unique_ptr<StateStore> Open(const Keyring& keyring) {
    return OpenStateStore(Url(), keyring);
  }

  /// The database under the store, for edits an attacker (or a crash) makes.
  std::unique_ptr<StoreBackend> Backend() { return OpenStoreBackend(Url()); }

  /// A conversation id of its own for each call, with the needle in it.
  static std::string NewConversationId() { return std::string(kNeedle) + "-" + RandomHex(12); }

  std::unique_ptr<StoreLocation> location_;
  Keyring keyring_ = Keyring::Ephemeral();
};

}  // namespace gemini_oracle::ref::testing
