// The store suite on SQLite: a file in a fresh temp folder per test (ctest label unit).

#include "tests/reference_impl/store/state_store_suite.h"

namespace gemini_oracle::ref::testing {
namespace {

INSTANTIATE_TEST_SUITE_P(Backends, StateStoreSuite,
                         ::testing::Values(BackendParam{
                             "Sqlite", [] { return std::make_unique<SqliteLocation>(); },
                             /*crash_iterations=*/200}),
                         ParamName);

// Creates the file and its folder entry when missing, and refuses a folder that does not exist.
TEST(SqliteStore, CreatesTheFileButNotItsFolder) {
  gemini_oracle::testing::TempDir dir;
  const auto file = dir.path() / "new.sqlite3";
  auto store = OpenStateStore("sqlite:" + file.string(), Keyring::Ephemeral());
  EXPECT_TRUE(std::filesystem::exists(file));
  EXPECT_EQ(store->SchemaVersion(), kStateSchemaVersion);
  EXPECT_EQ(CodeOf([&] {
              OpenStateStore("sqlite:" + (dir.path() / "missing" / "x.sqlite3").string(),
                             Keyring::Ephemeral());
            }),
            "store.unavailable");
}

// Refuses a file that is not a database, without changing it.
TEST(SqliteStore, NotADatabaseIsUnavailable) {
  gemini_oracle::testing::TempDir dir;
  const auto file = dir.Write("junk.sqlite3", std::string(4096, 'j'));
  EXPECT_EQ(CodeOf([&] { OpenStateStore("sqlite:" + file.string(), Keyring::Ephemeral()); }),
            "store.unavailable");
  EXPECT_EQ(gemini_oracle::testing::ReadText(file), std::string(4096, 'j'));
}

}  // namespace
}  // namespace gemini_oracle::ref::testing
