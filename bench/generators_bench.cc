// Prints what the generators cost and how fast generated cases are judged, next to the
// hand-written corpus:
//   - drawing a scenario and writing its case file, in process, per family (scenarios/s);
//   - `gemini-oracle generate --count 10000` per family (seconds; target under 5 s), next to the
//     cost of creating as many files of the same sizes, which the disk alone sets;
//   - generated cases run as one batch through the capture server and the judges (cases/s and
//     exchanges/s), against the corpus run the same way (target: at least half its rate);
//   - generated cases run one at a time as the properties run them (a fresh runner and capture
//     server per scenario): the rate a property reaches.
//
//   build/bin/generators_bench [--count N] [--rounds R] [--seed S] [--source-root DIR]
//                              [--out-dir DIR]
//
// Figures only; targets are read by people, never asserted. Medians over the rounds.

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <unistd.h>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "apps/gemini-oracle/commands.h"
#include "generators/call_pieces.h"
#include "generators/conversation.h"
#include "generators/parallel_calls.h"
#include "oracles/runner/case_loader.h"
#include "oracles/runner/reference_driver.h"
#include "oracles/runner/suite_runner.h"

namespace runner = gemini_oracle::runner;
namespace generators = gemini_oracle::generators;
using Clock = std::chrono::steady_clock;

namespace {

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

template <typename Draw>
double ScenariosPerSecond(Draw draw, std::size_t count, int rounds) {
  std::vector<double> rates;
  for (int r = 0; r < rounds; ++r) {
    std::size_t bytes = 0;
    const auto start = Clock::now();
    for (std::size_t i = 0; i < count; ++i) {
      bytes += draw(rc::Random(rc::Random::Key{7, i, 0x62656e, static_cast<std::uint64_t>(r)}))
                   .dump(2)
                   .size();
    }
    rates.push_back(static_cast<double>(count) / Seconds(Clock::now() - start));
    if (bytes == 0) std::cerr << "nothing written\n";
  }
  return Median(rates);
}

struct RunFigures {
  double seconds = 0;
  std::size_t cases = 0, exchanges = 0, passed = 0;
};

RunFigures RunBatch(const std::vector<runner::Case>& cases, const runner::ClauseRegistry& registry,
                    unsigned jobs, int rounds) {
  RunFigures f;
  std::vector<double> totals;
  for (int r = 0; r < rounds; ++r) {
    runner::SuiteOptions options;
    options.jobs = jobs;
    options.seed = 1;
    options.beyond_gates = true;
    const auto start = Clock::now();
    const auto results = runner::RunSuite(
        cases, registry, [] { return std::make_unique<runner::ReferenceDriver>(); }, options);
    totals.push_back(Seconds(Clock::now() - start));
    f.exchanges = f.passed = 0;
    for (const auto& result : results) {
      f.exchanges += result.value("requests", 0);
      f.passed += result.value("verdict", "") == "pass" ? 1 : 0;
    }
    f.cases = results.size();
  }
  f.seconds = Median(totals);
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t count = 1000;
  int rounds = 5;
  std::uint64_t seed = 20260401;
  std::filesystem::path root = GEMINI_ORACLE_DEFAULT_SOURCE_DIR;
  if (const char* env = std::getenv("GEMINI_ORACLE_SOURCE_DIR"); env && *env) root = env;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--count") == 0) count = std::max(1, std::atoi(argv[i + 1]));
    if (std::strcmp(argv[i], "--rounds") == 0) rounds = std::max(1, std::atoi(argv[i + 1]));
    if (std::strcmp(argv[i], "--seed") == 0) seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (std::strcmp(argv[i], "--source-root") == 0) root = argv[i + 1];
  }
  std::cout << std::fixed << std::setprecision(0);
  std::cout << "seed " << seed << ", " << count << " scenarios per family, median of " << rounds
            << " rounds\n";

  // Drawing and writing, in process.
  const double parallel_rate = ScenariosPerSecond(
      [](const rc::Random& random) {
        const auto s = generators::genParallelCallsScenario()(random, 30).value();
        return generators::ParallelCallsCase(s, 7, 0);
      },
      count, rounds);
  const double conversation_rate = ScenariosPerSecond(
      [](const rc::Random& random) {
        const auto s = generators::genConversationScenario()(random, 30).value();
        return generators::ConversationCase(s, 7, 0);
      },
      count, rounds);
  const double call_pieces_rate = ScenariosPerSecond(
      [](const rc::Random& random) {
        const auto s = generators::genCallPiecesScenario()(random, 30).value();
        return generators::CallPiecesCase(s, 7, 0);
      },
      count, rounds);
  std::cout << "drawn and written, in process (no HTTP): parallel_calls " << parallel_rate
            << " scenarios/s, conversation " << conversation_rate << " scenarios/s, call_pieces "
            << call_pieces_rate << " scenarios/s\n";

  std::filesystem::path out_dir = std::filesystem::temp_directory_path();
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--out-dir") == 0) out_dir = argv[i + 1];
  }
  const auto out = out_dir / ("generators-bench-" + std::to_string(::getpid()));

  // `generate --count 10000` per family, into --out-dir (default: the temporary folder), next
  // to what creating as many files of the same sizes costs on that disk alone.
  for (const std::string family : {"parallel_calls", "conversation", "call_pieces"}) {
    gemini_oracle::cli::GenerateArgs args;
    args.seed = seed;
    args.count = 10000;
    args.out = out;
    args.family = family;
    std::ostringstream sink_out, sink_err;
    const auto start = Clock::now();
    if (gemini_oracle::cli::GenerateCommand(args, sink_out, sink_err) != 0) {
      std::cerr << sink_err.str();
      return 2;
    }
    const double whole = Seconds(Clock::now() - start);
    std::vector<std::pair<std::filesystem::path, std::string>> texts;
    for (const auto& entry : std::filesystem::directory_iterator(out / family)) {
      std::ifstream in(entry.path(), std::ios::binary);
      texts.emplace_back(entry.path().filename(),
                         std::string(std::istreambuf_iterator<char>(in),
                                     std::istreambuf_iterator<char>()));
    }
    std::filesystem::remove_all(out);
    std::filesystem::create_directories(out / "plain");
    const auto files_start = Clock::now();
    for (const auto& [name, text] : texts) {
      std::ofstream(out / "plain" / name, std::ios::binary | std::ios::trunc) << text;
    }
    const double files_only = Seconds(Clock::now() - files_start);
    std::filesystem::remove_all(out);
    std::cout << std::setprecision(2) << "generate --count 10000 --family " << family << ": "
              << whole << " s (target under 5 s); writing the same 10000 files alone: "
              << files_only << " s\n";
  }

  // Generated cases as one batch, against the hand-written corpus.
  {
    gemini_oracle::cli::GenerateArgs args;
    args.seed = seed;
    args.count = count;
    args.out = out;
    std::ostringstream sink_out, sink_err;
    if (gemini_oracle::cli::GenerateCommand(args, sink_out, sink_err) != 0) {
      std::cerr << sink_err.str();
      return 2;
    }
  }
  const auto loader = runner::CaseLoader::FromSourceRoot(root);
  const auto generated = runner::CheckCorpus(out, loader);
  const auto corpus = runner::CheckCorpus(root / "fixtures", loader);
  std::filesystem::remove_all(out);
  std::cout << std::setprecision(0);
  for (const unsigned jobs : {1u, 2u}) {
    const RunFigures g = RunBatch(generated.cases, loader.registry(), jobs, rounds);
    const RunFigures c = RunBatch(corpus.cases, loader.registry(), jobs, rounds);
    const double g_rate = g.cases / g.seconds, c_rate = c.cases / c.seconds;
    const double g_exchanges = g.exchanges / g.seconds, c_exchanges = c.exchanges / c.seconds;
    std::cout << "judged through HTTP, one batch, jobs " << jobs << ": generated " << g.cases
              << " cases (" << g.passed << " passed) " << g_rate << " cases/s, " << g_exchanges
              << " exchanges/s; corpus " << c.cases << " cases " << c_rate << " cases/s, "
              << c_exchanges << " exchanges/s; ratio " << std::setprecision(2)
              << g_rate / c_rate << " per case, " << g_exchanges / c_exchanges
              << " per exchange (target >= 0.5)\n"
              << std::setprecision(0);
  }

  // One at a time, as the properties run them.
  {
    const std::size_t n = std::min<std::size_t>(generated.cases.size(), 200);
    const auto start = Clock::now();
    for (std::size_t i = 0; i < n; ++i) {
      RunBatch(std::vector<runner::Case>{generated.cases[i]}, loader.registry(), 1, 1);
    }
    std::cout << "judged through HTTP, one scenario per run (the properties' way): "
              << n / Seconds(Clock::now() - start) << " scenarios/s\n";
  }
  return 0;
}
