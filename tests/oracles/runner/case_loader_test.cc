#include "oracles/runner/case_loader.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "oracles/model/server_answered.h"
#include "oracles/runner/case_rules.h"
#include "reference_impl/correlation.h"
#include "tests/oracles/runner/test_fixtures.h"

namespace gemini_oracle::runner {
namespace {

using testing::TempDir;

// One line per member, so each negative control below knows its line and column by heart.
const std::string kGood = R"({
  "description": "Answers two identical parallel calls in reverse order.",
  "clauses": ["ADR-226.20"],
  "features": ["parallel"],
  "exchanges": [
    {
      "user": "go",
      "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"id": "a", "name": "f", "args": {}}},
        {"functionCall": {"id": "b", "name": "f", "args": {}}}]}}]}},
      "then": {"call_order": "reverse", "results": [
        {"call": 0, "json": {"r": 1}},
        {"call": 1, "text": "two"}]}
    },
    {"response": {"body": {"candidates": [{"content": {"role": "model", "parts": [{"text": "done"}]}}]}}}
  ],
  "expect": {"outcome": "accept", "requests": 2,
    "wire": [{"request": 2, "pointer": "/contents/1/parts/0/functionCall/args", "equals": {}, "clause": "ADR-224.7"}]}
}
)";

// The same script refused at the first exchange; line 17 holds the whole expect.
const std::string kRefused = R"({
  "description": "Refuses two calls that share a native id.",
  "clauses": ["ADR-226.5"],
  "features": ["parallel"], "rationale": "ADR-226: \"Malformed or duplicate native IDs in the tool parser ... are refused\".",
  "exchanges": [
    {
      "user": "go",
      "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"id": "a", "name": "f", "args": {}}},
        {"functionCall": {"id": "b", "name": "f", "args": {}}}]}}]}},
      "then": {"call_order": "reverse", "results": [
        {"call": 0, "json": {"r": 1}},
        {"call": 1, "text": "two"}]}
    },
    {"response": {"body": {"candidates": [{"content": {"role": "model", "parts": [{"text": "done"}]}}]}}}
  ],
  "expect": {"outcome": "refuse", "error": "native_id.duplicate", "phase": "parse", "exchange": 1}
}
)";

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

class CaseLoaderTest : public ::testing::Test {
 protected:
  CaseLoaderTest() : loader_(CaseLoader::FromSourceRoot(testing::SourceRoot())) {}

  LoadedCase LoadText(const std::string& relative, const std::string& text) {
    return loader_.Load(dir_.Write(relative, text), dir_.path());
  }

  std::string File(const std::string& relative) const {
    return (dir_.path() / relative).generic_string();
  }

  // Diagnostics of one rule only, so an unrelated finding cannot hide a missing one.
  static std::vector<Diagnostic> OfRule(const std::vector<Diagnostic>& all, std::string_view rule) {
    std::vector<Diagnostic> out;
    for (const auto& d : all) {
      if (d.rule == rule) out.push_back(d);
    }
    return out;
  }

  // Asserts the file produced exactly one diagnostic, of `rule`, at line:column.
  void ExpectOnly(const LoadedCase& loaded, const std::string& relative, std::string_view rule,
                  int line, int column) {
    ASSERT_EQ(loaded.diagnostics.size(), 1u) << Dump(loaded.diagnostics);
    const Diagnostic& d = loaded.diagnostics.front();
    EXPECT_EQ(d.file, File(relative));
    EXPECT_EQ(d.rule, rule);
    EXPECT_EQ(d.line, line) << FormatDiagnostic(d);
    EXPECT_EQ(d.column, column) << FormatDiagnostic(d);
    EXPECT_FALSE(loaded.value.has_value());
  }

  static std::string Dump(const std::vector<Diagnostic>& all) {
    std::string text;
    for (const auto& d : all) text += FormatDiagnostic(d) + "\n";
    return text;
  }

  TempDir dir_;
  CaseLoader loader_;
};

// Loads a valid accept case with every member in its model.
TEST_F(CaseLoaderTest, GoodCaseLoadsCleanly) {
  const LoadedCase loaded = LoadText("adr-226/y_reversed.json", kGood);
  ASSERT_TRUE(loaded.diagnostics.empty()) << Dump(loaded.diagnostics);
  ASSERT_TRUE(loaded.value.has_value());
  const Case& c = *loaded.value;
  EXPECT_EQ(c.id, "adr-226/y_reversed");
  EXPECT_EQ(c.Stem(), "y_reversed");
  EXPECT_EQ(c.Folder(), "adr-226");
  EXPECT_EQ(c.expected, Expected::kAccept);
  EXPECT_EQ(c.clauses, std::vector<std::string>{"ADR-226.20"});
  EXPECT_TRUE(c.HasFeature("parallel"));
  ASSERT_EQ(c.exchanges.size(), 2u);
  const Exchange& first = c.exchanges[0];
  EXPECT_EQ(first.user, "go");
  EXPECT_EQ(first.response.status, 200);
  ASSERT_TRUE(first.then.call_order.has_value());
  EXPECT_TRUE(first.then.call_order->reverse);
  ASSERT_EQ(first.then.results.size(), 2u);
  EXPECT_EQ(std::get<std::size_t>(first.then.results[1].call), 1u);
  EXPECT_EQ(first.then.results[1].kind, Result::Kind::kText);
  EXPECT_EQ(first.then.results[1].value, Json("two"));
  EXPECT_EQ(c.expect.outcome, Expected::kAccept);
  EXPECT_EQ(c.expect.requests, 2u);
  ASSERT_EQ(c.expect.wire.size(), 1u);
  EXPECT_EQ(c.expect.wire[0].request, 2u);
  // `{}` stays an object: the model keeps kinds as written.
  ASSERT_TRUE(c.expect.wire[0].equals.has_value());
  EXPECT_TRUE(c.expect.wire[0].equals->is_object());
}

// Loads a valid refuse case with its error code, phase and exchange.
TEST_F(CaseLoaderTest, GoodRefuseCaseLoadsCleanly) {
  const LoadedCase loaded = LoadText("adr-226/n_duplicate.json", kRefused);
  ASSERT_TRUE(loaded.diagnostics.empty()) << Dump(loaded.diagnostics);
  EXPECT_EQ(loaded.value->expected, Expected::kRefuse);
  EXPECT_EQ(loaded.value->expect.error, "native_id.duplicate");
  EXPECT_EQ(loaded.value->expect.phase, "parse");
  EXPECT_EQ(loaded.value->expect.exchange, 1u);
}

// Parses named selectors, explicit call orders and response status and headers.
TEST_F(CaseLoaderTest, ParsesNamedSelectorsAndExplicitOrder) {
  std::string text = Replace(kGood, R"({"call": 1, "text": "two"})",
                             R"({"call": {"name": "f", "args": {"x": 1.0}}, "error": "no"})");
  text = Replace(text, R"("call_order": "reverse")", R"("call_order": [1, 0])");
  text = Replace(text, R"({"id": "a", "name": "f", "args": {}})",
                 R"({"id": "a", "name": "f", "args": {"x": 1}})");
  text = Replace(
      text,
      R"("response": {"body": {"candidates": [{"content": {"role": "model", "parts": [{"text")",
      R"("response": {"status": 201, "headers": {"x-b": "2", "x-a": "1"}, "body": {"candidates": [{"content": {"role": "model", "parts": [{"text")");
  const LoadedCase loaded = LoadText("adr-226/y_named.json", text);
  ASSERT_TRUE(loaded.diagnostics.empty()) << Dump(loaded.diagnostics);
  const Actions& then = loaded.value->exchanges[0].then;
  EXPECT_EQ(then.call_order->indices, (std::vector<std::size_t>{1, 0}));
  const auto& named = std::get<NamedCall>(then.results[1].call);
  EXPECT_EQ(named.name, "f");
  EXPECT_TRUE((*named.args)["x"].is_number_float());
  EXPECT_EQ(then.results[1].kind, Result::Kind::kError);
  const ScriptedResponse& second = loaded.value->exchanges[1].response;
  EXPECT_EQ(second.status, 201);
  ASSERT_EQ(second.headers.size(), 2u);
  EXPECT_EQ(second.headers[0].first, "x-b");  // file order, not sorted
}

// Reports a JSON syntax error at the byte where parsing failed.
TEST_F(CaseLoaderTest, SyntaxErrorHasItsPosition) {
  const LoadedCase loaded =
      LoadText("adr-226/y_broken.json", "{\n  \"description\": \"x\",\n  \"clauses\": [\n}\n");
  ExpectOnly(loaded, "adr-226/y_broken.json", rules::kJsonSyntax, 4, 1);
}

// Reports a schema violation at the offending value with valijson's description.
TEST_F(CaseLoaderTest, SchemaViolationPointsAtTheValue) {
  const LoadedCase loaded =
      LoadText("adr-226/y_feature.json", Replace(kGood, R"(["parallel"])", R"(["paralel"])"));
  ASSERT_FALSE(loaded.diagnostics.empty());
  for (const auto& d : loaded.diagnostics) EXPECT_EQ(d.rule, rules::kSchema) << FormatDiagnostic(d);
  bool at_item = false;
  for (const auto& d : loaded.diagnostics) {
    if (d.line == 4 && d.column == 16 && d.message.starts_with("/features/0: ")) at_item = true;
  }
  EXPECT_TRUE(at_item) << Dump(loaded.diagnostics);
}

// Refuses a y_ file whose expect.outcome is not accept.
TEST_F(CaseLoaderTest, PrefixMustAgreeWithOutcome) {
  // With a rationale, so that prefix.expect is the only rule the file breaks.
  const LoadedCase loaded = LoadText(
      "adr-226/n_accepting.json",
      Replace(kGood, R"("features": ["parallel"],)",
              R"("features": ["parallel"], "rationale": "A refusal the ADR demands.",)"));
  ExpectOnly(loaded, "adr-226/n_accepting.json", rules::kPrefixExpect, 17, 25);
}

// Refuses a clause id that the registry does not list.
TEST_F(CaseLoaderTest, UnknownClauseIsReported) {
  const LoadedCase loaded =
      LoadText("adr-226/y_unknown.json", Replace(kGood, "ADR-226.20", "ADR-226.99"));
  ExpectOnly(loaded, "adr-226/y_unknown.json", rules::kClauseUnknown, 3, 15);
}

// Refuses descriptions that say "should" or "test that", in any case.
TEST_F(CaseLoaderTest, DescriptionStyleIsEnforced) {
  ExpectOnly(LoadText("adr-226/y_should.json", Replace(kGood, "Answers two", "SHOULD answer two")),
             "adr-226/y_should.json", rules::kDescriptionStyle, 2, 18);
  ExpectOnly(LoadText("adr-226/y_testthat.json",
                      Replace(kGood, "Answers two", "Test that it answers two")),
             "adr-226/y_testthat.json", rules::kDescriptionStyle, 2, 18);
}

// Reports a description of 100 characters or more under description.style too.
TEST_F(CaseLoaderTest, LongDescriptionIsReported) {
  const LoadedCase loaded =
      LoadText("adr-226/y_long.json",
               Replace(kGood, "Answers two identical parallel calls in reverse order.",
                       std::string(100, 'a')));
  const auto style = OfRule(loaded.diagnostics, rules::kDescriptionStyle);
  ASSERT_EQ(style.size(), 1u) << Dump(loaded.diagnostics);
  EXPECT_EQ(style[0].line, 2);
  EXPECT_EQ(style[0].column, 18);
  // 99 characters is within the limit.
  EXPECT_TRUE(LoadText("adr-226/y_99.json",
                       Replace(kGood, "Answers two identical parallel calls in reverse order.",
                               std::string(99, 'a')))
                  .diagnostics.empty());
}

// Refuses an n_ case whose error code is not in the provider error catalogue.
TEST_F(CaseLoaderTest, UnknownErrorCodeIsReported) {
  ExpectOnly(
      LoadText("adr-226/n_bogus.json", Replace(kRefused, "native_id.duplicate", "native_id.bogus")),
      "adr-226/n_bogus.json", rules::kErrorUnknown, 17, 44);
}

// Accepts results of one exchange whose payloads look alike on the wire ({} and [], a value
// and a one-member object holding it, the same payload twice): calls are identified without
// their payloads, so real conversations like these are valid cases.
TEST_F(CaseLoaderTest, AlikeResultPayloadsAreAccepted) {
  const std::vector<std::pair<std::string, std::string>> alike = {
      {R"("json": {"r": 1})", R"("json": {"r": 1})"},
      {R"("json": [])", R"("json": {})"},
      {R"("json": ["x"])", R"("json": {"0": "x"})"},
      {R"("json": "abc")", R"("text": "abc")"},
      {R"("text": "abc")", R"("error": "abc")"},
      {R"("json": 1)", R"("json": {"output": 1})"},
  };
  for (const auto& [first, second] : alike) {
    std::string text =
        Replace(kGood, R"({"call": 0, "json": {"r": 1}})", "{\"call\": 0, " + first + "}");
    text = Replace(text, R"({"call": 1, "text": "two"})", "{\"call\": 1, " + second + "}");
    SCOPED_TRACE(first + " vs " + second);
    const LoadedCase loaded = LoadText("adr-226/y_alike.json", text);
    EXPECT_TRUE(loaded.diagnostics.empty()) << Dump(loaded.diagnostics);
  }
}

// Refuses an n_ or i_ case without a rationale, or with an empty or blank one, and accepts
// the same files once they say why (positive controls); a y_ case needs none.
TEST_F(CaseLoaderTest, RationaleIsRequiredOnRefusedAndOpenCases) {
  const std::string rationale_line =
      R"( "rationale": "ADR-226: \"Malformed or duplicate native IDs in the tool parser ... are refused\".",)";
  const std::string without = Replace(kRefused, rationale_line, "");
  ExpectOnly(LoadText("adr-226/n_bare.json", without), "adr-226/n_bare.json",
             rules::kRationalePresent, 1, 1);
  {
    const LoadedCase loaded = LoadText("adr-226/n_bare.json", without);
    ASSERT_EQ(loaded.diagnostics.size(), 1u);
    EXPECT_NE(loaded.diagnostics[0].message.find("rationale"), std::string::npos);
  }
  // A blank string passes the schema's minLength but says nothing.
  ExpectOnly(LoadText("adr-226/n_blank.json",
                      Replace(kRefused, rationale_line, R"( "rationale": "   ",)")),
             "adr-226/n_blank.json", rules::kRationalePresent, 4, 42);
  // Positive control: the refused case with its rationale is clean.
  EXPECT_TRUE(LoadText("adr-226/n_said.json", kRefused).diagnostics.empty());

  // An i_ case: the same rule, then clean once it says what is left open.
  std::string open = Replace(without, R"("expect": {"outcome": "refuse", "error": "native_id.duplicate", "phase": "parse", "exchange": 1})",
                             R"("expect": {"outcome": "implementation_defined", "note": "open"})");
  ExpectOnly(LoadText("adr-226/i_bare.json", open), "adr-226/i_bare.json",
             rules::kRationalePresent, 1, 1);
  open = Replace(open, R"("features": ["parallel"],)",
                 R"("features": ["parallel"], "rationale": "The ADRs leave this open.",)");
  EXPECT_TRUE(LoadText("adr-226/i_said.json", open).diagnostics.empty());
  // An accept case does not need one.
  EXPECT_TRUE(LoadText("adr-226/y_plain.json", kGood).diagnostics.empty());
}

// Refuses a numeric selector beyond the scripted functionCall parts.
TEST_F(CaseLoaderTest, SelectorOutOfRangeIsReported) {
  ExpectOnly(LoadText("adr-226/y_range.json",
                      Replace(kGood, R"({"call": 1, "text")", R"({"call": 2, "text")")),
             "adr-226/y_range.json", rules::kSelectorRange, 13, 18);
}

// Refuses a call_order that is not a permutation of the scripted calls.
TEST_F(CaseLoaderTest, CallOrderMustBeAPermutation) {
  ExpectOnly(LoadText("adr-226/y_short.json", Replace(kGood, R"("reverse")", "[0]")),
             "adr-226/y_short.json", rules::kSelectorRange, 11, 30);
  ExpectOnly(LoadText("adr-226/y_beyond.json", Replace(kGood, R"("reverse")", "[0, 5]")),
             "adr-226/y_beyond.json", rules::kSelectorRange, 11, 34);
  EXPECT_TRUE(LoadText("adr-226/y_perm.json", Replace(kGood, R"("reverse")", "[1, 0]"))
                  .diagnostics.empty());
}

// Refuses a wire assertion on a request the case does not expect.
TEST_F(CaseLoaderTest, WireRequestBeyondRequestsIsReported) {
  ExpectOnly(LoadText("adr-226/y_wire.json", Replace(kGood, R"("request": 2)", R"("request": 3)")),
             "adr-226/y_wire.json", rules::kWireRequest, 18, 26);
}

// Refuses a refusal at an exchange the case does not script.
TEST_F(CaseLoaderTest, RefuseExchangeBeyondExchangesIsReported) {
  ExpectOnly(
      LoadText("adr-226/n_late.json", Replace(kRefused, R"("exchange": 1)", R"("exchange": 3)")),
      "adr-226/n_late.json", rules::kRefuseExchange, 17, 97);
  EXPECT_TRUE(
      LoadText("adr-226/n_last.json", Replace(kRefused, R"("exchange": 1)", R"("exchange": 2)"))
          .diagnostics.empty());
}

// Refuses a second case file with the same stem anywhere in the corpus.
TEST_F(CaseLoaderTest, DuplicateStemIsReported) {
  dir_.Write("adr-224/y_same.json", kGood);
  dir_.Write("adr-226/y_same.json", kGood);
  const CorpusCheck check = CheckCorpus(dir_.path(), loader_);
  ASSERT_EQ(check.diagnostics.size(), 1u) << Dump(check.diagnostics);
  EXPECT_EQ(check.diagnostics[0].rule, rules::kIdUnique);
  EXPECT_EQ(check.diagnostics[0].file, File("adr-226/y_same.json"));
  EXPECT_EQ(check.diagnostics[0].line, 1);
  EXPECT_EQ(check.diagnostics[0].column, 1);
  ASSERT_EQ(check.cases.size(), 1u);
  EXPECT_EQ(check.cases[0].id, "adr-224/y_same");
}

// Reports a JSON file without a verdict prefix inside a case folder, skips other files.
TEST_F(CaseLoaderTest, DiscoveryFlagsUnprefixedJson) {
  dir_.Write("case.schema.json", "{}");
  dir_.Write("VERSION", "1.0.0\n");
  dir_.Write("adr-226/README.md", "notes");
  dir_.Write("adr-226/y_good.json", kGood);
  dir_.Write("adr-226/parallel.json", kGood);
  dir_.Write(".hidden/x.json", "{");
  const CorpusCheck check = CheckCorpus(dir_.path(), loader_);
  ASSERT_EQ(check.diagnostics.size(), 1u) << Dump(check.diagnostics);
  EXPECT_EQ(FormatDiagnostic(check.diagnostics[0]),
            File("adr-226/parallel.json") +
                ":1:1: a case file is named y_*.json, n_*.json or i_*.json (lower-case "
                "extension) [file.name]");
  ASSERT_EQ(check.cases.size(), 1u);
  EXPECT_EQ(check.cases[0].id, "adr-226/y_good");
}

// Keeps loading the rest of the corpus after a malformed file, in id order.
TEST_F(CaseLoaderTest, MalformedFileDoesNotStopTheCorpus) {
  dir_.Write("adr-226/y_c.json", kGood);
  dir_.Write("adr-226/y_b.json", "{\"description\": ");
  dir_.Write("adr-224/y_a.json", kGood);
  dir_.Write("adr-226/n_d.json", kRefused);
  const CorpusCheck check = CheckCorpus(dir_.path(), loader_);
  ASSERT_EQ(check.diagnostics.size(), 1u) << Dump(check.diagnostics);
  EXPECT_EQ(check.diagnostics[0].rule, rules::kJsonSyntax);
  EXPECT_EQ(check.diagnostics[0].file, File("adr-226/y_b.json"));
  EXPECT_EQ(check.diagnostics[0].line, 1);
  EXPECT_EQ(check.diagnostics[0].column, 17);
  ASSERT_EQ(check.cases.size(), 3u);
  EXPECT_EQ(check.cases[0].id, "adr-224/y_a");
  EXPECT_EQ(check.cases[1].id, "adr-226/n_d");
  EXPECT_EQ(check.cases[2].id, "adr-226/y_c");
  EXPECT_FALSE(check.ok());
}

// Checks only the named files, and a file named twice is one case.
TEST_F(CaseLoaderTest, CheckFilesChecksOnlyTheNamedFiles) {
  const auto good = dir_.Write("adr-226/y_good.json", kGood);
  dir_.Write("adr-226/y_bad.json", "[");
  const CorpusCheck check = CheckFiles({good, good}, dir_.path(), loader_);
  EXPECT_TRUE(check.ok()) << Dump(check.diagnostics);
  ASSERT_EQ(check.cases.size(), 1u);
  EXPECT_EQ(check.cases[0].id, "adr-226/y_good");
}

// Reports a file that cannot be read instead of throwing.
TEST_F(CaseLoaderTest, MissingFileIsReported) {
  const CorpusCheck check =
      CheckFiles({dir_.path() / "adr-226/y_missing.json"}, dir_.path(), loader_);
  ASSERT_EQ(check.diagnostics.size(), 1u);
  EXPECT_EQ(check.diagnostics[0].rule, rules::kFileRead);
}

// Counts functionCall parts of a response and of streamed chunks.
TEST(CaseRules, CountsFunctionCalls) {
  const Json body = Json::parse(R"({"candidates": [{"content": {"parts": [
      {"text": "x"}, {"functionCall": {"name": "f"}}, {"functionCall": {"name": "g"}}]}}]})");
  EXPECT_EQ(rules::CountFunctionCalls(body), 2u);
  EXPECT_EQ(rules::CountFunctionCalls(Json::array({body, body})), 4u);
  EXPECT_EQ(rules::CountFunctionCalls(Json::parse(R"({"error": {"code": 500}})")), 0u);
}

// A call the server answered inside its own content (ADR-226.B2) is no pending call: selectors,
// call orders and counts see only the pending calls (INTERPRETING §5.4, "P").
const std::string kServerAnswered = R"({
  "description": "A server-answered call comes before the pending call.",
  "clauses": ["ADR-226.B2"],
  "features": ["parallel"],
  "exchanges": [
    {
      "user": "go",
      "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "beep", "args": {}}},
        {"functionResponse": {"name": "beep", "response": {"ok": true}}},
        {"functionCall": {"name": "print", "args": {"text": "hi"}}}]}}]}},
      "then": {"call_order": [0], "results": [
        {"call": 0, "json": {"r": 1}}]}
    },
    {"response": {"body": {"candidates": [{"content": {"role": "model", "parts": [{"text": "done"}]}}]}}}
  ],
  "expect": {"outcome": "accept", "requests": 2}
}
)";

TEST_F(CaseLoaderTest, SelectorsSeeOnlyPendingCalls) {
  const auto good = LoadText("adr-226/y_inside.json", kServerAnswered);
  EXPECT_TRUE(good.diagnostics.empty()) << Dump(good.diagnostics);
  ExpectOnly(LoadText("adr-226/y_inside.json",
                      Replace(kServerAnswered, R"({"call": 0, "json")", R"({"call": 1, "json")")),
             "adr-226/y_inside.json", rules::kSelectorRange, 13, 18);
  ExpectOnly(LoadText("adr-226/y_inside.json", Replace(kServerAnswered, R"({"call": 0, "json")",
                                                       R"({"call": {"name": "beep"}, "json")")),
             "adr-226/y_inside.json", rules::kSelectorMatch, 13, 18);
  ExpectOnly(LoadText("adr-226/y_inside.json",
                      Replace(kServerAnswered, R"("call_order": [0])", R"("call_order": [0, 1])")),
             "adr-226/y_inside.json", rules::kSelectorRange, 12, 34);
  EXPECT_TRUE(LoadText("adr-226/y_inside.json", Replace(kServerAnswered, R"({"call": 0, "json")",
                                                        R"({"call": {"name": "print"}, "json")"))
                  .diagnostics.empty());
}

// Counts and lists only the pending calls, across streamed chunks too.
TEST(CaseRules, CountsOnlyPendingCalls) {
  const Json body = Json::parse(R"({"candidates": [{"content": {"parts": [
      {"functionCall": {"name": "beep"}}, {"functionResponse": {"name": "beep", "response": {}}},
      {"functionCall": {"name": "print"}}]}}]})");
  EXPECT_EQ(rules::CountFunctionCalls(body), 1u);
  const auto calls = rules::FunctionCallsOf(body);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0]["name"], "print");
  // A streamed body is one content: an answer in a later chunk answers an earlier call.
  const Json first = Json::parse(R"({"candidates": [{"content": {"parts": [
      {"functionCall": {"name": "beep"}}, {"functionCall": {"name": "print"}}]}}]})");
  const Json second = Json::parse(R"({"candidates": [{"content": {"parts": [
      {"functionResponse": {"name": "beep", "response": {}}}]}}]})");
  EXPECT_EQ(rules::CountFunctionCalls(Json::array({first, second})), 1u);
  // A response with an id answers only the call with that id; one without answers no call
  // that has one.
  const Json ids = Json::parse(R"({"candidates": [{"content": {"parts": [
      {"functionCall": {"id": "a", "name": "beep"}}, {"functionCall": {"name": "beep"}},
      {"functionResponse": {"name": "beep", "response": {}}},
      {"functionResponse": {"id": "a", "name": "beep", "response": {}}}]}}]})");
  EXPECT_EQ(rules::CountFunctionCalls(ids), 0u);
  const Json unanswered = Json::parse(R"({"candidates": [{"content": {"parts": [
      {"functionCall": {"id": "a", "name": "beep"}},
      {"functionResponse": {"name": "beep", "response": {}}}]}}]})");
  EXPECT_EQ(rules::CountFunctionCalls(unanswered), 1u);
}

// The shared reading of calls answered inside their content agrees with the reference parser,
// whose parsed (pending) list the driver resolves selectors against.
TEST(CaseRules, ServerAnsweredAgreesWithReferenceParser) {
  for (const char* parts : {
           R"([{"functionCall": {"name": "b"}}, {"functionResponse": {"name": "b"}},
               {"functionCall": {"name": "p"}}])",
           R"([{"functionCall": {"id": "a", "name": "b"}}, {"functionResponse": {"name": "b"}}])",
           R"([{"functionCall": {"id": "a", "name": "b"}}, {"functionCall": {"name": "b"}},
               {"functionResponse": {"name": "b"}}, {"functionResponse": {"id": "a"}}])",
           R"([{"functionCall": {"name": "b"}}, {"functionCall": {"name": "b"}},
               {"functionResponse": {"name": "b"}}, {"text": "x"}])",
           R"([{"functionCall": {"id": null, "name": "b"}}, {"functionResponse": {"name": "b"}}])",
           R"([{"functionCall": {"id": "a", "name": "b"}}, {"functionResponse": {"id": "c"}},
               {"functionResponse": {"id": "", "name": "b"}}])",
           R"([{"functionResponse": {"name": "b"}}, {"functionCall": {"name": "b"}}])"}) {
    const Json json = Json::parse(parts);
    EXPECT_EQ(model::CallsAnsweredInside(json), ref::CallsAnsweredInContent(json)) << parts;
  }
}

// Names every rule once.
TEST(CaseRules, RuleNamesAreUnique) {
  const auto& all = rules::AllRules();
  std::set<std::string_view> unique(all.begin(), all.end());
  EXPECT_EQ(unique.size(), all.size());
  EXPECT_EQ(all.size(), 29u);
}

// Refuses a number no double holds (1e999), naming the file, line and column.
TEST_F(CaseLoaderTest, NumberBeyondADoubleIsADiagnostic) {
  ExpectOnly(LoadText("adr-226/y_huge.json", Replace(kGood, R"({"r": 1})", R"({"r": 1e999})")),
             "adr-226/y_huge.json", rules::kJsonNumberRange, 12, 35);
  ExpectOnly(LoadText("adr-226/y_huge.json", Replace(kGood, R"({"r": 1})", R"({"r": 1E400})")),
             "adr-226/y_huge.json", rules::kJsonNumberRange, 12, 35);
  ExpectOnly(LoadText("adr-226/y_wide.json",
                      Replace(kGood, R"({"r": 1})", "{\"r\": " + std::string(400, '7') + "}")),
             "adr-226/y_wide.json", rules::kJsonNumberRange, 12, 35);
}

// Refuses an integer beyond 64 bits instead of silently reading it as a double.
TEST_F(CaseLoaderTest, IntegerBeyond64BitsIsADiagnostic) {
  ExpectOnly(LoadText("adr-226/y_wide.json",
                      Replace(kGood, R"({"r": 1})", R"({"r": 18446744073709551616})")),
             "adr-226/y_wide.json", rules::kJsonNumberRange, 12, 35);
}

// Refuses deep nesting with a diagnostic, never a crash: 100,000 levels of arrays.
TEST_F(CaseLoaderTest, DeepNestingIsADiagnostic) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const LoadedCase loaded =
      LoadText("adr-226/y_deep.json", Replace(kGood, R"({"r": 1})", R"({"r": )" + deep + "}"));
  ExpectOnly(loaded, "adr-226/y_deep.json", rules::kJsonDepth, 12, 284);
}

// Refuses a byte order mark and a NUL byte after the value.
TEST_F(CaseLoaderTest, BomAndTrailingNulAreDiagnostics) {
  ExpectOnly(LoadText("adr-226/y_bom.json", "\xEF\xBB\xBF" + kGood), "adr-226/y_bom.json",
             rules::kJsonBom, 1, 1);
  ExpectOnly(LoadText("adr-226/y_nul.json", kGood + std::string(1, '\0')), "adr-226/y_nul.json",
             rules::kJsonSyntax, 20, 1);
}

// Loads text from memory exactly as from a file.
TEST_F(CaseLoaderTest, LoadTextMatchesLoad) {
  const LoadedCase from_memory =
      loader_.LoadText(kGood, dir_.path() / "adr-226/y_reversed.json", dir_.path());
  ASSERT_TRUE(from_memory.value.has_value()) << Dump(from_memory.diagnostics);
  EXPECT_EQ(from_memory.value->id, "adr-226/y_reversed");
  const LoadedCase bad = loader_.LoadText("{", dir_.path() / "adr-226/y_x.json", dir_.path());
  EXPECT_EQ(bad.diagnostics.at(0).rule, rules::kJsonSyntax);
}

// Reports a name selector that picks no call, or more than one, instead of a harness error.
TEST_F(CaseLoaderTest, NameSelectorMustPickOneCall) {
  ExpectOnly(LoadText("adr-226/y_sel.json", Replace(kGood, R"({"call": 1, "text": "two"})",
                                                    R"({"call": {"name": "g"}, "text": "two"})")),
             "adr-226/y_sel.json", rules::kSelectorMatch, 13, 18);
  ExpectOnly(LoadText("adr-226/y_sel.json", Replace(kGood, R"({"call": 1, "text": "two"})",
                                                    R"({"call": {"name": "f"}, "text": "two"})")),
             "adr-226/y_sel.json", rules::kSelectorMatch, 13, 18);
  ExpectOnly(LoadText("adr-226/y_sel.json",
                      Replace(kGood, R"({"call": 1, "text": "two"})",
                              R"({"call": {"name": "f", "args": {"x": 1}}, "text": "two"})")),
             "adr-226/y_sel.json", rules::kSelectorMatch, 13, 18);
}

// Refuses an expect.requests that differs from the number of exchanges of an accepting case.
TEST_F(CaseLoaderTest, RequestsMustMatchTheExchanges) {
  ExpectOnly(
      LoadText("adr-226/y_count.json", Replace(kGood, R"("requests": 2)", R"("requests": 3)")),
      "adr-226/y_count.json", rules::kExpectRequests, 17, 47);
}

// Refuses, without opening them, files whose extension run would not find.
TEST_F(CaseLoaderTest, CheckRefusesNamesRunWouldSkip) {
  for (const char* name : {"adr-226/y_upper.JSON", "adr-226/y_text.txt"}) {
    const CorpusCheck check = CheckFiles({dir_.Write(name, kGood)}, dir_.path(), loader_);
    ASSERT_FALSE(check.diagnostics.empty()) << name;
    EXPECT_EQ(check.diagnostics[0].rule, rules::kFileName) << name;
  }
  const CorpusCheck corpus = CheckCorpus(dir_.path(), loader_);
  EXPECT_EQ(OfRule(corpus.diagnostics, rules::kFileName).size(), 2u) << Dump(corpus.diagnostics);
  EXPECT_TRUE(corpus.cases.empty());
}

// The ids of a corpus's results: the cases', and each bad entry's (BadFixtureId).
std::vector<std::string> ResultIds(const CorpusCheck& check, const std::filesystem::path& root) {
  std::set<std::string> bad;
  for (const auto& d : check.diagnostics) bad.insert(BadFixtureId(d.file, root));
  std::vector<std::string> ids(bad.begin(), bad.end());
  for (const auto& c : check.cases) ids.push_back(c.id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

// y_twin.json, y_twin.JSON and y_twin.txt in one folder gave three results of one id: the
// case keeps its id, each misnamed file is a bad fixture under its whole name.
TEST_F(CaseLoaderTest, MisnamedTwinsOfACaseTakeIdsOfTheirOwn) {
  dir_.Write("adr-226/y_twin.json", kGood);
  dir_.Write("adr-226/y_twin.JSON", kGood);
  dir_.Write("adr-226/y_twin.txt", kGood);
  const CorpusCheck check = CheckCorpus(dir_.path(), loader_);
  ASSERT_EQ(check.cases.size(), 1u) << Dump(check.diagnostics);
  EXPECT_EQ(OfRule(check.diagnostics, rules::kFileName).size(), 2u) << Dump(check.diagnostics);
  EXPECT_EQ(ResultIds(check, dir_.path()),
            (std::vector<std::string>{"adr-226/y_twin", "adr-226/y_twin.JSON",
                                      "adr-226/y_twin.txt"}));
  // A name a case could have keeps the case id; any other keeps its extension.
  EXPECT_EQ(BadFixtureId(dir_.path() / "adr-226/y_x.json", dir_.path()), "adr-226/y_x");
  EXPECT_EQ(BadFixtureId(dir_.path() / "adr-226/y_x.streamed.json", dir_.path()),
            "adr-226/y_x.streamed.json");
  EXPECT_EQ(BadFixtureId(dir_.path() / "adr-226/y_X.json", dir_.path()), "adr-226/y_X.json");
  EXPECT_EQ(BadFixtureId("elsewhere/y_x.txt", dir_.path()), "y_x.txt");
}

// An entry whose result would take a case's id (a file "y_same" beside "y_same.json") makes
// the case a bad fixture too, one id.unique diagnostic naming the other entry: one result.
TEST_F(CaseLoaderTest, ACaseWhoseIdABadEntryTakesIsRefused) {
  dir_.Write("adr-226/y_same.json", kGood);
  dir_.Write("adr-226/y_same", kGood);
  dir_.Write("adr-226/y_other.json", kGood);
  const CorpusCheck check = CheckCorpus(dir_.path(), loader_);
  ASSERT_EQ(check.cases.size(), 1u) << Dump(check.diagnostics);
  EXPECT_EQ(check.cases[0].id, "adr-226/y_other");
  const auto clash = OfRule(check.diagnostics, rules::kIdUnique);
  ASSERT_EQ(clash.size(), 1u) << Dump(check.diagnostics);
  EXPECT_EQ(clash[0].file, File("adr-226/y_same.json"));
  EXPECT_NE(clash[0].message.find("y_same, a bad fixture"), std::string::npos) << clash[0].message;
  EXPECT_EQ(ResultIds(check, dir_.path()),
            (std::vector<std::string>{"adr-226/y_other", "adr-226/y_same"}));
  // `check` on the two files says the same.
  const CorpusCheck named = CheckFiles(
      {dir_.path() / "adr-226/y_same.json", dir_.path() / "adr-226/y_same"}, dir_.path(), loader_);
  EXPECT_TRUE(named.cases.empty()) << Dump(named.diagnostics);
  const auto named_clash = OfRule(named.diagnostics, rules::kIdUnique);
  const auto on_case = [&](const Diagnostic& d) { return d.file == File("adr-226/y_same.json"); };
  EXPECT_EQ(std::count_if(named_clash.begin(), named_clash.end(), on_case), 1)
      << Dump(named.diagnostics);
}

// A folder named like a case file is a diagnostic of its own and is still walked: the case
// inside it is kept, and the folder's result id is no case's.
TEST_F(CaseLoaderTest, AFolderNamedLikeACaseIsReportedAndWalked) {
  dir_.Write("adr-226/y_folder.json/y_inside.json", kGood);
  const CorpusCheck check = CheckCorpus(dir_.path(), loader_);
  const auto kind = OfRule(check.diagnostics, rules::kFileKind);
  ASSERT_EQ(kind.size(), 1u) << Dump(check.diagnostics);
  EXPECT_EQ(kind[0].file, File("adr-226/y_folder.json"));
  EXPECT_EQ(kind[0].message, "a folder named like a case file; rename it");
  ASSERT_EQ(check.cases.size(), 1u) << Dump(check.diagnostics);
  EXPECT_EQ(check.cases[0].id, "adr-226/y_folder.json/y_inside");
  EXPECT_EQ(ResultIds(check, dir_.path()),
            (std::vector<std::string>{"adr-226/y_folder", "adr-226/y_folder.json/y_inside"}));
}

// Reports a FIFO, a dangling link, a loop of links and a link to a folder; nothing hangs
// and nothing is skipped in silence.
TEST_F(CaseLoaderTest, SpecialEntriesAreDiagnostics) {
  namespace fs = std::filesystem;
  dir_.Write("adr-226/y_good.json", kGood);
  ASSERT_EQ(mkfifo((dir_.path() / "adr-226/y_fifo.json").c_str(), 0600), 0);
  fs::create_symlink(dir_.path() / "adr-226/nowhere.json", dir_.path() / "adr-226/y_dangling.json");
  fs::create_symlink(dir_.path() / "adr-226/y_loop_b.json", dir_.path() / "adr-226/y_loop_a.json");
  fs::create_symlink(dir_.path() / "adr-226/y_loop_a.json", dir_.path() / "adr-226/y_loop_b.json");
  fs::create_directories(dir_.path() / "deep");
  fs::create_directory_symlink(dir_.path(), dir_.path() / "deep/self");
  const CorpusCheck check = CheckCorpus(dir_.path(), loader_);
  EXPECT_EQ(OfRule(check.diagnostics, rules::kFileKind).size(), 5u) << Dump(check.diagnostics);
  ASSERT_EQ(check.cases.size(), 1u) << Dump(check.diagnostics);
  // Named explicitly, the FIFO is refused without being opened (opening it would block).
  const CorpusCheck fifo = CheckFiles({dir_.path() / "adr-226/y_fifo.json"}, dir_.path(), loader_);
  ASSERT_FALSE(fifo.diagnostics.empty());
  EXPECT_EQ(fifo.diagnostics[0].rule, rules::kFileKind);
}

// Checks every case under a folder named on the command line.
TEST_F(CaseLoaderTest, CheckFilesTakesFolders) {
  dir_.Write("adr-226/y_good.json", kGood);
  dir_.Write("adr-226/n_refused.json", kRefused);
  const CorpusCheck check = CheckFiles({dir_.path() / "adr-226"}, dir_.path(), loader_);
  EXPECT_TRUE(check.ok()) << Dump(check.diagnostics);
  EXPECT_EQ(check.cases.size(), 2u);
}

// Refuses a checked file whose name another case of the corpus already uses.
TEST_F(CaseLoaderTest, CheckFilesSeesNamesUsedInTheCorpus) {
  dir_.Write("adr-224/y_taken.json", kGood);
  TempDir elsewhere;
  const auto file = elsewhere.Write("y_taken.json", kGood);
  const CorpusCheck check = CheckFiles({file}, dir_.path(), loader_);
  ASSERT_EQ(OfRule(check.diagnostics, rules::kIdUnique).size(), 1u) << Dump(check.diagnostics);
  // The corpus file itself, named explicitly, does not clash with itself.
  EXPECT_TRUE(CheckFiles({dir_.path() / "adr-224/y_taken.json"}, dir_.path(), loader_).ok());
}

// Refuses a case file over the size limit without reading it.
TEST_F(CaseLoaderTest, OversizedFileIsADiagnostic) {
  const std::string padded =
      Replace(kGood, R"("go")", "\"" + std::string(kMaxCaseBytes, 'x') + "\"");
  const LoadedCase loaded = LoadText("adr-226/y_big.json", padded);
  ExpectOnly(loaded, "adr-226/y_big.json", rules::kFileSize, 1, 1);
}

// Loads an object of 1,024 members and refuses one of 1,025, where the read stops.
TEST_F(CaseLoaderTest, MembersPerObjectAreBounded) {
  const auto object = [](int count) {
    std::string members;
    for (int i = 0; i < count; ++i)
      members += (i ? "," : "") + ("\"k" + std::to_string(i) + "\":1");
    return "{" + members + "}";
  };
  const LoadedCase loaded =
      LoadText("adr-226/y_wide.json", Replace(kGood, R"({"r": 1})", object(1024)));
  ASSERT_TRUE(loaded.diagnostics.empty()) << Dump(loaded.diagnostics);
  EXPECT_EQ(loaded.value->exchanges[0].then.results[0].value.size(), 1024u);
  EXPECT_EQ(loaded.value->exchanges[0].then.results[0].value.items().begin().key(), "k0");
  const LoadedCase refused =
      LoadText("adr-226/y_wide.json", Replace(kGood, R"({"r": 1})", object(1025)));
  ASSERT_EQ(refused.diagnostics.size(), 1u);
  EXPECT_EQ(refused.diagnostics[0].rule, rules::kJsonDepth);
}

// Refuses a file one byte over the size limit and loads one at the limit.
TEST_F(CaseLoaderTest, SizeLimitBoundary) {
  std::string at_limit = Replace(kGood, R"("go")", "\"go\"");
  at_limit += std::string(kMaxCaseBytes - at_limit.size(), ' ');
  EXPECT_TRUE(LoadText("adr-226/y_at.json", at_limit).diagnostics.empty());
  ExpectOnly(LoadText("adr-226/y_over.json", at_limit + " "), "adr-226/y_over.json",
             rules::kFileSize, 1, 1);
}

// Loads a carried tool message whatever its content holds (text is text, and the judges read
// big integers and repeated names as the reference does, INTERPRETING §5.4, §8.4.4) except
// JSON nested past a case file's depth (`transcript.content`); a `text` result that is a JSON
// text is still refused (`result.text`).
TEST_F(CaseLoaderTest, CarriedToolContentIsTextWhateverItHolds) {
  const std::string transcript =
      R"("transcript": [{"role": "user", "content": "1e999"},
    {"role": "tool", "tool_call_id": "t1", "name": "f", "content": "CONTENT"}],
  "exchanges": [)";
  const auto with = [&](const std::string& content) {
    std::string t = transcript;
    t.replace(t.find("CONTENT"), 7, content);
    return Replace(kGood, R"("exchanges": [)", t);
  };
  for (const std::string content :
       {"18446744073709551616", R"({\"n\": 123456789012345678901234567890})", "1e999", "[1, 2]",
        R"({\"a\": 1, \"a\": 2})"}) {
    const LoadedCase loaded = LoadText("adr-226/y_carried.json", with(content));
    EXPECT_TRUE(loaded.diagnostics.empty()) << content << "\n" << Dump(loaded.diagnostics);
  }
  // Nesting past a case file's limit (§2), which a request carrying it decoded would put past
  // the judges' reach: refused, also beside a repeated member; deep brackets no one decodes
  // as JSON are text.
  const std::string deep = std::string(300, '[') + std::string(300, ']');
  const std::vector<std::string> contents = {deep, R"({\"a\": 1, \"a\": )" + deep + "}"};
  for (const std::string& content : contents) {
    const LoadedCase loaded = LoadText("adr-226/y_carried.json", with(content));
    EXPECT_EQ(OfRule(loaded.diagnostics, rules::kTranscriptContent).size(), 1u)
        << Dump(loaded.diagnostics);
  }
  const std::string unclosed = std::string(300, '[');
  EXPECT_TRUE(LoadText("adr-226/y_carried.json", with(unclosed)).diagnostics.empty());
  const std::string at_limit = std::string(256, '[') + std::string(256, ']');
  EXPECT_TRUE(LoadText("adr-226/y_carried.json", with(at_limit)).diagnostics.empty());
  const LoadedCase text = LoadText(
      "adr-226/y_text.json",
      Replace(kGood, R"("text": "two")", R"("text": "123456789012345678901234567890")"));
  EXPECT_EQ(OfRule(text.diagnostics, rules::kResultText).size(), 1u) << Dump(text.diagnostics);
}

// Loads `view` on a wire assertion ("sent": the request as sent, "joined" the default) and
// refuses another value, and "sent" with `answering`, which addresses no body position.
TEST_F(CaseLoaderTest, WireAssertionViewIsSentOrJoined) {
  const std::string from = R"("pointer": "/contents/1/parts/0/functionCall/args",)";
  const auto with = [&](const std::string& members) {
    return Replace(kGood, from, members + " " + from);
  };
  const LoadedCase sent = LoadText("adr-226/y_view.json", with(R"("view": "sent",)"));
  ASSERT_TRUE(sent.diagnostics.empty()) << Dump(sent.diagnostics);
  EXPECT_TRUE(sent.value->expect.wire[0].as_sent);
  const LoadedCase joined = LoadText("adr-226/y_view.json", with(R"("view": "joined",)"));
  ASSERT_TRUE(joined.diagnostics.empty()) << Dump(joined.diagnostics);
  EXPECT_FALSE(joined.value->expect.wire[0].as_sent);
  EXPECT_FALSE(LoadText("adr-226/y_view.json", kGood).value->expect.wire[0].as_sent);
  for (const std::string bad :
       {R"("view": "raw",)", R"("view": "sent", "answering": {"turn": 1, "call": 0},)"}) {
    const LoadedCase refused = LoadText("adr-226/y_view.json", with(bad));
    EXPECT_FALSE(OfRule(refused.diagnostics, rules::kSchema).empty())
        << bad << "\n" << Dump(refused.diagnostics);
    EXPECT_FALSE(refused.value.has_value());
  }
}

// Reads the calls of an answer served as `raw_body` when it is a JSON object, for the
// selectors; one that is not JSON holds none.
TEST_F(CaseLoaderTest, RawBodyAnswerHasTheCallsOfItsJson) {
  const std::string body =
      R"("body": {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"id": "a", "name": "f", "args": {}}},
        {"functionCall": {"id": "b", "name": "f", "args": {}}}]}}]}},)";
  const std::string raw =
      R"("raw_body": "{\r\n  \"candidates\": [{\"content\": {\"parts\": [)"
      R"({\"functionCall\": {\"name\": \"f\", \"args\": {}, \"id\": \"a\"}}, )"
      R"({\"functionCall\": {\"name\": \"f\", \"args\": {}, \"id\": \"b\"}}], )"
      R"(\"role\": \"model\"}}]\r\n}"},)";
  const LoadedCase served = LoadText("adr-226/y_raw.json", Replace(kGood, body, raw));
  EXPECT_TRUE(served.diagnostics.empty()) << Dump(served.diagnostics);
  const LoadedCase html = LoadText(
      "adr-226/y_raw.json", Replace(kGood, body, R"("raw_body": "<html>busy</html>"},)"));
  EXPECT_FALSE(OfRule(html.diagnostics, rules::kSelectorRange).empty()) << Dump(html.diagnostics);
}

// Refuses a must-level wire assertion that pins what INTERPRETING §8.3 leaves open (a number's
// kind inside a result, a nested {} or numeric-key object below a Struct root), at the pinned
// value; accepts it citing the open clause, and must-level pins the rule does decide.
TEST_F(CaseLoaderTest, AssertionNoStricterThanKindRule) {
  const std::string from =
      R"("pointer": "/contents/1/parts/0/functionCall/args", "equals": {}, "clause": "ADR-224.7")";
  const auto with = [&](const std::string& assertion) { return Replace(kGood, from, assertion); };
  // Line and column (1-based) of the first `needle` after `after` in `text`.
  const auto at = [](const std::string& text, const std::string& after, const std::string& needle) {
    const std::size_t offset = text.find(needle, text.find(after));
    const std::size_t line_start = text.rfind('\n', offset) + 1;
    const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + offset, '\n'));
    return std::pair{line, static_cast<int>(offset - line_start) + 1};
  };
  const std::string refused[] = {
      R"("pointer": "/contents/2/parts/0/functionResponse/response", "equals": {"r": 1}, "clause": "ADR-224.3")",
      R"("answering": {"turn": 1, "call": 0}, "pointer": "/response/r", "equals": 1.0, "clause": "ADR-224.3")",
      R"("pointer": "/contents/1/parts/0/functionCall/args", "equals": {"a": {}}, "clause": "ADR-224.7")",
      R"("pointer": "/contents/2", "equals": {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {"r": 1}}}]}, "clause": "ADR-226.3")",
      R"("pointer": "/contents/1/parts/0/functionCall/args/a", "equals": {"0": "x"}, "clause": "ADR-224.7")"};
  const std::string needles[] = {"1}", "1.0", "{}}", "1}}}", R"({"0")"};
  for (std::size_t i = 0; i < std::size(refused); ++i) {
    const std::string text = with(refused[i]);
    const auto [line, column] = at(text, "\"wire\"", needles[i]);
    ExpectOnly(LoadText("adr-226/y_pins.json", text), "adr-226/y_pins.json",
               rules::kWireStricterThanRule, line, column);
    // The same assertion citing the open clause is accepted.
    std::string open = text;
    for (const char* clause : {"\"ADR-224.3\"", "\"ADR-224.7\"", "\"ADR-226.3\""}) {
      if (const auto c = open.find(clause, open.find("\"wire\"")); c != std::string::npos) {
        open.replace(c, std::string(clause).size(), "\"ADR-224.F1\"");
      }
    }
    EXPECT_TRUE(LoadText("adr-226/y_pins.json", open).diagnostics.empty()) << open;
  }
  for (const std::string fine : {
           R"("pointer": "/contents/1/parts/0/functionCall/args", "equals": {"n": 1.0}, "clause": "ADR-224.7")",
           R"("pointer": "/contents/2/parts/0/functionResponse/response", "equals": {"r": [], "s": "x"}, "clause": "ADR-224.6")",
           R"("pointer": "/contents/2/parts/0/functionResponse/response", "equals": {}, "clause": "ADR-224.2")",
           R"("pointer": "/contents/2/parts/0/functionResponse/response/n", "absent": true, "clause": "ADR-224.3")"}) {
    const LoadedCase loaded = LoadText("adr-226/y_pins.json", with(fine));
    EXPECT_TRUE(loaded.diagnostics.empty()) << fine << "\n" << Dump(loaded.diagnostics);
  }
}

// Refuses a must-level assertion on a request as sent (`view: "sent"`) when that request carries
// a turn captured from a stream (INTERPRETING §8.5 leaves its form open, ADR-226.B1); accepts it
// citing ADR-226.B1, and the same must-level assertion in the joined view.
TEST_F(CaseLoaderTest, SentViewOfAStreamedTurnIsNoMustPin) {
  std::string streamed = Replace(kGood, R"("response": {"body": {"candidates")",
                                 R"("response": {"stream": {"events": [{"candidates")");
  streamed = Replace(streamed, R"("args": {}}}]}}]}},
      "then")",
                     R"("args": {}}}]}}]}]}},
      "then")");
  streamed = Replace(streamed, R"("features": ["parallel"])",
                     R"("features": ["parallel", "streaming", "stream-capture"])");
  const std::string from = R"("pointer": "/contents/1/parts/0/functionCall/args",)";
  const LoadedCase joined = LoadText("adr-226/y_view.json", streamed);
  ASSERT_TRUE(joined.diagnostics.empty()) << Dump(joined.diagnostics);
  const std::string sent = Replace(streamed, from, R"("view": "sent", )" + from);
  const LoadedCase pinned = LoadText("adr-226/y_view.json", sent);
  EXPECT_EQ(OfRule(pinned.diagnostics, rules::kWireStricterThanRule).size(), 1u)
      << Dump(pinned.diagnostics);
  const LoadedCase beyond = LoadText(
      "adr-226/y_view.json", Replace(sent, R"("clause": "ADR-224.7")", R"("clause": "ADR-226.B1")"));
  EXPECT_TRUE(OfRule(beyond.diagnostics, rules::kWireStricterThanRule).empty())
      << Dump(beyond.diagnostics);
  const LoadedCase whole = LoadText("adr-226/y_view.json", Replace(kGood, from, R"("view": "sent", )" + from));
  EXPECT_TRUE(whole.diagnostics.empty()) << Dump(whole.diagnostics);
}

// Walks a folder outside the corpus as a corpus root, a subfolder as a case folder.
TEST_F(CaseLoaderTest, FolderOutsideTheCorpusIsARoot) {
  TempDir other;
  other.Write("VERSION", "1.0.0\n");
  other.Write("adr-226/y_good.json", kGood);
  const CorpusCheck check = CheckFiles({other.path()}, dir_.path(), loader_);
  EXPECT_TRUE(check.ok()) << Dump(check.diagnostics);
  EXPECT_EQ(check.cases.size(), 1u);
}

// Refuses a text result that is a JSON text (it would be read as JSON by some runners).
TEST_F(CaseLoaderTest, TextResultMustNotBeJson) {
  for (const char* text :
       {R"("[1]")", R"("{}")", R"("1e999")", R"("\"quoted\"")", R"("NaN")", R"("-Infinity")"}) {
    ExpectOnly(LoadText("adr-226/y_text.json",
                        Replace(kGood, R"("text": "two")", std::string(R"("text": )") + text)),
               "adr-226/y_text.json", rules::kResultText, 13, 29);
  }
  EXPECT_TRUE(
      LoadText("adr-226/y_text.json", Replace(kGood, R"("text": "two")", R"("text": "2 apples")"))
          .diagnostics.empty());
  // A member named twice makes text, not a JSON object (INTERPRETING §8.4.1).
  const LoadedCase repeated = LoadText(
      "adr-226/y_text.json", Replace(kGood, R"("text": "two")", R"("text": "{\"a\":1,\"a\":2}")"));
  EXPECT_TRUE(repeated.diagnostics.empty()) << Dump(repeated.diagnostics);
}

// Requires the persistence and approvals features on cases that use a store or approvals, so
// `--filter persistence` selects them all.
TEST_F(CaseLoaderTest, StoreAndApprovalsNeedTheirFeatures) {
  const std::string suspends = Replace(kGood, R"("call_order": "reverse",)",
                                       R"("call_order": "reverse", "suspend": true,)");
  EXPECT_EQ(OfRule(LoadText("adr-226/y_s.json", suspends).diagnostics, rules::kFeatureDeclared)
                .size(),
            1u);
  EXPECT_TRUE(LoadText("adr-226/y_s.json",
                       Replace(suspends, R"(["parallel"])", R"(["parallel", "persistence"])"))
                  .diagnostics.empty());
  const std::string stored = Replace(kGood, R"("features": ["parallel"],)",
                                     R"("features": ["parallel"], "stored": true,)");
  EXPECT_EQ(
      OfRule(LoadText("adr-226/y_t.json", stored).diagnostics, rules::kFeatureDeclared).size(),
      1u);
  const std::string gated =
      Replace(kGood, R"({"call": 0, "json": {"r": 1}})", R"({"call": 0, "json": {"r": 1}, "gated": true})");
  EXPECT_EQ(
      OfRule(LoadText("adr-226/y_g.json", gated).diagnostics, rules::kFeatureDeclared).size(), 1u);
}

// A streamed answer: its calls are selectable like a body's, its split offsets rise strictly
// inside the stream and its cut lies within it (stream.bytes), and it needs feature streaming.
TEST_F(CaseLoaderTest, StreamedAnswersAreChecked) {
  const std::string body =
      R"({"body": {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"id": "a", "name": "f", "args": {}}},
        {"functionCall": {"id": "b", "name": "f", "args": {}}}]}}]}})";
  const std::string streamed =
      R"({"stream": {"events": [{"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"id": "a", "name": "f", "args": {}}},
        {"functionCall": {"id": "b", "name": "f", "args": {}}}]}}]},
        "{\"candidates\": [{\"content\": {\"parts\": []}, \"finishReason\": \"STOP\"}]}"],
        "split_at": SPLIT CUT}})";
  const std::string base =
      Replace(Replace(kGood, body, streamed), R"(["parallel"])",
              R"(["parallel", "streaming", "stream-capture"])");
  const auto with = [&](const std::string& split, const std::string& cut) {
    return Replace(Replace(base, "SPLIT", split), "CUT", cut);
  };
  const auto good = LoadText("adr-226/y_st.json", with("[3, 90]", ""));
  EXPECT_TRUE(good.diagnostics.empty()) << Dump(good.diagnostics);
  ASSERT_TRUE(good.value.has_value());
  ASSERT_TRUE(good.value->exchanges[0].response.stream.has_value());
  // The object events, and a string event whose text is a JSON object.
  EXPECT_EQ(good.value->exchanges[0].response.body.size(), 2u);
  const auto count = [&](const std::string& text, std::string_view rule) {
    return OfRule(LoadText("adr-226/y_st.json", text).diagnostics, rule).size();
  };
  EXPECT_EQ(count(with("[90, 3]", ""), rules::kStreamBytes), 1u);
  EXPECT_EQ(count(with("[3, 100000]", ""), rules::kStreamBytes), 1u);
  EXPECT_EQ(count(with("[3]", ", \"cut_at\": 100000"), rules::kStreamBytes), 1u);
  EXPECT_EQ(count(with("[3]", ", \"cut_at\": 10"), rules::kStreamBytes), 0u);
  EXPECT_EQ(count(Replace(with("[3]", ""), R"(["parallel", "streaming", "stream-capture"])",
                          R"(["parallel", "stream-capture"])"),
                  rules::kFeatureDeclared),
            1u);
  // A later exchange carries what the streamed answer made: feature stream-capture too.
  EXPECT_EQ(count(Replace(with("[3]", ""), R"(["parallel", "streaming", "stream-capture"])",
                          R"(["parallel", "streaming"])"),
                  rules::kFeatureDeclared),
            1u);
  // The calls spread over two events, and the turn replayed by the next request: a case like
  // any other (INTERPRETING §8.5 reads either replay form).
  const std::string spread = Replace(
      with("[3]", ""), R"({"functionCall": {"id": "a", "name": "f", "args": {}}},)",
      R"({"functionCall": {"id": "a", "name": "f", "args": {}}}]}}]}, {"candidates": [{"content": {"role": "model", "parts": [)");
  EXPECT_TRUE(LoadText("adr-226/y_st.json", spread).diagnostics.empty());
  // Both a body and a stream: the schema allows one answer only.
  EXPECT_EQ(count(Replace(with("[3]", ""), R"({"stream": {)", R"({"body": {}, "stream": {)"),
                  rules::kSchema),
            1u);
}

// An approval id is recorded once, presented only by gated results, and only after it was
// recorded; approval selectors are checked like result selectors.
TEST_F(CaseLoaderTest, ApprovalReferencesResolve) {
  const std::string base =
      Replace(Replace(kGood, R"(["parallel"])", R"(["parallel", "approvals"])"),
              R"("call_order": "reverse",)",
              R"("call_order": "reverse", "approvals": [{"call": 0, "decision": "approve", "id": "ap"}],)");
  EXPECT_TRUE(LoadText("adr-226/y_a.json", base).diagnostics.empty())
      << Dump(LoadText("adr-226/y_a.json", base).diagnostics);
  const auto rule_count = [&](const std::string& text, std::string_view rule) {
    return OfRule(LoadText("adr-226/y_a.json", text).diagnostics, rule).size();
  };
  EXPECT_EQ(rule_count(Replace(base, R"({"call": 0, "json": {"r": 1}})",
                               R"({"call": 0, "json": {"r": 1}, "gated": true, "approval": "ap"})"),
                       rules::kApprovalReference),
            0u);
  EXPECT_EQ(rule_count(Replace(base, R"({"call": 0, "json": {"r": 1}})",
                               R"({"call": 0, "json": {"r": 1}, "approval": "ap"})"),
                       rules::kApprovalReference),
            1u);
  EXPECT_EQ(rule_count(Replace(base, R"({"call": 0, "json": {"r": 1}})",
                               R"({"call": 0, "json": {"r": 1}, "gated": true, "approval": "nope"})"),
                       rules::kApprovalReference),
            1u);
  EXPECT_EQ(rule_count(Replace(base, R"("id": "ap"}])",
                               R"("id": "ap"}, {"call": 1, "decision": "deny", "id": "ap"}])"),
                       rules::kApprovalReference),
            1u);
  EXPECT_EQ(rule_count(Replace(base, R"({"call": 0, "decision")", R"({"call": 5, "decision")"),
                       rules::kSelectorRange),
            1u);
}

// Checks a subfolder with the rules of a case folder, as run does: a stray file is reported.
TEST_F(CaseLoaderTest, CheckedSubfolderUsesCaseFolderRules) {
  dir_.Write("adr-226/y_good.json", kGood);
  dir_.Write("adr-226/notes.txt", "x");
  const CorpusCheck check = CheckFiles({dir_.path() / "adr-226"}, dir_.path(), loader_);
  EXPECT_EQ(OfRule(check.diagnostics, rules::kFileName).size(), 1u) << Dump(check.diagnostics);
}

// Refuses a case name that is not a portable id (upper case, other bytes, doubled '_').
TEST_F(CaseLoaderTest, CaseNameIsAPortableId) {
  for (const char* name : {"adr-226/y_Upper.json", "adr-226/y_a__b.json", "adr-226/y_\xff.json",
                           "adr-226/y_trailing_.json", "adr-226/y_.json"}) {
    const LoadedCase loaded = LoadText(name, kGood);
    ASSERT_EQ(OfRule(loaded.diagnostics, rules::kFileName).size(), 1u) << name;
  }
  EXPECT_TRUE(LoadText("adr-226/y_a1_b2.json", kGood).diagnostics.empty());
}


// Counts a call in pieces once and lists it with its assembled args (INTERPRETING §5.6: "its
// `call` index counts calls, not pieces"), in one body and streamed one piece per chunk; a
// selector beyond the calls is out of range though the parts are more.
TEST(CaseRules, CountsACallInPiecesOnce) {
  const Json body = Json::parse(R"({"candidates": [{"content": {"parts": [
      {"functionCall": {"name": "f", "id": "c1", "willContinue": true}},
      {"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "Par",
                                         "willContinue": true}], "willContinue": true}},
      {"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "is"}],
                        "willContinue": true}},
      {"functionCall": {}},
      {"functionCall": {"name": "g", "args": {}}}]}}]})");
  EXPECT_EQ(rules::CountFunctionCalls(body), 2u);
  const auto calls = rules::FunctionCallsOf(body);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0], Json::parse(R"({"name": "f", "id": "c1", "args": {"city": "Paris"}})"));
  EXPECT_EQ(calls[1]["name"], "g");
  Json chunks = Json::array();
  for (const Json& part : body["candidates"][0]["content"]["parts"]) {
    chunks.push_back(Json{{"candidates", Json::array({Json{{"content", Json{{"parts",
                                                    Json::array({part})}}}}})}});
  }
  EXPECT_EQ(rules::CountFunctionCalls(chunks), 2u);
}

// INTERPRETING §5.6: a y_ or i_ case's answers and carried capsules keep the grammar of calls
// in pieces (pieces.grammar, at the part where it breaks), which an n_ case may break; a case
// holding a call in pieces cites only beyond clauses (pieces.level, at the clause), so the
// judges' demotion of what rests on streamed capture applies to it.
TEST_F(CaseLoaderTest, CallsInPiecesKeepTheGrammarAndCiteBeyondClauses) {
  const std::string whole = R"({"functionCall": {"id": "a", "name": "f", "args": {}}},)";
  const std::string opened = R"({"functionCall": {"id": "a", "name": "f", "willContinue": true}},)";
  const std::string pieces =
      opened + R"( {"functionCall": {"partialArgs": [{"jsonPath": "$.x", "numberValue": 1}]}},)";
  const auto beyond = [](const std::string& text, const std::string& cited) {
    return Replace(text, "\"clauses\": [\"" + cited + "\"]", R"("clauses": ["ADR-226.B1"])");
  };
  // Positive control: pieces that keep the grammar, the case citing ADR-226.B1.
  const LoadedCase good = LoadText("adr-226/y_p.json", beyond(Replace(kGood, whole, pieces), "ADR-226.20"));
  EXPECT_TRUE(good.diagnostics.empty()) << Dump(good.diagnostics);
  // The same citing a must clause: at that clause (line 3, its value at column 15).
  ExpectOnly(LoadText("adr-226/y_p.json", Replace(kGood, whole, pieces)), "adr-226/y_p.json",
             rules::kPiecesLevel, 3, 15);
  // A text part between a call's pieces: the grammar breaks at part 1 (line 10).
  const std::string broken =
      beyond(Replace(kGood, whole, opened + "\n        {\"text\": \"x\"},"), "ADR-226.20");
  ExpectOnly(LoadText("adr-226/y_p.json", broken), "adr-226/y_p.json", rules::kPiecesGrammar, 10,
             9);
  // An n_ case shows such a refusal: no grammar finding.
  const LoadedCase refused =
      LoadText("adr-226/n_p.json",
               beyond(Replace(kRefused, whole, opened + "\n        {\"text\": \"x\"},"), "ADR-226.5"));
  EXPECT_TRUE(OfRule(refused.diagnostics, rules::kPiecesGrammar).empty()) << Dump(refused.diagnostics);
  EXPECT_TRUE(OfRule(refused.diagnostics, rules::kPiecesLevel).empty()) << Dump(refused.diagnostics);
  // A carried capsule breaking it (an orphan piece) in a y_ case: at its native part (line 4).
  const std::string carried = Replace(
      beyond(kGood, "ADR-226.20"), R"("features": ["parallel"],)",
      R"("features": ["parallel"], "transcript": [{"role": "user", "content": "hi"}, {"role": "assistant", "id": "t0", "content": "", "provider_state": {"gemini": {"owner": "t0", "native_parts": [{"functionCall": {"partialArgs": []}}]}}}],)");
  const auto found = OfRule(LoadText("adr-226/y_c.json", carried).diagnostics, rules::kPiecesGrammar);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].line, 4);
  // A whole call with `willContinue: false` and `partialArgs` is one piece: no beyond premise.
  const std::string one_piece = Replace(
      kGood, whole,
      R"({"functionCall": {"id": "a", "name": "f", "args": {"x": 1}, "willContinue": false, "partialArgs": [{"jsonPath": "$.x", "numberValue": 1}]}},)");
  const LoadedCase single = LoadText("adr-226/y_p.json", one_piece);
  EXPECT_TRUE(single.diagnostics.empty()) << Dump(single.diagnostics);
  // What pieces assemble keeps §2's 1,024 members per object (json.depth, at the opening part).
  const auto members = [&](int n) {
    std::string entries;
    for (int i = 0; i < n; ++i) {
      entries += std::string(i == 0 ? "" : ", ") + R"({"jsonPath": "$.m)" + std::to_string(i) +
                 R"(", "boolValue": true})";
    }
    return beyond(Replace(kGood, whole,
                          opened + R"( {"functionCall": {"partialArgs": [)" + entries + "]}},"),
                  "ADR-226.20");
  };
  EXPECT_TRUE(LoadText("adr-226/y_m.json", members(1024)).diagnostics.empty());
  ExpectOnly(LoadText("adr-226/y_m.json", members(1025)), "adr-226/y_m.json", rules::kJsonDepth, 9,
             9);
}

}  // namespace
}  // namespace gemini_oracle::runner
