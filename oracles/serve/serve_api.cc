#include "oracles/serve/serve_api.h"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <thread>

#include "oracles/model/streamed_twin.h"
#include "oracles/runner/case_loader.h"
#include "oracles/runner/driver_protocol.h"
#include "oracles/runner/run_context.h"
#include "oracles/runner/strict_json.h"
#include "oracles/runner/suite_runner.h"
#include "oracles/serve/remote_run.h"
#include "reports/index.h"
#include "reports/write_all.h"

namespace gemini_oracle::serve {
namespace {

using nlohmann::json;

void Answer(httplib::Response& res, int status, const json& body) {
  res.status = status;
  res.set_content(body.dump(2, ' ', false, json::error_handler_t::replace) + "\n",
                  "application/json");
}

void Problem(httplib::Response& res, int status, const std::string& rule,
             const std::string& message) {
  Answer(res, status, json{{"error", rule}, {"message", message}});
}

void Problem(httplib::Response& res, const BodyProblem& problem) {
  json body = {{"error", problem.rule}, {"message", problem.message}};
  if (!problem.json_rule.empty()) body["rule"] = problem.json_rule;
  if (problem.offset) body["offset"] = *problem.offset;
  Answer(res, 400, body);
}

// A body the JSON reader refused. The reader's wording for a syntax error quotes the bytes it
// read, which are the client's: only the rule and the offset are passed on then.
BodyProblem NotJson(std::string rule, std::optional<std::size_t> offset, std::string detail) {
  std::string message = "the body is not JSON this server reads (" + rule;
  if (offset) message += " at byte " + std::to_string(*offset);
  message += rule == "json.syntax" ? ")" : "): " + detail;
  return BodyProblem{"serve.json", std::move(message), std::move(rule), offset};
}

// A report, skipped or errored message, read as the driver protocol reads a driver's lines
// (ParseJson: nesting past kMaxJsonDepth is refused by a scan before anything is built), so a
// client's answer means the same over HTTP as over a pipe.
std::optional<BodyProblem> ReadMessage(const std::string& text, Json& message) {
  try {
    message = ParseJson(text);
    return std::nullopt;
  } catch (const Json::parse_error& e) {
    const std::size_t offset = e.byte == 0 ? 0 : e.byte - 1;
    // ParseJson's own refusal of depth, told apart by its wording.
    if (std::string_view(e.what()).find("nesting deeper than") != std::string_view::npos) {
      return NotJson("json.depth", offset,
                     "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    }
    return NotJson("json.syntax", offset, "");
  } catch (const Json::exception&) {
    return NotJson("json.number_range", std::nullopt, "a number beyond the range of a double");
  }
}

// A member of the creation body, or its default; throws std::invalid_argument naming it.
template <typename T>
T Member(const json& body, const char* key, T fallback) {
  const auto it = body.find(key);
  if (it == body.end() || it->is_null()) return fallback;
  try {
    return it->get<T>();
  } catch (const json::exception&) {
    throw std::invalid_argument(std::string("`") + key + "` has the wrong kind");
  }
}

}  // namespace

std::variant<RunRequest, BodyProblem> ReadRunRequest(const std::string& req_body) {
  // The case files' reader: one pass, no recursion, depth and members bounded, repeated names
  // refused; it never throws.
  json body = json::object();
  if (!req_body.empty()) {
    runner::StrictJsonResult parsed = runner::ParseStrictJson(req_body);
    if (parsed.error) {
      return NotJson(parsed.error->rule, parsed.error->offset, parsed.error->message);
    }
    body = json(parsed.value);
  }
  if (!body.is_object()) return BodyProblem{"serve.body", "the body is a JSON object"};
  RunRequest request;
  json implementation;
  try {
    request.capabilities = Member(body, "capabilities", std::set<std::string>{});
    // A client of protocol 1 (no `protocol` member) that streams captures from streams, as
    // a protocol 1 driver does (INTERPRETING §15.1).
    // A whole number: a float such as 1e300 converted to an integer is undefined behaviour.
    const auto protocol = body.find("protocol");
    if (protocol != body.end() && !protocol->is_null() && !protocol->is_number_integer()) {
      throw std::invalid_argument("`protocol` is a whole number");
    }
    if (Member(body, "protocol", std::int64_t{1}) < 2 &&
        request.capabilities.count(runner::protocol::kStreaming)) {
      request.capabilities.insert(runner::protocol::kStreamCapture);
    }
    request.filter = Member(body, "filter", std::string());
    request.twins = Member(body, "twins", true);
    request.strict = Member(body, "strict", false);
    request.profile_text = Member(body, "profile", std::string("adr"));
    implementation = Member(body, "implementation", json::object());
    if (!implementation.is_object()) throw std::invalid_argument("`implementation` is an object");
    request.name = Member(implementation, "name", std::string("unnamed"));
    request.version = Member(implementation, "version", std::string());
    request.language = Member(implementation, "language", std::string());
  } catch (const std::invalid_argument& e) {
    return BodyProblem{"serve.body", e.what()};
  }
  const auto profile = checks::ProfileFromString(request.profile_text);
  if (!profile) return BodyProblem{"serve.body", "`profile` is adr or gemini"};
  request.profile = *profile;
  return request;
}

struct ServeApi::Run {
  std::string id;
  std::unique_ptr<RemoteRun> remote;
  std::optional<runner::CaseLoader> loader;
  std::vector<runner::Case> cases;
  runner::SuiteOptions options;
  json context;
  std::vector<runner::Diagnostic> bad;
  std::thread runner;
  std::mutex close_mu;
  std::optional<json> closed_summary;  // set once the reports are written
  std::atomic<std::chrono::steady_clock::time_point> last_active{};
  std::size_t case_count = 0;  // kept after close, when `cases` is let go
  json results = json::array();
};

// The largest run id among the folders an earlier serve left in `report_dir` (names of digits
// only), 0 when none: this serve numbers its runs after them, so that no run's reports are
// written over an earlier one's.
static std::size_t LastRunIdIn(const std::filesystem::path& report_dir) {
  std::size_t last = 0;
  std::error_code error;
  for (std::filesystem::directory_iterator it(report_dir, error), end; !error && it != end;
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.size() > 18 ||
        !std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      continue;
    }
    std::error_code kind_error;
    if (!it->is_directory(kind_error)) continue;
    last = std::max<std::size_t>(last, std::stoull(name));
  }
  return last;
}

ServeApi::ServeApi(ServeSettings settings)
    : settings_(std::move(settings)), next_run_(LastRunIdIn(settings_.report_dir)) {}

ServeApi::~ServeApi() { CloseAll(); }

std::shared_ptr<ServeApi::Run> ServeApi::FindRun(const std::string& id) {
  std::lock_guard lock(mu_);
  const auto it = runs_.find(id);
  if (it == runs_.end()) return nullptr;
  it->second->last_active = std::chrono::steady_clock::now();
  return it->second;
}

void ServeApi::Mount(httplib::Server& server) {
  // POST /runs: {implementation: {name, version, language}, capabilities: [...], filter,
  // twins, profile, strict} -> 201 {run, cases, links}.
  server.Post("/runs", [this](const httplib::Request& req, httplib::Response& res) {
    if (req.body.size() > kMaxCreateBodyBytes) {
      return Problem(
          res, 413, "serve.body_too_large",
          "a POST /runs body is limited to " + std::to_string(kMaxCreateBodyBytes >> 10) + " KiB");
    }
    const auto reading = ReadRunRequest(req.body);
    if (const auto* problem = std::get_if<BodyProblem>(&reading)) return Problem(res, *problem);
    const RunRequest& request = std::get<RunRequest>(reading);
    auto run = std::make_shared<Run>();
    const std::set<std::string>& capabilities = request.capabilities;
    const std::string& filter = request.filter;
    const std::string& profile_text = request.profile_text;
    const bool twins = request.twins, strict = request.strict;
    const std::string& name = request.name;
    const std::string& version = request.version;
    const std::string& language = request.language;
    const std::optional<checks::Profile> profile = request.profile;
    try {
      run->loader.emplace(runner::CaseLoader::FromSourceRoot(settings_.source_root));
      auto corpus = runner::CheckCorpus(settings_.fixtures, *run->loader);
      if (twins) corpus.cases = model::WithStreamedTwins(corpus.cases);
      run->bad = corpus.diagnostics;
      for (auto& c : corpus.cases) {
        if (runner::MatchesFilter(c, filter)) run->cases.push_back(std::move(c));
      }
    } catch (const std::exception& e) {
      return Problem(res, 500, "serve.corpus", e.what());
    }
    if (run->cases.empty() && run->bad.empty()) {
      return Problem(res, 400, "serve.filter", "the filter selects no case");
    }
    run->case_count = run->cases.size();
    // A client that died leaves its run open: runs idle past --run-idle are closed (their
    // reports written) when, and only as far as, the open runs would refuse a new one.
    CloseIdleRunsToMakeRoom();
    {
      std::lock_guard lock(mu_);
      if (stopping_) return Problem(res, 503, "serve.stopping", "the server is stopping");
      if (OpenRuns() >= settings_.max_open_runs) {
        return Problem(res, 429, "serve.too_many_runs",
                       "as many runs are open as --max-runs allows: close one first");
      }
      // A folder of the next id that appeared since (put there by hand): the id after it.
      std::error_code error;
      do {
        run->id = std::to_string(++next_run_);
      } while (std::filesystem::exists(settings_.report_dir / run->id, error));
      ++reserved_;  // the slot is this creation's until the run is published or given up
    }
    struct Reservation {
      ServeApi& api;
      bool held = true;  // released by publishing the run, in the same critical section
      ~Reservation() {
        if (!held) return;
        std::lock_guard lock(api.mu_);
        --api.reserved_;
      }
    } reservation{*this};
    // A fresh folder (ids follow every run folder found at start): PrepareReportDir only makes it
    // and proves it writable.
    try {
      reports::PrepareReportDir(settings_.report_dir / run->id);
    } catch (const std::exception& e) {
      return Problem(res, 500, "serve.report_dir", e.what());
    }
    run->remote = std::make_unique<RemoteRun>(capabilities, settings_.case_timeout);
    runner::SuiteOptions& options = run->options;
    options.strict = strict;
    options.profile = *profile;
    options.beyond_gates = false;  // beyond clauses gate the reference alone (INTERPRETING §9)
    options.jobs = std::max(1u, settings_.jobs);
    options.seed = settings_.seed;
    // The limit runs from when a client takes a case run (RemoteRun), never while it waits in
    // the queue, so verdicts do not depend on --jobs.
    options.case_timeout = std::chrono::milliseconds(0);
    options.capabilities = capabilities;
    options.relative_to = std::filesystem::absolute(settings_.source_root);
    RemoteRun* remote = run->remote.get();
    options.progress = [remote](const json& result, std::size_t, std::size_t) {
      remote->OnResult(result);
    };
    json context = json::object();
    context["tool"] = "gemini-oracle";
    context["tool_version"] = settings_.tool_version;
    context["suite_version"] = runner::ReadSuiteVersion(settings_.fixtures);
    context["seed"] = settings_.seed;
    context["implementation"] = name + (version.empty() ? "" : " " + version) +
                                (language.empty() ? "" : " (" + language + ")");
    context["via"] = "serve";
    context["strict"] = strict;
    context["profile"] = profile_text;
    context["filter"] = filter;
    context["shard"] = "1/1";
    context["jobs"] = options.jobs;
    context["case_timeout_ms"] = settings_.case_timeout.count();
    context["bad_fixtures"] = run->bad.size();
    context["refusal_codes"] =
        capabilities.count("typed-errors") != 0
            ? "typed: the client reports the catalogue's codes"
            : "not judged: the client lacks typed-errors; refusals are judged on refusal, "
              "exchange and the requests sent before it";
    context["clause_levels"] = runner::ClauseLevels(run->loader->registry());
    run->context = std::move(context);
    Run* raw = run.get();
    // The runner thread exists before the run is published, so a close never finds a run
    // whose thread is still being made.
    run->runner = std::thread([raw] {
      // Nothing escapes the thread (an escape would end the server): a run that cannot run
      // closes with every case an error.
      json results = json::array();
      try {
        if (!raw->cases.empty()) {
          results = runner::RunSuite(
              raw->cases, raw->loader->registry(), [raw] { return raw->remote->MakeDriver(); },
              raw->options);
        }
      } catch (const std::exception& e) {
        for (const auto& c : raw->cases) {
          results.push_back({{"id", c.id},
                             {"verdict", "error"},
                             {"reason", std::string("harness: ") + e.what()}});
        }
      }
      raw->results = std::move(results);
      raw->remote->MarkFinished();
    });
    run->last_active = std::chrono::steady_clock::now();
    const std::size_t case_count = run->case_count;
    bool published = false;
    try {
      std::lock_guard lock(mu_);
      if (!stopping_) {
        runs_[run->id] = run;
        --reserved_;
        reservation.held = false;
        published = true;
      }
    } catch (...) {
    }
    if (!published) {
      run->remote->Close();
      run->runner.join();
      return Problem(res, 503, "serve.stopping", "the server is stopping");
    }
    const std::string base = "/runs/" + run->id;
    Answer(res, 201,
           json{{"run", run->id},
                {"cases", case_count},
                {"bad_fixtures", run->bad.size()},
                {"links",
                 {{"cases", base + "/cases"},
                  {"next", base + "/next"},
                  {"reports", base + "/reports/{seq}"},
                  {"status", base},
                  {"close", base + "/close"}}}});
  });

  // GET /runs/{run}/cases: every case of the run with its client actions and its verdict so far.
  server.Get(R"(/runs/([^/]+)/cases)", [this](const httplib::Request& req, httplib::Response& res) {
    const auto run = FindRun(req.matches[1]);
    if (!run) return Problem(res, 404, "serve.no_run", "no such run");
    std::lock_guard closing(run->close_mu);  // a closed run has let its cases go
    if (run->closed_summary) return Problem(res, 410, "serve.closed", "the run is closed");
    const auto results = run->remote->Results();
    json cases = json::array();
    for (const auto& c : run->cases) {
      json message = runner::protocol::RunCaseMessage(c, "", 0, false);
      message.erase("type");
      message.erase("seq");
      message.erase("base_url");
      json entry = {{"id", c.id},
                    {"needs", runner::protocol::RequiredCapabilities(c)},
                    {"client", std::move(message)}};
      const auto it = results.find(c.id);
      entry["verdict"] = it == results.end() ? json(nullptr) : it->second["verdict"];
      cases.push_back(std::move(entry));
    }
    Answer(res, 200, json{{"run", run->id}, {"cases", std::move(cases)}});
  });

  // GET /runs/{run}/next[?wait=SECONDS]: the next case run to do, as a run_case message
  // (200); 204 when none came within the wait; 410 when the run has none left.
  server.Get(R"(/runs/([^/]+)/next)", [this](const httplib::Request& req, httplib::Response& res) {
    const auto run = FindRun(req.matches[1]);
    if (!run) return Problem(res, 404, "serve.no_run", "no such run");
    long wait_s = 10;
    if (req.has_param("wait")) {
      const std::string text = req.get_param_value("wait");
      if (text.empty() || text.size() > 3 ||
          text.find_first_not_of("0123456789") != std::string::npos) {
        return Problem(res, 400, "serve.wait", "wait takes whole seconds from 0 to 999");
      }
      wait_s = std::stol(text);
    }
    bool done = false;
    const auto message = run->remote->TakeNext(std::chrono::seconds(wait_s), done);
    if (message) return Answer(res, 200, *message);
    if (done)
      return Answer(res, 410, json{{"done", true}, {"close", "/runs/" + run->id + "/close"}});
    res.status = 204;
  });

  // POST /runs/{run}/reports/{seq}: the client's report, skipped or errored message for that
  // case run -> 200 {status: judged, result} | {status: accepted, more: true} (the case runs
  // again: take the next run) | {status: accepted} (judging still under way).
  server.Post(R"(/runs/([^/]+)/reports/(\d{1,12}))", [this](const httplib::Request& req,
                                                            httplib::Response& res) {
    const auto run = FindRun(req.matches[1]);
    if (!run) return Problem(res, 404, "serve.no_run", "no such run");
    Json kept;  // kind-preserving, as the driver protocol reads lines
    if (const auto problem = ReadMessage(req.body, kept)) return Problem(res, *problem);
    const std::size_t seq = std::stoull(req.matches[2]);
    const auto outcome = run->remote->Reply(seq, std::move(kept), settings_.verdict_wait);
    switch (outcome.status) {
      case RemoteRun::ReplyStatus::kUnknownSeq:
        return Problem(res, 404, "serve.no_seq", "no case run with this seq is waiting");
      case RemoteRun::ReplyStatus::kAlreadyAnswered:
        return Problem(res, 409, "serve.answered", "this case run was already answered");
      case RemoteRun::ReplyStatus::kAccepted:
        break;
    }
    if (outcome.result)
      return Answer(res, 200, json{{"status", "judged"}, {"result", *outcome.result}});
    Answer(res, 200, json{{"status", "accepted"}, {"more", outcome.more}});
  });

  // GET /runs/{run}: counts so far.
  server.Get(R"(/runs/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) {
    const auto run = FindRun(req.matches[1]);
    if (!run) return Problem(res, 404, "serve.no_run", "no such run");
    json results = json::array();
    for (auto& [id, result] : run->remote->Results()) results.push_back(result);
    Answer(res, 200,
           json{{"run", run->id},
                {"cases", run->case_count},
                {"judged", results.size()},
                {"summary", reports::SummarizeResults(results)},
                {"finished", run->remote->finished()},
                {"closed", run->remote->closed()}});
  });

  // POST /runs/{run}/close: ends the run (case runs not answered are the client's error),
  // writes index.json, junit.xml, summary.md and summary.html, and returns the summary.
  server.Post(R"(/runs/([^/]+)/close)",
              [this](const httplib::Request& req, httplib::Response& res) {
                const auto run = FindRun(req.matches[1]);
                if (!run) return Problem(res, 404, "serve.no_run", "no such run");
                Answer(res, 200, CloseRun(*run));
              });
}

json ServeApi::CloseRun(Run& run) {
  std::lock_guard lock(run.close_mu);
  if (!run.closed_summary) {
    run.remote->Close();
    if (run.runner.joinable()) run.runner.join();
    json results = run.results;
    // One result per id, sorted, as `run` joins them.
    runner::AddBadFixtureResults(
        results,
        runner::BadFixtureResults(run.bad, settings_.fixtures, runner::Shard{}, run.options));
    const json index = reports::BuildIndex(run.context, std::move(results));
    const auto dir = settings_.report_dir / run.id;
    json summary = {{"run", run.id}, {"summary", index["summary"]}};
    try {
      reports::WriteAll(index, dir);
      summary["reports"] = dir.generic_string();
    } catch (const std::exception& e) {
      summary["reports_error"] = e.what();
    }
    bool gates = false;
    for (const auto& r : index["results"]) gates = gates || reports::Gates(r);
    summary["gate"] = gates ? "fail" : "pass";
    run.closed_summary = std::move(summary);
    // A closed run keeps only its summary and its results' verdicts (status route).
    run.results = json::array();
    run.cases.clear();
    run.cases.shrink_to_fit();
    run.loader.reset();
  }
  return *run.closed_summary;
}

std::size_t ServeApi::OpenRuns() const {
  std::size_t open = reserved_;
  for (const auto& [id, run] : runs_) open += run->remote->closed() ? 0 : 1;
  return open;
}

void ServeApi::CloseIdleRunsToMakeRoom() {
  if (settings_.run_idle.count() <= 0) return;
  const auto now = std::chrono::steady_clock::now();
  std::vector<std::shared_ptr<Run>> idle;
  {
    std::lock_guard lock(mu_);
    const std::size_t open = OpenRuns();
    if (open < settings_.max_open_runs) return;
    for (auto& [id, run] : runs_) {
      if (!run->remote->closed() && now - run->last_active.load() >= settings_.run_idle) {
        idle.push_back(run);
      }
    }
    // The longest idle first, only as many as make one place.
    std::sort(idle.begin(), idle.end(), [](const auto& a, const auto& b) {
      return a->last_active.load() < b->last_active.load();
    });
    idle.resize(std::min(idle.size(), open - settings_.max_open_runs + 1));
    // Closed while FindRun cannot hand them out: no client is given a case of a run that
    // is about to end.
    for (auto& run : idle) run->remote->Close();
  }
  for (auto& run : idle) CloseRun(*run);
}

std::vector<json> ServeApi::CloseAll() {
  std::vector<std::shared_ptr<Run>> runs;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;  // no run is created from now on
    for (auto& [id, run] : runs_) runs.push_back(run);
  }
  std::vector<bool> was_open;
  for (auto& run : runs) was_open.push_back(!run->remote->closed());
  // Wake every waiting request first, so none holds a connection while others are written.
  for (auto& run : runs) run->remote->Close();
  // CloseRun waits for a close under way elsewhere; only the runs this call closed are listed.
  std::vector<json> summaries;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    json summary = CloseRun(*runs[i]);
    if (was_open[i]) summaries.push_back(std::move(summary));
  }
  return summaries;
}

}  // namespace gemini_oracle::serve
