// Prints, side by side, the pipeline's cost per HTTP exchange (load + capture + judge, divided
// by the exchanges made) and a bare cpp-httplib keep-alive POST round trip of the same body
// size, their ratio, and the --jobs 2 over --jobs 1 speed-up.
//
//   build/bin/pipeline_bench [--rounds N] [--source-root DIR]
//
// Figures only; targets are read by people, never asserted.

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "oracles/runner/case_loader.h"
#include "oracles/runner/reference_driver.h"
#include "oracles/runner/suite_runner.h"

namespace runner = gemini_oracle::runner;
using Clock = std::chrono::steady_clock;

namespace {

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

struct SuiteFigures {
  double seconds = 0;       // median wall time of one run
  double load_seconds = 0;  // median time of its loading step
  std::size_t exchanges = 0;
  std::size_t request_bytes = 0;
  std::size_t cases = 0;
};

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Medians over the rounds: one slow round on a shared machine does not move the figure.
SuiteFigures TimeSuite(const std::filesystem::path& root, unsigned jobs, int rounds) {
  SuiteFigures f;
  std::vector<double> totals, loads;
  for (int r = 0; r < rounds; ++r) {
    const auto start = Clock::now();
    const auto loader = runner::CaseLoader::FromSourceRoot(root);
    const auto corpus = runner::CheckCorpus(root / "fixtures", loader, jobs);
    loads.push_back(Seconds(Clock::now() - start));
    runner::SuiteOptions options;
    options.jobs = jobs;
    options.seed = 1;
    const auto results = runner::RunSuite(
        corpus.cases, loader.registry(),
        [] { return std::make_unique<runner::ReferenceDriver>(); }, options);
    totals.push_back(Seconds(Clock::now() - start));
    f.exchanges = 0;
    f.request_bytes = 0;
    for (const auto& result : results) {
      f.exchanges += result.value("requests", 0);
      f.request_bytes += result.value("request_bytes", 0);
    }
    f.cases = corpus.cases.size();
  }
  f.seconds = Median(totals);
  f.load_seconds = Median(loads);
  return f;
}

// The same bytes over a bare keep-alive connection: the floor the pipeline is measured against.
double BareRoundTripSeconds(std::size_t body_size, int iterations) {
  httplib::Server server;
  const std::string answer(body_size, 'x');
  server.set_tcp_nodelay(true);
  server.Post(".*", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(answer, "application/json");
  });
  const int port = server.bind_to_any_port("127.0.0.1");
  std::thread listener([&] { server.listen_after_bind(); });
  while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  double seconds = 0;
  {
    httplib::Client client("127.0.0.1", port);
    client.set_keep_alive(true);
    client.set_tcp_nodelay(true);
    const std::string body(body_size, 'y');
    client.Post("/warm", body, "application/json");
    const auto start = Clock::now();
    for (int i = 0; i < iterations; ++i) {
      auto res = client.Post("/v1beta/models/m:generateContent", body, "application/json");
      if (!res || res->status != 200) {
        std::cerr << "bare round trip failed\n";
        break;
      }
    }
    seconds = Seconds(Clock::now() - start) / iterations;
  }
  server.stop();
  listener.join();
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 9;
  std::filesystem::path root = GEMINI_ORACLE_DEFAULT_SOURCE_DIR;
  if (const char* env = std::getenv("GEMINI_ORACLE_SOURCE_DIR"); env && *env) root = env;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--rounds") == 0) rounds = std::max(1, std::atoi(argv[i + 1]));
    if (std::strcmp(argv[i], "--source-root") == 0) root = argv[i + 1];
  }
  TimeSuite(root, 1, 1);  // warm caches and the page cache of the fixtures
  const SuiteFigures one = TimeSuite(root, 1, rounds);
  const SuiteFigures two = TimeSuite(root, 2, rounds);
  const std::size_t body = one.exchanges ? one.request_bytes / one.exchanges : 0;
  const double bare = BareRoundTripSeconds(body, 2000);
  const double per_exchange = one.exchanges ? one.seconds / one.exchanges : 0;

  std::cout << std::fixed << std::setprecision(1);
  std::cout << "corpus: " << one.cases << " cases, " << one.exchanges
            << " exchanges per run, mean request body " << body << " bytes, median of " << rounds
            << " rounds\n";
  std::cout << "pipeline per exchange (load+capture+judge, jobs 1): " << per_exchange * 1e6
            << " us\n";
  std::cout << "  of which loading and validating the corpus:       "
            << one.load_seconds / one.exchanges * 1e6 << " us\n";
  std::cout << "pipeline per exchange, jobs 2 (wall time):          "
            << two.seconds / two.exchanges * 1e6 << " us\n";
  std::cout << "bare keep-alive POST round trip, same body size:    " << bare * 1e6 << " us\n";
  std::cout << std::setprecision(2) << "ratio pipeline/bare: jobs 1 " << per_exchange / bare
            << ", jobs 2 " << two.seconds / two.exchanges / bare << " (target <= 2.0)\n";
  std::cout << "suite wall time jobs 1: " << one.seconds * 1e3 << " ms, jobs 2: "
            << two.seconds * 1e3 << " ms, speed-up " << one.seconds / two.seconds
            << " (target >= 1.6 on 2 cores)\n";
  return 0;
}
