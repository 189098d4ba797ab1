// Proves that the throwaway MariaDB server (scripts/mariadb) is usable for binary state: a
// LONGBLOB written through a prepared statement reads back byte for byte.

#include <gtest/gtest.h>
#include <mysql.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tests/mariadb_settings.h"

namespace gemini_oracle {
namespace {

struct ConnectionCloser {
  void operator()(MYSQL* c) const { mysql_close(c); }
};
struct StatementCloser {
  void operator()(MYSQL_STMT* s) const { mysql_stmt_close(s); }
};
using Connection = std::unique_ptr<MYSQL, ConnectionCloser>;
using Statement = std::unique_ptr<MYSQL_STMT, StatementCloser>;

class MariaDbSmoke : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string missing;
    settings_ = testing::LoadMariaDbSettings(&missing);
    if (!settings_) {
      if (testing::MariaDbRequired()) {
        FAIL() << testing::kMariaDbRequiredHint << " (" << missing << ")";
      }
      GTEST_SKIP() << missing << ". " << testing::kMariaDbRequiredHint;
    }
    const auto& settings = settings_;
    conn_.reset(mysql_init(nullptr));
    ASSERT_NE(conn_, nullptr);
    // "localhost" plus a socket path: the connector uses the Unix socket, not TCP.
    ASSERT_NE(mysql_real_connect(conn_.get(), "localhost", settings->user.c_str(),
                                 settings->password.c_str(), settings->database.c_str(), 0,
                                 settings->socket.c_str(), 0),
              nullptr)
        << mysql_error(conn_.get());
    ASSERT_EQ(mysql_set_character_set(conn_.get(), "utf8mb4"), 0) << mysql_error(conn_.get());
    // Unique per process, so that parallel test runs sharing the database do not collide.
    table_ = "smoke_blob_" + std::to_string(::getpid());
  }

  void TearDown() override {
    if (conn_ && !table_.empty()) {
      Exec("DROP TABLE IF EXISTS " + table_);  // also after a failed assertion
    }
  }

  ::testing::AssertionResult Exec(const std::string& sql) {
    if (mysql_real_query(conn_.get(), sql.data(), sql.size()) == 0) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << sql << ": " << mysql_error(conn_.get());
  }

  Statement Prepare(const std::string& sql) {
    Statement stmt(mysql_stmt_init(conn_.get()));
    if (!stmt) {
      ADD_FAILURE() << "mysql_stmt_init: " << mysql_error(conn_.get());
      return stmt;
    }
    if (mysql_stmt_prepare(stmt.get(), sql.data(), sql.size()) != 0) {
      ADD_FAILURE() << sql << ": " << mysql_stmt_error(stmt.get());
      stmt.reset();
    }
    return stmt;
  }

  // INSERT (id, data) through a prepared statement with the bytes bound as a LONGBLOB.
  ::testing::AssertionResult Insert(int id, const std::string& bytes) {
    Statement stmt = Prepare("INSERT INTO " + table_ + " (id, data) VALUES (?, ?)");
    if (!stmt) return ::testing::AssertionFailure() << "prepare failed";
    MYSQL_BIND params[2] = {};
    params[0].buffer_type = MYSQL_TYPE_LONG;
    params[0].buffer = &id;
    unsigned long length = bytes.size();
    params[1].buffer_type = MYSQL_TYPE_LONG_BLOB;
    params[1].buffer = const_cast<char*>(bytes.data());
    params[1].buffer_length = bytes.size();
    params[1].length = &length;
    if (mysql_stmt_bind_param(stmt.get(), params) != 0 || mysql_stmt_execute(stmt.get()) != 0) {
      return ::testing::AssertionFailure() << mysql_stmt_error(stmt.get());
    }
    if (mysql_stmt_affected_rows(stmt.get()) != 1) {
      return ::testing::AssertionFailure() << "not one row inserted";
    }
    return ::testing::AssertionSuccess();
  }

  // SELECT data WHERE id = ? through a prepared statement; nullopt for SQL NULL or no row.
  std::optional<std::string> Read(int id) {
    Statement stmt = Prepare("SELECT data FROM " + table_ + " WHERE id = ?");
    if (!stmt) return std::nullopt;
    MYSQL_BIND param = {};
    param.buffer_type = MYSQL_TYPE_LONG;
    param.buffer = &id;
    if (mysql_stmt_bind_param(stmt.get(), &param) != 0 || mysql_stmt_execute(stmt.get()) != 0 ||
        mysql_stmt_store_result(stmt.get()) != 0) {
      ADD_FAILURE() << mysql_stmt_error(stmt.get());
      return std::nullopt;
    }
    // First fetch with no buffer to learn the length, then fetch the column itself.
    unsigned long length = 0;
    my_bool is_null = 0;
    MYSQL_BIND result = {};
    result.buffer_type = MYSQL_TYPE_LONG_BLOB;
    result.length = &length;
    result.is_null = &is_null;
    if (mysql_stmt_bind_result(stmt.get(), &result) != 0) {
      ADD_FAILURE() << mysql_stmt_error(stmt.get());
      return std::nullopt;
    }
    const int fetched = mysql_stmt_fetch(stmt.get());
    if (fetched == MYSQL_NO_DATA) return std::nullopt;
    if (fetched != 0 && fetched != MYSQL_DATA_TRUNCATED) {
      ADD_FAILURE() << "fetch: " << mysql_stmt_error(stmt.get());
      return std::nullopt;
    }
    if (is_null) return std::nullopt;
    std::string bytes(length, '\0');
    if (length > 0) {
      result.buffer = bytes.data();
      result.buffer_length = length;
      if (mysql_stmt_fetch_column(stmt.get(), &result, 0, 0) != 0) {
        ADD_FAILURE() << "fetch column: " << mysql_stmt_error(stmt.get());
        return std::nullopt;
      }
    }
    EXPECT_EQ(mysql_stmt_fetch(stmt.get()), MYSQL_NO_DATA) << "more than one row";
    return bytes;
  }

  std::optional<testing::MariaDbSettings> settings_;
  Connection conn_;
  std::string table_;
};

// Connects over the Unix socket the script exported, as the test user, to the test database.
TEST_F(MariaDbSmoke, ConnectsOverTheSocket) {
  EXPECT_NE(std::string(mysql_get_host_info(conn_.get())).find("socket"), std::string::npos)
      << mysql_get_host_info(conn_.get());
  ASSERT_TRUE(Exec("SELECT DATABASE(), CURRENT_USER()"));
  MYSQL_RES* res = mysql_store_result(conn_.get());
  ASSERT_NE(res, nullptr);
  MYSQL_ROW row = mysql_fetch_row(res);
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(std::string(row[0]), settings_->database);
  EXPECT_EQ(std::string(row[1]).rfind(settings_->user + "@", 0), 0u) << row[1];
  mysql_free_result(res);
}

// Stores bytes with NUL and 0xFF in a LONGBLOB and reads them back identical; empty stays empty.
TEST_F(MariaDbSmoke, LongBlobRoundTripsArbitraryBytes) {
  ASSERT_TRUE(
      Exec("CREATE TABLE " + table_ + " (id INT PRIMARY KEY, data LONGBLOB NULL) ENGINE=InnoDB"));
  std::string bytes("\0\xff\0\xff\xff\0", 6);
  for (int round = 0; round < 2; ++round) {
    for (int b = 0; b < 256; ++b) bytes.push_back(static_cast<char>(b));
  }
  // Larger than one network packet chunk, with a pattern that shifts every byte value around.
  for (int i = 0; i < 300000; ++i) bytes.push_back(static_cast<char>((i * 131 + i / 256) & 0xff));
  bytes.append("\xff\0", 2);

  ASSERT_TRUE(Insert(1, bytes));
  ASSERT_TRUE(Insert(2, std::string()));
  ASSERT_TRUE(Exec("INSERT INTO " + table_ + " (id, data) VALUES (3, NULL)"));

  const auto back = Read(1);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->size(), bytes.size());
  EXPECT_TRUE(*back == bytes) << "the bytes read back differ";
  EXPECT_EQ(Read(2), std::optional<std::string>(std::string()));
  EXPECT_EQ(Read(3), std::nullopt);

  ASSERT_TRUE(Exec("DROP TABLE " + table_));
  EXPECT_FALSE(Exec("SELECT 1 FROM " + table_));
}

}  // namespace
}  // namespace gemini_oracle
