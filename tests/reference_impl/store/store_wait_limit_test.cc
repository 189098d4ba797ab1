// A store that stops answering holds a call no longer than the limit it was opened with (the
// case time limit under `run`): a MariaDB server that greets and then never answers (a "black
// hole" this test opens), and an SQLite lock another connection keeps.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <cstdio>

#include "reference_impl/store/state_store.h"
#include "tests/mariadb_black_hole.h"
#include "tests/reference_impl/store/store_test_support.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::ref::testing {
namespace {

using Clock = std::chrono::steady_clock;
using gemini_oracle::testing::BlackHole;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Without the limit, the login waits out the 120 s read timeout.
TEST(StoreWaitLimit, MariaDbThatStopsAnsweringFailsWithinTheLimit) {
  BlackHole server;
  const auto start = Clock::now();
  const auto error = ErrorOf([&] {
    OpenStateStore(server.Url(), Keyring::Ephemeral(), StoreOpening::kCreateWhenMissing,
                   std::chrono::seconds(1));
  });
  const double took = SecondsSince(start);
  std::printf("mariadb black hole, limit 1 s: failed after %.2f s\n", took);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code(), "store.unavailable");
  EXPECT_LT(took, 30.0);  // ends at all; the defect took 120 s
}

// Without the limit, a write waits 30 s for the lock.
TEST(StoreWaitLimit, SqliteLockHeldElsewhereFailsWithinTheLimit) {
  gemini_oracle::testing::TempDir dir;
  const std::string path = (dir.path() / "state.sqlite3").string();
  auto store = OpenStateStore("sqlite:" + path, Keyring::Ephemeral(),
                              StoreOpening::kCreateWhenMissing, std::chrono::seconds(1));
  sqlite3* holder = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &holder), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(holder, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  const auto start = Clock::now();
  const std::string code = CodeOf([&] { store->Suspend("conversation-1", RichState(), 0); });
  const double took = SecondsSince(start);
  std::printf("sqlite lock held elsewhere, limit 1 s: failed after %.2f s\n", took);
  sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(holder);
  EXPECT_EQ(code, "store.unavailable");
  EXPECT_LT(took, 10.0);  // ends at all; the defect took 30 s
}

}  // namespace
}  // namespace gemini_oracle::ref::testing
