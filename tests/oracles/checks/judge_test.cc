// JudgeAll, the decoding judge and the clause levels.
#include "oracles/checks/judge.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "oracles/checks/judge_json.h"
#include "oracles/checks/wire_view.h"
#include "oracles/runner/clause_registry.h"
#include "tests/oracles/checks/checks_test_support.h"
#include "tests/source_root.h"

namespace gemini_oracle::checks {
namespace {

using testing::MakeCase;
using testing::MakeJournal;

// Finds no fault at all in a correct parallel, reordered, closing conversation.
TEST(JudgeAll, AcceptsGoodParallelRun) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  const auto report = testing::ParallelReport();
  const auto findings = JudgeAll({c, journal, report});
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// Finds no fault at all in a correct ID-less conversation answered with text.
TEST(JudgeAll, AcceptsGoodIdlessRun) {
  const auto c = MakeCase(testing::kIdlessCase);
  const auto journal = MakeJournal({testing::kIdlessRequest1, testing::kIdlessRequest2});
  const auto report = testing::IdlessReport();
  const auto findings = JudgeAll({c, journal, report});
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// The shared parallel case with its first answer served as `raw_body`: the same JSON
// pretty-printed with CRLF and `role` after `parts`, as Google sends it.
model::Case RawBodyCase(const std::string& raw) {
  Json c = ParseJson(testing::kParallelCase);
  Json& response = c["exchanges"][0]["response"];
  response.erase("body");
  response["raw_body"] = raw;
  return model::CaseFromJson(c, "checks/y_case", "y_case.json");
}

std::string GoogleBytes() {
  Json body = ParseJson(testing::kParallelCase)["exchanges"][0]["response"]["body"];
  Json& content = body["candidates"][0]["content"];
  const Json role = content["role"];
  content.erase("role");
  content["role"] = role;  // ordered members: now after `parts`
  std::string text = body.dump(2);
  for (std::size_t at = 0; (at = text.find('\n', at)) != std::string::npos; at += 2) {
    text.replace(at, 1, "\r\n");
  }
  return text;
}

// Judges an answer served byte for byte by its JSON, read with the judges' own reader: the
// good run has no finding, an answer without its call's native id is ADR-226.3's, and a
// `raw_body` that is no JSON object holds no parts.
TEST(JudgeAll, ReadsTheCallsOfAnAnswerServedAsRawBody) {
  const auto c = RawBodyCase(GoogleBytes());
  const auto parts = detail::ScriptedParts(c.exchanges[0]);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_TRUE(parts[0]["functionCall"]["args"]["n"].is_number_float());
  const auto report = testing::ParallelReport();
  const auto good = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  EXPECT_TRUE(JudgeAll({c, good, report}).empty()) << Describe(JudgeAll({c, good, report}));
  const auto omitted = MakeJournal(
      {testing::kParallelRequest1,
       testing::Replace(testing::kParallelRequest2, R"({"id":"call_A1","name":"lookup","response")",
                        R"({"name":"lookup","response")")});
  const auto findings = JudgeAll({c, omitted, report});
  EXPECT_TRUE(std::any_of(findings.begin(), findings.end(),
                          [](const Finding& f) { return f.clause == "ADR-226.3"; }))
      << Describe(findings);
  for (const std::string not_object : {"<html>busy</html>", "[]", "{\"candidates\": ["}) {
    EXPECT_TRUE(detail::ScriptedParts(RawBodyCase(not_object).exchanges[0]).empty())
        << not_object;
  }
  // A member named twice has no one value, as `check`'s raw_body rule reads it: no parts.
  const std::string repeated = "{\"x\": 1, \"x\": 2, " + GoogleBytes().substr(1);
  EXPECT_TRUE(detail::ScriptedParts(RawBodyCase(repeated).exchanges[0]).empty());
}

// Accepts every journaled body that decodes as a request object.
TEST(Decoding, AcceptsDecodableBodies) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({testing::kParallelRequest1, testing::kParallelRequest2});
  const auto report = testing::ParallelReport();
  EXPECT_TRUE(JudgeDecoding({c, journal, report}).empty());
}

// Reports an undecodable body against ADR-224.12 without quoting it.
TEST(Decoding, ReportsUndecodableBody) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({R"({"contents":[{"role":"user")"});
  const auto report = testing::ParallelReport();
  const auto findings = JudgeDecoding({c, journal, report});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].clause, "ADR-224.12");
  EXPECT_EQ(findings[0].request, 1u);
  EXPECT_EQ(ReasonTag(findings[0]), kWireViolation);
  EXPECT_EQ(findings[0].message.find("role"), std::string::npos);
}

// Reports a body whose object repeats a member name (`"args":[],"args":{}` reads as {} here).
TEST(Decoding, ReportsRepeatedMemberName) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal(
      {R"({"contents":[{"role":"user","parts":[{"functionCall":{"name":"f","args":[],"args":{}}}]}]})"});
  const auto report = testing::ParallelReport();
  const auto findings = JudgeDecoding({c, journal, report});
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_EQ(findings[0].clause, "ADR-224.12");
  EXPECT_NE(findings[0].message.find("repeats a member name"), std::string::npos);
}

// Reports a body nested past kMaxJsonDepth and one holding a number beyond a double as
// undecodable, instead of letting the judges recurse or the exception escape.
TEST(Decoding, ReportsTooDeepOrOverflowingBody) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto report = testing::ParallelReport();
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const auto journal = MakeJournal({deep, R"({"contents":[],"n":1e999})"});
  const auto findings = JudgeDecoding({c, journal, report});
  EXPECT_EQ(testing::Where(findings), (testing::Places{{"ADR-224.12", ""}, {"ADR-224.12", ""}}));
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[1].request, 2u);
  EXPECT_NE(findings[1].message.find("beyond the range of a double"), std::string::npos);
  EXPECT_NO_THROW(JudgeAll({c, journal, report}));
}

// Decodes an integer beyond 64 bits in a body exactly, as a big integer (no rounding to a
// double, no finding).
TEST(Decoding, KeepsBigIntegerInBody) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto report = testing::ParallelReport();
  const auto journal = MakeJournal({R"({"contents":[],"n":[123456789012345678901234567890]})"});
  const auto decoded = detail::DecodeJournal(journal);
  ASSERT_TRUE(decoded[0].body);
  EXPECT_TRUE(IsBigInteger((*decoded[0].body)["n"][0]));
  EXPECT_EQ(BigIntegerText((*decoded[0].body)["n"][0]), "123456789012345678901234567890");
  EXPECT_TRUE(JudgeDecoding({c, journal, report}).empty());
}

// Reads a transcript tool message holding 1e400 as text, like the reference: no judge throws.
TEST(JudgeAll, ToolMessageBeyondDoubleIsText) {
  const auto c = MakeCase(R"({
    "description": "A carried tool message holds a number beyond a double.",
    "clauses": ["ADR-224.3"],
    "transcript": [
      {"role": "user", "content": "start"},
      {"role": "assistant", "id": "turn_1",
       "tool_calls": [{"id": "tc_1", "name": "f", "arguments": {}}]},
      {"role": "tool", "tool_call_id": "tc_1", "name": "f", "content": "{\"x\": 1e400}"}],
    "exchanges": [{"user": "go on",
      "response": {"body": {"candidates": [{"content": {"role": "model",
        "parts": [{"text": "done"}]}}]}}}],
    "expect": {"outcome": "accept", "requests": 1}
  })");
  const auto journal =
      MakeJournal({R"({"contents":[{"role":"user","parts":[{"text":"start"}]},)"
                   R"({"role":"model","parts":[{"functionCall":{"name":"f","args":{}}}]},)"
                   R"({"role":"user","parts":[{"functionResponse":{"name":"f",)"
                   R"("response":{"output":"{\"x\": 1e400}"}}}]},)"
                   R"({"role":"user","parts":[{"text":"go on"}]}]})"});
  model::DriverReport report;
  report.exchanges.push_back(testing::Exchange());
  EXPECT_NO_THROW(JudgeAll({c, journal, report}));
}

// Reports a JSON body without a contents list at /contents.
TEST(Decoding, ReportsBodyWithoutContents) {
  const auto c = MakeCase(testing::kParallelCase);
  const auto journal = MakeJournal({R"({"contents":{}})"});
  const auto report = testing::ParallelReport();
  EXPECT_EQ(testing::Where(JudgeDecoding({c, journal, report})),
            (testing::Places{{"ADR-224.12", "/contents"}}));
}

// Derives must, open and beyond from clause ids exactly as the clause registry lists them.
TEST(ClauseLevels, AgreeWithRegistry) {
  const std::filesystem::path source = gemini_oracle::testing::SourceRoot();
  const auto registry = runner::ClauseRegistry::Load(runner::ClausesPath(source));
  ASSERT_FALSE(registry.clauses().empty());
  for (const auto& clause : registry.clauses()) {
    EXPECT_EQ(LevelOf(clause.id), runner::ToString(clause.level)) << clause.id;
  }
  // Every clause a judge can cite on its own is registered.
  for (const char* id : {"ADR-224.1",  "ADR-224.2",  "ADR-224.3",  "ADR-224.4",  "ADR-224.5",
                         "ADR-224.6",  "ADR-224.7",  "ADR-224.8",  "ADR-224.9",  "ADR-224.10",
                         "ADR-224.11", "ADR-224.12", "ADR-224.F1", "ADR-226.1",  "ADR-226.3",
                         "ADR-226.4",  "ADR-226.16", "ADR-226.17", "ADR-226.19", "ADR-226.20"}) {
    EXPECT_TRUE(registry.Contains(id)) << id;
  }
}

// Lists every judge once, by a unique name.
TEST(JudgeAll, ListsEachJudgeOnce) {
  std::set<std::string_view> names;
  for (const auto& judge : Judges()) EXPECT_TRUE(names.insert(judge.name).second) << judge.name;
  EXPECT_EQ(names.size(), 13u);
}

// Prefixes messages with their reason tag and escapes pointer tokens per RFC 6901.
TEST(Finding, BuildsTaggedMessagesAndPointers) {
  const Finding finding = MakeFinding("ADR-224.F1", kWireViolation, 2, "/a", "kind drift");
  EXPECT_EQ(finding.level, "open");
  EXPECT_EQ(finding.message, "wire-violation: kind drift");
  EXPECT_EQ(ReasonTag(finding), kWireViolation);
  EXPECT_EQ(PointerAppend("/args", "a/b~c"), "/args/a~1b~0c");
  EXPECT_EQ(LevelOf("ADR-226.B1"), "beyond");
  EXPECT_EQ(LevelOf("ADR-226.3"), "must");
}

}  // namespace
}  // namespace gemini_oracle::checks
