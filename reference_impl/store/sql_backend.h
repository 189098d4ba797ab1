#pragma once
// What a database must offer the state store: a handful of row operations and the schema
// steps. Every rule of suspension and resume (versions, conflicts, sealing, refusals,
// migrations) lives in the one layer above (OpenStateStoreOn), so SQLite and MariaDB cannot
// drift apart. Tests use a backend directly to play an attacker who edits rows.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference_impl/store/state_store.h"

namespace gemini_oracle::ref {

/// One step of the schema: the statements that take a store from `version - 1` to `version`,
/// in each dialect. Steps are applied in order, each in its own transaction, and recorded in
/// gemini_oracle_schema. (MariaDB commits DDL implicitly, so its statements are written to be
/// harmless when repeated: IF NOT EXISTS.)
struct SchemaMigration {
  int version = 0;
  std::string description;
  std::vector<std::string> sqlite;
  std::vector<std::string> mariadb;
};

/// The steps up to kStateSchemaVersion, in order (versions 1, 2, ... without gaps).
const std::vector<SchemaMigration>& StateSchemaMigrations();

class StoreBackend {
 public:
  virtual ~StoreBackend() = default;

  /// The row of this conversation as stored; nullopt when there is none.
  virtual std::optional<StoredRow> ReadRow(std::string_view conversation_id) = 0;

  /// INSERT in one transaction. False, with nothing written, when the id already has a row.
  virtual bool InsertRow(const StoredRow& row) = 0;

  /// In one transaction: UPDATE every column but the id WHERE conversation_id = row's AND
  /// version = expected_version. False, with nothing written, when no row matched.
  virtual bool UpdateRow(const StoredRow& row, std::uint64_t expected_version) = 0;

  /// Every conversation id (any order).
  virtual std::vector<std::string> ListIds() = 0;

  /// The highest version recorded in gemini_oracle_schema; 0 when the store has none yet.
  virtual int ReadSchemaVersion() = 0;

  /// Serialized against every other process opening the store: when the recorded version is
  /// step.version - 1, runs the step's statements and records the step, in one transaction;
  /// when the store is already at step.version or later, does nothing.
  virtual void ApplyMigration(const SchemaMigration& step) = 0;
};

/// The database a URL names, without touching its schema. Throws "store.url_malformed" or
/// "store.unavailable"; with kExistingOnly, "store.not_found" for a SQLite file that does not
/// exist or holds no state store.
/// `wait_limit` as for OpenStateStore.
std::unique_ptr<StoreBackend> OpenStoreBackend(
    std::string_view url, StoreOpening opening = StoreOpening::kCreateWhenMissing,
    std::chrono::milliseconds wait_limit = std::chrono::milliseconds::zero());

/// sqlite:PATH (the file is created when missing, unless kExistingOnly).
std::unique_ptr<StoreBackend> OpenSqliteBackend(
    const std::string& path, StoreOpening opening = StoreOpening::kCreateWhenMissing,
    std::chrono::milliseconds wait_limit = std::chrono::milliseconds::zero());

/// The parts of mariadb://USER@HOST:PORT/DATABASE; the password comes from the environment.
struct MariaDbTarget {
  std::string user;
  std::string host;
  unsigned port = 3306;
  std::string database;
};
/// Parses a mariadb:// URL; throws "store.url_malformed" (also for a URL carrying a password).
MariaDbTarget ParseMariaDbUrl(std::string_view url);
std::unique_ptr<StoreBackend> OpenMariaDbBackend(
    const MariaDbTarget& target, const std::string& password,
    std::chrono::milliseconds wait_limit = std::chrono::milliseconds::zero());

/// The common layer over `backend`: migrates it with `migrations` (whose last version is the
/// schema version this code writes), refusing a newer store with "store.schema_too_new". With
/// kExistingOnly a backend without any schema (version 0) is "store.not_found", unchanged.
std::unique_ptr<StateStore> OpenStateStoreOn(
    std::unique_ptr<StoreBackend> backend, Keyring keyring,
    const std::vector<SchemaMigration>& migrations = StateSchemaMigrations(),
    StoreOpening opening = StoreOpening::kCreateWhenMissing);

/// 1..255 bytes: what a VARBINARY(255) key holds. Throws std::invalid_argument otherwise (a
/// caller's mistake, not a store condition).
void RequireConversationId(std::string_view conversation_id);

}  // namespace gemini_oracle::ref
