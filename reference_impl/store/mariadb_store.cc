// The MariaDB backend (mariadb://USER@HOST:PORT/DATABASE): Connector/C, prepared statements
// for every statement that carries data, InnoDB tables, READ COMMITTED. The version check is
// in the UPDATE's WHERE, which InnoDB evaluates on the latest committed row under its row
// lock: of two writers that resumed one version, the second finds no row to update.

#include <errmsg.h>
#include <mysql.h>
#include <mysqld_error.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <ctime>
#include <mutex>
#include <utility>

#include "reference_impl/provider_error.h"
#include "reference_impl/store/sql_backend.h"

namespace gemini_oracle::ref {
namespace {

constexpr unsigned kConnectTimeoutSeconds = 10;
constexpr unsigned kNetTimeoutSeconds = 120;
// A deadlock or lock wait timeout rolls the transaction back; it is retried this many times.
constexpr int kRetries = 5;

constexpr const char* kSchemaTable =
    "CREATE TABLE IF NOT EXISTS gemini_oracle_schema ("
    "version INT NOT NULL PRIMARY KEY, "
    "description VARCHAR(255) NOT NULL, "
    "applied_at BIGINT NOT NULL"
    ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";

[[noreturn]] void MalformedUrl(const char* part) {
  Position where;
  where.field = part;
  throw ProviderError("store.url_malformed", std::move(where));
}

// The error number only: a server message can quote a value (a duplicate key names it).
[[noreturn]] void Unavailable(unsigned error) {
  Position where;
  where.field = "mariadb error " + std::to_string(error);
  // The one limit SQLite does not share (docs/state-store.md, "Limits"): said in words.
  if (error == ER_NET_PACKET_TOO_LARGE) {
    where.field += ": the sealed state is larger than the server's max_allowed_packet";
  }
  throw ProviderError("store.unavailable", std::move(where));
}

// Connector/C counts its timeouts in whole seconds: a limit is rounded up, and never makes a
// wait longer than the default.
unsigned Seconds(std::chrono::milliseconds limit, unsigned default_seconds) {
  if (limit.count() <= 0) return default_seconds;
  const auto seconds = static_cast<unsigned long long>((limit.count() + 999) / 1000);
  return static_cast<unsigned>(std::min<unsigned long long>(seconds, default_seconds));
}

bool Retryable(unsigned error) {
  return error == ER_LOCK_DEADLOCK || error == ER_LOCK_WAIT_TIMEOUT;
}

std::string PercentDecode(std::string_view text, const char* part) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    unsigned value = 0;
    if (i + 2 >= text.size()) MalformedUrl(part);
    const auto [end, ec] = std::from_chars(text.data() + i + 1, text.data() + i + 3, value, 16);
    if (ec != std::errc() || end != text.data() + i + 3) MalformedUrl(part);
    out += static_cast<char>(value);
    i += 2;
  }
  return out;
}

// A prepared statement with its parameters bound by value.
class Stmt {
 public:
  Stmt(MYSQL* conn, std::string_view sql) : stmt_(mysql_stmt_init(conn)) {
    if (stmt_ == nullptr) Unavailable(mysql_errno(conn));
    if (mysql_stmt_prepare(stmt_, sql.data(), sql.size()) != 0) {
      const unsigned error = Errno();
      mysql_stmt_close(stmt_);
      Unavailable(error);
    }
  }
  ~Stmt() { mysql_stmt_close(stmt_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  void Bytes(std::string_view bytes) {
    Param p;
    p.bytes = std::string(bytes);
    p.type = MYSQL_TYPE_BLOB;
    params_.push_back(std::move(p));
  }
  void Text(std::string_view text) {
    Param p;
    p.bytes = std::string(text);
    p.type = MYSQL_TYPE_STRING;
    params_.push_back(std::move(p));
  }
  void Int(std::int64_t value) {
    Param p;
    p.number = value;
    p.type = MYSQL_TYPE_LONGLONG;
    params_.push_back(std::move(p));
  }
  void Unsigned(std::uint64_t value) {
    Param p;
    p.number = static_cast<std::int64_t>(value);
    p.is_unsigned = true;
    p.type = MYSQL_TYPE_LONGLONG;
    params_.push_back(std::move(p));
  }

  /// Executes; 0 on success, else the error number (the statement stays usable for nothing).
  unsigned Execute() {
    std::vector<MYSQL_BIND> binds(params_.size());
    for (std::size_t i = 0; i < params_.size(); ++i) {
      Param& p = params_[i];
      MYSQL_BIND& b = binds[i];
      b.buffer_type = p.type;
      if (p.type == MYSQL_TYPE_LONGLONG) {
        b.buffer = &p.number;
        b.is_unsigned = p.is_unsigned;
      } else {
        p.length = p.bytes.size();
        b.buffer = p.bytes.data();
        b.buffer_length = p.bytes.size();
        b.length = &p.length;
      }
    }
    if (!binds.empty() && mysql_stmt_bind_param(stmt_, binds.data()) != 0) return Errno();
    if (mysql_stmt_execute(stmt_) != 0) return Errno();
    return 0;
  }

  void ExecuteOrThrow() {
    if (const unsigned error = Execute()) Unavailable(error);
  }

  std::uint64_t AffectedRows() { return mysql_stmt_affected_rows(stmt_); }

  /// Executes a SELECT and reads its rows: numeric columns as decimal text, string
  /// columns as bytes. `is_string[i]` says which is which.
  std::vector<std::vector<std::string>> Query(const std::vector<bool>& is_string) {
    ExecuteOrThrow();
    if (mysql_stmt_store_result(stmt_) != 0) Unavailable(Errno());
    const std::size_t n = is_string.size();
    std::vector<MYSQL_BIND> result(n);
    std::vector<unsigned long> lengths(n);
    std::vector<my_bool> nulls(n);
    std::vector<long long> numbers(n);
    for (std::size_t i = 0; i < n; ++i) {
      result[i].length = &lengths[i];
      result[i].is_null = &nulls[i];
      if (is_string[i]) {
        result[i].buffer_type = MYSQL_TYPE_BLOB;  // lengths first, bytes by fetch_column
      } else {
        result[i].buffer_type = MYSQL_TYPE_LONGLONG;
        result[i].buffer = &numbers[i];
      }
    }
    if (mysql_stmt_bind_result(stmt_, result.data()) != 0) Unavailable(Errno());
    std::vector<std::vector<std::string>> rows;
    for (;;) {
      const int fetched = mysql_stmt_fetch(stmt_);
      if (fetched == MYSQL_NO_DATA) break;
      if (fetched != 0 && fetched != MYSQL_DATA_TRUNCATED) Unavailable(Errno());
      std::vector<std::string> row(n);
      for (std::size_t i = 0; i < n; ++i) {
        if (nulls[i]) continue;
        if (!is_string[i]) {
          row[i] = std::to_string(numbers[i]);
          continue;
        }
        row[i].assign(lengths[i], '\0');
        if (lengths[i] == 0) continue;
        MYSQL_BIND column = {};
        column.buffer_type = MYSQL_TYPE_BLOB;
        column.buffer = row[i].data();
        column.buffer_length = lengths[i];
        unsigned long length = 0;
        column.length = &length;
        if (mysql_stmt_fetch_column(stmt_, &column, static_cast<unsigned>(i), 0) != 0) {
          Unavailable(Errno());
        }
      }
      rows.push_back(std::move(row));
    }
    return rows;
  }

 private:
  struct Param {
    enum_field_types type = MYSQL_TYPE_NULL;
    std::string bytes;
    std::int64_t number = 0;
    bool is_unsigned = false;
    unsigned long length = 0;
  };
  unsigned Errno() { return mysql_stmt_errno(stmt_); }

  MYSQL_STMT* stmt_;
  std::vector<Param> params_;
};

std::int64_t ToInt(const std::string& text) {
  std::int64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

class MariaDbBackend final : public StoreBackend {
 public:
  MariaDbBackend(const MariaDbTarget& target, const std::string& password,
                 std::chrono::milliseconds wait_limit)
      : conn_(mysql_init(nullptr)), database_(target.database) {
    if (conn_ == nullptr) Unavailable(CR_OUT_OF_MEMORY);
    // A server that stops answering (stopped, paused, a network gone) fails the call once the
    // limit has passed instead of holding a case past its own limit.
    const unsigned connect_timeout = Seconds(wait_limit, kConnectTimeoutSeconds);
    const unsigned net_timeout = Seconds(wait_limit, kNetTimeoutSeconds);
    mysql_optionsv(conn_, MYSQL_OPT_CONNECT_TIMEOUT, &connect_timeout);
    mysql_optionsv(conn_, MYSQL_OPT_READ_TIMEOUT, &net_timeout);
    mysql_optionsv(conn_, MYSQL_OPT_WRITE_TIMEOUT, &net_timeout);
    mysql_optionsv(conn_, MYSQL_SET_CHARSET_NAME, "utf8mb4");
    // CLIENT_FOUND_ROWS: an UPDATE reports the rows its WHERE matched, which is what the
    // version check asks, even when the new values equal the old ones.
    if (mysql_real_connect(conn_, target.host.c_str(), target.user.c_str(), password.c_str(),
                           target.database.c_str(), target.port, nullptr,
                           CLIENT_FOUND_ROWS) == nullptr) {
      const unsigned error = mysql_errno(conn_);
      mysql_close(conn_);
      conn_ = nullptr;
      Unavailable(error);
    }
    try {
      // Errors instead of warnings (a value that does not fit is refused, not cut), and no
      // silent fallback from InnoDB to another engine.
      Run("SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION'");
      Run("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED");
      Stmt limit(conn_, "SELECT @@max_allowed_packet");
      max_packet_ = static_cast<std::uint64_t>(ToInt(limit.Query({false}).at(0).at(0)));
    } catch (...) {
      mysql_close(conn_);  // no destructor runs for a constructor that throws
      throw;
    }
  }
  ~MariaDbBackend() override {
    if (conn_ != nullptr) mysql_close(conn_);
  }

  std::optional<StoredRow> ReadRow(std::string_view conversation_id) override {
    Stmt s(conn_,
           "SELECT version, key_id, nonce, ciphertext, updated_at "
           "FROM gemini_oracle_conversations WHERE conversation_id = ?");
    s.Bytes(conversation_id);
    const auto rows = s.Query({false, true, true, true, false});
    if (rows.empty()) return std::nullopt;
    StoredRow row;
    row.conversation_id = std::string(conversation_id);
    row.version = static_cast<std::uint64_t>(ToInt(rows[0][0]));
    row.key_id = rows[0][1];
    row.nonce = rows[0][2];
    row.ciphertext = rows[0][3];
    row.updated_at = ToInt(rows[0][4]);
    return row;
  }

  bool InsertRow(const StoredRow& row) override {
    RequireFits(row);
    return Write([&] {
      Stmt s(conn_,
             "INSERT INTO gemini_oracle_conversations "
             "(conversation_id, version, key_id, nonce, ciphertext, updated_at) "
             "VALUES (?, ?, ?, ?, ?, ?)");
      s.Bytes(row.conversation_id);
      s.Unsigned(row.version);
      s.Text(row.key_id);
      s.Bytes(row.nonce);
      s.Bytes(row.ciphertext);
      s.Int(row.updated_at);
      const unsigned error = s.Execute();
      if (error == ER_DUP_ENTRY) return Outcome::kRefused;
      if (error != 0) return Fail(error);
      return Outcome::kDone;
    });
  }

  bool UpdateRow(const StoredRow& row, std::uint64_t expected_version) override {
    RequireFits(row);
    return Write([&] {
      Stmt s(conn_,
             "UPDATE gemini_oracle_conversations SET "
             "version = ?, key_id = ?, nonce = ?, ciphertext = ?, updated_at = ? "
             "WHERE conversation_id = ? AND version = ?");
      s.Unsigned(row.version);
      s.Text(row.key_id);
      s.Bytes(row.nonce);
      s.Bytes(row.ciphertext);
      s.Int(row.updated_at);
      s.Bytes(row.conversation_id);
      s.Unsigned(expected_version);
      if (const unsigned error = s.Execute()) return Fail(error);
      return s.AffectedRows() == 1 ? Outcome::kDone : Outcome::kRefused;
    });
  }

  std::vector<std::string> ListIds() override {
    Stmt s(conn_, "SELECT conversation_id FROM gemini_oracle_conversations");
    std::vector<std::string> ids;
    for (auto& row : s.Query({true})) ids.push_back(std::move(row[0]));
    return ids;
  }

  int ReadSchemaVersion() override {
    Stmt exists(conn_,
                "SELECT COUNT(*) FROM information_schema.tables "
                "WHERE table_schema = DATABASE() AND table_name = 'gemini_oracle_schema'");
    if (ToInt(exists.Query({false}).at(0).at(0)) == 0) return 0;
    Stmt s(conn_, "SELECT COALESCE(MAX(version), 0) FROM gemini_oracle_schema");
    return static_cast<int>(ToInt(s.Query({false}).at(0).at(0)));
  }

  void ApplyMigration(const SchemaMigration& step) override {
    // DDL commits implicitly in MariaDB, so the step cannot be one transaction with its
    // record; a named lock makes concurrent openers take turns instead, and every statement
    // is harmless when a crash between it and the record makes the next opener run it again.
    const std::string lock = "gemini_oracle_schema:" + database_.substr(0, 40);
    {
      Stmt get(conn_, "SELECT GET_LOCK(?, 60)");
      get.Text(lock);
      const auto rows = get.Query({false});
      if (rows.empty() || rows[0][0] != "1") Unavailable(ER_LOCK_WAIT_TIMEOUT);
    }
    struct Release {
      MYSQL* conn;
      const std::string& lock;
      ~Release() {
        try {
          Stmt release(conn, "SELECT RELEASE_LOCK(?)");
          release.Text(lock);
          release.Query({false});
        } catch (const ProviderError&) {
          // The lock goes with the connection anyway.
        }
      }
    } release{conn_, lock};
    Stmt(conn_, kSchemaTable).ExecuteOrThrow();
    if (ReadSchemaVersion() >= step.version) return;
    for (const auto& sql : step.mariadb) Stmt(conn_, sql).ExecuteOrThrow();
    Stmt record(conn_,
                "INSERT INTO gemini_oracle_schema (version, description, applied_at) "
                "VALUES (?, ?, ?)");
    record.Int(step.version);
    record.Text(step.description);
    record.Int(static_cast<std::int64_t>(std::time(nullptr)));
    record.ExecuteOrThrow();
  }

 private:
  enum class Outcome { kDone, kRefused, kRetry };

  // Throws for an error a retry cannot cure; asks for a retry otherwise.
  static Outcome Fail(unsigned error) {
    if (Retryable(error)) return Outcome::kRetry;
    Unavailable(error);
  }

  // One transaction around `statement`: committed when it is done, rolled back when it is
  // refused (nothing written) or fails; retried after a deadlock.
  template <typename F>
  bool Write(F statement) {
    for (int attempt = 0;; ++attempt) {
      if (mysql_real_query(conn_, "START TRANSACTION", 17) != 0) Unavailable(mysql_errno(conn_));
      Outcome outcome = Outcome::kRetry;
      try {
        outcome = statement();
      } catch (...) {
        mysql_rollback(conn_);
        throw;
      }
      if (outcome == Outcome::kDone) {
        if (mysql_commit(conn_) != 0) {
          const unsigned error = mysql_errno(conn_);
          mysql_rollback(conn_);
          if (Retryable(error) && attempt < kRetries) continue;
          Unavailable(error);
        }
        return true;
      }
      mysql_rollback(conn_);
      if (outcome == Outcome::kRefused) return false;
      if (attempt >= kRetries) Unavailable(ER_LOCK_DEADLOCK);
    }
  }

  void Run(const char* sql) { Stmt(conn_, sql).ExecuteOrThrow(); }

  // A statement larger than the server's max_allowed_packet is not sent: the server would drop
  // the connection (the client then sees error 2006 or 1153, depending on timing). The row's
  // values and a margin for the statement and its framing.
  void RequireFits(const StoredRow& row) const {
    constexpr std::uint64_t kMargin = 4096;
    const std::uint64_t size = row.conversation_id.size() + row.key_id.size() + row.nonce.size() +
                               row.ciphertext.size() + kMargin;
    if (max_packet_ > 0 && size > max_packet_) Unavailable(ER_NET_PACKET_TOO_LARGE);
  }

  MYSQL* conn_;
  std::string database_;
  std::uint64_t max_packet_ = 0;  // the server's max_allowed_packet, read once per connection
};

bool DatabaseNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

bool HostChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
}

}  // namespace

MariaDbTarget ParseMariaDbUrl(std::string_view url) {
  constexpr std::string_view scheme = "mariadb://";
  if (url.substr(0, scheme.size()) != scheme) MalformedUrl("scheme");
  std::string_view rest = url.substr(scheme.size());
  if (rest.find_first_of("?#") != std::string_view::npos) MalformedUrl("query");
  const auto slash = rest.find('/');
  if (slash == std::string_view::npos) MalformedUrl("database");
  const std::string_view authority = rest.substr(0, slash);
  const std::string_view database = rest.substr(slash + 1);
  const auto at = authority.rfind('@');
  if (at == std::string_view::npos) MalformedUrl("user");
  const std::string_view userinfo = authority.substr(0, at);
  // A password in a URL ends up in shell history, process lists and logs: it comes from
  // GEMINI_ORACLE_MARIADB_PASSWORD only.
  if (userinfo.find(':') != std::string_view::npos) MalformedUrl("password");
  MariaDbTarget target;
  target.user = PercentDecode(userinfo, "user");
  if (target.user.empty() || target.user.find('\0') != std::string::npos) MalformedUrl("user");

  std::string_view hostport = authority.substr(at + 1);
  std::string_view port;
  if (!hostport.empty() && hostport.front() == '[') {
    const auto close = hostport.find(']');
    if (close == std::string_view::npos) MalformedUrl("host");
    target.host = std::string(hostport.substr(1, close - 1));
    const std::string_view after = hostport.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') MalformedUrl("host");
      port = after.substr(1);
      if (port.empty()) MalformedUrl("port");
    }
    for (const char c : target.host) {
      if (!std::isxdigit(static_cast<unsigned char>(c)) && c != ':' && c != '.') {
        MalformedUrl("host");
      }
    }
  } else {
    const auto colon = hostport.rfind(':');
    if (colon != std::string_view::npos) {
      port = hostport.substr(colon + 1);
      if (port.empty()) MalformedUrl("port");
      hostport = hostport.substr(0, colon);
    }
    target.host = std::string(hostport);
    for (const char c : target.host) {
      if (!HostChar(c)) MalformedUrl("host");
    }
  }
  if (target.host.empty()) MalformedUrl("host");
  if (!port.empty()) {
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || end != port.data() + port.size() || value == 0 || value > 65535) {
      MalformedUrl("port");
    }
    target.port = value;
  }
  if (database.empty() || database.size() > 64) MalformedUrl("database");
  for (const char c : database) {
    if (!DatabaseNameChar(c)) MalformedUrl("database");
  }
  target.database = std::string(database);
  return target;
}

std::unique_ptr<StoreBackend> OpenMariaDbBackend(const MariaDbTarget& target,
                                                 const std::string& password,
                                                 std::chrono::milliseconds wait_limit) {
  // mysql_init() initializes the library on first use, which is not safe from two threads at
  // once (`run --jobs N` opens stores from several).
  static std::once_flag once;
  static int library = 0;
  std::call_once(once, [] { library = mysql_library_init(0, nullptr, nullptr); });
  if (library != 0) Unavailable(CR_UNKNOWN_ERROR);
  return std::make_unique<MariaDbBackend>(target, password, wait_limit);
}

}  // namespace gemini_oracle::ref
