// The driver protocol's messages: what the oracle writes and what the reference driver answers
// validate against drivers/protocol/*.schema.json; a run_case carries no scripted answer and
// no expectation; a reply that breaks the protocol is named without its content.
#include "oracles/runner/driver_protocol.h"

#include <gtest/gtest.h>

#include "oracles/model/streamed_twin.h"
#include "oracles/runner/case_loader.h"
#include "oracles/runner/case_schema.h"
#include "tests/source_root.h"

namespace gemini_oracle::runner::protocol {
namespace {

using gemini_oracle::testing::SourceRoot;

CaseSchema SchemaOf(const std::string& type) {
  return CaseSchema::Load(SourceRoot() / "drivers" / "protocol" / (type + ".schema.json"));
}

std::string Violations(const CaseSchema& schema, const Json& message) {
  std::string text;
  for (const auto& v : schema.Validate(nlohmann::json::parse(DumpJson(message)))) {
    text += v.pointer + ": " + v.description + "\n";
  }
  return text;
}

TEST(DriverProtocol, EveryRunCaseOfTheCorpusValidatesAndHidesTheScript) {
  const auto loader = CaseLoader::FromSourceRoot(SourceRoot());
  const auto corpus = CheckCorpus(SourceRoot() / "fixtures", loader);
  const auto schema = SchemaOf("run_case");
  std::size_t seq = 0;
  for (const auto& c : model::WithStreamedTwins(corpus.cases)) {
    const Json message = RunCaseMessage(c, "http://127.0.0.1:9/s/1", ++seq, false);
    EXPECT_EQ(Violations(schema, message), "") << c.id;
    for (const auto& x : message["exchanges"]) {
      EXPECT_FALSE(x.contains("response")) << c.id;
    }
    EXPECT_FALSE(message.contains("expect")) << c.id;
    // What the reference driver rebuilds runs the same exchanges.
    const Case rebuilt = CaseOfRunMessage(message);
    ASSERT_EQ(rebuilt.exchanges.size(), c.exchanges.size()) << c.id;
    for (std::size_t k = 0; k < c.exchanges.size(); ++k) {
      EXPECT_EQ(rebuilt.exchanges[k].response.stream.has_value(),
                c.exchanges[k].response.stream.has_value());
      EXPECT_EQ(rebuilt.exchanges[k].user, c.exchanges[k].user);
    }
    EXPECT_EQ(rebuilt.Suspends(), c.Suspends()) << c.id;
    // A twin's answers hold the calls of its original's, streamed or whole (protocol 2).
    if (c.twin && c.twin->original) {
      const Json original = RunCaseMessage(*c.twin->original, "http://127.0.0.1:9/s/1", 1, false);
      for (std::size_t k = 0; k < c.exchanges.size(); ++k) {
        EXPECT_EQ(DumpJson(message["exchanges"][k]["calls"]),
                  DumpJson(original["exchanges"][k]["calls"]))
            << c.id << " exchange " << k + 1;
        EXPECT_EQ(DumpJson(message["exchanges"][k]["selected"]),
                  DumpJson(original["exchanges"][k]["selected"]))
            << c.id << " exchange " << k + 1;
      }
    }
  }
  EXPECT_GT(seq, 600u);
}

// Protocol 2: each exchange lists the answer's calls in parse order, a call the server answered
// in its own content marked, and the call each result and approval selects, so a framework-run
// loop answers without reading the wire; still no scripted answer beyond that.
TEST(DriverProtocol, RunCaseGivesTheCallsEachSelectorPicks) {
  const auto loader = CaseLoader::FromSourceRoot(SourceRoot());
  const auto loaded = loader.LoadText(R"({
    "description": "Answers a call by name and one by position.",
    "clauses": ["ADR-226.3"],
    "features": ["parallel", "ids"],
    "exchanges": [
      {"user": "go",
       "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
         {"functionCall": {"id": "srv1", "name": "lookup", "args": {"q": "a"}}},
         {"functionResponse": {"id": "srv1", "name": "lookup", "response": {"r": 1}}},
         {"functionCall": {"id": "c1", "name": "f", "args": {"n": 1}}},
         {"functionCall": {"id": "c2", "name": "g"}}]}}]}},
       "then": {"results": [{"call": {"name": "g"}, "json": {}}, {"call": 0, "text": "one"}]}},
      {"response": {"body": {"candidates": [{"content": {"role": "model",
        "parts": [{"text": "done"}]}}]}}}],
    "expect": {"outcome": "accept", "requests": 2}
  })", SourceRoot() / "fixtures" / "adr-226" / "y_selected.json", SourceRoot() / "fixtures");
  ASSERT_TRUE(loaded.value.has_value());
  const Json message = RunCaseMessage(*loaded.value, "http://127.0.0.1:9/s/1", 1, false);
  EXPECT_EQ(Violations(SchemaOf("run_case"), message), "");
  const Json& x = message["exchanges"][0];
  EXPECT_EQ(DumpJson(x["calls"]),
            R"([{"name":"lookup","args":{"q":"a"},"answered_inside":true},)"
            R"({"name":"f","args":{"n":1},"answered_inside":false},)"
            R"({"name":"g","answered_inside":false}])");
  EXPECT_EQ(DumpJson(x["selected"]), R"({"results":[2,1],"approvals":[]})");
  EXPECT_EQ(DumpJson(message["exchanges"][1]["calls"]), "[]");
}

// A hello may speak protocol 1 or 2; a protocol 1 driver that streams is offered the cases
// captured from streams (`stream-capture`), a protocol 2 driver only when it declares it.
TEST(DriverProtocol, HelloVersionsAndStreamCapture) {
  const auto hello = [](int protocol, std::vector<std::string> capabilities) {
    return ParseHello(Json{{"type", "hello"},
                           {"protocol", protocol},
                           {"name", "n"},
                           {"capabilities", capabilities}});
  };
  EXPECT_EQ(hello(1, {"streaming"}).capabilities.count(kStreamCapture), 1u);
  EXPECT_EQ(hello(2, {"streaming"}).capabilities.count(kStreamCapture), 0u);
  EXPECT_EQ(hello(2, {"streaming", "stream-capture"}).capabilities.count(kStreamCapture), 1u);
  EXPECT_EQ(hello(2, {}).protocol, 2);
  // A framework's pinned package versions stay whole: reports tell implementations apart by them.
  const std::string pinned = "ai 5.0.60, @ai-sdk/google 2.0.17, @ai-sdk/provider-utils 3.0.10";
  const Hello versioned = ParseHello(Json{{"type", "hello"},
                                          {"protocol", 2},
                                          {"name", "vercel-ai-sdk-generate-text-with-tools"},
                                          {"version", pinned},
                                          {"capabilities", Json::array()}});
  EXPECT_EQ(versioned.version, pinned);
  EXPECT_EQ(versioned.name, "vercel-ai-sdk-generate-text-with-tools");
  EXPECT_THROW(hello(3, {}), std::invalid_argument);
  EXPECT_THROW(hello(0, {}), std::invalid_argument);
  Case captured;
  captured.features = {"streaming", "stream-capture"};
  const auto needed = RequiredCapabilities(captured);
  EXPECT_NE(std::find(needed.begin(), needed.end(), kStreamCapture), needed.end());
  EXPECT_EQ(RequiredCapabilities(Case{}).size(), 0u);
}

// A refusal may leave out both `exchange` and `phase` (a framework that raises says neither):
// it validates, and the oracle places it from the journal, at the case's expected refusal when
// the requests sent fit it, else at the parse of the last answer (the build of exchange 1 when
// none went out). Only one of the two breaks the protocol.
TEST(DriverProtocol, RefusalWithoutPlaceIsPlacedFromTheJournal) {
  const Json unplaced = Json{{"type", "report"},
                             {"seq", 1},
                             {"exchanges", Json::array()},
                             {"refusal", Json{{"code", "ValueError"}, {"message", "bad id"}}}};
  EXPECT_EQ(Violations(SchemaOf("report"), unplaced), "");
  const Reply reply = ParseReply(unplaced, 1, Case{});
  ASSERT_TRUE(std::holds_alternative<DriverReport>(reply));
  DriverReport report = std::get<DriverReport>(reply);
  ASSERT_TRUE(report.refusal);
  EXPECT_EQ(report.refusal->exchange, 0u);
  Json half = unplaced;
  half["refusal"]["phase"] = "parse";
  EXPECT_TRUE(std::holds_alternative<Garbled>(ParseReply(half, 1, Case{})));
  EXPECT_NE(Violations(SchemaOf("report"), half), "");

  Case c;
  c.exchanges.resize(3);
  c.expect.outcome = model::Expected::kRefuse;
  c.expect.exchange = 2;
  c.expect.phase = "parse";
  const auto place = [&](std::size_t sent) {
    DriverReport r = report;
    EXPECT_TRUE(PlaceRefusal(c, sent, r));
    return std::pair{r.refusal->exchange, r.refusal->phase};
  };
  EXPECT_EQ(place(2), (std::pair<std::size_t, std::string>{2, "parse"}));
  EXPECT_EQ(place(1), (std::pair<std::size_t, std::string>{1, "parse"}));
  EXPECT_EQ(place(0), (std::pair<std::size_t, std::string>{1, "build"}));
  c.expect.phase = "build";
  EXPECT_EQ(place(1), (std::pair<std::size_t, std::string>{2, "build"}));
  // Written back as the reference driver writes reports, it is still unplaced, not a line
  // with "exchange": 0 that breaks the protocol (found by driver_protocol_fuzzer).
  const Json written = ReportMessage(report, 1);
  EXPECT_EQ(Violations(SchemaOf("report"), written), "");
  const Reply again = ParseReply(written, 1, Case{});
  ASSERT_TRUE(std::holds_alternative<DriverReport>(again)) << written.dump();
  ASSERT_TRUE(std::get<DriverReport>(again).refusal);
  EXPECT_EQ(std::get<DriverReport>(again).refusal->exchange, 0u);
  EXPECT_EQ(std::get<DriverReport>(again).refusal->phase, "");

  DriverReport placed = report;
  placed.refusal->exchange = 3;
  placed.refusal->phase = "http";
  EXPECT_FALSE(PlaceRefusal(c, 1, placed));  // a placed refusal is judged as reported
  EXPECT_EQ(placed.refusal->exchange, 3u);
}

TEST(DriverProtocol, OracleMessagesAndReportsValidate) {
  EXPECT_EQ(Violations(SchemaOf("start"), StartMessage()), "");
  EXPECT_EQ(Violations(SchemaOf("stop"), StopMessage()), "");
  DriverReport report;
  model::ExchangeReport er;
  er.request_built = er.response_parsed = true;
  er.calls.push_back(ParsedCall{"call_1", "get_weather", Json{{"city", "Paris"}}});
  er.answered = std::vector<model::AnsweredCall>{{0, "call_1"}};
  report.exchanges.push_back(er);
  report.refusal = model::Refusal{"native_id.duplicate", "parse", 2, "duplicate id", 1, 0};
  const Json message = ReportMessage(report, 7);
  EXPECT_EQ(Violations(SchemaOf("report"), message), "");
  const Reply back = ParseReply(message, 7, Case{});
  ASSERT_TRUE(std::holds_alternative<DriverReport>(back));
  const auto& parsed = std::get<DriverReport>(back);
  ASSERT_EQ(parsed.exchanges.size(), 1u);
  EXPECT_EQ(parsed.exchanges[0].calls[0].id, "call_1");
  ASSERT_TRUE(parsed.exchanges[0].answered);
  ASSERT_EQ(parsed.exchanges[0].answered->size(), 1u);
  EXPECT_EQ((*parsed.exchanges[0].answered)[0].call, "call_1");
  ASSERT_TRUE(parsed.refusal);
  EXPECT_EQ(parsed.refusal->code, "native_id.duplicate");
  EXPECT_EQ(parsed.refusal->exchange, 2u);
  EXPECT_EQ(*parsed.refusal->message_index, 1u);
}

// A report may say the application stopped where the case's actions did not fit the calls the
// implementation parsed (INTERPRETING §15.1): it round-trips, validates, its reason is made
// safe, and a stop naming another exchange than the report's last breaks the protocol. A
// report without it (protocol 1 as before) is read as not stopped.
TEST(DriverProtocol, StoppedReportsRoundTripAndAreChecked) {
  DriverReport report;
  report.exchanges.emplace_back().calls.push_back(ParsedCall{"call_1", "f", Json::object()});
  report.stopped = model::Stop{1, "the selector call 1 of exchange 1 picks nothing"};
  const Json message = ReportMessage(report, 3);
  EXPECT_EQ(Violations(SchemaOf("report"), message), "");
  Case c;
  c.raw = Json{{"exchanges", Json::array({Json{{"user", "my secret plan"}}})}};
  Json leaky = message;
  leaky["stopped"]["reason"] = "stopped on my secret plan";
  const Reply back = ParseReply(leaky, 3, c);
  ASSERT_TRUE(std::holds_alternative<DriverReport>(back));
  const auto& parsed = std::get<DriverReport>(back);
  ASSERT_TRUE(parsed.stopped);
  EXPECT_EQ(parsed.stopped->exchange, 1u);
  EXPECT_EQ(parsed.stopped->reason.find("secret"), std::string::npos) << parsed.stopped->reason;
  Json without = message;
  without.erase("stopped");
  const Reply plain = ParseReply(without, 3, c);
  ASSERT_TRUE(std::holds_alternative<DriverReport>(plain));
  EXPECT_FALSE(std::get<DriverReport>(plain).stopped);
  for (const Json& bad : {Json{{"exchange", 2}}, Json{{"exchange", 0}}, Json{{"reason", "x"}},
                          Json("stopped")}) {
    Json broken = message;
    broken["stopped"] = bad;
    EXPECT_TRUE(std::holds_alternative<Garbled>(ParseReply(broken, 3, c))) << bad.dump();
  }
  // A stop at an exchange before the report's last: something ran after it.
  DriverReport longer = report;
  longer.exchanges.emplace_back();
  Json early = ReportMessage(longer, 3);
  EXPECT_TRUE(std::holds_alternative<Garbled>(ParseReply(early, 3, c))) << early.dump();
  early["stopped"]["exchange"] = 2;
  EXPECT_TRUE(std::holds_alternative<DriverReport>(ParseReply(early, 3, c))) << early.dump();
}

TEST(DriverProtocol, RepliesThatBreakTheProtocolAreGarbledWithoutTheirContent) {
  for (const char* answered : {R"("no")", R"([{"call": "c"}])", R"([{"result": -1, "call": "c"}])",
                               R"([{"result": 0, "call": 7}])"}) {
    const Json bad = Json::parse(std::string(R"({"type": "report", "seq": 1, "exchanges": [
        {"calls": [], "answered": )") +
                                 answered + "}]}");
    EXPECT_TRUE(std::holds_alternative<Garbled>(ParseReply(bad, 1, Case{}))) << answered;
  }
  EXPECT_TRUE(std::holds_alternative<Garbled>(ParseReply(Json::array(), 1, Case{})));
  EXPECT_TRUE(std::holds_alternative<Garbled>(
      ParseReply(Json{{"type", "report"}, {"seq", 2}, {"exchanges", Json::array()}}, 1, Case{})));
  EXPECT_TRUE(
      std::holds_alternative<Garbled>(ParseReply(Json{{"type", "report"}, {"seq", 1}}, 1, Case{})));
  const Reply bad = ParseReply(
      Json{{"type", "report"},
           {"seq", 1},
           {"exchanges", Json::array({Json{{"calls", Json::array({Json{{"id", "SECRET-id"}}})}}})}},
      1, Case{});
  ASSERT_TRUE(std::holds_alternative<Garbled>(bad));
  EXPECT_EQ(std::get<Garbled>(bad).why.find("SECRET"), std::string::npos);
  EXPECT_TRUE(std::holds_alternative<Skipped>(
      ParseReply(Json{{"type", "skipped"}, {"seq", 1}, {"reason", "x"}}, 1, Case{})));
  EXPECT_THROW(ParseHello(Json{{"type", "report"}}), std::invalid_argument);
  EXPECT_EQ(
      ParseHello(
          Json{{"type", "hello"}, {"protocol", 1}, {"name", "n"}, {"capabilities", {"streaming"}}})
          .capabilities.count("streaming"),
      1u);
  EXPECT_THROW(ParseHello(Json{{"type", "hello"}, {"name", "n"}, {"capabilities", Json::array()}}),
               std::invalid_argument);  // no protocol version
  EXPECT_THROW(ParseHello(Json{{"type", "hello"}, {"protocol", 1}, {"name", "n"}}),
               std::invalid_argument);  // no capabilities
}

// A driver's free text reaches reports without the case's content and without control
// characters; a refusal code that is not a code breaks the protocol.
TEST(DriverProtocol, DriverTextsAreMadeSafe) {
  Case c;
  c.raw = Json{
      {"exchanges",
       Json::array({Json{
           {"user", "my secret plan"},
           {"then",
            Json{{"results",
                  Json::array({Json{{"call", 0}, {"json", Json{{"id", "call_SECRET"}}}}})}}}}})}};
  const Reply skipped = ParseReply(
      Json{{"type", "skipped"}, {"seq", 1}, {"reason", "cannot do call_SECRET \x1b[31m now"}}, 1,
      c);
  ASSERT_TRUE(std::holds_alternative<Skipped>(skipped));
  const std::string reason = std::get<Skipped>(skipped).reason;
  EXPECT_EQ(reason.find("SECRET"), std::string::npos) << reason;
  EXPECT_EQ(reason.find('\x1b'), std::string::npos) << reason;
  EXPECT_NE(reason.find("cannot do"), std::string::npos) << reason;
  const std::string long_text(5000, 'x');
  EXPECT_LE(SafeDriverText(long_text, nullptr).size(), 203u);
  // The case's structure is no native content: its description, features, function names and
  // roles stay in a reason, so that like reasons group; a short native id is cut where it
  // stands alone, not inside a longer word.
  Case structured;
  structured.raw = ParseJson(R"({
    "description": "Answers every call it runs.",
    "features": ["streaming", "parallel"],
    "options": {"tools": [{"functionDeclarations": [{"name": "get_weather"}]}]},
    "exchanges": [{"user": "go", "response": {"body": {"candidates": [{"content": {
      "role": "model", "parts": [{"functionCall": {"id": "c1ab", "name": "get_weather",
        "args": {"city": "Bergen-SECRET"}}, "thoughtSignature": "c2lnbmF0dXJl"}]},
      "finishReason": "STOP"}]}}}]})");
  const std::string plain =
      "this client answers every call it runs, no streaming of parallel get_weather (model STOP)";
  EXPECT_EQ(SafeDriverText(plain, &structured), plain);
  const std::string native =
      "got c1ab and Bergen-SECRET with c2lnbmF0dXJl; c1abc is a word of its own";
  const std::string cut = SafeDriverText(native, &structured);
  EXPECT_EQ(cut, "got \u2026 and \u2026 with \u2026; c1abc is a word of its own") << cut;
  // Every string of an answer counts, whatever member holds it: an error's message, code the
  // server ran, its output.
  Case errors;
  errors.raw = ParseJson(R"json({"exchanges": [
    {"user": "go", "response": {"status": 400, "body": {"error": {"code": 400,
      "message": "Invalid id (SENTINEL-d41d8) in request", "status": "INVALID_ARGUMENT"}}}},
    {"user": "run it", "response": {"body": {"candidates": [{"content": {"role": "model",
      "parts": [{"executableCode": {"language": "PYTHON", "code": "print(SECRET_SUM)"}},
                {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "4242-OUT"}}]}}]}}}]})json");
  const std::string leaked =
      SafeDriverText("Invalid id (SENTINEL-d41d8) in request; ran print(SECRET_SUM) giving "
                     "4242-OUT; INVALID_ARGUMENT PYTHON",
                     &errors);
  EXPECT_EQ(leaked.find("SENTINEL"), std::string::npos) << leaked;
  EXPECT_EQ(leaked.find("SECRET_SUM"), std::string::npos) << leaked;
  EXPECT_EQ(leaked.find("4242-OUT"), std::string::npos) << leaked;
  EXPECT_NE(leaked.find("INVALID_ARGUMENT PYTHON"), std::string::npos) << leaked;
  // A member named like the structure inside arguments or results is content all the same.
  Case named;
  named.raw = ParseJson(R"({"exchanges": [{"user": "go", "then": {"results": [
    {"call": 0, "json": {"name": "Alice-Person"}}]}}]})");
  named.transcript = ParseJson(R"([{"role": "assistant", "content": "",
    "tool_calls": [{"id": "tc_1", "name": "lookup", "arguments": {"name": "Bobby-Person"}}]}])");
  const std::string people = SafeDriverText("Alice-Person and Bobby-Person via lookup", &named);
  EXPECT_EQ(people, "\u2026 and \u2026 via lookup") << people;
  const Reply coded = ParseReply(
      Json{{"type", "report"},
           {"seq", 1},
           {"exchanges", Json::array()},
           {"refusal", Json{{"code", "my secret plan"}, {"phase", "build"}, {"exchange", 1}}}},
      1, c);
  EXPECT_TRUE(std::holds_alternative<Garbled>(coded));
}

}  // namespace
}  // namespace gemini_oracle::runner::protocol
