#include "oracles/runner/suite_runner.h"

#include <fnmatch.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>
#include <random>
#include <system_error>
#include <thread>

#include "oracles/capture/capture_server.h"
#include "oracles/checks/judge.h"
#include "oracles/checks/judge_json.h"
#include "oracles/checks/wire_view.h"
#include "oracles/model/call_pieces.h"
#include "oracles/runner/answered_check.h"
#include "oracles/runner/call_matching.h"
#include "oracles/runner/case_loader.h"
#include "oracles/runner/case_rules.h"
#include "oracles/runner/driver_protocol.h"
#include "oracles/runner/threads.h"
#include "reports/index.h"

namespace gemini_oracle::runner {
namespace {

// A streamed answer as the capture server serves it (INTERPRETING §5.3): the stream's bytes
// cut at `split_at` (or after each event), each piece one HTTP chunk after the stream's delay,
// and only the first `cut_at` bytes sent before the connection is closed mid-body.
capture::ScriptedResponse StreamedTurn(capture::ScriptedResponse turn,
                                       const model::StreamScript& stream) {
  const std::string bytes = stream.Bytes();
  const std::size_t end = stream.cut_at ? std::min(*stream.cut_at, bytes.size()) : bytes.size();
  std::vector<std::size_t> bounds = stream.split_at.empty() ? stream.EventEnds() : stream.split_at;
  bounds.push_back(bytes.size());
  turn.streamed = true;
  turn.body.clear();
  turn.cut = stream.cut_at.has_value();
  std::size_t from = 0;
  for (const std::size_t bound : bounds) {
    const std::size_t to = std::min(bound, end);
    if (to <= from) continue;
    const auto delay = std::chrono::milliseconds(turn.chunks.empty() ? 0 : stream.delay_ms);
    turn.chunks.push_back({bytes.substr(from, to - from), delay});
    from = to;
  }
  return turn;
}

std::uint64_t Fnv1a(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  return hash;
}

// Reason tags the outcome judge puts first in its messages (GUIDE §3.5, closed verdict set).
std::string ReasonOf(const checks::Finding& finding) {
  static const char* const kTags[] = {"should-have-accepted", "should-have-refused", "wrong-error",
                                      "contacted-before-refusal", "wire-violation"};
  for (const char* tag : kTags) {
    if (finding.message.rfind(tag, 0) == 0) return tag;
  }
  return "wire-violation";
}

// What one finding's expected, actual or nearest value may take in the reports.
constexpr std::size_t kMaxFindingValueBytes = 4096;

// Copying or printing a decoded value recurses once per level: a body nested deeper than any
// real request (a foreign implementation may send anything) is left undecoded.
bool ShallowEnough(const std::string& body) {
  constexpr int kMaxDepth = 512;
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxDepth) return false;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return true;
}

// The journal's request bodies decoded once each, for the reports' view of a finding.
class SentBodies {
 public:
  explicit SentBodies(const std::vector<capture::JournalEntry>& journal) : journal_(journal) {}

  // Request `number` (1-based) as JSON, or nullptr when it is missing or not JSON.
  const nlohmann::json* Get(std::size_t number) {
    if (number == 0 || number > journal_.size()) return nullptr;
    auto [it, inserted] = decoded_.try_emplace(number);
    if (inserted && ShallowEnough(journal_[number - 1].body)) {
      it->second = nlohmann::json::parse(journal_[number - 1].body, nullptr, false);
    } else if (inserted) {
      it->second = nlohmann::json(nlohmann::json::value_t::discarded);
    }
    return it->second.is_discarded() ? nullptr : &it->second;
  }

 private:
  const std::vector<capture::JournalEntry>& journal_;
  std::map<std::size_t, nlohmann::json> decoded_;
};

const nlohmann::json* Resolve(const nlohmann::json& document, const std::string& pointer) {
  try {
    const nlohmann::json::json_pointer parsed(pointer);
    return document.contains(parsed) ? &document.at(parsed) : nullptr;
  } catch (const nlohmann::json::exception&) {
    return nullptr;
  }
}

nlohmann::json FindingJson(const checks::Finding& f, bool gating, SentBodies& sent) {
  nlohmann::json out = nlohmann::json::object();
  out["clause"] = f.clause;
  out["level"] = f.level;
  out["gating"] = gating;
  out["pointer"] = f.pointer;
  if (f.request) out["request"] = *f.request;
  // Converted through text so the sorted report keeps the values' kinds (1.0 stays 1.0);
  // a value past the budget is left out (its size kept), so no finding can flood the reports.
  const auto bounded = [&out](const char* key, const std::string& text) {
    if (text.size() > kMaxFindingValueBytes) {
      out[key] = nullptr;
      out[std::string(key) + "_omitted_bytes"] = text.size();
    } else {
      out[key] = nlohmann::json::parse(text);
    }
  };
  // A big integer (a binary value of the judges' reader) is shown as its digits, marked.
  bounded("expected", DumpJson(checks::Readable(f.expected)));
  bounded("actual", DumpJson(checks::Readable(f.actual)));
  out["message"] = f.message;
  // A pointer the request lacks: show where the request stops, so a reader sees what was
  // sent there instead of a bare "absent".
  const nlohmann::json* body = f.request ? sent.Get(*f.request) : nullptr;
  if (body != nullptr && !f.pointer.empty() && Resolve(*body, f.pointer) == nullptr) {
    std::string parent = f.pointer;
    const nlohmann::json* found = nullptr;
    while (found == nullptr && !parent.empty()) {
      parent.erase(parent.rfind('/'));
      found = Resolve(*body, parent);
    }
    out["absent"] = true;
    if (f.actual.is_string() && f.actual.get<std::string>() == "absent") out["actual"] = nullptr;
    out["nearest_pointer"] = parent;
    const nlohmann::json& nearest = found != nullptr ? *found : *body;
    const std::string nearest_text = nearest.dump();
    if (nearest_text.size() > kMaxFindingValueBytes) {
      out["nearest_value"] = nullptr;
      out["nearest_value_omitted_bytes"] = nearest_text.size();
    } else {
      out["nearest_value"] = nearest;
    }
  }
  return out;
}

// Bodies kept per case in the reports: enough for any real conversation, bounded so that an
// implementation sending huge requests cannot fill the disk through four report formats.
constexpr std::size_t kMaxSentBytesPerCase = 256 * 1024;

nlohmann::json SentJson(const std::vector<capture::JournalEntry>& journal) {
  nlohmann::json sent = nlohmann::json::array();
  std::size_t budget = kMaxSentBytesPerCase;
  for (const auto& entry : journal) {
    nlohmann::json request = nlohmann::json::object();
    request["request"] = entry.index + 1;
    request["method"] = entry.method;
    request["path"] = entry.path;
    if (!entry.query.empty()) request["query"] = entry.query;
    request["bytes"] = entry.body.size();
    // Raw bytes as sent (invalid UTF-8 is replaced on output), cut at the case's budget.
    const std::size_t kept = std::min(budget, entry.body.size());
    request["body"] = entry.body.substr(0, kept);
    if (kept < entry.body.size()) request["truncated"] = true;
    budget -= kept;
    sent.push_back(std::move(request));
  }
  return sent;
}

nlohmann::json BaseResult(const Case& c, const SuiteOptions& options) {
  nlohmann::json r = nlohmann::json::object();
  r["id"] = c.id;
  std::filesystem::path file = c.file;
  if (!options.relative_to.empty()) {
    const auto relative =
        c.file.lexically_normal().lexically_relative(options.relative_to.lexically_normal());
    if (!relative.empty() && *relative.begin() != "..") file = relative;
  }
  r["file"] = file.generic_string();
  r["description"] = c.description;
  r["clauses"] = c.clauses;
  r["features"] = c.features;
  r["expected"] = std::string(ToString(c.expected));
  // A streamed twin names the case it was derived from (INTERPRETING §5.5).
  if (c.twin && c.twin->original) r["twin_of"] = c.twin->original->id;
  r["findings"] = nlohmann::json::array();
  r["requests"] = 0;
  r["request_bytes"] = 0;
  r["duration_ms"] = 0.0;
  r["reason"] = "";
  return r;
}

// The answers the capture server serves for a case, in exchange order.
std::vector<capture::ScriptedResponse> ScriptOf(const Case& c) {
  std::vector<capture::ScriptedResponse> turns;
  for (const auto& ex : c.exchanges) {
    capture::ScriptedResponse turn;
    turn.status = ex.response.status;
    turn.headers = ex.response.headers;
    turn.body = ex.response.raw_body ? *ex.response.raw_body : DumpJson(ex.response.body);
    turn.delay = std::chrono::milliseconds(ex.response.delay_ms);
    if (ex.response.stream) turn = StreamedTurn(std::move(turn), *ex.response.stream);
    turns.push_back(std::move(turn));
  }
  return turns;
}

// The first exchange (1-based) whose answer is streamed; one past the last when none is.
std::size_t FirstStreamedExchange(const Case& c) {
  for (std::size_t k = 0; k < c.exchanges.size(); ++k) {
    if (c.exchanges[k].response.stream) return k + 1;
  }
  return c.exchanges.size() + 1;
}

// Whether the initial transcript carries a call in pieces (INTERPRETING §5.6): state captured
// from a stream before the case began, which every request carries.
bool CarriesCallInPieces(const Case& c) {
  if (!c.transcript.is_array()) return false;
  return std::any_of(c.transcript.begin(), c.transcript.end(), [](const Json& message) {
    const Json* parts = checks::detail::CapsuleNativeParts(message);
    return parts != nullptr && model::HoldsCallInPieces(*parts, model::GroupCalls(*parts));
  });
}

bool CitesOnlyBeyond(const Case& c, const ClauseRegistry& registry) {
  if (c.clauses.empty()) return false;
  return std::all_of(c.clauses.begin(), c.clauses.end(), [&registry](const std::string& id) {
    const auto level = registry.LevelOf(id);
    return level && *level == Level::kBeyond;
  });
}

// What rests on reading streams gates no more than ADR-226.B1 does (INTERPRETING §9): ADR-226
// leaves "new streamed capture" separate, and ADR-224 "makes no ... new streamed-response
// capture claim".
void DemoteWhatRestsOnStreams(const Case& c, const ClauseRegistry& registry,
                              const std::vector<capture::JournalEntry>& journal,
                              const DriverReport& report, std::vector<checks::Finding>& findings) {
  // A case citing only beyond clauses rests on a premise the ADRs leave separate (a state
  // captured from a stream). A request sent before the first streamed answer carries nothing
  // captured from a stream; a premise-free finding holds whatever was captured.
  if (CitesOnlyBeyond(c, registry)) {
    const std::size_t first_streamed = CarriesCallInPieces(c) ? 0 : FirstStreamedExchange(c);
    for (auto& f : findings) {
      if (f.level != "must" || f.premise_free) continue;
      if (f.request && *f.request <= first_streamed) continue;
      f.level = "beyond";
    }
  }
  // A refusal while reading a streamed answer, after its request went out, concerns the
  // reading of a stream, whatever the case cites: ADR-226.B1's, not the case's own clause.
  if (checks::RefusedReadingStreamedAnswer(c, journal, report)) {
    for (auto& f : findings) {
      const std::string_view tag = checks::ReasonTag(f);
      if (f.level == "must" && (tag == checks::kShouldHaveAccepted || tag == checks::kWrongError)) {
        f.clause = "ADR-226.B1";
        f.level = "beyond";
      }
    }
  }
}

bool IsGating(const checks::Finding& f, const SuiteOptions& options) {
  if (f.level == "must") return true;
  if (f.level == "beyond") return options.beyond_gates;
  return options.strict && f.level == "open";
}

// A run the application stopped because the implementation's parse did not fit the case's
// actions (DriverReport::stopped) never passes silently. The case checker made the actions fit
// the answer the server sent, so when the stopped exchange's selectors pick no single call
// among the calls reported (taken for the parts they are, §5.4), the parse lost, merged,
// renamed or altered calls: the public calls' judges find it, and their findings decide at
// their own levels (a lost or renamed call is a must finding, ADR-224.11, 226.2, 226.20; an
// open ADR-224.F1 drift that made a strict `args` selector miss gates only under --strict).
// When every selector picks one call, nothing in the calls stopped the application: the stop
// is the driver's own, and the returned reason makes the case an `error`, unless a finding
// already fails it. What the stop left undone (requests never sent, the accepted outcome, a
// refusal due at a later exchange) is listed as not judged either way.
std::optional<std::string> GateStoppedRun(const Case& c, const DriverReport& report,
                                          std::size_t sent, const SuiteOptions& options,
                                          std::vector<checks::Finding>& findings,
                                          nlohmann::json& not_judged) {
  if (!report.stopped) return std::nullopt;
  const std::size_t stop = report.stopped->exchange;
  for (const auto& clause : c.clauses) {
    nlohmann::json note = nlohmann::json::object();
    note["clause"] = clause;
    note["reason"] = "the application stopped at exchange " + std::to_string(stop) +
                     ": the rest of the conversation was not run";
    not_judged.push_back(std::move(note));
  }
  // What the stop left undone (requests never sent, the accepted outcome, a refusal due at a
  // later exchange) is not judged.
  const bool refusal_later = c.expect.exchange && *c.expect.exchange > stop;
  std::erase_if(findings, [&](const checks::Finding& f) {
    const std::string_view tag = checks::ReasonTag(f);
    const bool undone = (!report.refusal && tag == checks::kShouldHaveAccepted) ||
                        (refusal_later && tag == checks::kShouldHaveRefused) ||
                        (f.request && *f.request > sent);
    if (!undone) return false;
    nlohmann::json note = nlohmann::json::object();
    note["clause"] = f.clause;
    note["reason"] = "not run: the application stopped at exchange " + std::to_string(stop);
    not_judged.push_back(std::move(note));
    return true;
  });
  // A stop naming an exchange the case or the report does not have breaks the protocol, which
  // the protocol reader refuses; here it explains nothing.
  const bool explained = stop >= 1 && stop <= c.exchanges.size() &&
                         stop <= report.exchanges.size() &&
                         !SelectorsFit(c.exchanges[stop - 1], report.exchanges[stop - 1].calls);
  const bool gates = std::any_of(findings.begin(), findings.end(),
                                 [&](const checks::Finding& f) { return IsGating(f, options); });
  if (explained || gates) return std::nullopt;
  return "the application stopped at exchange " + std::to_string(stop) +
         " although every selector there picks one of the calls the implementation reported (" +
         report.stopped->reason + "); the driver's run is not the case's";
}

nlohmann::json RunOne(const Case& c, capture::CaptureServer& server, Driver& driver,
                      const ClauseRegistry& registry, const SuiteOptions& options,
                      const std::function<bool()>& timed_out) {
  nlohmann::json result = BaseResult(c, options);
  for (const auto& feature : options.unsupported_features) {
    if (c.HasFeature(feature)) {
      result["verdict"] = std::string(reports::kSkipped);
      result["reason"] = "unsupported feature: " + feature;
      return result;
    }
  }
  if (options.capabilities) {
    for (const std::string& needed : protocol::RequiredCapabilities(c)) {
      if (options.capabilities->count(needed) == 0) {
        result["verdict"] = std::string(reports::kSkipped);
        result["reason"] = "the driver lacks the capability " + needed;
        return result;
      }
    }
  }
  const auto started = std::chrono::steady_clock::now();
  std::vector<capture::ScriptedResponse> turns = ScriptOf(c);
  // A streamed twin's original is first run with every answer sent whole, under its own
  // script, so the stream-equivalence judge has the requests to compare (INTERPRETING §5.5).
  std::optional<std::vector<capture::JournalEntry>> whole_journal;
  std::optional<DriverReport> whole_report;
  if (c.twin && c.twin->original) {
    const std::string whole = server.AddScript(ScriptOf(*c.twin->original));
    DriverReport sent_whole;
    try {
      sent_whole = driver.Run(*c.twin->original, server.BaseUrl(whole));
    } catch (const std::exception& e) {
      sent_whole.harness_error = std::string("driver threw: ") + e.what();
    }
    whole_journal = server.Journal(whole);
    server.RemoveScript(whole);
    whole_report = std::move(sent_whole);
  }
  // A conversation the driver suspends into a store is first run kept in memory, under its
  // own script, so the resume-equivalence judge has the requests to compare (ADR-226.18).
  std::optional<std::vector<capture::JournalEntry>> baseline_journal;
  std::optional<DriverReport> baseline_report;
  // A whole-answer run that timed out already decides the verdict: nothing more is asked.
  if (driver.Persists(c) && !(whole_report && whole_report->timed_out)) {
    const std::string baseline = server.AddScript(turns);
    DriverReport in_memory;
    try {
      in_memory = driver.RunInMemory(c, server.BaseUrl(baseline));
    } catch (const std::exception& e) {
      in_memory.harness_error = std::string("driver threw: ") + e.what();
    }
    baseline_journal = server.Journal(baseline);
    server.RemoveScript(baseline);
    baseline_report = std::move(in_memory);
  }
  const std::string script = server.AddScript(std::move(turns));
  DriverReport report;
  // A run before this one that timed out already decides the verdict: the case is not asked.
  const DriverReport* late = whole_report && whole_report->timed_out         ? &*whole_report
                             : baseline_report && baseline_report->timed_out ? &*baseline_report
                                                                             : nullptr;
  if (late != nullptr) {
    report.timed_out = true;
    report.harness_error =
        (late == &*whole_report ? std::string("the run with every answer sent whole: ")
                                : std::string("the run kept in memory: ")) +
        late->harness_error.value_or("no answer in time");
  } else {
    try {
      report = driver.Run(c, server.BaseUrl(script));
    } catch (const std::exception& e) {
      report.harness_error = std::string("driver threw: ") + e.what();
    }
  }
  // A driver whose tool lookup paired a result with another call ran another conversation.
  if (!report.harness_error && !report.skipped) {
    if (auto wrong = CheckAnsweredCalls(c, report)) report.harness_error = *wrong;
  }
  // A run the driver declined, kept in memory or sent whole, leaves nothing to compare with.
  if (!report.harness_error && !report.skipped && baseline_report && baseline_report->skipped) {
    report.skipped = "the run kept in memory: " + *baseline_report->skipped;
  }
  if (!report.harness_error && !report.skipped && whole_report && whole_report->skipped) {
    report.skipped = "the run with every answer sent whole: " + *whole_report->skipped;
  }
  if (baseline_report && baseline_report->harness_error && !report.harness_error) {
    report.harness_error = "the run kept in memory: " + *baseline_report->harness_error;
  }
  if (whole_report && whole_report->harness_error && !report.harness_error) {
    report.harness_error = "the run with every answer sent whole: " + *whole_report->harness_error;
  }
  const std::vector<capture::JournalEntry> journal = server.Journal(script);
  server.RemoveScript(script);
  // A refusal its driver could not place (a framework that raises says neither exchange nor
  // phase) is placed from each run's own journal (INTERPRETING §15.1).
  if (protocol::PlaceRefusal(c, journal.size(), report)) result["refusal_placed"] = true;
  if (whole_report && whole_journal) {
    protocol::PlaceRefusal(*c.twin->original, whole_journal->size(), *whole_report);
  }
  if (baseline_report && baseline_journal) {
    protocol::PlaceRefusal(c, baseline_journal->size(), *baseline_report);
  }
  result["requests"] = journal.size();
  std::size_t request_bytes = 0;
  for (const auto& entry : journal) request_bytes += entry.body.size();
  result["request_bytes"] = request_bytes;

  if (timed_out() || report.timed_out) {
    // What the cancelled driver reported is an artefact of the cancellation: not judged.
    result["verdict"] = std::string(reports::kTimeout);
    result["reason"] = report.timed_out && report.harness_error
                           ? *report.harness_error
                           : "no verdict within the case time limit of " +
                                 std::to_string(options.case_timeout.count()) + " ms";
  } else if (report.harness_error) {
    result["verdict"] = std::string(reports::kError);
    result["reason"] = *report.harness_error;
  } else if (report.skipped) {
    // A driver may find out mid-run that its application cannot go on (INTERPRETING §15.1):
    // the case is skipped, and what went out before is said, not judged (a partial run is
    // not the case's).
    result["verdict"] = std::string(reports::kSkipped);
    // The count is in `requests`: one text for like skips, so they group.
    result["reason"] = journal.empty() ? "the driver skipped it: " + *report.skipped
                                       : "the driver skipped it after requests went out (not "
                                         "judged): " +
                                             *report.skipped;
  } else {
    SentBodies sent(journal);
    // A driver without typed errors reports its own error class: mapped to the catalogue's
    // code when the error map has it, else its code is not judged (INTERPRETING §15.4).
    // The runs compared with this one (kept in memory, sent whole) are mapped the same way.
    const bool untyped = options.capabilities && options.capabilities->count("typed-errors") == 0;
    const auto map_code = [&](DriverReport& r) {
      if (!untyped || !r.refusal) return true;
      const auto mapped = options.error_map.find(r.refusal->code);
      if (mapped == options.error_map.end()) return false;
      r.refusal->code = mapped->second;
      return true;
    };
    // The class is the driver's own text: made safe like its reasons (never the case's strings).
    if (untyped && report.refusal) {
      result["refusal_class"] = protocol::SafeDriverText(report.refusal->code, &c, 64);
    }
    const bool refusal_code_judged = map_code(report);
    if (baseline_report) map_code(*baseline_report);
    if (whole_report) map_code(*whole_report);
    checks::CaseRun run{c, journal, report};
    run.profile = options.profile;
    run.refusal_code_judged = refusal_code_judged;
    if (baseline_journal) {
      run.baseline_journal = &*baseline_journal;
      run.baseline_report = &*baseline_report;
    }
    if (whole_journal) {
      run.whole_journal = &*whole_journal;
      run.whole_report = &*whole_report;
    }
    std::vector<checks::Finding> findings = checks::JudgeAll(run);
    // A clause the run's profile does not judge (registry `profiles`) is not judged on the
    // wire, whichever judge found something about it. Outcome findings (a refusal where
    // acceptance was due, ...) only cite the case's clause and still count.
    const std::string profile(checks::ToString(options.profile));
    for (auto& f : findings) {
      const Clause* clause = registry.Find(f.clause);
      if (clause == nullptr || clause->profiles.empty() ||
          checks::ReasonTag(f) != checks::kWireViolation) {
        continue;
      }
      if (std::find(clause->profiles.begin(), clause->profiles.end(), profile) ==
          clause->profiles.end()) {
        f = checks::NotJudged(f.clause, "profile " + profile + " does not judge this clause");
      }
    }
    // A check that could not run is listed as such, never folded into a pass.
    result["not_judged"] = nlohmann::json::array();
    std::erase_if(findings, [&result](const checks::Finding& f) {
      if (checks::ReasonTag(f) != checks::kNotJudged) return false;
      nlohmann::json note = nlohmann::json::object();
      note["clause"] = f.clause;
      note["reason"] = f.message.substr(checks::kNotJudged.size() + 2);
      result["not_judged"].push_back(std::move(note));
      return true;
    });
    // The registry decides levels, so promoting a clause is a one-line data change.
    for (auto& f : findings) {
      if (const auto level = registry.LevelOf(f.clause)) f.level = std::string(ToString(*level));
    }
    DemoteWhatRestsOnStreams(c, registry, journal, report, findings);
    // A broken HTTP exchange with the capture server (which answers every request) says
    // nothing about the outcome: the outcome findings it causes are dropped, and unless what
    // did reach the wire fails a judge (a request that should never have been sent, a wire
    // violation in an earlier request), the case is a harness error, not a verdict.
    const bool broken_transport =
        report.refusal && report.refusal->code == "http.transport" &&
        !(c.expect.outcome == Expected::kRefuse && c.expect.error == "http.transport");
    if (broken_transport) {
      std::erase_if(findings, [](const checks::Finding& f) {
        const std::string_view tag = checks::ReasonTag(f);
        return tag == checks::kShouldHaveAccepted || tag == checks::kWrongError ||
               tag == checks::kShouldHaveRefused;
      });
    }
    const std::optional<std::string> unexplained_stop =
        GateStoppedRun(c, report, journal.size(), options, findings, result["not_judged"]);
    std::optional<std::string> reason;
    for (const auto& f : findings) {
      const bool gating = IsGating(f, options);
      result["findings"].push_back(FindingJson(f, gating, sent));
      if (gating && !reason) reason = ReasonOf(f);
    }
    // An i_ case leaves its one behaviour open, not the rest of the wire: a gating finding
    // (an array root, a leaked ID) still fails it.
    if (broken_transport && !reason) {
      result["verdict"] = std::string(reports::kError);
      result["reason"] =
          "transport failure between the implementation and the capture server "
          "in exchange " +
          std::to_string(report.refusal->exchange) + "; not a conformance verdict";
    } else if (unexplained_stop && !reason) {
      result["verdict"] = std::string(reports::kError);
      result["reason"] = *unexplained_stop;
    } else if (!reason && journal.empty() && !report.refusal && !c.exchanges.empty()) {
      // Nothing happened: no request, no refusal. Whatever was found sits under clauses that
      // do not gate (an open-only case), so a pass would stand for a case that was not run.
      result["verdict"] = std::string(reports::kError);
      result["reason"] = "not run: no request went out and no refusal was reported over the "
                         "case's " + std::to_string(c.exchanges.size()) +
                         " exchanges; nothing that gates was judged";
      for (const auto& clause : c.clauses) {
        result["not_judged"].push_back(
            {{"clause", clause}, {"reason", "not run: no request went out and no refusal"}});
      }
    } else if (c.expected == Expected::kImplementationDefined && !reason) {
      result["verdict"] = std::string(reports::kImplementationDefined);
      result["reason"] = report.refusal ? "refused: " + report.refusal->code : "accepted";
    } else if (reason) {
      result["verdict"] = std::string(reports::kFail);
      result["reason"] = *reason;
    } else {
      result["verdict"] = std::string(reports::kPass);
    }
  }
  if (options.keep_requests || reports::Gates(result)) result["sent"] = SentJson(journal);
  const auto elapsed = std::chrono::steady_clock::now() - started;
  result["duration_ms"] =
      std::round(std::chrono::duration<double, std::milli>(elapsed).count() * 1000.0) / 1000.0;
  return result;
}

}  // namespace

std::optional<Shard> ParseShard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  // Digits only: stoul would take " 1" and "+1".
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i != slash && !std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
  }
  try {
    std::size_t used = 0;
    const auto index = std::stoul(text.substr(0, slash), &used);
    if (used != slash) return std::nullopt;
    const std::string rest = text.substr(slash + 1);
    const auto count = std::stoul(rest, &used);
    if (used != rest.size() || count == 0 || index == 0 || index > count) return std::nullopt;
    return Shard{index, count};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool InShard(const std::string& case_id, const Shard& shard) {
  return Fnv1a(case_id) % shard.count == shard.index - 1;
}

bool InShard(const Case& c, const Shard& shard) { return InShard(c.id, shard); }

nlohmann::json BadFixtureResults(const std::vector<Diagnostic>& diagnostics,
                                 const std::filesystem::path& fixtures_root, const Shard& shard,
                                 const SuiteOptions& options) {
  // One entry per id: entries that would take one id (a folder "y_x.json" and a file "y_x")
  // are one result, never two results of one id.
  std::map<std::string, std::map<std::string, std::vector<const Diagnostic*>>> by_id;
  for (const auto& d : diagnostics) {
    by_id[BadFixtureId(d.file, fixtures_root)][d.file].push_back(&d);
  }
  nlohmann::json array = nlohmann::json::array();
  for (const auto& [id, by_file] : by_id) {
    if (!InShard(id, shard)) continue;
    const std::string& file = by_file.begin()->first;
    Case placeholder;
    placeholder.id = id;
    placeholder.file = file;
    nlohmann::json result = BaseResult(placeholder, options);
    const std::string name = std::filesystem::path(file).filename().string();
    const auto expected = ExpectedFromFileName(name);
    result["expected"] = expected ? std::string(ToString(*expected)) : std::string();
    result["verdict"] = std::string(reports::kError);
    result["bad_fixture"] = true;
    std::size_t count = 0;
    nlohmann::json list = nlohmann::json::array();
    for (const auto& [path, found] : by_file) {
      for (const Diagnostic* d : found) {
        nlohmann::json entry = {
            {"line", d->line}, {"column", d->column}, {"rule", d->rule}, {"message", d->message}};
        if (by_file.size() > 1) {
          Case named;
          named.file = path;
          entry["file"] = BaseResult(named, options)["file"];
        }
        list.push_back(std::move(entry));
        ++count;
      }
    }
    result["reason"] = "bad fixture: " + std::to_string(count) + " problem" +
                       (count == 1 ? "" : "s") + ", first [" + list[0]["rule"].get<std::string>() +
                       "]";
    result["diagnostics"] = std::move(list);
    array.push_back(std::move(result));
  }
  return array;
}

void AddBadFixtureResults(nlohmann::json& results, const nlohmann::json& bad) {
  std::map<std::string, std::size_t> at;  // id -> index in results
  for (std::size_t i = 0; i < results.size(); ++i) {
    at.emplace(results[i]["id"].get<std::string>(), i);
  }
  for (const auto& entry : bad) {
    const auto it = at.find(entry["id"].get<std::string>());
    if (it == at.end()) {
      results.push_back(entry);
      continue;
    }
    // A run's result of this id cannot be told from the bad entry in a report keyed on ids.
    nlohmann::json merged = entry;
    merged["diagnostics"].push_back(
        {{"line", 0},
         {"column", 0},
         {"rule", std::string(rules::kIdUnique)},
         {"message", "a case of this run (" + results[it->second].value("file", std::string()) +
                         ") has the same id; its verdict is not reported"}});
    results[it->second] = std::move(merged);
  }
  std::stable_sort(results.begin(), results.end(), [](const auto& a, const auto& b) {
    return a["id"].template get<std::string>() < b["id"].template get<std::string>();
  });
}

bool MatchesFilter(const Case& c, const std::string& filter) {
  if (filter.empty()) return true;
  // Upper case only: "adr-226/y_*" is a glob over ids (folders are lower case).
  if (filter.rfind("ADR-", 0) == 0) {
    // "ADR-226" and "ADR-226." select the whole ADR, "ADR-" every clause; "ADR-226.1" does
    // not select ADR-226.10 (a filter ending in a digit stops at a clause-id boundary).
    const bool at_boundary = std::isdigit(static_cast<unsigned char>(filter.back())) != 0;
    return std::any_of(c.clauses.begin(), c.clauses.end(), [&](const std::string& id) {
      if (id.rfind(filter, 0) != 0) return false;
      return !at_boundary || id.size() == filter.size() || id[filter.size()] == '.';
    });
  }
  if (c.HasFeature(filter)) return true;
  const std::string stem = c.Stem();
  return fnmatch(filter.c_str(), c.id.c_str(), 0) == 0 ||
         fnmatch(filter.c_str(), stem.c_str(), 0) == 0;
}

nlohmann::json RunSuite(const std::vector<Case>& cases, const ClauseRegistry& registry,
                        const DriverFactory& make_driver, const SuiteOptions& options) {
  std::vector<nlohmann::json> results(cases.size());
  std::vector<std::size_t> order(cases.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(options.seed);
  std::shuffle(order.begin(), order.end(), rng);

  // The capture server listens on a thread of its own: without one (a process limit) no case
  // can run, and each case says so.
  std::optional<capture::CaptureServer> server;
  std::string not_run = "not run: no driver could be started";
  try {
    server.emplace();
  } catch (const std::exception& e) {
    not_run = std::string("not run: the capture server could not start (") + e.what() + ")";
    HarnessNote(not_run.substr(9));
  }
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> gating{0};
  std::atomic<bool> stop{false};
  std::mutex progress_mutex;
  std::size_t done = 0;
  const std::size_t fail_limit =
      options.fail_fast ? 1 : options.max_fail.value_or(static_cast<std::size_t>(-1));
  const unsigned jobs = std::max(1u, options.jobs);

  // What the watchdog sees of each worker: the driver of the case under way and its deadline.
  struct Watch {
    std::mutex mu;
    Driver* driver = nullptr;
    std::chrono::steady_clock::time_point deadline;
    bool timed_out = false;
  };
  std::vector<Watch> watches(jobs);
  const bool limited = options.case_timeout.count() > 0;

  auto worker = [&](unsigned j) {
    std::unique_ptr<Driver> driver;
    try {
      driver = make_driver();
    } catch (const std::exception&) {
      return;  // the other workers (or the main thread's) take the cases
    }
    if (!driver) return;
    Watch& watch = watches[j];
    for (;;) {
      const std::size_t slot = next.fetch_add(1);
      if (slot >= order.size()) return;
      const std::size_t i = order[slot];
      nlohmann::json result;
      if (stop.load()) {
        result = BaseResult(cases[i], options);
        result["verdict"] = std::string(reports::kSkipped);
        result["reason"] = "not run: failure limit reached";
      } else {
        {
          std::lock_guard lock(watch.mu);
          watch.driver = driver.get();
          watch.deadline = std::chrono::steady_clock::now() + options.case_timeout;
          watch.timed_out = false;
        }
        const auto timed_out = [&watch] {
          std::lock_guard lock(watch.mu);
          return watch.timed_out;
        };
        try {
          result = RunOne(cases[i], *server, *driver, registry, options, timed_out);
        } catch (const std::exception& e) {
          // A throwing judge or writer must not end the run; the case reports it.
          result = BaseResult(cases[i], options);
          result["verdict"] = std::string(reports::kError);
          result["reason"] = std::string("harness: ") + e.what();
        }
        {
          std::lock_guard lock(watch.mu);
          watch.driver = nullptr;
        }
        if (reports::Gates(result) && gating.fetch_add(1) + 1 >= fail_limit) stop.store(true);
      }
      std::lock_guard<std::mutex> lock(progress_mutex);
      results[i] = std::move(result);
      ++done;
      if (options.progress) options.progress(results[i], done, cases.size());
    }
  };

  // Cancels a case past its deadline, again at every tick until its driver returns: a
  // cancellation that lands just before the driver starts talking must not be lost.
  std::mutex tick_mutex;
  std::condition_variable tick;
  bool finished = false;
  // A worker needs two threads: its own (the calling thread's for the first) and the capture
  // server's for its keep-alive connection; the watchdog one more. Under a process limit the
  // run takes the workers there are threads for, and running at all comes before the limit.
  unsigned workers = server ? jobs : 0;
  bool watched = limited && workers > 0;
  if (server) {
    const unsigned wanted = 2 * jobs - 1 + (limited ? 1 : 0);
    const unsigned available = ThreadsAvailable(wanted);
    if (available < wanted) {
      watched = limited && available >= 2;
      workers = std::min(jobs, (available + 1 - (watched ? 1 : 0)) / 2);
      HarnessNote(
          "threads for " + std::to_string(available) + " of the " + std::to_string(wanted) +
          " wanted (a process limit): " + std::to_string(workers) + " of " + std::to_string(jobs) +
          " workers" +
          (limited && !watched ? ", and no watchdog: the case time limit is not kept" : ""));
      if (workers == 0) not_run = "not run: no thread was left to answer the driver's requests";
    }
  }
  std::thread watchdog;
  if (watched) {
    try {
      watchdog = std::thread([&] {
        std::unique_lock lock(tick_mutex);
        while (!tick.wait_for(lock, std::chrono::milliseconds(50), [&] { return finished; })) {
          const auto now = std::chrono::steady_clock::now();
          for (Watch& watch : watches) {
            std::lock_guard guard(watch.mu);
            if (watch.driver != nullptr && now >= watch.deadline) {
              watch.timed_out = true;
              watch.driver->Cancel();
            }
          }
        }
      });
    } catch (const std::system_error& e) {
      HarnessNote("the case time limit is not kept: its watchdog thread could not start (" +
                  e.code().message() + ")");
    }
  }
  if (workers > 0) {
    std::vector<std::thread> threads = StartThreads(workers - 1, worker, "case workers");
    worker(0);
    for (auto& t : threads) t.join();
  }
  if (watchdog.joinable()) {
    {
      std::lock_guard lock(tick_mutex);
      finished = true;
    }
    tick.notify_all();
    watchdog.join();
  }

  nlohmann::json array = nlohmann::json::array();
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (results[i].is_null()) {  // no worker could start a driver
      results[i] = BaseResult(cases[i], options);
      results[i]["verdict"] = std::string(reports::kError);
      results[i]["reason"] = not_run;
    }
    array.push_back(std::move(results[i]));
  }
  return array;
}

}  // namespace gemini_oracle::runner
