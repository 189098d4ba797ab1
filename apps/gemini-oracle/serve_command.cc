// `gemini-oracle serve`: binds the HTTP API (loopback unless told otherwise), prints where, and
// serves until SIGINT or SIGTERM; each closed run's reports go to <report-dir>/<run id>/.

#include <pthread.h>
#include <signal.h>

#include <iostream>
#include <thread>

#include "apps/gemini-oracle/commands.h"
#include "oracles/capture/http_server_setup.h"
#include "oracles/serve/serve_api.h"

namespace gemini_oracle::cli {

int ServeCommand(const ServeArgs& args, std::ostream& out, std::ostream& err) {
  if (!std::filesystem::is_directory(args.fixtures)) {
    err << "gemini-oracle serve: --fixtures: no folder at " << DisplayPath(args.fixtures) << "\n";
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

  httplib::Server server;
  capture::ConfigureForManyConnections(server);
  serve::ServeApi api(settings);
  api.Mount(server);
  // cpp-httplib refuses a form-encoded body over 8 KiB before any route runs (curl -d sends
  // one unless told otherwise): say what to send instead of an empty 413.
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    const std::string type = req.get_header_value("Content-Type");
    if (res.status == 413 && res.body.empty() &&
        type.rfind("application/x-www-form-urlencoded", 0) == 0) {
      res.set_content(
          "{\"error\": \"serve.body_too_large\", \"message\": \"a form-encoded body is limited to "
          "8 KiB: send JSON with Content-Type: application/json\"}\n",
          "application/json");
    }
  });
  int port = args.port;
  try {
    if (port == 0) {
      port = capture::BindToAnyPortWithFullBacklog(server, args.host);
    } else if (!server.bind_to_port(args.host, port)) {
      throw std::runtime_error("cannot bind " + args.host + ":" + std::to_string(port));
    }
  } catch (const std::exception& e) {
    err << "gemini-oracle serve: " << e.what() << "\n";
    return kExitHarness;
  }
  if (args.host != "127.0.0.1" && args.host != "localhost" && args.host != "::1") {
    err << "gemini-oracle serve: listening beyond this machine (" << args.host
        << "): anyone who reaches the port can run cases and read reports\n";
  }
  std::thread listener([&server] { server.listen_after_bind(); });
  out << "gemini-oracle serve: listening on http://" << args.host << ":" << port << std::endl;
  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  out << "gemini-oracle serve: stopping" << std::endl;
  // Closing every run wakes the requests waiting on it (a long poll, a report awaiting its
  // verdict) and writes the run's reports, so nothing judged is lost and stop() does not wait.
  for (const auto& summary : api.CloseAll()) {
    out << "gemini-oracle serve: run " << summary.value("run", std::string()) << " closed"
        << (summary.contains("reports") ? ", reports in " + summary["reports"].get<std::string>()
                                        : std::string())
        << std::endl;
  }
  server.stop();
  listener.join();
  return 0;
}

}  // namespace gemini_oracle::cli
