#include <gtest/gtest.h>

#include "reference_impl/store/sql_backend.h"
#include "reference_impl/store/state_store.h"
#include "tests/reference_impl/store/store_test_support.h"

namespace gemini_oracle::ref::testing {
namespace {

// Reads user, host, port and database from a mariadb:// URL.
TEST(StoreUrl, ParsesMariaDbUrls) {
  MariaDbTarget t = ParseMariaDbUrl("mariadb://gemini_oracle@127.0.0.1:3307/gemini_oracle_test");
  EXPECT_EQ(t.user, "gemini_oracle");
  EXPECT_EQ(t.host, "127.0.0.1");
  EXPECT_EQ(t.port, 3307u);
  EXPECT_EQ(t.database, "gemini_oracle_test");
  t = ParseMariaDbUrl("mariadb://app%40x@db.example-1.internal/state");
  EXPECT_EQ(t.user, "app@x");
  EXPECT_EQ(t.host, "db.example-1.internal");
  EXPECT_EQ(t.port, 3306u);
  t = ParseMariaDbUrl("mariadb://u@[::1]:4000/d");
  EXPECT_EQ(t.host, "::1");
  EXPECT_EQ(t.port, 4000u);
}

// Refuses malformed URLs with url_malformed naming the part at fault, never its value.
TEST(StoreUrl, MalformedUrlsNameThePart) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "scheme"},
      {"postgres://u@h:1/db", "scheme"},
      {"NEEDLE-5e1f", "scheme"},
      {"sqlite:", "path"},
      {"mariadb:/u@h:1/db", "scheme"},
      {"mariadb://u:NEEDLE-5e1f@h:1/db", "password"},
      {"mariadb://u:@h:1/db", "password"},
      {"mariadb://h:1/db", "user"},
      {"mariadb://@h:1/db", "user"},
      {"mariadb://u%4@h:1/db", "user"},
      {"mariadb://u@:1/db", "host"},
      {"mariadb://u@h h:1/db", "host"},
      {"mariadb://u@[::1/db", "host"},
      {"mariadb://u@h:/db", "port"},
      {"mariadb://u@h:0/db", "port"},
      {"mariadb://u@h:65536/db", "port"},
      {"mariadb://u@h:3x/db", "port"},
      {"mariadb://u@h:1", "database"},
      {"mariadb://u@h:1/", "database"},
      {"mariadb://u@h:1/a-b", "database"},
      {"mariadb://u@h:1/a/b", "database"},
      {"mariadb://u@h:1/db?password=NEEDLE-5e1f", "query"},
  };
  for (const auto& [url, part] : cases) {
    const auto error = ErrorOf([&] { OpenStateStore(url, Keyring::Ephemeral()); });
    ASSERT_TRUE(error.has_value()) << url;
    EXPECT_EQ(error->code(), "store.url_malformed") << url;
    EXPECT_EQ(error->position().field, part) << url;
    EXPECT_EQ(std::string(error->what()).find("NEEDLE"), std::string::npos) << error->what();
  }
}

// Removes the password from a URL for messages and reports, and leaves other URLs alone.
TEST(StoreUrl, RedactsPasswords) {
  EXPECT_EQ(RedactedStoreUrl("mariadb://u:secret@h:1/db"), "mariadb://u@h:1/db");
  EXPECT_EQ(RedactedStoreUrl("mariadb://u:p@ss@h:1/db"), "mariadb://u@h:1/db");
  EXPECT_EQ(RedactedStoreUrl("mariadb://u@h:1/db"), "mariadb://u@h:1/db");
  EXPECT_EQ(RedactedStoreUrl("sqlite:/tmp/a:b@c"), "sqlite:/tmp/a:b@c");
  EXPECT_EQ(RedactedStoreUrl("x://h/p@q:r"), "x://h/p@q:r");
}

// Reports a server nobody answers on as unavailable, with the error number only.
TEST(StoreUrl, UnreachableServerIsUnavailable) {
  ::setenv("GEMINI_ORACLE_MARIADB_PASSWORD", "NEEDLE-5e1f", 1);
  const auto error =
      ErrorOf([] { OpenStateStore("mariadb://u@127.0.0.1:1/db", Keyring::Ephemeral()); });
  ::unsetenv("GEMINI_ORACLE_MARIADB_PASSWORD");
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code(), "store.unavailable");
  EXPECT_NE(std::string(error->what()).find("mariadb error 2002"), std::string::npos)
      << error->what();
  EXPECT_EQ(std::string(error->what()).find("NEEDLE"), std::string::npos);
}

}  // namespace
}  // namespace gemini_oracle::ref::testing
