#include "oracles/runner/reference_driver.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "oracles/capture/capture_server.h"
#include "oracles/runner/case_loader.h"
#include "oracles/runner/suite_runner.h"
#include "tests/mariadb_black_hole.h"
#include "tests/source_root.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::runner {
namespace {

// Stops the conversation, with the report so far and no harness error, when a result's
// selector picks none of the calls the implementation parsed (the case checker made it fit the
// answer, so the parse is at fault, INTERPRETING §5.4); the reason echoes no native content.
TEST(ReferenceDriver, UnmatchedSelectorStopsTheConversation) {
  capture::CaptureServer server;
  capture::ScriptedResponse turn;
  turn.body = R"({"candidates":[{"content":{"role":"model","parts":[)"
              R"({"functionCall":{"name":"get_time","args":{"secret":"SENTINEL-d41d8"}}}]}}]})";
  const std::string script = server.AddScript({turn, turn});
  Case c;
  c.id = "adr-226/y_x";
  Exchange exchange;
  exchange.user = "go";
  Result result;
  result.call = NamedCall{"get_weather", std::nullopt};
  result.kind = Result::Kind::kJson;
  result.value = Json::object();
  exchange.then.results.push_back(result);
  c.exchanges.push_back(exchange);
  c.exchanges.push_back(Exchange{});
  ReferenceDriver driver;
  const DriverReport report = driver.Run(c, server.BaseUrl(script));
  EXPECT_FALSE(report.harness_error.has_value()) << *report.harness_error;
  ASSERT_TRUE(report.stopped.has_value());
  EXPECT_EQ(report.stopped->exchange, 1u);
  EXPECT_NE(report.stopped->reason.find("among the 1 the implementation parsed"),
            std::string::npos)
      << report.stopped->reason;
  EXPECT_EQ(report.stopped->reason.find("SENTINEL"), std::string::npos);
  ASSERT_EQ(report.exchanges.size(), 1u);  // the second exchange is never run
  EXPECT_EQ(report.exchanges[0].calls.size(), 1u);
  EXPECT_EQ(server.Journal(script).size(), 1u);
  // The control: a selector that fits runs the conversation to its end, not stopped.
  c.exchanges[0].then.results[0].call = NamedCall{"get_time", std::nullopt};
  const std::string again = server.AddScript({turn, turn});
  const DriverReport fits = driver.Run(c, server.BaseUrl(again));
  EXPECT_FALSE(fits.stopped.has_value()) << fits.stopped->reason;
  EXPECT_EQ(fits.exchanges.size(), 2u);
}

// Sends options.tool_config with the exchange's mode on top, and copies a build refusal's
// location (message, native part) into the report.
TEST(ReferenceDriver, PassesToolConfigAndRefusalLocation) {
  capture::CaptureServer server;
  capture::ScriptedResponse text;
  text.body = R"({"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]}}]})";
  const std::string script = server.AddScript({text, text});
  Case c;
  c.id = "recordings/y_x";
  c.options = ParseJson(R"({"tool_config":{"functionCallingConfig":{"mode":"AUTO",)"
                        R"("allowedFunctionNames":["print"]}}})");
  Exchange first;
  first.user = "go";
  Exchange second;
  second.user = "again";
  second.tool_mode = "NONE";
  c.exchanges = {first, second};
  ReferenceDriver driver;
  const DriverReport report = driver.Run(c, server.BaseUrl(script));
  ASSERT_FALSE(report.refusal.has_value()) << report.refusal->message;
  const auto journal = server.Journal(script);
  ASSERT_EQ(journal.size(), 2u);
  EXPECT_EQ(DumpJson(ParseJson(journal[0].body)["toolConfig"]),
            R"({"functionCallingConfig":{"mode":"AUTO","allowedFunctionNames":["print"]}})");
  EXPECT_EQ(DumpJson(ParseJson(journal[1].body)["toolConfig"]),
            R"({"functionCallingConfig":{"mode":"NONE","allowedFunctionNames":["print"]}})");

  Case refused;
  refused.id = "adr-226/n_x";
  refused.transcript = ParseJson(R"([{"role":"user","content":"go"},
      {"role":"assistant","id":"t1","content":"","tool_calls":[],
       "provider_state":{"gemini":{"owner":"t1","native_parts":[{"text":"a"},
         {"functionCall":{"id":"d","name":"f","args":{}}},
         {"functionCall":{"id":"d","name":"g","args":{}}}]}}}])");
  Exchange ask;
  ask.user = "next";
  refused.exchanges = {ask};
  const std::string empty = server.AddScript({text});
  const DriverReport located = driver.Run(refused, server.BaseUrl(empty));
  ASSERT_TRUE(located.refusal.has_value());
  EXPECT_EQ(located.refusal->code, "replay.native_id_duplicate");
  EXPECT_EQ(located.refusal->message_index, 1u);
  EXPECT_EQ(located.refusal->part_index, 2u);
}


// A call with a native id and a signature, then a closing text: the two answers of a
// conversation that suspends in between.
std::vector<capture::ScriptedResponse> CallThenText() {
  capture::ScriptedResponse call;
  call.body = R"({"candidates":[{"content":{"role":"model","parts":[)"
              R"({"functionCall":{"id":"call_1","name":"delete_file","args":{"path":"a","n":1.0,"o":{}}},)"
              R"("thoughtSignature":"c2ln"}]}}]})";
  capture::ScriptedResponse text;
  text.body = R"({"candidates":[{"content":{"role":"model","parts":[{"text":"done"}]}}]})";
  return {call, text};
}

Case SuspendingCase(bool gated, bool approve) {
  Case c;
  c.id = "persistence/y_x";
  Exchange first;
  first.user = "go";
  if (approve) first.then.approvals.push_back(ApprovalAction{std::size_t{0}, true, "ap_1"});
  first.then.suspend = true;
  Result result;
  result.call = std::size_t{0};
  result.value = Json::object();
  result.gated = gated;
  first.then.results.push_back(result);
  c.exchanges.push_back(first);
  c.exchanges.push_back(Exchange{});
  return c;
}

// A case that suspends goes through a store (a temporary SQLite file when none is given):
// the report says so, the stored row is unchanged by the next build, and the requests are
// those of the same conversation kept in memory, byte for byte.
TEST(ReferenceDriver, SuspendsThroughTemporaryStore) {
  capture::CaptureServer server;
  const Case c = SuspendingCase(false, false);
  ReferenceDriver driver;
  ASSERT_TRUE(driver.Persists(c));
  const std::string stored_script = server.AddScript(CallThenText());
  const DriverReport stored = driver.Run(c, server.BaseUrl(stored_script));
  ASSERT_FALSE(stored.harness_error) << *stored.harness_error;
  ASSERT_FALSE(stored.refusal) << stored.refusal->code;
  EXPECT_TRUE(stored.persisted);
  ASSERT_EQ(stored.exchanges.size(), 2u);
  EXPECT_TRUE(stored.exchanges[0].stored_before_build.empty());  // not stored yet
  EXPECT_FALSE(stored.exchanges[1].stored_before_build.empty());
  EXPECT_EQ(stored.exchanges[1].stored_before_build, stored.exchanges[1].stored_after_build);

  const std::string memory_script = server.AddScript(CallThenText());
  const DriverReport memory = driver.RunInMemory(c, server.BaseUrl(memory_script));
  EXPECT_FALSE(memory.persisted);
  EXPECT_TRUE(memory.exchanges[1].stored_before_build.empty());
  const auto a = server.Journal(memory_script);
  const auto b = server.Journal(stored_script);
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(a[1].body, b[1].body);
  EXPECT_NE(b[1].body.find(R"("args":{"path":"a","n":1.0,"o":{}})"), std::string::npos) << b[1].body;
  EXPECT_NE(b[1].body.find(R"("thoughtSignature":"c2ln")"), std::string::npos);

  Case plain = c;
  plain.exchanges[0].then.suspend = false;
  EXPECT_FALSE(driver.Persists(plain));
}

// A gated result runs only under an approval of its own call, recorded before the suspension
// and read back after it; otherwise the application sends the denial.
TEST(ReferenceDriver, GatedResultsFollowApprovalsAcrossResume) {
  for (const bool approve : {true, false}) {
    capture::CaptureServer server;
    const std::string script = server.AddScript(CallThenText());
    ReferenceDriver driver;
    const DriverReport report = driver.Run(SuspendingCase(true, approve), server.BaseUrl(script));
    ASSERT_FALSE(report.harness_error) << *report.harness_error;
    const auto journal = server.Journal(script);
    ASSERT_EQ(journal.size(), 2u);
    const bool denied =
        journal[1].body.find(R"("response":{"error":"not approved"})") != std::string::npos;
    EXPECT_EQ(denied, !approve) << journal[1].body;
  }
}

// With a store URL every conversation is suspended before the first exchange and after
// every turn, also when the case itself never asks for it.
TEST(ReferenceDriver, StoreUrlSuspendsEveryConversation) {
  const testing::TempDir dir;
  ReferenceDriver::StoreSettings settings;
  settings.url = "sqlite:" + (dir.path() / "state.sqlite3").string();
  ReferenceDriver driver(settings);
  Case c = SuspendingCase(false, false);
  c.exchanges[0].then.suspend = false;
  ASSERT_TRUE(driver.Persists(c));
  capture::CaptureServer server;
  const std::string script = server.AddScript(CallThenText());
  const DriverReport report = driver.Run(c, server.BaseUrl(script));
  ASSERT_FALSE(report.harness_error) << *report.harness_error;
  EXPECT_TRUE(report.persisted);
  EXPECT_FALSE(report.exchanges[0].stored_before_build.empty());
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "state.sqlite3"));
}

// A store that stops answering mid-run (a MariaDB server that greets and then never answers)
// holds no case past its limit: the watchdog's cancel does not reach a store call, the store's
// own timeouts, set from the case limit, do. The cases end as timeout or error, and the run ends.
TEST(ReferenceDriver, StoreThatStopsAnsweringEndsTheCasesAtTheirLimit) {
  testing::BlackHole mariadb;
  const auto loader = CaseLoader::FromSourceRoot(testing::SourceRoot());
  const CorpusCheck corpus = CheckCorpus(testing::SourceRoot() / "fixtures", loader, 1);
  std::vector<Case> cases;
  for (const Case& c : corpus.cases) {
    if (c.id.rfind("persistence/y_", 0) == 0 && cases.size() < 2) cases.push_back(c);
  }
  ASSERT_EQ(cases.size(), 2u);
  ReferenceDriver::StoreSettings settings;
  settings.url = mariadb.Url();
  settings.keyring = ref::Keyring::Ephemeral();
  settings.wait_limit = std::chrono::seconds(1);
  SuiteOptions options;
  options.case_timeout = std::chrono::seconds(1);
  options.jobs = 2;
  const auto started = std::chrono::steady_clock::now();
  const nlohmann::json results = RunSuite(
      cases, loader.registry(), [&] { return std::make_unique<ReferenceDriver>(settings); },
      options);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("two cases on a store that stopped answering, limit 1 s: %.2f s\n", took);
  ASSERT_EQ(results.size(), 2u);
  for (const auto& result : results) {
    const std::string verdict = result["verdict"].get<std::string>();
    EXPECT_TRUE(verdict == "timeout" || verdict == "error") << result.dump();
  }
  EXPECT_LT(took, 60.0);  // ends at all; the defect held each case 120 s
}

}  // namespace
}  // namespace gemini_oracle::runner
