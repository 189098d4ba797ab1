#include "oracles/runner/reference_driver.h"

#include <gtest/gtest.h>

#include "oracles/capture/capture_server.h"

namespace gemini_oracle::runner {
namespace {

// Renormalizes integral floats the way frameworks and databases do, leaving the rest alone.
TEST(NormalizeNumbers, IntegralFloatsBecomeIntegers) {
  const Json in = ParseJson(
      R"({"a":1.0,"b":-3.0,"c":-0.0,"d":1.5,"e":"1.0","f":[2.0,{"g":7.0}],"h":1e300,"i":true})");
  const Json out = NormalizeNumbers(in);
  EXPECT_EQ(DumpJson(out),
            R"({"a":1,"b":-3,"c":0,"d":1.5,"e":"1.0","f":[2,{"g":7}],"h":1e+300,"i":true})");
  EXPECT_TRUE(out["a"].is_number_integer());
  EXPECT_TRUE(out["d"].is_number_float());
  EXPECT_TRUE(out["h"].is_number_float());  // beyond the int64 range it stays a float
  EXPECT_EQ(DumpJson(NormalizeNumbers(ParseJson("[9007199254740992.0,-9223372036854775808.0]"))),
            "[9007199254740992,-9223372036854775808]");
}

// Names the selector and the parsed calls when a result picks no call (a case error), so
// the author sees what does not fit instead of a bare "no single call".
TEST(ReferenceDriver, UnmatchedSelectorNamesSelectorAndCalls) {
  capture::CaptureServer server;
  capture::ScriptedResponse turn;
  turn.body = R"({"candidates":[{"content":{"role":"model","parts":[)"
              R"({"functionCall":{"name":"get_time","args":{"secret":"SENTINEL-d41d8"}}}]}}]})";
  const std::string script = server.AddScript({turn});
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
  ReferenceDriver driver;
  const DriverReport report = driver.Run(c, server.BaseUrl(script));
  ASSERT_TRUE(report.harness_error.has_value());
  EXPECT_NE(report.harness_error->find("{name \"get_weather\"}"), std::string::npos)
      << *report.harness_error;
  EXPECT_NE(report.harness_error->find("among the 1 parsed (get_time)"), std::string::npos)
      << *report.harness_error;
  EXPECT_EQ(report.harness_error->find("SENTINEL"), std::string::npos);
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

}  // namespace
}  // namespace gemini_oracle::runner
