// RemoteRun: a worker's case runs reach a client as run_case messages; the client's answer
// comes back to the worker as its report, and the client learns whether the case runs again
// or what its verdict is.
#include "oracles/serve/remote_run.h"

#include <gtest/gtest.h>

#include <thread>

namespace gemini_oracle::serve {
namespace {

using namespace std::chrono_literals;

runner::Case TextCase(const std::string& id) {
  runner::Case c;
  c.id = id;
  model::Exchange exchange;
  exchange.user = "hello";
  exchange.response.body = Json::parse(R"({"candidates":[{"content":{"parts":[{"text":"x"}]}}]})");
  c.exchanges.push_back(exchange);
  return c;
}

Json ReportFor(const Json& run_case) {
  return Json::parse(R"({"type": "report", "seq": )" + run_case["seq"].dump() +
                     R"(, "exchanges": [{"request_built": true, "calls": []}], "refusal": null})");
}

// A case that runs twice (a twin's original sent whole, then the twin): the first answer is
// accepted with `more`, the second gets the result the worker delivers; the reports reach the
// worker; a second answer to a finished run is refused as unknown.
TEST(RemoteRun, AnswersReachTheWorkerAndTheVerdictTheClient) {
  RemoteRun run({});
  auto driver = run.MakeDriver();
  const runner::Case first = TextCase("adr-224/y_a"), second = TextCase("adr-224/y_a~stream");
  std::vector<std::size_t> exchanges_seen;
  std::thread worker([&] {
    exchanges_seen.push_back(driver->Run(first, "http://127.0.0.1:1/s/1").exchanges.size());
    exchanges_seen.push_back(driver->Run(second, "http://127.0.0.1:1/s/2").exchanges.size());
    run.OnResult({{"id", second.id}, {"verdict", "pass"}});
    run.MarkFinished();
  });
  bool done = false;
  const auto one = run.TakeNext(5s, done);
  ASSERT_TRUE(one);
  EXPECT_EQ((*one)["id"], "adr-224/y_a");
  EXPECT_EQ((*one)["base_url"], "http://127.0.0.1:1/s/1");
  EXPECT_FALSE(one->contains("response")) << "the scripted answers stay hidden";
  const auto accepted = run.Reply((*one)["seq"].get<std::size_t>(), ReportFor(*one), 5s);
  EXPECT_EQ(accepted.status, RemoteRun::ReplyStatus::kAccepted);
  EXPECT_TRUE(accepted.more);
  EXPECT_FALSE(accepted.result);
  const auto two = run.TakeNext(5s, done);
  ASSERT_TRUE(two);
  EXPECT_EQ((*two)["id"], "adr-224/y_a~stream");
  const auto judged = run.Reply((*two)["seq"].get<std::size_t>(), ReportFor(*two), 5s);
  ASSERT_TRUE(judged.result);
  EXPECT_EQ((*judged.result)["verdict"], "pass");
  worker.join();
  EXPECT_EQ(exchanges_seen, (std::vector<std::size_t>{1, 1}));
  EXPECT_EQ(run.Reply((*two)["seq"].get<std::size_t>(), ReportFor(*two), 0s).status,
            RemoteRun::ReplyStatus::kUnknownSeq);
  EXPECT_FALSE(run.TakeNext(0s, done));
  EXPECT_TRUE(done);
}

// Closing ends a case run no client answered as the driver's error, and TakeNext says done.
TEST(RemoteRun, CloseEndsWaitingRunsAsErrors) {
  RemoteRun run({});
  auto driver = run.MakeDriver();
  runner::DriverReport report;
  std::thread worker([&] { report = driver->Run(TextCase("adr-224/y_b"), "http://x/s/1"); });
  bool done = false;
  ASSERT_TRUE(run.TakeNext(5s, done));  // taken, never answered
  run.Close();
  worker.join();
  ASSERT_TRUE(report.harness_error);
  EXPECT_NE(report.harness_error->find("closed"), std::string::npos);
  EXPECT_FALSE(run.TakeNext(0s, done));
  EXPECT_TRUE(done);
}

// A garbled answer (another seq) is the client's error for that case, never a verdict.
TEST(RemoteRun, AnswerWithAnotherSeqIsAnError) {
  RemoteRun run({});
  auto driver = run.MakeDriver();
  runner::DriverReport report;
  std::thread worker([&] { report = driver->Run(TextCase("adr-224/y_c"), "http://x/s/1"); });
  bool done = false;
  const auto one = run.TakeNext(5s, done);
  ASSERT_TRUE(one);
  Json wrong = ReportFor(*one);
  wrong["seq"] = 99;
  run.Reply((*one)["seq"].get<std::size_t>(), wrong, 0s);
  worker.join();
  ASSERT_TRUE(report.harness_error);
}

// The case time limit runs from when a client takes a case run: a run it holds too long is
// `timed_out`; one waiting in the queue meanwhile is not, and is answered normally later.
TEST(RemoteRun, TimeLimitStartsWhenACaseIsTaken) {
  RemoteRun run({}, 200ms);
  auto first_driver = run.MakeDriver();
  auto second_driver = run.MakeDriver();
  runner::DriverReport held, queued;
  std::thread first([&] { held = first_driver->Run(TextCase("adr-224/y_held"), "http://x/s/1"); });
  bool done = false;
  const auto taken = run.TakeNext(5s, done);  // the only run published so far
  ASSERT_TRUE(taken);
  std::thread second(
      [&] { queued = second_driver->Run(TextCase("adr-224/y_queued"), "http://x/s/2"); });
  first.join();  // past 200 ms without an answer
  EXPECT_TRUE(held.timed_out);
  std::this_thread::sleep_for(300ms);  // the queued run waits longer than the limit, untaken
  const auto later = run.TakeNext(5s, done);
  ASSERT_TRUE(later);
  EXPECT_EQ((*later)["id"], "adr-224/y_queued");
  run.Reply((*later)["seq"].get<std::size_t>(), ReportFor(*later), 0s);
  second.join();
  EXPECT_FALSE(queued.timed_out);
  EXPECT_FALSE(queued.harness_error) << *queued.harness_error;
}

}  // namespace
}  // namespace gemini_oracle::serve
