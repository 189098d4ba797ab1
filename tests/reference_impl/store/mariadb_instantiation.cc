// The store suite on MariaDB: a database of its own per test on the throwaway server that
// ctest's `mariadb` fixture starts (tests/mariadb_settings.h; ctest label mariadb).

#include <mysql.h>

#include "tests/mariadb_settings.h"
#include "tests/reference_impl/store/state_store_suite.h"

namespace gemini_oracle::ref::testing {
namespace {

using gemini_oracle::testing::LoadMariaDbSettings;
using gemini_oracle::testing::MariaDbSettings;

gemini_oracle::testing::MariaDbSettings RequireSettings() {
  std::string why;
  auto settings = LoadMariaDbSettings(&why);
  if (!settings) throw LocationUnavailable(why);
  settings->ExportPassword();
  return *settings;
}

// One SQL statement as the test user on the test database, over the server's socket.
void RunSql(const MariaDbSettings& s, const std::string& sql) {
  MYSQL* conn = mysql_init(nullptr);
  if (mysql_real_connect(conn, "localhost", s.user.c_str(), s.password.c_str(), s.database.c_str(),
                         0, s.socket.c_str(), 0) == nullptr ||
      mysql_real_query(conn, sql.data(), sql.size()) != 0) {
    const std::string error = mysql_error(conn);
    mysql_close(conn);
    throw LocationUnavailable("MariaDB: " + error);
  }
  mysql_close(conn);
}

// A database named gemini_oracle_test_<random>, dropped at the end (the test user may create
// those: scripts/mariadb grants them).
class MariaDbLocation : public StoreLocation {
 public:
  MariaDbLocation()
      : settings_(RequireSettings()), database_(settings_.database + "_" + RandomHex(12)) {
    RunSql(settings_, "CREATE DATABASE " + database_);
  }
  ~MariaDbLocation() override {
    try {
      RunSql(settings_, "DROP DATABASE IF EXISTS " + database_);
    } catch (const LocationUnavailable&) {
      // The server is gone; so is the database.
    }
  }
  std::string Url() const override { return settings_.StoreUrl(database_); }
  const MariaDbSettings& settings() const { return settings_; }

 private:
  MariaDbSettings settings_;
  std::string database_;
};

INSTANTIATE_TEST_SUITE_P(Backends, StateStoreSuite,
                         ::testing::Values(BackendParam{
                             "MariaDb", [] { return std::make_unique<MariaDbLocation>(); },
                             /*crash_iterations=*/20}),
                         ParamName);

class MariaDbStore : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      location_ = std::make_unique<MariaDbLocation>();
    } catch (const LocationUnavailable& e) {
      if (gemini_oracle::testing::MariaDbRequired()) {
        FAIL() << e.what() << ". " << gemini_oracle::testing::kMariaDbRequiredHint;
      }
      GTEST_SKIP() << e.what();
    }
  }
  std::unique_ptr<MariaDbLocation> location_;
};

// Creates both tables as InnoDB with binary ids and a LONGBLOB ciphertext.
TEST_F(MariaDbStore, TablesAreInnoDb) {
  OpenStateStore(location_->Url(), Keyring::Ephemeral());
  const std::string db = location_->Url().substr(location_->Url().rfind('/') + 1);
  const auto& s = location_->settings();
  MYSQL* conn = mysql_init(nullptr);
  ASSERT_NE(mysql_real_connect(conn, "localhost", s.user.c_str(), s.password.c_str(), db.c_str(), 0,
                               s.socket.c_str(), 0),
            nullptr);
  const std::string sql =
      "SELECT table_name, engine FROM information_schema.tables WHERE table_schema = DATABASE() "
      "ORDER BY table_name";
  ASSERT_EQ(mysql_real_query(conn, sql.data(), sql.size()), 0) << mysql_error(conn);
  MYSQL_RES* res = mysql_store_result(conn);
  std::vector<std::string> tables;
  while (MYSQL_ROW row = mysql_fetch_row(res)) tables.push_back(std::string(row[0]) + " " + row[1]);
  mysql_free_result(res);
  const std::string columns =
      "SELECT column_name, column_type FROM information_schema.columns WHERE table_schema = "
      "DATABASE() AND table_name = 'gemini_oracle_conversations' ORDER BY ordinal_position";
  ASSERT_EQ(mysql_real_query(conn, columns.data(), columns.size()), 0) << mysql_error(conn);
  res = mysql_store_result(conn);
  std::vector<std::string> types;
  while (MYSQL_ROW row = mysql_fetch_row(res)) types.push_back(std::string(row[0]) + " " + row[1]);
  mysql_free_result(res);
  mysql_close(conn);
  EXPECT_EQ(tables, (std::vector<std::string>{"gemini_oracle_conversations InnoDB",
                                              "gemini_oracle_schema InnoDB"}));
  EXPECT_EQ(types, (std::vector<std::string>{"conversation_id varbinary(255)",
                                             "version bigint(20) unsigned", "key_id varchar(64)",
                                             "nonce varbinary(24)", "ciphertext longblob",
                                             "updated_at bigint(20)"}));
}

// Refuses a wrong password as unavailable, naming neither password nor server message.
TEST_F(MariaDbStore, WrongPasswordIsUnavailable) {
  const std::string url = location_->Url();
  ::setenv("GEMINI_ORACLE_MARIADB_PASSWORD", "NEEDLE-5e1f-wrong", 1);
  const auto error = ErrorOf([&] { OpenStateStore(url, Keyring::Ephemeral()); });
  location_->settings().ExportPassword();
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code(), "store.unavailable");
  EXPECT_EQ(std::string(error->what()).find("NEEDLE"), std::string::npos) << error->what();
  EXPECT_NE(std::string(error->what()).find("mariadb error 1045"), std::string::npos)
      << error->what();
}

// Refuses a database that does not exist as unavailable.
TEST_F(MariaDbStore, MissingDatabaseIsUnavailable) {
  const auto& s = location_->settings();
  EXPECT_EQ(CodeOf([&] {
              OpenStateStore(s.StoreUrl(s.database + "_missing_" + RandomHex(6)),
                             Keyring::Ephemeral());
            }),
            "store.unavailable");
}

}  // namespace
}  // namespace gemini_oracle::ref::testing
