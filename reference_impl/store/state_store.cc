// The common layer of the state store: every rule of suspension and resume, over a backend
// that only reads and writes rows (reference_impl/store/sql_backend.h).

#include "reference_impl/store/state_store.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <stdexcept>

#include "reference_impl/fault.h"
#include "reference_impl/provider_error.h"
#include "reference_impl/store/sealing.h"
#include "reference_impl/store/sql_backend.h"

namespace gemini_oracle::ref {
namespace {

constexpr const char* kPasswordVariable = "GEMINI_ORACLE_MARIADB_PASSWORD";

[[noreturn]] void Refuse(const char* code, std::string field = {}) {
  Position where;
  where.field = std::move(field);
  throw ProviderError(code, std::move(where));
}

std::int64_t Now() { return static_cast<std::int64_t>(std::time(nullptr)); }

class SqlStateStore final : public StateStore {
 public:
  SqlStateStore(std::unique_ptr<StoreBackend> backend, Keyring keyring)
      : backend_(std::move(backend)), keyring_(std::move(keyring)) {}

  std::uint64_t Suspend(std::string_view conversation_id, const ConversationState& state,
                        std::uint64_t expected_version) override {
    RequireConversationId(conversation_id);
    // Versions are stored as signed 64-bit integers by SQLite.
    if (expected_version >= static_cast<std::uint64_t>(INT64_MAX)) Refuse("store.conflict");
    const std::string plaintext = EncodeState(state);
    std::lock_guard lock(mutex_);
    const StoredRow row = SealRow(conversation_id, plaintext, expected_version + 1);
    if (expected_version == 0) {
      // A new conversation: a row that is already there belongs to a writer who came first.
      if (!backend_->InsertRow(row)) Refuse("store.conflict");
      return row.version;
    }
    if (GEMINI_FAULT("store.stale_row_resumed")) {
      // Written as INSERT OR IGNORE would: the existing row stays, and success is reported.
      return row.version;
    }
    // Optimistic versioning (ADR-226.18): the UPDATE matches only the version this writer
    // resumed, so of two writers that resumed it, exactly one moves the row on.
    if (!backend_->UpdateRow(row, expected_version)) Refuse("store.conflict");
    return row.version;
  }

  ResumedState Resume(std::string_view conversation_id) override {
    RequireConversationId(conversation_id);
    std::lock_guard lock(mutex_);
    const auto row = backend_->ReadRow(conversation_id);
    if (!row) Refuse("store.not_found");
    // Nothing below writes: a refused resume leaves the row exactly as it was.
    ResumedState resumed;
    resumed.state = DecodeState(OpenRow(*row));
    resumed.version = row->version;
    return resumed;
  }

  std::optional<StoredRow> ReadRaw(std::string_view conversation_id) override {
    RequireConversationId(conversation_id);
    std::lock_guard lock(mutex_);
    return backend_->ReadRow(conversation_id);
  }

  std::vector<std::string> ConversationIds() override {
    std::lock_guard lock(mutex_);
    std::vector<std::string> ids = backend_->ListIds();
    std::sort(ids.begin(), ids.end());  // bytewise, whatever the database's collation
    return ids;
  }

  RekeyResult Rekey() override {
    std::lock_guard lock(mutex_);
    RekeyResult result;
    const StateKey& current = keyring_.Current();
    std::vector<std::string> ids = backend_->ListIds();
    std::sort(ids.begin(), ids.end());
    for (const std::string& id : ids) {
      // A writer may move the row on between the read and the update; then the row is read
      // again (it may now be sealed under the current key already).
      for (;;) {
        const auto row = backend_->ReadRow(id);
        if (!row || row->key_id == current.id) break;
        // The decrypted bytes are sealed again as they are, never decoded and re-encoded, so
        // the stored state stays byte-identical (ADR-224.9). A row that cannot be opened stays
        // as it is; one bad row does not keep the others under a retiring key.
        std::string plaintext;
        try {
          plaintext = OpenRow(*row);
        } catch (const ProviderError& e) {
          if (e.code() != "store.wrong_key" && e.code() != "store.tampered") throw;
          result.refused.emplace_back(id, e.code());
          break;
        }
        if (backend_->UpdateRow(SealRow(id, plaintext, row->version + 1), row->version)) {
          ++result.rekeyed;
          break;
        }
      }
    }
    return result;
  }

  int SchemaVersion() override {
    std::lock_guard lock(mutex_);
    return backend_->ReadSchemaVersion();
  }

 private:
  StoredRow SealRow(std::string_view conversation_id, std::string_view plaintext,
                    std::uint64_t version) const {
    const StateKey& key = keyring_.Current();
    Sealed sealed = Seal(plaintext, AssociatedData(conversation_id, version, key.id), key);
    StoredRow row;
    row.conversation_id = std::string(conversation_id);
    row.version = version;
    row.key_id = key.id;
    row.nonce = std::move(sealed.nonce);
    row.ciphertext = std::move(sealed.ciphertext);
    row.updated_at = Now();
    return row;
  }

  // The row's plaintext: "store.wrong_key" when the keyring lacks its key, "store.tampered"
  // when it does not authenticate as this conversation's row at this version under that key.
  std::string OpenRow(const StoredRow& row) const {
    const StateKey* key = keyring_.Find(row.key_id);
    if (key == nullptr) Refuse("store.wrong_key");
    auto plaintext = Open(row.ciphertext, row.nonce,
                          AssociatedData(row.conversation_id, row.version, row.key_id), *key);
    if (!plaintext) Refuse("store.tampered");
    return std::move(*plaintext);
  }

  std::unique_ptr<StoreBackend> backend_;
  Keyring keyring_;
  // One connection per store: calls from several threads take turns on it.
  std::mutex mutex_;
};

void Migrate(StoreBackend& backend, const std::vector<SchemaMigration>& migrations) {
  const int program = migrations.empty() ? 0 : migrations.back().version;
  for (std::size_t i = 0; i < migrations.size(); ++i) {
    if (migrations[i].version != static_cast<int>(i) + 1) {
      throw std::logic_error("schema migrations must be numbered 1, 2, ... without gaps");
    }
  }
  const auto refuse_if_newer = [&] {
    const int stored = backend.ReadSchemaVersion();
    if (stored > program) {
      // Numbers only: the store is newer than this program, which must not write to it.
      Refuse("store.schema_too_new", "store schema version " + std::to_string(stored) +
                                         ", program schema version " + std::to_string(program));
    }
    return stored;
  };
  const int stored = refuse_if_newer();
  for (const auto& step : migrations) {
    if (step.version > stored) backend.ApplyMigration(step);
  }
  // Another process may have migrated further in between.
  refuse_if_newer();
}

std::string_view Scheme(std::string_view url) {
  const auto colon = url.find(':');
  return colon == std::string_view::npos ? std::string_view() : url.substr(0, colon);
}

}  // namespace

const std::vector<SchemaMigration>& StateSchemaMigrations() {
  static const std::vector<SchemaMigration> steps = {
      {1,
       "conversations: one sealed row per conversation",
       {"CREATE TABLE IF NOT EXISTS gemini_oracle_conversations ("
        "conversation_id BLOB NOT NULL PRIMARY KEY, "
        "version INTEGER NOT NULL CHECK (version >= 1), "
        "key_id TEXT NOT NULL, "
        "nonce BLOB NOT NULL, "
        "ciphertext BLOB NOT NULL, "
        "updated_at INTEGER NOT NULL)"},
       {"CREATE TABLE IF NOT EXISTS gemini_oracle_conversations ("
        "conversation_id VARBINARY(255) NOT NULL, "
        "version BIGINT UNSIGNED NOT NULL, "
        "key_id VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL, "
        "nonce VARBINARY(24) NOT NULL, "
        "ciphertext LONGBLOB NOT NULL, "
        "updated_at BIGINT NOT NULL, "
        "PRIMARY KEY (conversation_id)"
        ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"}},
  };
  return steps;
}

void RequireConversationId(std::string_view conversation_id) {
  if (conversation_id.empty() || conversation_id.size() > 255) {
    throw std::invalid_argument("a conversation id is 1 to 255 bytes");
  }
}

std::unique_ptr<StateStore> OpenStateStoreOn(std::unique_ptr<StoreBackend> backend, Keyring keyring,
                                             const std::vector<SchemaMigration>& migrations,
                                             StoreOpening opening) {
  // Maintenance never turns another database into a store: no schema, nothing written.
  if (opening == StoreOpening::kExistingOnly && backend->ReadSchemaVersion() == 0) {
    Refuse("store.not_found", "no state store in this database");
  }
  Migrate(*backend, migrations);
  return std::make_unique<SqlStateStore>(std::move(backend), std::move(keyring));
}

std::unique_ptr<StoreBackend> OpenStoreBackend(std::string_view url, StoreOpening opening,
                                               std::chrono::milliseconds wait_limit) {
  const std::string_view scheme = Scheme(url);
  if (scheme == "sqlite") {
    const std::string_view path = url.substr(scheme.size() + 1);
    if (path.empty()) Refuse("store.url_malformed", "path");
    return OpenSqliteBackend(std::string(path), opening, wait_limit);
  }
  if (scheme == "mariadb") {
    const MariaDbTarget target = ParseMariaDbUrl(url);
    const char* password = std::getenv(kPasswordVariable);
    return OpenMariaDbBackend(target, password == nullptr ? std::string() : password,
                              wait_limit);
  }
  Refuse("store.url_malformed", "scheme");
}

std::unique_ptr<StateStore> OpenStateStore(std::string_view url, Keyring keyring,
                                           StoreOpening opening,
                                           std::chrono::milliseconds wait_limit) {
  return OpenStateStoreOn(OpenStoreBackend(url, opening, wait_limit), std::move(keyring),
                          StateSchemaMigrations(), opening);
}

std::string RedactedStoreUrl(std::string_view url) {
  const auto start = url.find("://");
  if (start == std::string_view::npos) return std::string(url);
  const auto authority_start = start + 3;
  const auto authority_end = url.find_first_of("/?#", authority_start);
  const std::string_view authority = url.substr(
      authority_start, authority_end == std::string_view::npos ? std::string_view::npos
                                                               : authority_end - authority_start);
  const auto at = authority.rfind('@');
  if (at == std::string_view::npos) return std::string(url);
  const std::string_view userinfo = authority.substr(0, at);
  const auto colon = userinfo.find(':');
  if (colon == std::string_view::npos) return std::string(url);
  std::string redacted(url.substr(0, authority_start));
  redacted += userinfo.substr(0, colon);
  redacted += url.substr(authority_start + at);
  return redacted;
}

}  // namespace gemini_oracle::ref
