// `gemini-oracle serve`: binds the HTTP API (loopback unless told otherwise), prints where, and
// serves until SIGINT or SIGTERM; each closed run's reports go to <report-dir>/<run id>/.

#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <iostream>
#include <optional>
#include <system_error>
#include <thread>

#include "apps/gemini-oracle/commands.h"
#include "oracles/capture/http_server_setup.h"
#include "oracles/serve/serve_api.h"
#include "reports/write_all.h"

namespace gemini_oracle::cli {
namespace {

// After the runs are closed and every connection is shut down, how long the handlers still
// running may take to return before the process ends without them.
constexpr std::chrono::milliseconds kStopGrace{1500};

void RefuseForSize(const httplib::Request& req, httplib::Response& res) {
  const int refused = capture::BoundedServer::RefusedForSize();
  if (refused == 431) {
    res.status = 431;
    res.set_content(
        "{\"error\": \"serve.head_too_large\", \"message\": \"a request's line and headers are "
        "limited to " +
            std::to_string(capture::BoundedServer::kMaxHeadBytes / 1024) + " KiB\"}\n",
        "application/json");
    return;
  }
  if (refused != 413 && !(res.status == 413 && res.body.empty())) return;
  res.status = 413;
  // cpp-httplib refuses a form-encoded body over 8 KiB before any route runs (curl -d sends
  // one unless told otherwise): say what to send instead.
  const std::string type = req.get_header_value("Content-Type");
  if (refused == 0 && type.rfind("application/x-www-form-urlencoded", 0) == 0) {
    res.set_content(
        "{\"error\": \"serve.body_too_large\", \"message\": \"a form-encoded body is limited to "
        "8 KiB: send JSON with Content-Type: application/json\"}\n",
        "application/json");
    return;
  }
  res.set_content("{\"error\": \"serve.body_too_large\", \"message\": \"a body is limited to " +
                      std::to_string(serve::kMaxBodyBytes >> 20) + " MiB (a POST /runs body to " +
                      std::to_string(serve::kMaxCreateBodyBytes >> 10) + " KiB)\"}\n",
                  "application/json");
}

}  // namespace

int ServeCommand(const ServeArgs& args, std::ostream& out, std::ostream& err) {
  if (!std::filesystem::is_directory(args.fixtures)) {
    err << "gemini-oracle serve: --fixtures: no folder at " << DisplayPath(args.fixtures) << "\n";
    return kExitBadInput;
  }
  // The report folder is this serve's until it ends, as a run's is: another serve (on another
  // port) or a run writing there would replace its runs' reports. Run ids then follow the run
  // folders already there (ServeApi), so an earlier serve's reports are never written over.
  std::optional<reports::ReportDirLock> report_lock;
  try {
    report_lock.emplace(args.report_dir);
  } catch (const std::exception& e) {
    err << "gemini-oracle serve: --report-dir: " << e.what() << "\n";
    return kExitBadInput;
  }
  serve::ServeSettings settings;
  settings.source_root = args.source_root;
  settings.fixtures = args.fixtures;
  settings.report_dir = args.report_dir;
  settings.jobs = args.jobs;
  settings.case_timeout = args.case_timeout;
  settings.seed = args.seed;
  settings.max_open_runs = args.max_runs;
  settings.run_idle = args.run_idle;
  settings.tool_version = GEMINI_ORACLE_VERSION;
  // Signals are taken by one thread with sigwait, so no handler runs inside the server.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  // Requests are read with a bound on their size, and stopping ends every connection.
  capture::BoundedServer server(serve::kMaxBodyBytes);
  capture::ConfigureForManyConnections(server);
  serve::ServeApi api(settings);
  api.Mount(server);
  server.set_error_handler(RefuseForSize);
  int port = 0;
  try {
    port = capture::BindWithFullBacklog(server, args.host, args.port);
  } catch (const std::system_error& e) {
    // One port, one server: a second one would share no runs with the first (their run ids
    // and report folders collide) and take half its connections.
    if (e.code() == std::errc::address_in_use) {
      err << "gemini-oracle serve: --port " << args.port << ": the port is in use on " << args.host
          << " (another serve, or another program, listens there): choose "
          << "another port, or 0 for any free one\n";
      return kExitBadInput;
    }
    if (e.code() == std::errc::address_not_available) {
      err << "gemini-oracle serve: --host " << args.host << ": not an address of this machine\n";
      return kExitBadInput;
    }
    err << "gemini-oracle serve: cannot listen on " << args.host << ":" << args.port << ": "
        << e.code().message() << "\n";
    return kExitHarness;
  }
  if (args.host != "127.0.0.1" && args.host != "localhost" && args.host != "::1") {
    err << "gemini-oracle serve: listening beyond this machine (" << args.host
        << "): anyone who reaches the port can run cases and read reports\n";
  }
  std::promise<void> listener_ended;
  std::future<void> listener_done = listener_ended.get_future();
  std::thread listener([&server, &listener_ended] {
    server.listen_after_bind();
    listener_ended.set_value();
  });
  out << "gemini-oracle serve: listening on http://" << args.host << ":" << port << std::endl;
  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  out << "gemini-oracle serve: stopping" << std::endl;
  // Closing every run wakes the requests waiting on it (a long poll, a report awaiting its
  // verdict) and writes the run's reports, so nothing judged is lost.
  for (const auto& summary : api.CloseAll()) {
    out << "gemini-oracle serve: run " << summary.value("run", std::string()) << " closed"
        << (summary.contains("reports") ? ", reports in " + summary["reports"].get<std::string>()
                                        : std::string())
        << std::endl;
  }
  // Then every connection is shut down, whatever its client does (one that sends a header
  // line every few seconds never lets a read time out), so the workers return at once.
  server.StopAndDisconnect();
  if (listener_done.wait_for(kStopGrace) == std::future_status::ready) {
    listener.join();
    return 0;
  }
  // A handler that still runs holds nothing that is not written: end without it rather than
  // let it keep the process (its threads would outlive the server and the runs they use).
  err << "gemini-oracle serve: " << server.open_connections()
      << " connection(s) still busy after stopping; exiting without them" << std::endl;
  out.flush();
  std::_Exit(0);
}

}  // namespace gemini_oracle::cli
