#include "oracles/runner/suite_runner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

#include "oracles/runner/case_loader.h"
#include "reference_impl/http_client.h"
#include "tests/source_root.h"

namespace gemini_oracle::runner {
namespace {

Case MakeCase(std::string id, std::vector<std::string> clauses,
              std::vector<std::string> features = {}) {
  Case c;
  c.id = std::move(id);
  c.file = c.id + ".json";
  c.clauses = std::move(clauses);
  c.features = std::move(features);
  return c;
}

// Accepts i/n with 1 <= i <= n and nothing else.
TEST(ParseShard, AcceptsOnlyIOverN) {
  ASSERT_TRUE(ParseShard("1/1"));
  EXPECT_EQ(ParseShard("2/4")->index, 2u);
  EXPECT_EQ(ParseShard("2/4")->count, 4u);
  for (const char* bad :
       {"", "1", "0/2", "3/2", "1/0", "a/b", "1/2x", "-1/2", "1//2", " 1/2", "+1/2"}) {
    EXPECT_FALSE(ParseShard(bad)) << bad;
  }
}

// Puts every case in exactly one shard, by a hash of its id (stable across corpus changes).
TEST(InShard, PartitionsCases) {
  std::size_t total = 0;
  for (int i = 0; i < 200; ++i) {
    const Case c = MakeCase("adr-226/y_case_" + std::to_string(i), {"ADR-226.3"});
    int shards = 0;
    for (std::size_t s = 1; s <= 4; ++s) shards += InShard(c, Shard{s, 4}) ? 1 : 0;
    EXPECT_EQ(shards, 1) << c.id;
    total += InShard(c, Shard{1, 4}) ? 1 : 0;
  }
  EXPECT_GT(total, 20u);  // no shard is empty or holds everything
  EXPECT_LT(total, 80u);
}

// Selects by clause prefix at a boundary, by feature, or by glob over id and stem.
TEST(MatchesFilter, ClauseFeatureOrGlob) {
  const Case c = MakeCase("adr-226/y_identical_calls", {"ADR-226.10", "ADR-224.1"}, {"parallel"});
  EXPECT_TRUE(MatchesFilter(c, ""));
  EXPECT_TRUE(MatchesFilter(c, "ADR-226.10"));
  EXPECT_TRUE(MatchesFilter(c, "ADR-226"));
  EXPECT_TRUE(MatchesFilter(c, "ADR-226."));
  EXPECT_FALSE(MatchesFilter(c, "ADR-226.1"));  // not a prefix of 226.10 at a boundary
  EXPECT_TRUE(MatchesFilter(c, "ADR-224.1"));
  EXPECT_FALSE(MatchesFilter(c, "ADR-224.2"));
  EXPECT_TRUE(MatchesFilter(c, "parallel"));
  EXPECT_FALSE(MatchesFilter(c, "closing"));
  EXPECT_TRUE(MatchesFilter(c, "adr-226/*"));
  EXPECT_TRUE(MatchesFilter(c, "*identical*"));
  EXPECT_TRUE(MatchesFilter(c, "y_identical_calls"));
  EXPECT_FALSE(MatchesFilter(c, "n_*"));
}

// Selects every clause with "ADR-" and a family with a trailing letter; globs stay globs.
TEST(MatchesFilter, PrefixesThatEndOutsideADigit) {
  const Case c = MakeCase("adr-226/y_x", {"ADR-226.F1"});
  EXPECT_TRUE(MatchesFilter(c, "ADR-"));
  EXPECT_TRUE(MatchesFilter(c, "ADR-226.F"));
  EXPECT_FALSE(MatchesFilter(c, "ADR-224."));
  EXPECT_FALSE(MatchesFilter(c, "ADR-22"));  // ends in a digit: stops at a boundary
  EXPECT_TRUE(MatchesFilter(c, "adr-226/*"));
}

// A driver that never answers until it is cancelled, as a hung implementation would.
class HangingDriver : public Driver {
 public:
  std::string Name() const override { return "hanging"; }
  DriverReport Run(const Case& c, const std::string&) override {
    DriverReport report;
    if (c.id.find("hang") == std::string::npos) return report;
    std::unique_lock lock(mu_);
    cancelled_.wait(lock, [&] { return cancelled; });
    cancelled = false;
    return report;
  }
  void Cancel() override {
    std::lock_guard lock(mu_);
    cancelled = true;
    cancelled_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cancelled_;
  bool cancelled = false;
};

// Gives a case that outlives its limit the timeout verdict and goes on with the rest.
TEST(RunSuite, CaseTimeoutCancelsAndContinues) {
  const auto registry = ClauseRegistry::Load(ClausesPath(testing::SourceRoot()));
  std::vector<Case> cases = {MakeCase("adr-226/y_hang", {"ADR-226.3"}),
                             MakeCase("adr-226/y_quick", {"ADR-226.3"})};
  for (auto& c : cases) c.expected = c.expect.outcome = Expected::kAccept;
  SuiteOptions options;
  options.case_timeout = std::chrono::milliseconds(200);
  options.jobs = 1;
  const auto started = std::chrono::steady_clock::now();
  const nlohmann::json results = RunSuite(
      cases, registry, [] { return std::make_unique<HangingDriver>(); }, options);
  const auto took = std::chrono::steady_clock::now() - started;
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0]["verdict"], "timeout");
  EXPECT_NE(results[0]["reason"].get<std::string>().find("200 ms"), std::string::npos);
  EXPECT_EQ(results[1]["verdict"], "pass") << results[1].dump();
  EXPECT_LT(took, std::chrono::seconds(20));  // a hang would never end: a bound, not a target
}

// Turns every file with diagnostics into one error entry that keeps them, by id.
TEST(BadFixtureResults, OneErrorEntryPerFile) {
  const std::vector<Diagnostic> diagnostics = {
      {"fx/adr-226/y_b.json", 3, 4, "json.syntax", "invalid JSON"},
      {"fx/adr-226/y_b.json", 5, 1, "schema", "missing"},
      {"fx/adr-224/n_a.json", 1, 1, "json.bom", "bom"}};
  const nlohmann::json entries = BadFixtureResults(diagnostics, "fx", Shard{}, SuiteOptions{});
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0]["id"], "adr-224/n_a");
  EXPECT_EQ(entries[0]["expected"], "refuse");
  EXPECT_EQ(entries[1]["id"], "adr-226/y_b");
  EXPECT_EQ(entries[1]["verdict"], "error");
  EXPECT_EQ(entries[1]["bad_fixture"], true);
  ASSERT_EQ(entries[1]["diagnostics"].size(), 2u);
  EXPECT_EQ(entries[1]["diagnostics"][0]["line"], 3);
  EXPECT_EQ(entries[1]["reason"], "bad fixture: 2 problems, first [json.syntax]");
}

// A driver whose HTTP exchange breaks, as under a descriptor limit.
class BrokenTransportDriver : public Driver {
 public:
  std::string Name() const override { return "broken-transport"; }
  DriverReport Run(const Case&, const std::string&) override {
    DriverReport report;
    report.exchanges.emplace_back();
    report.refusal = Refusal{"http.transport", "http", 1, "Connection", std::nullopt, std::nullopt};
    return report;
  }
};

// Reports a broken transport as a harness error, never as a conformance failure.
TEST(RunSuite, TransportFailureIsAHarnessError) {
  const auto registry = ClauseRegistry::Load(ClausesPath(testing::SourceRoot()));
  std::vector<Case> cases = {MakeCase("adr-226/y_a", {"ADR-226.3"})};
  cases[0].expected = cases[0].expect.outcome = Expected::kAccept;
  const nlohmann::json results = RunSuite(
      cases, registry, [] { return std::make_unique<BrokenTransportDriver>(); }, SuiteOptions{});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0]["verdict"], "error");
  EXPECT_NE(results[0]["reason"].get<std::string>().find("not a conformance verdict"),
            std::string::npos);
}

// A driver that sends the request it should have refused, then has its transport break.
class SendsThenBreaksDriver : public BrokenTransportDriver {
 public:
  std::string Name() const override { return "sends-then-breaks"; }
  DriverReport Run(const Case& c, const std::string& base_url) override {
    ref::ClientOptions options;
    options.base_url = base_url;
    ref::GeminiHttpClient client(options);
    try {
      client.GenerateContent("gemini-2.5-flash", Json::object({{"contents", Json::array()}}));
    } catch (const std::exception&) {
    }
    return BrokenTransportDriver::Run(c, base_url);
  }
};

// Still fails a case that must be refused before contact when the request reached the wire,
// although the transport broke afterwards.
TEST(RunSuite, TransportFailureDoesNotHideContact) {
  const auto registry = ClauseRegistry::Load(ClausesPath(testing::SourceRoot()));
  Case c = MakeCase("adr-226/n_a", {"ADR-226.5"});
  c.expected = c.expect.outcome = Expected::kRefuse;
  c.expect.error = "native_id.duplicate";
  c.expect.phase = "build";
  c.expect.exchange = 1;
  Exchange exchange;
  exchange.user = "go";
  exchange.response.body = Json::parse(R"({"candidates":[{"content":{"parts":[{"text":"x"}]}}]})");
  c.exchanges.push_back(exchange);
  const nlohmann::json results = RunSuite(
      {c}, registry, [] { return std::make_unique<SendsThenBreaksDriver>(); }, SuiteOptions{});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0]["verdict"], "fail") << results[0].dump(2);
  EXPECT_EQ(results[0]["reason"], "contacted-before-refusal");
}

// A driver that sends one request and reports the build, but no transcript snapshots.
class NoSnapshotDriver : public Driver {
 public:
  std::string Name() const override { return "no-snapshots"; }
  DriverReport Run(const Case&, const std::string& base_url) override {
    ref::ClientOptions options;
    options.base_url = base_url;
    ref::GeminiHttpClient client(options);
    client.GenerateContent(
        "gemini-2.5-flash",
        Json::parse(R"({"contents":[{"role":"user","parts":[{"text":"go"}]}]})"));
    DriverReport report;
    report.exchanges.emplace_back().request_built = true;
    report.exchanges.back().response_parsed = true;
    return report;
  }
};

// Lists ADR-224.9 under not_judged when the driver gives no snapshots: the case passes on what
// was judged, and the report says what was not (never a silent pass of ADR-224.9).
TEST(RunSuite, UnjudgeableCheckIsListedAsNotJudged) {
  const auto registry = ClauseRegistry::Load(ClausesPath(testing::SourceRoot()));
  Case c = MakeCase("adr-224/y_a", {"ADR-224.9"});
  c.expected = c.expect.outcome = Expected::kAccept;
  c.expect.requests = 1;
  Exchange exchange;
  exchange.user = "go";
  exchange.response.body = Json::parse(R"({"candidates":[{"content":{"parts":[{"text":"x"}]}}]})");
  c.exchanges.push_back(exchange);
  const nlohmann::json results = RunSuite(
      {c}, registry, [] { return std::make_unique<NoSnapshotDriver>(); }, SuiteOptions{});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0]["verdict"], "pass") << results[0].dump(2);
  ASSERT_EQ(results[0]["not_judged"].size(), 1u) << results[0].dump(2);
  EXPECT_EQ(results[0]["not_judged"][0]["clause"], "ADR-224.9");
  for (const auto& finding : results[0]["findings"]) EXPECT_NE(finding["clause"], "ADR-224.9");
}

// A driver that says it suspends conversations; the run through its "store" sends `stored`,
// the run kept in memory sends `memory`.
class PersistingDriver : public Driver {
 public:
  PersistingDriver(std::string memory, std::string stored, int* in_memory_runs = nullptr)
      : memory_(std::move(memory)), stored_(std::move(stored)), in_memory_runs_(in_memory_runs) {}
  std::string Name() const override { return "persisting"; }
  bool Persists(const Case&) const override { return true; }
  DriverReport Run(const Case&, const std::string& base_url) override {
    return Send(base_url, stored_, true);
  }
  DriverReport RunInMemory(const Case&, const std::string& base_url) override {
    if (in_memory_runs_ != nullptr) ++*in_memory_runs_;
    return Send(base_url, memory_, false);
  }

 private:
  static DriverReport Send(const std::string& base_url, const std::string& body, bool persisted) {
    ref::ClientOptions options;
    options.base_url = base_url;
    ref::GeminiHttpClient client(options);
    client.GenerateContent("gemini-2.5-flash", Json::parse(body));
    DriverReport report;
    report.persisted = persisted;
    auto& exchange = report.exchanges.emplace_back();
    exchange.request_built = exchange.response_parsed = true;
    exchange.transcript_before_build = exchange.transcript_after_build = "[]";
    return report;
  }
  std::string memory_;
  std::string stored_;
  int* in_memory_runs_;
};

// Runs a conversation that goes through a store a second time kept in memory, and judges the
// two against each other (ADR-226.18): equal requests pass, a number kind lost in the store
// fails the case.
TEST(RunSuite, PersistedRunIsComparedWithTheRunKeptInMemory) {
  const auto registry = ClauseRegistry::Load(ClausesPath(testing::SourceRoot()));
  Case c = MakeCase("persistence/y_a", {"ADR-226.18"}, {"persistence"});
  c.expected = c.expect.outcome = Expected::kAccept;
  c.expect.requests = 1;
  Exchange exchange;
  exchange.user = "go";
  exchange.response.body = Json::parse(R"({"candidates":[{"content":{"parts":[{"text":"x"}]}}]})");
  c.exchanges.push_back(exchange);
  const std::string body = R"({"contents":[{"role":"user","parts":[{"text":"go"}]}],"n":1.0})";
  const std::string lost = R"({"contents":[{"role":"user","parts":[{"text":"go"}]}],"n":1})";
  int in_memory_runs = 0;
  const nlohmann::json same = RunSuite(
      {c}, registry,
      [&] { return std::make_unique<PersistingDriver>(body, body, &in_memory_runs); },
      SuiteOptions{});
  ASSERT_EQ(same.size(), 1u);
  EXPECT_EQ(same[0]["verdict"], "pass") << same[0].dump(2);
  EXPECT_EQ(in_memory_runs, 1);
  const nlohmann::json differs = RunSuite(
      {c}, registry, [&] { return std::make_unique<PersistingDriver>(body, lost); },
      SuiteOptions{});
  ASSERT_EQ(differs.size(), 1u);
  EXPECT_EQ(differs[0]["verdict"], "fail") << differs[0].dump(2);
  bool cited = false;
  for (const auto& f : differs[0]["findings"]) cited = cited || f["clause"] == "ADR-226.18";
  EXPECT_TRUE(cited) << differs[0].dump(2);
}

// A driver that sends `body` for every exchange, streaming where the case's answer streams
// (or never, when `never_streams`), and then refuses as told (`refusal`, possibly none).
class ScriptedDriver : public Driver {
 public:
  ScriptedDriver(std::vector<std::string> bodies, std::optional<Refusal> refusal,
                 bool never_streams = false)
      : bodies_(std::move(bodies)), refusal_(std::move(refusal)), never_streams_(never_streams) {}
  std::string Name() const override { return "scripted"; }
  DriverReport Run(const Case& c, const std::string& base_url) override {
    ref::ClientOptions options;
    options.base_url = base_url;
    ref::GeminiHttpClient client(options);
    DriverReport report;
    for (std::size_t k = 0; k < c.exchanges.size(); ++k) {
      if (refusal_ && refusal_->phase == "build" && refusal_->exchange == k + 1) break;
      auto& exchange = report.exchanges.emplace_back();
      exchange.request_built = true;
      exchange.transcript_before_build = exchange.transcript_after_build = "[]";
      const Json body = Json::parse(bodies_[std::min(k, bodies_.size() - 1)]);
      try {
        if (c.exchanges[k].response.stream && !never_streams_) {
          client.StreamGenerateContent("gemini-2.5-flash", body);
        } else {
          client.GenerateContent("gemini-2.5-flash", body);
        }
      } catch (const std::exception&) {
        break;  // the refusal below says what the driver makes of it
      }
      if (refusal_ && refusal_->exchange == k + 1) break;
      exchange.response_parsed = true;
    }
    report.refusal = refusal_;
    return report;
  }

 private:
  std::vector<std::string> bodies_;  // per exchange; the last one for the rest
  std::optional<Refusal> refusal_;
  bool never_streams_;
};

Exchange TextAnswer(bool streamed) {
  Exchange exchange;
  exchange.user = "go";
  const Json answer = Json::parse(
      R"({"candidates":[{"content":{"role":"model","parts":[{"text":"x"}]},"finishReason":"STOP"}]})");
  if (streamed) {
    model::StreamScript stream;
    stream.events.push_back(answer);
    exchange.response.body = model::StreamEventObjects(stream.events);
    exchange.response.stream = stream;
  } else {
    exchange.response.body = answer;
  }
  return exchange;
}

// The level of every finding of `clause`, by request ("-" for none).
std::map<std::string, std::string> LevelsOf(const nlohmann::json& result,
                                            const std::string& clause) {
  std::map<std::string, std::string> levels;
  for (const auto& f : result["findings"]) {
    if (f["clause"] != clause) continue;
    levels[f.contains("request") ? std::to_string(f["request"].get<std::int64_t>()) : "-"] =
        f["level"].get<std::string>();
  }
  return levels;
}

// A literal assertion on a member outside `contents` (here `tools`, citing ADR-224.12) is
// recording fidelity, REF.B1: a framework's own rendering of its declarations is reported
// without gating for another implementation and gates the reference (`beyond_gates`).
TEST(RunSuite, RecordingFidelityGatesTheReferenceOnly) {
  const auto registry = ClauseRegistry::Load(ClausesPath(testing::SourceRoot()));
  Case c = MakeCase("recordings/y_a", {"ADR-224.12"});
  c.expected = c.expect.outcome = Expected::kAccept;
  c.expect.requests = 1;
  c.exchanges = {TextAnswer(false)};
  model::WireAssertion tools;
  tools.pointer = "/tools";
  tools.equals = Json::parse(R"([{"functionDeclarations":[{"name":"f"}]}])");
  tools.clause = "ADR-224.12";
  c.expect.wire.push_back(tools);
  const std::string framework =
      R"({"contents":[{"role":"user","parts":[{"text":"go"}]}],"tools":[{"functionDeclarations":)"
      R"([{"name":"f","description":"","parameters":{"type":"OBJECT","properties":{}}}]}]})";
  const auto run = [&](bool beyond_gates) {
    SuiteOptions options;
    options.beyond_gates = beyond_gates;
    return RunSuite(
        {c}, registry,
        [&] {
          return std::make_unique<ScriptedDriver>(std::vector<std::string>{framework},
                                                  std::nullopt);
        },
        options)[0];
  };
  const nlohmann::json other = run(false);
  EXPECT_EQ(other["verdict"], "pass") << other.dump(2);
  EXPECT_EQ(LevelsOf(other, "REF.B1"), (std::map<std::string, std::string>{{"1", "beyond"}}))
      << other.dump(2);
  EXPECT_TRUE(LevelsOf(other, "ADR-224.12").empty()) << other.dump(2);
  const nlohmann::json reference = run(true);
  EXPECT_EQ(reference["verdict"], "fail") << reference.dump(2);
}

// A case citing only beyond clauses (INTERPRETING §9): a finding about a request sent after
// its first streamed answer gates as beyond; one about a request up to that answer, a leak
// (ADR-226.19), an object root (ADR-224.1, 224.2) and an id the server never sent (ADR-226.4)
// keep their level: the request's own bytes decide them, whatever was captured.
TEST(RunSuite, BeyondOnlyCaseKeepsMustBeforeItsFirstStreamAndForPremiseFreeRules) {
  const auto registry = ClauseRegistry::Load(ClausesPath(testing::SourceRoot()));
  Case c = MakeCase("streaming/y_a", {"ADR-226.B1"}, {"streaming", "stream-capture"});
  c.expected = c.expect.outcome = Expected::kAccept;
  c.expect.requests = 3;
  c.exchanges = {TextAnswer(false), TextAnswer(true), TextAnswer(false)};
  // A must-level assertion failing on requests 1 and 3: rests on the stream only after it.
  for (const std::size_t request : {1u, 3u}) {
    model::WireAssertion unmet;
    unmet.request = request;
    unmet.pointer = "/contents/0/role";
    unmet.equals = "model";
    unmet.clause = "ADR-226.3";
    c.expect.wire.push_back(unmet);
  }
  // Roots sent as lists and an invented id in every request.
  const std::string body =
      R"({"contents":[{"role":"user","parts":[{"functionCall":{"id":"made_up_91","name":"f",)"
      R"("args":[]}},{"functionResponse":{"name":"f","response":[]}}]}]})";
  const nlohmann::json roots = RunSuite(
      {c}, registry,
      [&] {
        return std::make_unique<ScriptedDriver>(std::vector<std::string>{body}, std::nullopt);
      },
      SuiteOptions{});
  ASSERT_EQ(roots.size(), 1u);
  const std::map<std::string, std::string> must_everywhere = {
      {"1", "must"}, {"2", "must"}, {"3", "must"}};
  EXPECT_EQ(LevelsOf(roots[0], "ADR-224.1"), must_everywhere) << roots[0].dump(2);
  EXPECT_EQ(LevelsOf(roots[0], "ADR-224.2"), must_everywhere) << roots[0].dump(2);
  EXPECT_EQ(LevelsOf(roots[0], "ADR-226.4"), must_everywhere) << roots[0].dump(2);
  EXPECT_EQ(LevelsOf(roots[0], "ADR-226.3"),
            (std::map<std::string, std::string>{{"1", "must"}, {"3", "beyond"}}))
      << roots[0].dump(2);
  EXPECT_EQ(roots[0]["verdict"], "fail");

  // A value assertion citing ADR-224.1 rests on what was captured like any other: must up to
  // the first stream, beyond after it (only a root's kind keeps its level).
  Case value = c;
  for (auto& assertion : value.expect.wire) assertion.clause = "ADR-224.1";
  const std::string objects =
      R"({"contents":[{"role":"user","parts":[{"functionCall":{"name":"f","args":{}}},)"
      R"({"functionResponse":{"name":"f","response":{}}}]}]})";
  const nlohmann::json valued = RunSuite(
      {value}, registry,
      [&] {
        return std::make_unique<ScriptedDriver>(std::vector<std::string>{objects}, std::nullopt);
      },
      SuiteOptions{});
  ASSERT_EQ(valued.size(), 1u);
  EXPECT_EQ(LevelsOf(valued[0], "ADR-224.1"),
            (std::map<std::string, std::string>{{"1", "must"}, {"3", "beyond"}}))
      << valued[0].dump(2);

  // A refusal after the stream whose message quotes a native id of the streamed answer's call.
  Case leak = c;
  leak.id = "streaming/n_a";
  leak.expected = leak.expect.outcome = Expected::kRefuse;
  leak.expect.requests.reset();
  leak.expect.error = "replay.native_id_duplicate";
  leak.expect.phase = "build";
  leak.expect.exchange = 3;
  leak.exchanges[1].response.stream->events[0] = Json::parse(
      R"({"candidates":[{"content":{"role":"model","parts":[{"functionCall":)"
      R"({"id":"native_id_quoted_7731","name":"f","args":{}}}]},"finishReason":"STOP"}]})");
  leak.exchanges[1].response.body =
      model::StreamEventObjects(leak.exchanges[1].response.stream->events);
  Refusal refusal{"replay.native_id_duplicate",         "build", 3,
                  "duplicate id native_id_quoted_7731", {},      {}};
  const std::string plain = R"({"contents":[{"role":"user","parts":[{"text":"go"}]}]})";
  const nlohmann::json leaked = RunSuite(
      {leak}, registry,
      [&] { return std::make_unique<ScriptedDriver>(std::vector<std::string>{plain}, refusal); },
      SuiteOptions{});
  ASSERT_EQ(leaked.size(), 1u);
  EXPECT_EQ(LevelsOf(leaked[0], "ADR-226.19"), (std::map<std::string, std::string>{{"-", "must"}}))
      << leaked[0].dump(2);
}

// A carried call in pieces was captured from a stream before the case began (INTERPRETING §5.6
// "Levels"): in a case citing only beyond clauses, a finding about any request carrying it gates
// as beyond, request 1 included; the same case carrying a call sent whole keeps its level.
TEST(RunSuite, BeyondOnlyCaseCarryingCallPiecesIsDemotedFromItsFirstRequest) {
  const auto registry = ClauseRegistry::Load(ClausesPath(testing::SourceRoot()));
  const auto with_parts = [&registry](const char* parts) {
    Case c = MakeCase("streaming/y_c", {"ADR-226.B1"}, {"stream-capture", "replay"});
    c.expected = c.expect.outcome = Expected::kAccept;
    c.expect.requests = 1;
    c.exchanges = {TextAnswer(false)};
    c.transcript = Json::parse(std::string(R"([{"role":"user","content":"hi"},
        {"role":"assistant","id":"turn_1","content":"","tool_calls":[],
         "provider_state":{"gemini":{"owner":"turn_1","native_parts":)") + parts + "}}}]");
    model::WireAssertion unmet;
    unmet.request = 1;
    unmet.pointer = "/contents/0/role";
    unmet.equals = "model";
    unmet.clause = "ADR-226.3";
    c.expect.wire.push_back(unmet);
    const std::string body = R"({"contents":[{"role":"user","parts":[{"text":"go"}]}]})";
    return RunSuite(
        {c}, registry,
        [&] { return std::make_unique<ScriptedDriver>(std::vector<std::string>{body}, std::nullopt); },
        SuiteOptions{})[0];
  };
  const nlohmann::json pieced = with_parts(
      R"([{"functionCall":{"name":"f","willContinue":true}},)"
      R"({"functionCall":{"partialArgs":[{"jsonPath":"$.a","numberValue":1}]}}])");
  EXPECT_EQ(LevelsOf(pieced, "ADR-226.3"), (std::map<std::string, std::string>{{"1", "beyond"}}))
      << pieced.dump(2);
  const nlohmann::json whole = with_parts(R"([{"functionCall":{"name":"f","args":{"a":1}}}])");
  EXPECT_EQ(LevelsOf(whole, "ADR-226.3"), (std::map<std::string, std::string>{{"1", "must"}}))
      << whole.dump(2);
}

// A streaming-request twin refused while reading its streamed answer: the outcome finding is
// ADR-226.B1's, beyond. Refused because its last request never streamed: it stays must.
TEST(RunSuite, StreamingRequestTwinRefusedWhileReadingIsBeyond) {
  const auto registry = ClauseRegistry::Load(ClausesPath(testing::SourceRoot()));
  Case original = MakeCase("adr-226/y_a", {"ADR-226.3"});
  original.expected = original.expect.outcome = Expected::kAccept;
  original.expect.requests = 2;
  original.exchanges = {TextAnswer(false), TextAnswer(false)};
  Case twin = original;
  twin.id += ".streaming-request";
  twin.clauses = {"ADR-226.3", "ADR-224.7", "ADR-226.17"};
  twin.features = {"streaming"};
  twin.exchanges.back() = TextAnswer(true);
  twin.twin =
      model::TwinOrigin{std::make_shared<const Case>(original), model::TwinKind::kStreamingRequest};
  const std::vector<std::string> bodies = {
      R"({"contents":[{"role":"user","parts":[{"text":"go"}]}]})",
      R"({"contents":[{"role":"user","parts":[{"text":"go"}]},)"
      R"({"role":"model","parts":[{"text":"x"}]},{"role":"user","parts":[{"text":"go"}]}]})"};
  const Refusal reading{"http.stream", "http", 2, "", {}, {}};
  const auto run = [&](bool never_streams) {
    return RunSuite(
        {twin}, registry,
        [&] {
          // The whole run of the original accepts; the twin's run refuses at exchange 2.
          struct Split : Driver {
            std::vector<std::string> bodies;
            Refusal refusal;
            bool never_streams;
            std::string Name() const override { return "split"; }
            DriverReport Run(const Case& c, const std::string& base_url) override {
              const bool is_twin = c.twin.has_value();
              ScriptedDriver inner(bodies, is_twin ? std::optional<Refusal>(refusal) : std::nullopt,
                                   never_streams);
              return inner.Run(c, base_url);
            }
          };
          auto driver = std::make_unique<Split>();
          driver->bodies = bodies;
          driver->refusal = reading;
          driver->never_streams = never_streams;
          return driver;
        },
        SuiteOptions{});
  };
  const nlohmann::json read = run(false);
  ASSERT_EQ(read.size(), 1u);
  for (const auto& f : read[0]["findings"]) {
    EXPECT_EQ(f["level"], "beyond") << read[0].dump(2);
  }
  EXPECT_EQ(LevelsOf(read[0], "ADR-226.B1").size(), 1u) << read[0].dump(2);
  EXPECT_EQ(read[0]["verdict"], "pass") << read[0].dump(2);

  const nlohmann::json never = run(true);
  ASSERT_EQ(never.size(), 1u);
  EXPECT_EQ(never[0]["verdict"], "fail") << never[0].dump(2);
  EXPECT_TRUE(LevelsOf(never[0], "ADR-226.B1").empty()) << never[0].dump(2);
}

// A case (no twin) whose streaming request carries existing state (ADR-226.17), refused while
// reading the streamed answer after that request went out: the outcome finding is ADR-226.B1's,
// beyond. Refused while building that request, it stays the case's own must finding.
TEST(RunSuite, CaseRefusedWhileReadingItsStreamedAnswerIsBeyond) {
  const auto registry = ClauseRegistry::Load(ClausesPath(testing::SourceRoot()));
  Case c = MakeCase("streaming/y_a", {"ADR-226.17", "ADR-226.3"}, {"streaming"});
  c.expected = c.expect.outcome = Expected::kAccept;
  c.expect.requests = 2;
  c.exchanges = {TextAnswer(false), TextAnswer(true)};
  const std::vector<std::string> bodies = {
      R"({"contents":[{"role":"user","parts":[{"text":"go"}]}]})",
      R"({"contents":[{"role":"user","parts":[{"text":"go"}]},)"
      R"({"role":"model","parts":[{"text":"x"}]},{"role":"user","parts":[{"text":"go"}]}]})"};
  const auto run = [&](const std::string& phase) {
    const Refusal refusal{"http.stream", phase, 2, "", {}, {}};
    return RunSuite(
        {c}, registry, [&] { return std::make_unique<ScriptedDriver>(bodies, refusal); },
        SuiteOptions{});
  };
  const nlohmann::json reading = run("http");
  ASSERT_EQ(reading.size(), 1u);
  EXPECT_EQ(LevelsOf(reading[0], "ADR-226.B1"),
            (std::map<std::string, std::string>{{"-", "beyond"}}))
      << reading[0].dump(2);
  EXPECT_TRUE(LevelsOf(reading[0], "ADR-226.17").empty()) << reading[0].dump(2);
  EXPECT_EQ(reading[0]["verdict"], "pass") << reading[0].dump(2);

  const nlohmann::json building = run("build");
  ASSERT_EQ(building.size(), 1u);
  EXPECT_EQ(LevelsOf(building[0], "ADR-226.17"),
            (std::map<std::string, std::string>{{"-", "must"}}))
      << building[0].dump(2);
  EXPECT_EQ(building[0]["verdict"], "fail") << building[0].dump(2);
}

}  // namespace
}  // namespace gemini_oracle::runner

namespace gemini_oracle::runner {
namespace {

// A case that must be refused with native_id.duplicate in `phase` of exchange 1.
Case RefuseBeforeContactCase(const std::string& phase = "build") {
  Case c = MakeCase("adr-226/n_untyped", {"ADR-226.5"});
  c.expected = c.expect.outcome = Expected::kRefuse;
  c.expect.error = "native_id.duplicate";
  c.expect.phase = phase;
  c.expect.exchange = 1;
  c.exchanges.push_back(TextAnswer(false));
  return c;
}

// A driver without typed errors refusing with its own error class, before any contact.
nlohmann::json RunUntyped(const std::string& error_class, std::map<std::string, std::string> map,
                          std::set<std::string> capabilities = {},
                          const std::string& case_phase = "build",
                          const std::string& driver_phase = "build") {
  const auto registry = ClauseRegistry::Load(ClausesPath(testing::SourceRoot()));
  SuiteOptions options;
  options.capabilities = std::move(capabilities);
  options.error_map = std::move(map);
  return RunSuite(
      {RefuseBeforeContactCase(case_phase)}, registry,
      [error_class, driver_phase] {
        return std::make_unique<ScriptedDriver>(
            std::vector<std::string>{R"({"contents":[]})"},
            Refusal{error_class, driver_phase, 1, "refused", std::nullopt, std::nullopt});
      },
      options)[0];
}

// Without typed-errors and a map, a refusal before contact passes with its code and phase
// listed as not judged; with a map entry the mapped code is judged (right: pass, wrong: fail);
// a driver declaring typed-errors is judged on its code as it is.
TEST(RunSuite, UntypedRefusalsAreJudgedOnRefusalAndContactOrThroughTheMap) {
  const auto unmapped = RunUntyped("ValueError", {});
  EXPECT_EQ(unmapped["verdict"], "pass") << unmapped.dump(2);
  ASSERT_EQ(unmapped["not_judged"].size(), 1u) << unmapped.dump(2);
  EXPECT_NE(unmapped["not_judged"][0]["reason"].get<std::string>().find("code, reported phase"),
            std::string::npos);
  EXPECT_EQ(unmapped["refusal_class"], "ValueError");

  const auto mapped = RunUntyped("ValueError", {{"ValueError", "native_id.duplicate"}});
  EXPECT_EQ(mapped["verdict"], "pass") << mapped.dump(2);
  EXPECT_TRUE(mapped["not_judged"].empty()) << mapped.dump(2);

  const auto mismapped = RunUntyped("ValueError", {{"ValueError", "response.malformed"}});
  EXPECT_EQ(mismapped["verdict"], "fail") << mismapped.dump(2);
  EXPECT_EQ(mismapped["reason"], "wrong-error");

  // The journal decides what the unjudged phase cannot: a refusal of the answer to request 1
  // needs request 1 sent (a driver refusing everything up front passes nothing).
  const auto too_early = RunUntyped("ValueError", {}, {}, "parse", "build");
  EXPECT_EQ(too_early["verdict"], "fail") << too_early.dump(2);
  EXPECT_EQ(too_early["reason"], "wrong-error");
  const auto after_reading = RunUntyped("ValueError", {}, {}, "parse", "parse");
  EXPECT_EQ(after_reading["verdict"], "pass") << after_reading.dump(2);

  const auto typed = RunUntyped("ValueError", {}, {"typed-errors"});
  EXPECT_EQ(typed["verdict"], "fail") << typed.dump(2);
  EXPECT_EQ(typed["reason"], "wrong-error");
}

// A driver reporting which call each tool result answered (INTERPRETING §15.2).
class AnsweringDriver : public Driver {
 public:
  explicit AnsweringDriver(std::vector<model::AnsweredCall> answered, bool reversed = false)
      : answered_(std::move(answered)), reversed_(reversed) {}
  std::string Name() const override { return "answering"; }
  DriverReport Run(const Case&, const std::string&) override {
    DriverReport report;
    auto& exchange = report.exchanges.emplace_back();
    exchange.calls = {{"tc_1", "f", Json::object()}, {"tc_2", "g", Json::object()}};
    if (reversed_) exchange.calls = {{"tc_1", "g", Json::object()}, {"tc_2", "f", Json::object()}};
    exchange.answered = answered_;
    report.refusal = Refusal{"x.y", "build", 2, "stop", std::nullopt, std::nullopt};
    return report;
  }

 private:
  std::vector<model::AnsweredCall> answered_;
  bool reversed_;
};

// Two calls f and g; results: [0] answers {"name": "g"}, [1] answers call 0.
Case TwoCallsCase() {
  Case c = MakeCase("adr-226/i_two_calls", {"ADR-226.3"});
  c.expected = Expected::kImplementationDefined;
  Exchange exchange;
  exchange.user = "go";
  exchange.response.body = Json::parse(
      R"({"candidates":[{"content":{"role":"model","parts":[
          {"functionCall":{"name":"f","args":{}}},{"functionCall":{"name":"g","args":{}}}]}}]})");
  model::Result by_name;
  by_name.call = model::NamedCall{"g", std::nullopt};
  by_name.value = Json::object();
  model::Result by_index;
  by_index.call = std::size_t{0};
  by_index.value = Json::object();
  exchange.then.results = {by_name, by_index};
  c.exchanges.push_back(exchange);
  return c;
}

nlohmann::json RunAnswering(std::vector<model::AnsweredCall> answered, bool reversed = false) {
  const auto registry = ClauseRegistry::Load(ClausesPath(testing::SourceRoot()));
  return RunSuite(
      {TwoCallsCase()}, registry,
      [answered, reversed] { return std::make_unique<AnsweringDriver>(answered, reversed); },
      SuiteOptions{})[0];
}

// Right pairings in any order are no error; a result handed to another call than its selector
// picks, an unknown result index, a result handed back twice or a call id never reported is the
// driver's error, said in positions only.
TEST(RunSuite, AnsweredCallsMustBeTheOnesTheCaseSelects) {
  EXPECT_NE(RunAnswering({{1, "tc_1"}, {0, "tc_2"}})["verdict"], "error");
  EXPECT_NE(RunAnswering({})["verdict"], "error");
  const auto swapped = RunAnswering({{0, "tc_1"}, {1, "tc_2"}});
  EXPECT_EQ(swapped["verdict"], "error");
  EXPECT_NE(swapped["reason"].get<std::string>().find("the case selects call 1"), std::string::npos)
      << swapped["reason"];
  EXPECT_EQ(swapped["reason"].get<std::string>().find("\"g\""), std::string::npos);
  EXPECT_EQ(RunAnswering({{2, "tc_1"}})["verdict"], "error");
  EXPECT_EQ(RunAnswering({{1, "tc_1"}, {1, "tc_1"}})["verdict"], "error");
  EXPECT_EQ(RunAnswering({{1, "tc_9"}})["verdict"], "error");
}

// An implementation that lists the same calls in another order (g, f), which ADR-226 expects
// ("their generic list is reordered"): each reported call is the part it stands for, so result
// 0 ({"name": "g"}) handed to call 0 (g) and result 1 (call 0 of the answer, f) to call 1 (f)
// are right, and the opposite pairing is the driver's error. The first pairing with the calls
// in part order (f, g) is the driver's error too.
TEST(RunSuite, ReorderedCallsArePairedByWhatTheyStandFor) {
  const auto reordered = RunAnswering({{0, "tc_1"}, {1, "tc_2"}}, true);
  EXPECT_NE(reordered["verdict"], "error") << reordered.dump(2);
  const auto wrong = RunAnswering({{0, "tc_2"}, {1, "tc_1"}}, true);
  EXPECT_EQ(wrong["verdict"], "error") << wrong.dump(2);
  EXPECT_EQ(RunAnswering({{0, "tc_1"}, {1, "tc_2"}}, false)["verdict"], "error");
}

// Sends one plain request to `base_url`, as a driver's implementation would; what comes back
// (a streamed answer served to it included) does not matter, only that the request went out.
void SendOneRequest(const std::string& base_url) {
  ref::ClientOptions options;
  options.base_url = base_url;
  ref::GeminiHttpClient client(options);
  try {
    client.GenerateContent("gemini-2.5-flash",
                           Json::parse(R"({"contents":[{"role":"user","parts":[{"text":"go"}]}]})"));
  } catch (const std::exception&) {
    // only the request sent matters here
  }
}

// A driver whose implementation parsed the answer of TwoCallsCase: both calls (the second
// named `second_name`), or (`drop`) the first only, the application then stopping at exchange
// 1 (`stop`) as a selector fits nothing.
class ParsingDriver : public Driver {
 public:
  ParsingDriver(bool drop, bool stop, bool harness_fault = false,
                Json first_args = Json::object(), std::string second_name = "g")
      : drop_(drop),
        stop_(stop),
        harness_fault_(harness_fault),
        first_args_(std::move(first_args)),
        second_name_(std::move(second_name)) {}
  std::string Name() const override { return "parsing"; }
  DriverReport Run(const Case&, const std::string& base_url) override {
    SendOneRequest(base_url);
    DriverReport report;
    auto& exchange = report.exchanges.emplace_back();
    exchange.request_built = exchange.response_parsed = true;
    exchange.calls = {{"tc_1", "f", first_args_}};
    if (!drop_) exchange.calls.push_back({"tc_2", second_name_, Json::object()});
    if (stop_) report.stopped = model::Stop{1, "the selector by name of exchange 1 picks nothing"};
    if (harness_fault_) report.harness_error = "driver: the store is unavailable";
    return report;
  }

 private:
  bool drop_;
  bool stop_;
  bool harness_fault_;
  Json first_args_;
  std::string second_name_;
};

nlohmann::json RunParsing(Case c, bool drop, bool stop, bool harness_fault = false,
                          const Json& first_args = Json::object(),
                          const SuiteOptions& options = SuiteOptions{},
                          const std::string& second_name = "g") {
  const auto registry = ClauseRegistry::Load(ClausesPath(testing::SourceRoot()));
  return RunSuite({std::move(c)}, registry,
                  [=] {
                    return std::make_unique<ParsingDriver>(drop, stop, harness_fault, first_args,
                                                           second_name);
                  },
                  options)[0];
}

// TwoCallsCase as a y_ case of one request whose premise is `clause`.
Case OneRequestCase(const std::string& clause) {
  Case c = TwoCallsCase();
  c.id = "adr-226/y_two_calls";
  c.clauses = {clause};
  c.expected = c.expect.outcome = Expected::kAccept;
  c.expect.requests = 1;
  return c;
}

// A parse that lost a call fails the case under the clause it breaks (ADR-224.11: one public
// call per pending call), with the stop of the application; it is never a harness error. The
// same run with both calls passes.
TEST(RunSuite, LostCallFailsTheCaseInsteadOfAnError) {
  const auto both = RunParsing(OneRequestCase("ADR-226.3"), false, false);
  EXPECT_EQ(both["verdict"], "pass") << both.dump(2);
  for (const bool stop : {false, true}) {
    const auto lost = RunParsing(OneRequestCase("ADR-226.3"), true, stop);
    EXPECT_EQ(lost["verdict"], "fail") << lost.dump(2);
    EXPECT_EQ(lost["reason"], "wire-violation");
    bool gating_224_11 = false;
    for (const auto& f : lost["findings"]) {
      gating_224_11 |= f["clause"] == "ADR-224.11" && f["gating"] == true;
    }
    EXPECT_TRUE(gating_224_11) << lost.dump(2);
    for (const auto& note : lost["not_judged"]) EXPECT_NE(note["clause"], "ADR-224.11");
  }
}

// A stop the public calls' judges explain (here the second call renamed, ADR-224.11) fails the
// case, and what it left undone (the second request, the accepted outcome) is listed as not
// judged, never as the reason. A stop with calls that stand one-to-one for their parts is the
// driver's own: an `error`, as is a harness fault; the same run not stopped passes. On a
// streamed answer of a case whose premise is streamed capture, the renamed call is beyond, like
// every finding resting on that premise (INTERPRETING §9): reported, not gating here.
TEST(RunSuite, StoppedRunFailsOnItsCauseAndIsAnErrorWithoutOne) {
  Case c = OneRequestCase("ADR-226.3");
  c.expect.requests = 2;  // the stop leaves the second request unsent
  const auto renamed = RunParsing(c, false, true, false, Json::object(), SuiteOptions{}, "h");
  EXPECT_EQ(renamed["verdict"], "fail") << renamed.dump(2);
  EXPECT_EQ(renamed["reason"], "wire-violation") << renamed.dump(2);
  EXPECT_EQ(LevelsOf(renamed, "ADR-224.11"), (std::map<std::string, std::string>{{"-", "must"}}))
      << renamed.dump(2);
  bool unsent_not_judged = false;
  for (const auto& note : renamed["not_judged"]) {
    unsent_not_judged |= note["reason"].get<std::string>().find("not run") != std::string::npos;
  }
  EXPECT_TRUE(unsent_not_judged) << renamed.dump(2);
  const auto fitting = RunParsing(c, false, true);
  EXPECT_EQ(fitting["verdict"], "error") << fitting.dump(2);
  EXPECT_NE(fitting["reason"].get<std::string>().find("every selector there picks one"), std::string::npos)
      << fitting.dump(2);
  const auto not_stopped = RunParsing(OneRequestCase("ADR-226.3"), false, false);
  EXPECT_EQ(not_stopped["verdict"], "pass") << not_stopped.dump(2);
  EXPECT_EQ(RunParsing(c, false, true, true)["verdict"], "error");
  Case streamed_case = OneRequestCase("ADR-226.B1");
  streamed_case.expect.requests = 2;
  model::StreamScript stream;
  stream.events = {streamed_case.exchanges[0].response.body};
  streamed_case.exchanges[0].response.stream = stream;
  const auto streamed =
      RunParsing(streamed_case, false, true, false, Json::object(), SuiteOptions{}, "h");
  EXPECT_EQ(streamed["verdict"], "pass") << streamed.dump(2);
  EXPECT_EQ(LevelsOf(streamed, "ADR-224.11"),
            (std::map<std::string, std::string>{{"-", "beyond"}}))
      << streamed.dump(2);
}

// A stop whose selectors all pick one of the calls reported is the driver's, whatever the
// calls' findings: an integer handed over as a float (ADR-226.8 finds 1 and 1.0 equal) or a
// nested {} handed over as [] that the selectors (by name, by position) do not read. The same
// drift under a selector naming the arguments explains the stop: open, so a pass, what the stop
// left undone not judged.
TEST(RunSuite, StopExplainedOnlyBySelectorsThatMiss) {
  Case c = OneRequestCase("ADR-226.3");
  c.expect.requests = 2;
  Json& parts = c.exchanges[0].response.body["candidates"][0]["content"]["parts"];
  parts[0]["functionCall"]["args"] = Json::parse(R"({"a":1})");
  const auto floated = RunParsing(c, false, true, false, Json::parse(R"({"a":1.0})"));
  EXPECT_EQ(floated["verdict"], "error") << floated.dump(2);
  EXPECT_EQ(LevelsOf(floated, "ADR-224.F1"), (std::map<std::string, std::string>{{"-", "open"}}))
      << floated.dump(2);
  parts[0]["functionCall"]["args"] = Json::parse(R"({"a":{}})");
  const auto unread = RunParsing(c, false, true, false, Json::parse(R"({"a":[]})"));
  EXPECT_EQ(unread["verdict"], "error") << unread.dump(2);
  c.exchanges[0].then.results[1].call = model::NamedCall{"f", Json::parse(R"({"a":{}})")};
  const auto read = RunParsing(c, false, true, false, Json::parse(R"({"a":[]})"));
  EXPECT_EQ(read["verdict"], "pass") << read.dump(2);
  EXPECT_FALSE(read["not_judged"].empty()) << read.dump(2);
}

// A refusal due at a later exchange than the stop was not reached: never the reason. A stop
// with calls that fit is then the driver's error; one with a renamed call fails on it.
TEST(RunSuite, RefusalDueAfterTheStopIsNotJudged) {
  Case c = OneRequestCase("ADR-226.3");
  c.id = "adr-226/n_two_calls";
  c.expected = c.expect.outcome = Expected::kRefuse;
  c.expect.error = "native_id.malformed";
  c.expect.exchange = 2;
  c.expect.requests = 2;
  Exchange second;
  second.response.body = Json::parse(
      R"({"candidates":[{"content":{"role":"model","parts":[{"text":"done"}]}}]})");
  c.exchanges.push_back(second);
  const auto fitting = RunParsing(c, false, true);
  EXPECT_EQ(fitting["verdict"], "error") << fitting.dump(2);
  const auto renamed = RunParsing(c, false, true, false, Json::object(), SuiteOptions{}, "h");
  EXPECT_EQ(renamed["verdict"], "fail") << renamed.dump(2);
  EXPECT_EQ(renamed["reason"], "wire-violation") << renamed.dump(2);
  const auto not_stopped = RunParsing(c, false, false);
  EXPECT_EQ(not_stopped["verdict"], "fail") << not_stopped.dump(2);
  EXPECT_EQ(not_stopped["reason"], "should-have-refused") << not_stopped.dump(2);
}

// A driver that sends one request, then skips the case (its application cannot go on).
class SkippingDriver : public Driver {
 public:
  std::string Name() const override { return "skipping"; }
  DriverReport Run(const Case&, const std::string& base_url) override {
    SendOneRequest(base_url);
    DriverReport report;
    report.skipped = "no approval step in this framework";
    return report;
  }
};

// A skip after requests went out is `skipped`, and its reason says they went out, not judged.
TEST(RunSuite, SkipAfterRequestsSaysTheyWentOut) {
  const auto registry = ClauseRegistry::Load(ClausesPath(testing::SourceRoot()));
  const auto result = RunSuite({OneRequestCase("ADR-226.3")}, registry,
                               [] { return std::make_unique<SkippingDriver>(); },
                               SuiteOptions{})[0];
  EXPECT_EQ(result["verdict"], "skipped") << result.dump(2);
  EXPECT_EQ(result["reason"],
            "the driver skipped it after requests went out (not judged): no approval step in "
            "this framework")
      << result.dump(2);
}

// A reordered parse (the generic list in another order than the parts, which ADR-226 expects)
// has each call judged against the part it is: no finding.
TEST(RunSuite, ReorderedParseIsJudgedCallByCall) {
  Case c = OneRequestCase("ADR-226.3");
  Json& parts = c.exchanges[0].response.body["candidates"][0]["content"]["parts"];
  parts[0]["functionCall"]["args"] = Json::parse(R"({"a":1})");
  std::swap(parts[0], parts[1]);
  const auto reordered = RunParsing(c, false, false, false, Json::parse(R"({"a":1})"));
  EXPECT_EQ(reordered["verdict"], "pass") << reordered.dump(2);
  EXPECT_TRUE(LevelsOf(reordered, "ADR-224.11").empty()) << reordered.dump(2);
}

// A stop the public calls' judges explain (here call 0's nested {} handed over as [], the open
// ADR-224.F1, so a strict name-and-args selector fits nothing) decides at their level: without
// --strict a pass, what the stop left undone listed as not judged; with --strict a fail. The
// same stop with the nested member dropped instead is ADR-224.11 and fails.
TEST(RunSuite, StopExplainedByAPublicCallFindingDecidesAtItsLevel) {
  Case c = OneRequestCase("ADR-226.3");
  c.expect.requests = 2;  // the stop leaves the second request unsent
  Json& parts = c.exchanges[0].response.body["candidates"][0]["content"]["parts"];
  parts[0]["functionCall"]["args"] = Json::parse(R"({"a":{}})");
  c.exchanges[0].then.results[1].call = model::NamedCall{"f", Json::parse(R"({"a":{}})")};
  const Json drifted = Json::parse(R"({"a":[]})");
  const auto open = RunParsing(c, false, true, false, drifted);
  EXPECT_EQ(open["verdict"], "pass") << open.dump(2);
  EXPECT_EQ(LevelsOf(open, "ADR-224.F1"), (std::map<std::string, std::string>{{"-", "open"}}))
      << open.dump(2);
  EXPECT_TRUE(LevelsOf(open, "ADR-224.11").empty()) << open.dump(2);
  EXPECT_FALSE(open["not_judged"].empty()) << open.dump(2);
  SuiteOptions strict;
  strict.strict = true;
  const auto gated = RunParsing(c, false, true, false, drifted, strict);
  EXPECT_EQ(gated["verdict"], "fail") << gated.dump(2);
  const auto altered = RunParsing(c, false, true);
  EXPECT_EQ(altered["verdict"], "fail") << altered.dump(2);
  EXPECT_EQ(LevelsOf(altered, "ADR-224.11"), (std::map<std::string, std::string>{{"-", "must"}}))
      << altered.dump(2);
}

// Entries that would take one id (a folder "y_x.json" and a file "y_x") are one result that
// names each file, never two results of one id; misnamed files keep their extension.
TEST(BadFixtureResults, OneResultPerIdNamingEachFile) {
  const std::vector<Diagnostic> diagnostics = {
      {"fx/adr-226/y_x.json", 0, 0, "file.kind", "a folder named like a case file; rename it"},
      {"fx/adr-226/y_x", 0, 0, "file.name", "named"},
      {"fx/adr-226/y_x.JSON", 0, 0, "file.name", "named"}};
  const nlohmann::json entries = BadFixtureResults(diagnostics, "fx", Shard{}, SuiteOptions{});
  ASSERT_EQ(entries.size(), 2u) << entries.dump(2);
  EXPECT_EQ(entries[0]["id"], "adr-226/y_x");
  EXPECT_EQ(entries[0]["reason"], "bad fixture: 2 problems, first [file.name]");
  ASSERT_EQ(entries[0]["diagnostics"].size(), 2u);
  EXPECT_EQ(entries[0]["diagnostics"][0]["file"], "fx/adr-226/y_x");
  EXPECT_EQ(entries[0]["diagnostics"][1]["file"], "fx/adr-226/y_x.json");
  EXPECT_EQ(entries[1]["id"], "adr-226/y_x.JSON");
  EXPECT_FALSE(entries[1]["diagnostics"][0].contains("file"));  // one file: the result's own
}

// A bad entry whose id a run's result has (a streamed twin's id taken by a misnamed file) is
// one result: the bad fixture's, saying so; ids stay unique and sorted.
TEST(AddBadFixtureResults, KeepsIdsUnique) {
  nlohmann::json results = nlohmann::json::parse(R"([
      {"id": "a/y_x", "verdict": "pass", "file": "a/y_x.json"},
      {"id": "a/y_x.streamed", "verdict": "pass", "file": "a/y_x.json"}])");
  const nlohmann::json bad = nlohmann::json::parse(R"([
      {"id": "a/y_x.streamed", "verdict": "error", "bad_fixture": true,
       "diagnostics": [{"line": 0, "column": 0, "rule": "file.name", "message": "m"}]},
      {"id": "a/n_b", "verdict": "error", "bad_fixture": true, "diagnostics": []}])");
  AddBadFixtureResults(results, bad);
  ASSERT_EQ(results.size(), 3u) << results.dump(2);
  EXPECT_EQ(results[0]["id"], "a/n_b");
  EXPECT_EQ(results[1]["id"], "a/y_x");
  EXPECT_EQ(results[2]["id"], "a/y_x.streamed");
  EXPECT_EQ(results[2]["verdict"], "error");
  ASSERT_EQ(results[2]["diagnostics"].size(), 2u);
  EXPECT_EQ(results[2]["diagnostics"][1]["rule"], "id.unique");
}

// A driver that contacts nothing and reports an empty conversation.
class ContactsNothingDriver : public Driver {
 public:
  std::string Name() const override { return "contacts-nothing"; }
  DriverReport Run(const Case&, const std::string&) override { return DriverReport{}; }
};

// A case in which nothing happened is not run, and a case not run is never `pass`, whatever
// its clauses' level: the two open-only cases of the corpus, and any case made open-only.
// Where a gating finding exists (a must case), the failure stands.
TEST(RunSuite, ACaseInWhichNothingHappenedIsNeverAPass) {
  const auto loader = CaseLoader::FromSourceRoot(testing::SourceRoot());
  const auto corpus = CheckCorpus(testing::SourceRoot() / "fixtures" / "adr-224", loader);
  std::vector<Case> cases;
  for (const auto& c : corpus.cases) {
    if (c.id == "y_nested_empty_object_in_args_stays_object" ||
        c.id == "y_nested_empty_object_in_result_stays_object") {
      cases.push_back(c);
    }
  }
  ASSERT_EQ(cases.size(), 2u);
  Case made_open = corpus.cases.front();  // any case, its clauses made open
  made_open.id = "made_open";
  made_open.clauses = {"ADR-224.F1"};
  cases.push_back(made_open);
  Case must = cases[0];
  must.id = "must";
  must.clauses = {"ADR-224.12"};
  cases.push_back(must);
  const nlohmann::json results = RunSuite(
      cases, loader.registry(), [] { return std::make_unique<ContactsNothingDriver>(); },
      SuiteOptions{});
  ASSERT_EQ(results.size(), 4u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(results[i]["verdict"], "error") << results[i].dump(2);
    EXPECT_EQ(results[i]["reason"].get<std::string>().rfind("not run: no request went out", 0), 0u)
        << results[i].dump(2);
    EXPECT_EQ(results[i]["requests"], 0);
  }
  EXPECT_EQ(results[3]["verdict"], "fail") << results[3].dump(2);
}

// The same for an i_ case: one that nothing happened in is not run (`error`), never
// `implementation_defined` (which says the implementation chose one of the allowed behaviours).
TEST(RunSuite, AnImplementationDefinedCaseInWhichNothingHappenedIsNotRun) {
  const auto loader = CaseLoader::FromSourceRoot(testing::SourceRoot());
  const auto corpus = CheckCorpus(testing::SourceRoot() / "fixtures" / "adr-224", loader);
  std::vector<Case> cases;
  for (const auto& c : corpus.cases) {
    if (c.id.rfind("i_", 0) == 0 && !c.exchanges.empty()) cases.push_back(c);
  }
  ASSERT_FALSE(cases.empty());
  ASSERT_EQ(cases.front().expected, Expected::kImplementationDefined);
  const nlohmann::json results = RunSuite(
      cases, loader.registry(), [] { return std::make_unique<ContactsNothingDriver>(); },
      SuiteOptions{});
  ASSERT_EQ(results.size(), cases.size());
  for (const auto& result : results) {
    EXPECT_EQ(result["verdict"], "error") << result.dump(2);
    EXPECT_EQ(result["reason"].get<std::string>().rfind("not run: no request went out", 0), 0u)
        << result.dump(2);
    EXPECT_EQ(result["requests"], 0);
  }
}

}  // namespace
}  // namespace gemini_oracle::runner
