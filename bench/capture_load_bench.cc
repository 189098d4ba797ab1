// Prints, for many concurrent keep-alive connections, the throughput, latency and journal
// integrity of the capture server next to a bare cpp-httplib server set up the same way (the
// growing task queue, the raised listen backlog, TCP_NODELAY, unlimited keep-alive) whose
// handler only appends the request body to a mutex-guarded vector, and their throughput ratio.
//
//   build/bin/capture_load_bench [--requests N] [--connections C]... [--slices S]
//                                [--only capture|bare]
//
// C connections (default: 64, then 32) each send N requests (default 10000), one at a time
// from their own thread; all connect at once. Both servers run side by side and are measured
// in S alternating slices (default 40) of N/S requests per connection, so that a change in
// the machine's load during the run hits both alike. Every answer is unique, so a client
// checks it got its own, and the journals are checked for lost, duplicated, misattributed
// and reordered requests. --only runs one server alone, for a profiler.
//
// Figures only; targets are read by people, never asserted.

#include <httplib.h>
#include <sys/resource.h>

#include <algorithm>
#include <barrier>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <latch>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "oracles/capture/capture_server.h"
#include "oracles/capture/http_server_setup.h"

namespace capture = gemini_oracle::capture;
using Clock = std::chrono::steady_clock;

namespace {

constexpr char kGenerate[] = "/v1beta/models/gemini-2.5-flash:generateContent";
constexpr std::string_view kTag = "request ";

// {"contents":[...{"text":"request <client> <turn>"}...]}: unique per request.
std::string RequestBody(int client, int turn) {
  return R"({"contents":[{"role":"user","parts":[{"text":")" + std::string(kTag) +
         std::to_string(client) + " " + std::to_string(turn) + R"("}]}]})";
}

// Both servers answer {"echo":<request body>}: the capture server from its script, the bare
// one by building it, so the bytes on the wire are the same.
std::string Echo(std::string_view request) {
  std::string answer = R"({"echo":)";
  answer.append(request);
  answer.push_back('}');
  return answer;
}

struct Tag {
  int client = -1;
  int turn = -1;
};

// The client and turn a request body names; client -1 when it names none.
Tag ParseTag(std::string_view body) {
  Tag tag;
  const std::size_t at = body.find(kTag);
  if (at == std::string_view::npos) return tag;
  const char* p = body.data() + at + kTag.size();
  const char* end = body.data() + body.size();
  auto [after_client, e1] = std::from_chars(p, end, tag.client);
  if (e1 != std::errc() || after_client == end || *after_client != ' ') return Tag{};
  auto [after_turn, e2] = std::from_chars(after_client + 1, end, tag.turn);
  if (e2 != std::errc()) return Tag{};
  return tag;
}

double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

double Percentile(std::vector<double>& values, double fraction) {
  if (values.empty()) return 0;
  const auto nth = values.begin() + static_cast<std::ptrdiff_t>(fraction * (values.size() - 1));
  std::nth_element(values.begin(), nth, values.end());
  return *nth;
}

struct JournalFigures {
  std::size_t lost = 0;
  std::size_t duplicated = 0;
  std::size_t misattributed = 0;  // under another client's script, or naming no request
  std::size_t out_of_order = 0;
};

struct Figures {
  std::size_t requests = 0;
  double seconds = 0;
  double cpu_seconds = 0;  // user + system time of the whole process, clients included
  double p50_us = 0;
  double p99_us = 0;
  std::size_t transport_errors = 0;
  std::size_t wrong_answers = 0;  // a status other than 200, or another request's answer
  std::size_t connections_opened = 0;
  std::size_t connections_served = 0;  // connections whose every request got its own answer
  JournalFigures journal;

  double RequestsPerSecond() const { return requests / seconds; }
  double CpuMicrosPerRequest() const { return cpu_seconds * 1e6 / requests; }
};

// One thread and one keep-alive client per connection, sending a slice of their requests at a
// time on every connection at once.
class ClientGroup {
 public:
  ClientGroup(int port, std::vector<std::string> paths, int requests)
      : paths_(std::move(paths)),
        clients_(paths_.size()),
        step_(static_cast<std::ptrdiff_t>(paths_.size()) + 1) {
    std::latch ready(static_cast<std::ptrdiff_t>(paths_.size()));
    for (std::size_t c = 0; c < paths_.size(); ++c) {
      threads_.emplace_back([this, port, c, requests, &ready] { Run(port, c, requests, ready); });
    }
    ready.wait();  // request bodies are built before any clock starts
  }

  ~ClientGroup() {
    stop_ = true;
    step_.arrive_and_wait();
    for (auto& t : threads_) t.join();
  }

  // Sends turns [first, first + count) on every connection and returns the slice's seconds.
  double RunSlice(int first, int count) {
    first_ = first;
    count_ = count;
    const auto start = Clock::now();
    const double cpu_start = CpuSeconds();
    step_.arrive_and_wait();  // go
    step_.arrive_and_wait();  // every connection is done
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    totals_.seconds += seconds;
    totals_.cpu_seconds += CpuSeconds() - cpu_start;
    totals_.requests += static_cast<std::size_t>(count) * paths_.size();
    return seconds;
  }

  Figures Totals() {
    Figures f = totals_;
    std::vector<double> latencies;
    for (auto& client : clients_) {
      latencies.insert(latencies.end(), client.latencies_us.begin(), client.latencies_us.end());
      f.transport_errors += client.transport_errors;
      f.wrong_answers += client.wrong_answers;
      f.connections_opened += client.connections_opened;
      if (client.transport_errors == 0 && client.wrong_answers == 0) ++f.connections_served;
    }
    f.p50_us = Percentile(latencies, 0.50);
    f.p99_us = Percentile(latencies, 0.99);
    return f;
  }

 private:
  struct Client {
    std::vector<double> latencies_us;
    std::size_t transport_errors = 0;
    std::size_t wrong_answers = 0;
    std::size_t connections_opened = 0;
  };

  void Run(int port, std::size_t c, int requests, std::latch& ready) {
    Client& f = clients_[c];
    f.latencies_us.reserve(requests);
    httplib::Client client("127.0.0.1", port);
    client.set_keep_alive(true);
    client.set_tcp_nodelay(true);
    // Called for every socket the client opens: a reconnect shows up here.
    client.set_socket_options([&f](socket_t) { ++f.connections_opened; });
    std::vector<std::string> bodies;
    bodies.reserve(requests);
    for (int t = 0; t < requests; ++t) bodies.push_back(RequestBody(static_cast<int>(c), t));
    ready.count_down();
    for (;;) {
      step_.arrive_and_wait();
      if (stop_) return;
      for (int t = first_; t < first_ + count_; ++t) {
        const auto sent = Clock::now();
        auto res = client.Post(paths_[c], bodies[t], "application/json");
        f.latencies_us.push_back(
            std::chrono::duration<double, std::micro>(Clock::now() - sent).count());
        if (!res) {
          ++f.transport_errors;
        } else if (res->status != 200 || res->body != Echo(bodies[t])) {
          ++f.wrong_answers;
        }
      }
      step_.arrive_and_wait();
    }
  }

  const std::vector<std::string> paths_;
  std::vector<Client> clients_;
  std::vector<std::thread> threads_;
  // The barrier orders these plain members between the main thread and the clients.
  std::barrier<> step_;
  int first_ = 0;
  int count_ = 0;
  bool stop_ = false;
  Figures totals_;
};

// `journals[k]` holds the request bodies journaled under owner k in arrival order; owner -1
// is a journal shared by every client.
JournalFigures CheckJournals(const std::vector<std::pair<int, std::vector<std::string>>>& journals,
                             int connections, int requests) {
  JournalFigures f;
  std::vector<std::vector<int>> seen(connections, std::vector<int>(requests, 0));
  for (const auto& [owner, bodies] : journals) {
    std::vector<int> last(connections, -1);
    for (const auto& body : bodies) {
      const Tag tag = ParseTag(body);
      if (tag.client < 0 || tag.client >= connections || tag.turn < 0 || tag.turn >= requests ||
          (owner >= 0 && tag.client != owner)) {
        ++f.misattributed;
        continue;
      }
      if (tag.turn <= last[tag.client]) ++f.out_of_order;
      last[tag.client] = tag.turn;
      ++seen[tag.client][tag.turn];
    }
  }
  for (const auto& client : seen) {
    for (int count : client) {
      if (count == 0) ++f.lost;
      if (count > 1) f.duplicated += count - 1;
    }
  }
  return f;
}

// The capture server with one script per connection; turn t of script c answers request t of
// connection c.
struct CaptureSide {
  CaptureSide(int connections, int requests) {
    for (int c = 0; c < connections; ++c) {
      std::vector<capture::ScriptedResponse> turns(requests);
      for (int t = 0; t < requests; ++t) turns[t].body = Echo(RequestBody(c, t));
      ids.push_back(server.AddScript(std::move(turns)));
      paths.push_back("/s/" + ids.back() + kGenerate);
    }
  }

  JournalFigures Check(int requests) const {
    std::vector<std::pair<int, std::vector<std::string>>> journals;
    for (std::size_t c = 0; c < ids.size(); ++c) {
      std::vector<std::string> bodies;
      for (auto& entry : server.Journal(ids[c])) bodies.push_back(std::move(entry.body));
      journals.emplace_back(static_cast<int>(c), std::move(bodies));
    }
    return CheckJournals(journals, static_cast<int>(ids.size()), requests);
  }

  capture::CaptureServer server;
  std::vector<std::string> ids;
  std::vector<std::string> paths;
};

// A cpp-httplib server set up like the capture server, journaling only request bodies.
struct BareSide {
  BareSide(int connections, int requests) : paths(connections, kGenerate) {
    capture::ConfigureForManyConnections(server);
    journal.reserve(static_cast<std::size_t>(connections) * requests);
    // The capture server's catch-all pattern, so both pay the same routing.
    server.Post(R"([\s\S]*)", [this](const httplib::Request& req, httplib::Response& res) {
      {
        std::lock_guard lock(mu);
        journal.push_back(req.body);
      }
      res.set_content(Echo(req.body), "application/json");
    });
    port = capture::BindToAnyPortWithFullBacklog(server, "127.0.0.1");
    listener = std::thread([this] { server.listen_after_bind(); });
    while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

  ~BareSide() {
    server.stop();
    listener.join();
  }

  JournalFigures Check(int connections, int requests) {
    std::lock_guard lock(mu);
    return CheckJournals({{-1, journal}}, connections, requests);
  }

  httplib::Server server;
  std::mutex mu;
  std::vector<std::string> journal;
  std::vector<std::string> paths;
  std::thread listener;
  int port = -1;
};

void PrintHeader() {
  std::cout << "server      req/s  p50(us)  p99(us) cpu(us) errors  wrong  lost  dup  misattr  "
               "order served/opened   secs\n";
}

void Print(const char* name, const Figures& f) {
  std::cout << std::left << std::setw(9) << name << std::right << std::fixed << std::setprecision(0)
            << std::setw(8) << f.RequestsPerSecond() << std::setw(9) << f.p50_us << std::setw(9)
            << f.p99_us << std::setprecision(1) << std::setw(8) << f.CpuMicrosPerRequest()
            << std::setw(7) << f.transport_errors << std::setw(7) << f.wrong_answers << std::setw(6)
            << f.journal.lost << std::setw(5) << f.journal.duplicated << std::setw(9)
            << f.journal.misattributed << std::setw(8) << f.journal.out_of_order << std::setw(9)
            << f.connections_served << "/" << f.connections_opened << std::setprecision(1)
            << std::setw(7) << f.seconds << "\n";
}

void Compare(int connections, int requests, int slices, const std::string& only) {
  const bool with_capture = only != "bare";
  const bool with_bare = only != "capture";
  std::optional<CaptureSide> capture_side;
  std::optional<BareSide> bare_side;
  if (with_capture) capture_side.emplace(connections, requests);
  if (with_bare) bare_side.emplace(connections, requests);
  Figures capture_figures;
  Figures bare_figures;
  std::vector<double> slice_ratios;
  int slices_run = 0;
  {
    // Clients go before their servers: a server waits for open keep-alive connections.
    std::optional<ClientGroup> capture_clients;
    std::optional<ClientGroup> bare_clients;
    if (capture_side)
      capture_clients.emplace(capture_side->server.port(), capture_side->paths, requests);
    if (bare_side) bare_clients.emplace(bare_side->port, bare_side->paths, requests);
    const int slice = (requests + slices - 1) / slices;
    for (int s = 0, first = 0; first < requests; ++s, first += slice) {
      ++slices_run;
      const int count = std::min(slice, requests - first);
      double capture_seconds = 0;
      double bare_seconds = 0;
      // Alternating which server goes first keeps either from always running on the heels of
      // the other's work.
      if (s % 2 == 0 && capture_clients) capture_seconds = capture_clients->RunSlice(first, count);
      if (bare_clients) bare_seconds = bare_clients->RunSlice(first, count);
      if (s % 2 == 1 && capture_clients) capture_seconds = capture_clients->RunSlice(first, count);
      if (capture_clients && bare_clients) slice_ratios.push_back(bare_seconds / capture_seconds);
    }
    if (capture_clients) capture_figures = capture_clients->Totals();
    if (bare_clients) bare_figures = bare_clients->Totals();
  }
  std::cout << "\n"
            << connections << " connections x " << requests
            << " requests = " << static_cast<long long>(connections) * requests
            << " requests per server, in " << slices_run << " slices\n";
  PrintHeader();
  if (capture_side) {
    capture_figures.journal = capture_side->Check(requests);
    Print("capture", capture_figures);
  }
  if (bare_side) {
    bare_figures.journal = bare_side->Check(connections, requests);
    Print("bare", bare_figures);
  }
  if (slice_ratios.empty()) return;
  std::sort(slice_ratios.begin(), slice_ratios.end());
  std::cout << std::setprecision(3) << "ratio capture/bare: throughput "
            << capture_figures.RequestsPerSecond() / bare_figures.RequestsPerSecond()
            << " (target >= 0.9; per slice min " << slice_ratios.front() << ", median "
            << slice_ratios[slice_ratios.size() / 2] << ", max " << slice_ratios.back()
            << "), cpu per request "
            << capture_figures.CpuMicrosPerRequest() / bare_figures.CpuMicrosPerRequest() << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  int requests = 10000;
  int slices = 40;
  std::string only;
  std::vector<int> connection_counts;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--requests") == 0) requests = std::max(1, std::atoi(argv[i + 1]));
    if (std::strcmp(argv[i], "--slices") == 0) slices = std::max(1, std::atoi(argv[i + 1]));
    if (std::strcmp(argv[i], "--only") == 0) only = argv[i + 1];
    if (std::strcmp(argv[i], "--connections") == 0) {
      connection_counts.push_back(std::max(1, std::atoi(argv[i + 1])));
    }
  }
  if (connection_counts.empty()) connection_counts = {64, 32};
  slices = std::min(slices, requests);

  std::cout << "capture_load_bench: " << requests << " requests per connection, request body "
            << RequestBody(0, 0).size() << " bytes, answer body " << Echo(RequestBody(0, 0)).size()
            << " bytes, " << std::thread::hardware_concurrency() << " cores\n";
  for (const int connections : connection_counts) {
    Compare(connections, requests, slices, only);
  }
  return 0;
}
