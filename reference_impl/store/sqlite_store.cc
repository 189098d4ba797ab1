// The SQLite backend (sqlite:PATH): one file, the embedded default. WAL journal with
// synchronous=FULL, so a committed suspension survives a crash of the process or the machine;
// writes take the write lock up front (BEGIN IMMEDIATE) and wait for it (busy_timeout).
// SQLite answers "busy" without waiting where waiting could deadlock (a reader promoting its
// lock, as the first switch to WAL does while another opener migrates); a statement outside a
// transaction is then run again until the same time limit (ADR-226.18: never a spurious
// store.unavailable for a store that is only in use).

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <system_error>
#include <thread>
#include <utility>

#include "reference_impl/provider_error.h"
#include "reference_impl/store/sql_backend.h"

namespace gemini_oracle::ref {
namespace {

// How long a call waits for another connection's lock unless told less (a case's limit).
constexpr std::chrono::milliseconds kBusyTimeout{30000};

// SQLITE_LOCKED is a conflict within one connection (no shared cache here): waiting cannot end
// it, so only SQLITE_BUSY, another connection's lock, is waited for.
bool IsBusy(int rc) { return (rc & 0xff) == SQLITE_BUSY; }

// Runs `attempt` (returning a result code) again while it answers busy, outside a transaction
// only (inside one, a retry would repeat half of it), until `busy` has passed.
template <typename Attempt>
int RetryWhileBusy(sqlite3* db, std::chrono::milliseconds busy, Attempt attempt) {
  const bool outside_transaction = sqlite3_get_autocommit(db) != 0;
  const auto deadline = std::chrono::steady_clock::now() + busy;
  auto pause = std::chrono::milliseconds(1);
  for (;;) {
    const int rc = attempt();
    if (!IsBusy(rc) || !outside_transaction || std::chrono::steady_clock::now() >= deadline) {
      return rc;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
}

constexpr const char* kSchemaTable =
    "CREATE TABLE IF NOT EXISTS gemini_oracle_schema ("
    "version INTEGER NOT NULL PRIMARY KEY, "
    "description TEXT NOT NULL, "
    "applied_at INTEGER NOT NULL)";

// The result code and SQLite's generic text for it: never a statement or a value.
[[noreturn]] void Unavailable(int code) {
  Position where;
  where.field = "sqlite error " + std::to_string(code) + " (" + sqlite3_errstr(code) + ")";
  throw ProviderError("store.unavailable", std::move(where));
}

class Statement {
 public:
  Statement(sqlite3* db, std::chrono::milliseconds busy, const char* sql)
      : db_(db), busy_(busy) {
    const int rc = RetryWhileBusy(
        db, busy, [&] { return sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr); });
    if (rc != SQLITE_OK) Unavailable(rc);
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  void Bind(int index, std::string_view bytes) {
    // A zero-length blob is bound as such, never as NULL.
    Check(sqlite3_bind_blob64(stmt_, index, bytes.empty() ? "" : bytes.data(), bytes.size(),
                              SQLITE_TRANSIENT));
  }
  void BindText(int index, std::string_view text) {
    Check(
        sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
  }
  void Bind(int index, std::int64_t value) { Check(sqlite3_bind_int64(stmt_, index, value)); }

  /// True for a row, false when done; throws on an error.
  bool Step() {
    const int rc = RetryWhileBusy(db_, busy_, [&] {
      const int attempt = sqlite3_step(stmt_);
      if (IsBusy(attempt)) sqlite3_reset(stmt_);  // bindings stay; the statement starts again
      return attempt;
    });
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    last_error_ = rc;
    if ((rc & 0xff) == SQLITE_CONSTRAINT) return false;
    Unavailable(rc);
  }
  int last_error() const { return last_error_; }

  std::string Bytes(int column) {
    const void* data = sqlite3_column_blob(stmt_, column);
    const int size = sqlite3_column_bytes(stmt_, column);
    return data == nullptr ? std::string() : std::string(static_cast<const char*>(data), size);
  }
  std::int64_t Int(int column) { return sqlite3_column_int64(stmt_, column); }
  int Type(int column) { return sqlite3_column_type(stmt_, column); }

 private:
  void Check(int rc) {
    if (rc != SQLITE_OK) Unavailable(rc);
  }
  sqlite3* db_;
  std::chrono::milliseconds busy_;
  sqlite3_stmt* stmt_ = nullptr;
  int last_error_ = SQLITE_OK;
};

class SqliteBackend final : public StoreBackend {
 public:
  SqliteBackend(const std::string& path, StoreOpening opening, std::chrono::milliseconds busy)
      : busy_(busy.count() > 0 ? std::min(busy, kBusyTimeout) : kBusyTimeout) {
    const bool create = opening == StoreOpening::kCreateWhenMissing;
    // The path is literal (docs/state-store.md): no SQLITE_OPEN_URI, and a relative path is
    // given as ./PATH, so that neither a library built with SQLITE_USE_URI reads "file:..." as
    // a URI (?mode=memory, ?nolock=1) nor ":memory:" opens a database that is never stored.
    const std::string literal = !path.empty() && path.front() != '/' ? "./" + path : path;
    const int rc = sqlite3_open_v2(literal.c_str(), &db_,
                                   SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) |
                                       SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE,
                                   nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_close(db_);
      db_ = nullptr;
      // A file that is not there, for an opener that must not create one; any other failure to
      // open (a folder, no permission) is the database's own error.
      std::error_code ec;
      if (!create && (rc & 0xff) == SQLITE_CANTOPEN && !std::filesystem::exists(path, ec)) {
        Position where;
        where.field = "no SQLite file at the path";
        throw ProviderError("store.not_found", std::move(where));
      }
      Unavailable(rc);
    }
    sqlite3_busy_timeout(db_, static_cast<int>(busy_.count()));
    try {
      // Checked before the pragmas: a file that is no state store is left as it was.
      if (!create && ReadSchemaVersion() == 0) {
        Position where;
        where.field = "no state store in this database";
        throw ProviderError("store.not_found", std::move(where));
      }
      // WAL: readers never wait for the writer. FULL: every commit reaches the disk (also the
      // WAL), so a suspension reported done survives power loss, not only a killed process.
      Exec("PRAGMA journal_mode=WAL");
      Exec("PRAGMA synchronous=FULL");
    } catch (...) {
      sqlite3_close(db_);  // no destructor runs for a constructor that throws
      throw;
    }
  }
  ~SqliteBackend() override { sqlite3_close(db_); }

  std::optional<StoredRow> ReadRow(std::string_view conversation_id) override {
    // One SELECT reads one snapshot: never half of a write.
    Statement s(db_, busy_,
                "SELECT version, key_id, nonce, ciphertext, updated_at "
                "FROM gemini_oracle_conversations WHERE conversation_id = ?");
    s.Bind(1, conversation_id);
    if (!s.Step()) return std::nullopt;
    StoredRow row;
    row.conversation_id = std::string(conversation_id);
    row.version = static_cast<std::uint64_t>(s.Int(0));
    row.key_id = s.Bytes(1);
    row.nonce = s.Bytes(2);
    row.ciphertext = s.Bytes(3);
    row.updated_at = s.Int(4);
    return row;
  }

  bool InsertRow(const StoredRow& row) override {
    Transaction tx(*this);
    Statement s(db_, busy_,
                "INSERT INTO gemini_oracle_conversations "
                "(conversation_id, version, key_id, nonce, ciphertext, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?)");
    BindRow(s, row, 1);
    s.Step();
    if (s.last_error() != SQLITE_OK) {
      if (s.last_error() == SQLITE_CONSTRAINT_PRIMARYKEY) return false;  // rolled back
      Unavailable(s.last_error());
    }
    tx.Commit();
    return true;
  }

  bool UpdateRow(const StoredRow& row, std::uint64_t expected_version) override {
    Transaction tx(*this);
    Statement s(db_, busy_,
                "UPDATE gemini_oracle_conversations SET "
                "version = ?, key_id = ?, nonce = ?, ciphertext = ?, updated_at = ? "
                "WHERE conversation_id = ? AND version = ?");
    s.Bind(1, static_cast<std::int64_t>(row.version));
    s.BindText(2, row.key_id);
    s.Bind(3, std::string_view(row.nonce));
    s.Bind(4, std::string_view(row.ciphertext));
    s.Bind(5, row.updated_at);
    s.Bind(6, std::string_view(row.conversation_id));
    s.Bind(7, static_cast<std::int64_t>(expected_version));
    s.Step();
    if (s.last_error() != SQLITE_OK) Unavailable(s.last_error());
    if (sqlite3_changes(db_) != 1) return false;  // rolled back: nothing written
    tx.Commit();
    return true;
  }

  std::vector<std::string> ListIds() override {
    Statement s(db_, busy_, "SELECT conversation_id FROM gemini_oracle_conversations");
    std::vector<std::string> ids;
    while (s.Step()) ids.push_back(s.Bytes(0));
    return ids;
  }

  int ReadSchemaVersion() override {
    Statement exists(db_, busy_,
                     "SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                     "name = 'gemini_oracle_schema'");
    if (!exists.Step()) return 0;
    Statement s(db_, busy_, "SELECT COALESCE(MAX(version), 0) FROM gemini_oracle_schema");
    return s.Step() ? static_cast<int>(s.Int(0)) : 0;
  }

  void ApplyMigration(const SchemaMigration& step) override {
    // BEGIN IMMEDIATE: two processes opening a new file at once take turns here, and the
    // second finds the step recorded.
    Transaction tx(*this);
    Exec(kSchemaTable);
    if (ReadSchemaVersion() >= step.version) return;  // rolled back: nothing to do
    for (const auto& sql : step.sqlite) Exec(sql.c_str());
    Statement record(db_, busy_,
                     "INSERT INTO gemini_oracle_schema (version, description, applied_at) "
                     "VALUES (?, ?, ?)");
    record.Bind(1, static_cast<std::int64_t>(step.version));
    record.BindText(2, step.description);
    record.Bind(3, static_cast<std::int64_t>(std::time(nullptr)));
    record.Step();
    if (record.last_error() != SQLITE_OK) Unavailable(record.last_error());
    tx.Commit();
  }

 private:
  // BEGIN IMMEDIATE ... COMMIT; rolled back unless committed (also when an error is thrown).
  class Transaction {
   public:
    explicit Transaction(SqliteBackend& backend) : backend_(backend) {
      backend_.Exec("BEGIN IMMEDIATE");
    }
    ~Transaction() {
      if (!done_) sqlite3_exec(backend_.db_, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void Commit() {
      backend_.Exec("COMMIT");
      done_ = true;
    }

   private:
    SqliteBackend& backend_;
    bool done_ = false;
  };

  void Exec(const char* sql) {
    const int rc = RetryWhileBusy(
        db_, busy_, [&] { return sqlite3_exec(db_, sql, nullptr, nullptr, nullptr); });
    if (rc != SQLITE_OK) Unavailable(sqlite3_extended_errcode(db_));
  }

  static void BindRow(Statement& s, const StoredRow& row, int first) {
    s.Bind(first, std::string_view(row.conversation_id));
    s.Bind(first + 1, static_cast<std::int64_t>(row.version));
    s.BindText(first + 2, row.key_id);
    s.Bind(first + 3, std::string_view(row.nonce));
    s.Bind(first + 4, std::string_view(row.ciphertext));
    s.Bind(first + 5, row.updated_at);
  }

  sqlite3* db_ = nullptr;
  std::chrono::milliseconds busy_;  // the longest one call waits for a lock held elsewhere
};

}  // namespace

std::unique_ptr<StoreBackend> OpenSqliteBackend(const std::string& path, StoreOpening opening,
                                                std::chrono::milliseconds wait_limit) {
  return std::make_unique<SqliteBackend>(path, opening, wait_limit);
}

}  // namespace gemini_oracle::ref
