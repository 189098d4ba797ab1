#pragma once
// The subcommands of gemini-oracle. Each returns the process exit status, whose bits are:
// 1 conformance failure, 2 harness error, 4 bad fixture or usage.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace gemini_oracle::cli {

inline constexpr int kExitConformance = 1;
inline constexpr int kExitHarness = 2;
inline constexpr int kExitBadInput = 4;

/// Where fixtures/, oracles/clauses.json and fixtures/case.schema.json live.
std::filesystem::path DefaultSourceRoot();

/// A path as the user would type it: relative to the working folder when inside it.
std::string DisplayPath(const std::filesystem::path& path);

struct RunArgs {
  std::filesystem::path source_root;
  std::filesystem::path fixtures;    // default <source_root>/fixtures
  std::filesystem::path report_dir;  // default reports/latest
  std::string filter;
  bool strict = false;
  std::string profile = "adr";  // checks::Profile: adr | gemini
  unsigned jobs = 1;
  /// "i/n"; empty: the test runner's TEST_SHARD_INDEX (0-based) and TEST_TOTAL_SHARDS, as
  /// Bazel sets them, else 1/1.
  std::string shard;
  bool fail_fast = false;
  std::optional<std::size_t> max_fail;
  std::optional<std::uint64_t> seed;              // default: from the clock, printed
  std::chrono::milliseconds case_timeout{60000};  // 0: no limit
  bool keep_requests = false;                     // request bodies of every case in the reports
  bool progress = false;                          // one-line display (on a terminal)
  bool twins = true;  // each case's streamed twins run too (INTERPRETING §5.5)
  /// The fault to run under (mutants builds only; empty: GEMINI_ORACLE_FAULT, else none).
  std::string fault;
  /// A state store URL (sqlite:PATH, mariadb://USER@HOST:PORT/DB): every conversation is
  /// suspended after every turn and resumed in a fresh adapter object (docs/state-store.md).
  std::string store;
  /// The key file for `store`; empty: GEMINI_ORACLE_STATE_KEY_FILE / GEMINI_ORACLE_STATE_KEY,
  /// else an ephemeral key.
  std::filesystem::path store_key_file;
  /// The implementation: "builtin" (the in-process reference) or a driver command speaking the
  /// driver protocol (fixtures/INTERPRETING.md §15), run by /bin/sh -c.
  std::string impl = "builtin";
  /// The implementation's known failures (INTERPRETING §15.3); empty: none.
  std::filesystem::path expect;
  /// A driver's error classes mapped to the catalogue's codes (INTERPRETING §15.4); only with
  /// a driver that lacks the typed-errors capability.
  std::filesystem::path error_map;
};
int RunCommand(const RunArgs& args, std::ostream& out, std::ostream& err);

/// `gemini-oracle serve`: the corpus as an HTTP API (INTERPRETING §15.5) until SIGINT/SIGTERM.
struct ServeArgs {
  std::filesystem::path source_root;
  std::filesystem::path fixtures;
  std::filesystem::path report_dir = "reports/serve";
  std::string host = "127.0.0.1";
  int port = 0;  // 0: any free port (printed)
  unsigned jobs = 1;
  std::chrono::milliseconds case_timeout{0};
  std::uint64_t seed = 1;
  std::size_t max_runs = 8;  // runs open at once
  std::chrono::seconds run_idle{1800};  // an idle open run is closed to make room; 0: never
};
int ServeCommand(const ServeArgs& args, std::ostream& out, std::ostream& err);

/// `gemini-oracle store keygen|rekey|info`: key material and maintenance of a state store.
struct StoreArgs {
  std::string action;  // keygen, rekey, info
  std::string store;   // URL (rekey, info)
  std::filesystem::path key_file;  // empty: the environment (docs/state-store.md)
  std::filesystem::path out{};     // keygen: a new key file (mode 600) instead of stdout
};
int StoreCommand(const StoreArgs& args, std::ostream& out, std::ostream& err);

struct CheckArgs {
  std::filesystem::path source_root;
  std::filesystem::path fixtures;
  std::vector<std::filesystem::path> paths;  // empty: the whole corpus
};
int CheckCommand(const CheckArgs& args, std::ostream& out, std::ostream& err);

struct ClausesArgs {
  std::filesystem::path source_root;
  std::filesystem::path fixtures;
  bool json = false;
  /// The mutation report (mutants.json) whose kills prove the clauses' oracles; when it is
  /// missing or older than the sources, no clause counts as proven.
  std::filesystem::path mutants_report = "reports/latest/mutants.json";
  /// Named with --mutants: then a report that proves nothing (missing, stale, filtered,
  /// stopped) is an error, not a note.
  bool mutants_report_given = false;
};
int ClausesCommand(const ClausesArgs& args, std::ostream& out, std::ostream& err);

/// `gemini-oracle generate`: writes generated scenarios as ordinary case files.
/// The most cases of one family a command writes: more is a usage error, not a disk filled.
inline constexpr std::size_t kMaxGenerateCount = 100000;
struct GenerateArgs {
  std::uint64_t seed = 1;
  std::size_t count = 1;
  std::filesystem::path out;
  std::string family = "all";  // "all" or one family: parallel_calls, conversation, call_pieces
};
int GenerateCommand(const GenerateArgs& args, std::ostream& out, std::ostream& err);

struct MutantsArgs {
  std::filesystem::path source_root;
  std::filesystem::path fixtures;
  std::filesystem::path report_dir = "reports/latest";
  std::filesystem::path catalogue;   // default <source_root>/mutants/catalogue.json
  std::vector<std::string> filters;  // fault ids, group prefixes ("parser.") or globs
  unsigned jobs = 1;                 // fault runs at once
  std::uint64_t seed = 1;
  std::chrono::milliseconds case_timeout{20000};
  std::chrono::milliseconds fault_timeout{0};  // one fault run; 0: derived from the baseline
  /// Turns a fault on in a fault run's process; empty: ref::fault::SetActive. Tests swap in
  /// a switch that does nothing to prove the canary catches it.
  std::function<void(const std::string&)> activate;
};
/// Exit status: 0 clean; 1 a non-equivalent fault not killed, or a problem (a bug case not
/// killing its fault, a fault killed off its clauses, an unproven must-clause); 2 the baseline
/// failed, the canary survived, or a fault run crashed or hung; 4 bad usage or input.
int MutantsCommand(const MutantsArgs& args, std::ostream& out, std::ostream& err);

}  // namespace gemini_oracle::cli
