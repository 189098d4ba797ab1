// Crash safety (ADR-226.18): a process killed at a random point while suspending leaves the old
// state or the new one, never a mix. A child suspends in a loop states whose every byte is a
// function of their version; the parent kills it with SIGKILL after a random delay, reopens the
// store, and checks that the row decrypts to exactly the state of its version and that writing
// goes on. Figures only: the iteration count and the time are printed, never asserted.

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <random>

#include "reference_impl/provider_error.h"
#include "tests/reference_impl/store/state_store_suite.h"

namespace gemini_oracle::ref::testing {
namespace {

// About 512 KB of text, every byte derived from the version, so that a mix of two versions (or
// a torn write) cannot decode to the state of either.
ConversationState StateOfVersion(std::uint64_t version) {
  ConversationState state = RichState();
  std::string text(512 * 1024, ' ');
  std::uint64_t x = version * 0x9e3779b97f4a7c15ULL + 1;
  for (std::size_t i = 0; i < text.size(); i += 8) {
    // xorshift64: eight letters per step, cheap enough for an unoptimized build.
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    for (std::size_t b = 0; b < 8 && i + b < text.size(); ++b) {
      text[i + b] = static_cast<char>('a' + ((x >> (8 * b)) & 0xff) % 26);
    }
  }
  state.transcript.messages.push_back(UserMessage("version " + std::to_string(version)));
  state.transcript.messages.push_back(UserMessage(std::move(text)));
  state.public_id_counter = version;
  return state;
}

std::uint64_t Seed() {
  if (const char* fixed = std::getenv("GEMINI_ORACLE_CRASH_SEED"); fixed && *fixed) {
    return std::strtoull(fixed, nullptr, 10);
  }
  return std::random_device{}();
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Kills a suspending child at random points; the row is always exactly one version's state.
TEST_P(StateStoreSuite, KilledWriterLeavesOldOrNewState) {
  const int iterations = GetParam().crash_iterations;
  const std::uint64_t seed = Seed();
  std::cout << GetParam().name << " crash test: seed " << seed
            << " (GEMINI_ORACLE_CRASH_SEED=" << seed << " repeats the delays)" << std::endl;
  RecordProperty("seed", std::to_string(seed));
  std::mt19937_64 rng(seed);

  const std::string id = NewConversationId();
  // One suspension's cost on this machine and build: the kills land within the first few
  // writes of each child, so that some hit before, during and between commits.
  std::uint64_t version = 0;
  double write_seconds = 0;
  {
    auto first = Open();  // opening (and migrating) is not part of a write
    const auto timing = std::chrono::steady_clock::now();
    version = first->Suspend(id, StateOfVersion(1), 0);
    write_seconds = SecondsSince(timing);
  }
  std::uniform_real_distribution<double> delay(0.0, 3.0 * write_seconds);

  std::uint64_t advanced = 0;      // kills after which the row had moved on
  std::uint64_t late_commits = 0;  // writes of a killed child that the server finished late
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) {
    int ready[2];
    ASSERT_EQ(pipe(ready), 0);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // The child: its own connection, suspending version after version until it is killed.
      close(ready[0]);
      try {
        auto store = Open();
        std::uint64_t v = store->Resume(id).version;
        ConversationState next = StateOfVersion(v + 1);
        const char byte = 1;
        if (write(ready[1], &byte, 1) != 1) _exit(1);
        for (;;) {
          v = store->Suspend(id, next, v);
          next = StateOfVersion(v + 1);
        }
      } catch (...) {
      }
      _exit(1);  // only an error gets here
    }
    close(ready[1]);
    char byte = 0;
    const bool started = read(ready[0], &byte, 1) == 1;  // the first write is about to start
    close(ready[0]);
    if (started) usleep(static_cast<useconds_t>(delay(rng) * 1e6));
    kill(pid, SIGKILL);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(started && WIFSIGNALED(status)) << "the writer failed at iteration " << i;

    auto store = Open();
    // A server may still finish the killed writer's last statement after the kill (MariaDB
    // runs a COMMIT already received from a client it has not yet seen go): the parent's write
    // may then conflict with that late commit. The row is read again and must again hold
    // exactly one version's state; a conflict that persists is a failure.
    for (int attempt = 0;; ++attempt) {
      const ResumedState resumed = store->Resume(id);
      ASSERT_GE(resumed.version, version) << "a committed version was lost at iteration " << i;
      // Exactly the state of the version the row claims: old or new, never a mix.
      ASSERT_TRUE(EncodeState(resumed.state) == EncodeState(StateOfVersion(resumed.version)))
          << "the row of version " << resumed.version << " holds another state, iteration " << i;
      if (attempt == 0 && resumed.version > version) ++advanced;
      // Writing goes on after the crash.
      try {
        version = store->Suspend(id, StateOfVersion(resumed.version + 1), resumed.version);
        break;
      } catch (const ProviderError& e) {
        ASSERT_EQ(e.code(), "store.conflict") << "iteration " << i;
        ASSERT_LT(attempt, 20) << "the row kept moving after the writer was killed, iteration "
                               << i;
        ++late_commits;
        usleep(10000);
      }
    }
  }
  const double seconds = SecondsSince(start);
  // The kills must have landed among the writes, not all before them: some after a child's
  // commit. And, over enough iterations, some before any (a chance of (2/3)^n to miss).
  EXPECT_GT(advanced, 0u) << "no kill landed after a committed write";
  if (iterations >= 100) {
    EXPECT_LT(advanced, static_cast<std::uint64_t>(iterations))
        << "every kill landed after a committed write";
  }
  RecordProperty("iterations", iterations);
  RecordProperty("iterations_with_progress", static_cast<int>(advanced));
  RecordProperty("late_commits", static_cast<int>(late_commits));
  RecordProperty("final_version", std::to_string(version));
  RecordProperty("seconds", std::to_string(seconds));
  RecordProperty("write_seconds", std::to_string(write_seconds));
  std::cout << GetParam().name << " crash test: " << iterations << " kills in " << seconds
            << " s; the child had committed at least one write before " << advanced << " of them; "
            << late_commits << " late commits of a killed writer; final version " << version
            << "; one write took " << write_seconds << " s" << std::endl;
}

}  // namespace
}  // namespace gemini_oracle::ref::testing
