// The store suite on SQLite: a file in a fresh temp folder per test (ctest label unit).

#include <sys/wait.h>
#include <unistd.h>

#include <iostream>
#include <vector>

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

// Takes everything after "sqlite:" as a literal path: "file:...?mode=memory" is a file of that
// very name in the working folder, never an SQLite URI whose query makes an in-memory database,
// and ":memory:" is a file too; what is suspended there is read back by a new opening.
TEST(SqliteStore, PathIsNeverAnSqliteUri) {
  gemini_oracle::testing::TempDir dir;
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  for (const std::string path : {"file:x.db?mode=memory", "file:y.db?nolock=1", ":memory:"}) {
    const Keyring keyring = Keyring::FromKeys({Keyring::NewKey()});
    OpenStateStore("sqlite:" + path, keyring)->Suspend("c", ConversationState{}, 0);
    EXPECT_TRUE(std::filesystem::is_regular_file(dir.path() / path)) << path;
    EXPECT_EQ(OpenStateStore("sqlite:" + path, keyring, StoreOpening::kExistingOnly)
                  ->ConversationIds()
                  .size(),
              1u)
        << path;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "x.db"));
  std::filesystem::current_path(cwd);
}

// Refuses a file that is not a database, without changing it.
TEST(SqliteStore, NotADatabaseIsUnavailable) {
  gemini_oracle::testing::TempDir dir;
  const auto file = dir.Write("junk.sqlite3", std::string(4096, 'j'));
  EXPECT_EQ(CodeOf([&] { OpenStateStore("sqlite:" + file.string(), Keyring::Ephemeral()); }),
            "store.unavailable");
  EXPECT_EQ(gemini_oracle::testing::ReadText(file), std::string(4096, 'j'));
}

// Opens a file no one has opened yet from several processes released at the same moment, many
// times over: the first opens race to switch the journal to WAL and to migrate, and each must
// wait for the others (never "store.unavailable": database is locked).
TEST(SqliteStore, ProcessesOpeningANewFileAtOnceAllSucceed) {
  constexpr int kRounds = 40;
  constexpr int kProcesses = 4;
  int failed_rounds = 0;
  for (int round = 0; round < kRounds; ++round) {
    gemini_oracle::testing::TempDir dir;
    const std::string url = "sqlite:" + (dir.path() / "fresh.sqlite3").string();
    int start[2];
    ASSERT_EQ(pipe(start), 0);
    std::vector<pid_t> children;
    for (int p = 0; p < kProcesses; ++p) {
      const pid_t pid = fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) {
        close(start[1]);
        char go = 0;
        if (read(start[0], &go, 1) < 0) _exit(3);  // released when the parent closes the pipe
        int status = 0;
        try {
          auto store = OpenStateStore(url, Keyring::Ephemeral());
          const std::string id = "writer-" + std::to_string(p);
          store->Suspend(id, ConversationState{}, 0);
          store->Resume(id);
        } catch (const std::exception& e) {
          std::cerr << "round " << round << ", writer " << p << ": " << e.what() << "\n";
          status = 1;
        }
        _exit(status);
      }
      children.push_back(pid);
    }
    close(start[0]);
    close(start[1]);  // every child's read returns now
    bool round_failed = false;
    for (const pid_t pid : children) {
      int status = 0;
      ASSERT_EQ(waitpid(pid, &status, 0), pid);
      round_failed |= !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    failed_rounds += round_failed ? 1 : 0;
    EXPECT_EQ(OpenStateStore(url, Keyring::Ephemeral())->ConversationIds().size(),
              static_cast<std::size_t>(kProcesses));
  }
  EXPECT_EQ(failed_rounds, 0) << "of " << kRounds << " rounds";
}

}  // namespace
}  // namespace gemini_oracle::ref::testing
