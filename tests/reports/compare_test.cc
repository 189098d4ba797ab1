// gemini-oracle compare: the comparison document, its pages, and the command's contract.

#include "reports/compare.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "apps/gemini-oracle/commands.h"
#include "apps/gemini-oracle/report_commands.h"
#include "reports/index.h"
#include "reports/write_all.h"
#include "tests/captured_output.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::reports {
namespace {

using gemini_oracle::testing::ReadText;
using gemini_oracle::testing::TempDir;
using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

json Result(const std::string& id, const std::string& verdict, const std::string& reason = "",
            json clauses = json::array({"ADR-226.3"})) {
  return {{"id", id},
          {"verdict", verdict},
          {"reason", reason},
          {"clauses", std::move(clauses)},
          {"findings", json::array()}};
}

json Context(const std::string& implementation) {
  return {{"tool", "gemini-oracle"},
          {"tool_version", "0.1.0"},
          {"suite_version", "2.5.0"},
          {"seed", 7},
          {"implementation", implementation},
          {"profile", "adr"},
          {"strict", false},
          {"filter", ""},
          {"shard", "1/1"},
          {"started_at", "2026-01-02T03:04:05Z"}};
}

LoadedReport Report(const std::string& file, json context, json results) {
  return {file, BuildIndex(std::move(context), std::move(results))};
}

std::string Markdown(const json& comparison) {
  std::ostringstream out;
  WriteComparisonMarkdown(comparison, out);
  return out.str();
}

std::string Html(const json& comparison) {
  std::ostringstream out;
  WriteComparisonHtml(comparison, out);
  return out.str();
}

// Only the cases whose verdicts differ among the reports that ran them are in the pruned
// view; a case some report did not run disagrees only when the others differ.
TEST(Comparison, PrunedViewHoldsOnlyCasesWhoseVerdictsDiffer) {
  const json a = json::array(
      {Result("x/agree", "pass"), Result("x/differ", "fail", "should-have-refused\nsecond line"),
       Result("x/one_ran", "fail", "wire-violation"), Result("x/two_ran_differ", "pass")});
  const json b = json::array({Result("x/agree", "pass"), Result("x/differ", "pass"),
                              Result("x/two_ran_agree", "known", "https://example.invalid/1")});
  const json c = json::array({Result("x/agree", "pass"), Result("x/differ", "pass"),
                              Result("x/two_ran_differ", "timeout", "60 s"),
                              Result("x/two_ran_agree", "known", "https://example.invalid/2")});
  const json doc =
      BuildComparison({Report("a.json", Context("A"), a), Report("b.json", Context("B"), b),
                       Report("c.json", Context("C"), c)});

  const json expected_disagreements = json::parse(R"([
    {"id": "x/differ",
     "verdicts": {"A": "fail", "B": "pass", "C": "pass"},
     "reasons": {"A": "should-have-refused…", "B": "", "C": ""}},
    {"id": "x/two_ran_differ",
     "verdicts": {"A": "pass", "B": null, "C": "timeout"},
     "reasons": {"A": "", "B": null, "C": "60 s"}}
  ])");
  EXPECT_EQ(doc["disagreements"], expected_disagreements);
  EXPECT_EQ(doc["summary"], json::parse(R"({"cases": 5, "implementations": 3,
                                            "disagreements": 2, "not_run_everywhere": 3})"));
  std::vector<std::string> ids;
  for (const auto& row : doc["cases"]) ids.push_back(row["id"]);
  EXPECT_EQ(ids, (std::vector<std::string>{"x/agree", "x/differ", "x/one_ran", "x/two_ran_agree",
                                           "x/two_ran_differ"}));
  EXPECT_EQ(doc["cases"][2]["verdicts"], json::parse(R"({"A": "fail", "B": null, "C": null})"));
  EXPECT_EQ(doc["implementations"], json::parse(R"(["A", "B", "C"])"));
  EXPECT_EQ(doc["warnings"], json::array());
}

// A skipped case was not run, a known failure is compared as the verdict the expectations
// file listed it for (known_failure.verdict) and an unexpected pass as a pass; the tables still
// show the verdicts as written.
TEST(Comparison, SkippedIsNotRunAndKnownIsItsListedVerdict) {
  json known_fail = Result("x/known_same", "known", "known failure (fail): tracked");
  known_fail["known_failure"] = {{"verdict", "fail"}, {"reason", "tracked"}};
  json known_error = Result("x/known_other", "known", "known failure (error): tracked");
  known_error["known_failure"] = {{"verdict", "error"}, {"reason", "tracked"}};
  const json a = json::array({Result("x/known_same", "fail", "wire-violation"),
                              Result("x/known_other", "fail", "wire-violation"),
                              Result("x/skipped", "fail", "wire-violation"),
                              Result("x/stale_list", "pass", "")});
  const json b = json::array({known_fail, known_error,
                              Result("x/skipped", "skipped", "unsupported: streaming"),
                              Result("x/stale_list", "unexpected_pass", "listed but passed")});
  const json doc = BuildComparison({Report("a", Context("A"), a), Report("b", Context("B"), b)});
  EXPECT_EQ(doc["disagreements"], json::parse(R"([
    {"id": "x/known_other",
     "verdicts": {"A": "fail", "B": "known"},
     "reasons": {"A": "wire-violation", "B": "known failure (error): tracked"}}
  ])"));
  EXPECT_EQ(doc["summary"], json::parse(R"({"cases": 4, "implementations": 2,
                                            "disagreements": 1, "not_run_everywhere": 1})"));
  EXPECT_EQ(doc["cases"][1]["verdicts"], json::parse(R"({"A": "fail", "B": "known"})"));
  EXPECT_EQ(doc["cases"][2]["verdicts"], json::parse(R"({"A": "fail", "B": "skipped"})"));
}

// Counts per clause and implementation: pass, gating (fail, error, timeout, and verdicts this
// tool does not know, such as unexpected_pass), other (skipped, known, implementation_defined).
TEST(Comparison, CountsEachClausePerImplementation) {
  const json a = json::array(
      {Result("c/1", "pass", "", {"ADR-224.10", "ADR-224.2"}),
       Result("c/2", "fail", "wire-violation", {"ADR-224.2", "ADR-224.2"}),  // once, not twice
       Result("c/3", "error", "driver", {"ADR-224.2"}),
       Result("c/4", "timeout", "60 s", {"ADR-224.2"}),
       Result("c/5", "unexpected_pass", "", {"ADR-224.2"}),
       Result("c/6", "skipped", "streaming", {"ADR-224.2"}),
       Result("c/7", "known", "link", {"ADR-224.2"}),
       Result("c/8", "implementation_defined", "note", {"ADR-224.2"})});
  const json b = json::array({Result("c/1", "pass", "", {"ADR-224.10", "ADR-224.2"}),
                              Result("c/9", "pass", "", {"WIRE.1"})});
  const json doc = BuildComparison({Report("a", Context("A"), a), Report("b", Context("B"), b)});
  const json expected = json::parse(R"([
    {"clause": "ADR-224.2", "counts": {"A": {"pass": 1, "gating": 4, "other": 3},
                                       "B": {"pass": 1, "gating": 0, "other": 0}}},
    {"clause": "ADR-224.10", "counts": {"A": {"pass": 1, "gating": 0, "other": 0},
                                        "B": {"pass": 1, "gating": 0, "other": 0}}},
    {"clause": "WIRE.1", "counts": {"A": {"pass": 0, "gating": 0, "other": 0},
                                    "B": {"pass": 1, "gating": 0, "other": 0}}}
  ])");
  EXPECT_EQ(doc["clauses"], expected);
  EXPECT_THAT(Markdown(doc), HasSubstr("| `ADR-224.2` | 1 / 4 / 3 | 1 / 0 / 0 |\n"));
  EXPECT_THAT(Html(doc), HasSubstr("<tr><td><code>ADR-224.2</code></td><td class=\"n\">1 / 4 / 3"
                                   "</td><td class=\"n\">1 / 0 / 0</td></tr>\n"));
}

// A repeated implementation name gets "#2", "#3" in argument order, never a name another
// report already has.
TEST(Comparison, RepeatedImplementationNamesAreNumbered) {
  const json results = json::array({Result("x/a", "pass")});
  EXPECT_EQ(
      BuildComparison({Report("1", Context("ref"), results), Report("2", Context("ref"), results),
                       Report("3", Context("php"), results),
                       Report("4", Context("ref"), results)})["implementations"],
      json::parse(R"(["ref", "ref#2", "php", "ref#3"])"));
  EXPECT_EQ(BuildComparison({Report("1", Context("x"), results), Report("2", Context("x"), results),
                             Report("3", Context("x#2"), results)})["implementations"],
            json::parse(R"(["x", "x#3", "x#2"])"));
  json no_name = Context("");
  no_name.erase("implementation");
  const json doc = BuildComparison({Report("1", no_name, results), Report("2", no_name, results)});
  EXPECT_EQ(doc["implementations"], json::parse(R"(["unknown", "unknown#2"])"));
  EXPECT_EQ(doc["cases"][0]["verdicts"],
            json::parse(R"({"unknown": "pass", "unknown#2": "pass"})"));
}

// Reports of different suite versions, profiles or strictness are compared, with a warning
// at the top of every document.
TEST(Comparison, WarnsWhenTheReportsDifferInSuiteVersionProfileOrStrict) {
  const json results = json::array({Result("x/a", "pass")});
  json older = Context("B");
  older["suite_version"] = "2.4.0";
  const json doc =
      BuildComparison({Report("a", Context("A"), results), Report("b", older, results)});
  const std::string warning =
      "The reports differ in suite_version (A: 2.5.0; B: 2.4.0): verdicts may differ for that "
      "reason, not because the implementations do.";
  EXPECT_EQ(doc["warnings"], json::array({warning}));
  const std::string markdown = Markdown(doc);
  EXPECT_EQ(markdown.substr(0, markdown.find("\n\n", 26) + 2),
            "# gemini-oracle compare\n\n> **Warning:** The reports differ in suite\\_version (A: "
            "2.5.0; B: 2.4.0): verdicts may differ for that reason, not because the "
            "implementations do.\n\n");
  EXPECT_THAT(Html(doc), HasSubstr("<h1>gemini-oracle compare</h1>\n<p class=\"warning\">"
                                   "<strong>Warning:</strong> " +
                                   warning + "</p>\n"));

  json gemini = Context("B");
  gemini["profile"] = "gemini";
  gemini["strict"] = true;
  json strict_absent = Context("C");
  strict_absent.erase("strict");
  EXPECT_EQ(BuildComparison({Report("a", Context("A"), results), Report("b", gemini, results),
                             Report("c", strict_absent, results)})["warnings"],
            json::parse(R"([
      "The reports differ in profile (A: adr; B: gemini; C: adr): verdicts may differ for that reason, not because the implementations do.",
      "The reports differ in strict (A: false; B: true; C: absent): verdicts may differ for that reason, not because the implementations do."
    ])"));
}

// Case ids, reasons and implementation names come from reports: they are escaped in HTML
// and cannot break a Markdown table.
TEST(Comparison, EscapesReportTextInEveryPage) {
  const std::string id = "adr-224/<script>alert(1)</script>|x";
  const json a = json::array({Result(id, "fail", "<script>|&\"'</script>\nsecond")});
  const json b = json::array({Result(id, "pass")});
  const json doc =
      BuildComparison({Report("a", Context("<b>A|</b>"), a), Report("b", Context("B"), b)});
  const std::string html = Html(doc);
  EXPECT_THAT(html, Not(HasSubstr("<script>")));
  EXPECT_THAT(html, Not(HasSubstr("<b>")));
  EXPECT_THAT(html, HasSubstr("<th>&lt;b&gt;A|&lt;/b&gt;</th>"));
  EXPECT_THAT(html, HasSubstr("<tr><td><code>adr-224/&lt;script&gt;alert(1)&lt;/script&gt;|x"
                              "</code></td><td class=\"v-fail\">fail: &lt;script&gt;|&amp;"
                              "&quot;&#39;&lt;/script&gt;…</td><td class=\"v-pass\">pass</td>"
                              "</tr>\n"));
  const std::string markdown = Markdown(doc);
  EXPECT_THAT(markdown, HasSubstr("| case | \\<b\\>A\\|\\</b\\> | B |\n|---|---|---|\n"
                                  "| `adr-224/<script>alert(1)</script>\\|x` | fail: "
                                  "\\<script\\>\\|\\&\"'\\</script\\>… | pass |\n"));
}

// The whole Markdown page of a small comparison, byte for byte.
TEST(Comparison, MarkdownPage) {
  json b_context = Context("B");
  b_context["shard"] = "2/2";
  const json doc = BuildComparison(
      {Report("a/index.json", Context("A"),
              json::array({Result("x/1", "pass"), Result("x/2", "fail", "wire-violation")})),
       Report("b/index.json", b_context, json::array({Result("x/2", "pass")}))});
  EXPECT_EQ(Markdown(doc), R"(# gemini-oracle compare

2 cases, 2 implementations: 1 where their verdicts differ, 1 not run by every report.

## Reports

| implementation | file | suite\_version | tool\_version | profile | strict | shard | filter | seed | started\_at | results |
|---|---|---|---|---|---|---|---|---|---|---|
| A | `a/index.json` | 2.5.0 | 0.1.0 | adr | false | 1/1 |  | 7 | 2026-01-02T03:04:05Z | 2: 1 passed, 1 failed |
| B | `b/index.json` | 2.5.0 | 0.1.0 | adr | false | 2/2 |  | 7 | 2026-01-02T03:04:05Z | 1: 1 passed |

## Disagreements

Cases whose verdicts differ among the reports that ran them, with each reason's first line (—: not run; a case some report did not run or skipped is no disagreement by itself; a known failure counts as the failure it is).

| case | A | B |
|---|---|---|
| `x/2` | fail: wire-violation | pass |

## Clauses

Cases citing each clause, per implementation: pass / gating (fail, error, timeout, unexpected\_pass, ...) / other (skipped, known, implementation\_defined).

| clause | A | B |
|---|---|---|
| `ADR-226.3` | 1 / 1 / 0 | 1 / 0 / 0 |

## All cases

| case | A | B |
|---|---|---|
| `x/1` | pass | — |
| `x/2` | fail | pass |

)");
}

// A reason is cut to its first line and a length limit, at a character boundary.
TEST(Comparison, OneLineCutsReasons) {
  EXPECT_EQ(OneLine("short"), "short");
  EXPECT_EQ(OneLine("first\r\nsecond"), "first…");
  EXPECT_EQ(OneLine("trailing \n  \n"), "trailing");
  EXPECT_EQ(OneLine("a\tb\x01"), "a b\\u0001");
  EXPECT_EQ(OneLine("abcdef", 4), "abcd…");
  EXPECT_EQ(OneLine("ab\xC3\xA9z", 3), "ab…");  // é is two bytes: never split
}

}  // namespace
}  // namespace gemini_oracle::reports

namespace gemini_oracle::cli {
namespace {

using gemini_oracle::testing::ReadText;
using gemini_oracle::testing::TempDir;
using nlohmann::json;

using gemini_oracle::testing::Captured;

Captured Compare(std::vector<std::filesystem::path> reports, const std::filesystem::path& out_dir) {
  CompareArgs args;
  args.reports = std::move(reports);
  args.out = out_dir;
  return gemini_oracle::testing::Capture(CompareCommand, args);
}

std::string IndexText(const std::string& implementation, const json& results) {
  json context = {{"implementation", implementation}, {"suite_version", "2.5.0"}};
  std::ostringstream out;
  reports::WriteIndexTo(reports::BuildIndex(context, results), out);
  return out.str();
}

const json kResultsA = json::parse(R"([{"id": "x/1", "verdict": "pass", "clauses": ["WIRE.1"]},
                                       {"id": "x/2", "verdict": "fail", "reason": "r"}])");
const json kResultsB = json::parse(R"([{"id": "x/1", "verdict": "pass", "clauses": ["WIRE.1"]},
                                       {"id": "x/2", "verdict": "pass"}])");

// Reads index files and report folders, writes the three files, and prints the counts and
// where they went; the same inputs give the same bytes.
TEST(CompareCommand, WritesTheSameBytesForTheSameReports) {
  TempDir in, first, second;
  const auto a = in.Write("a/index.json", IndexText("A", kResultsA));
  in.Write("b/index.json", IndexText("B", kResultsB));
  const std::vector<std::filesystem::path> reports = {a, in.path() / "b"};
  const Captured one = Compare(reports, first.path() / "out");
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.err, "");
  EXPECT_EQ(one.out,
            "gemini-oracle compare: 2 cases, 2 implementations, 1 where they disagree (0 not run "
            "by every report)\nreports: " +
                DisplayPath(first.path() / "out") + "/{compare.md,compare.html,compare.json}\n");
  const Captured two = Compare(reports, second.path() / "out");
  ASSERT_EQ(two.status, 0) << two.err;
  for (const char* name : {"compare.md", "compare.html", "compare.json"}) {
    const std::string text = ReadText(first.path() / "out" / name);
    EXPECT_FALSE(text.empty()) << name;
    EXPECT_EQ(text, ReadText(second.path() / "out" / name)) << name;
  }
  const json doc = json::parse(ReadText(first.path() / "out" / "compare.json"));
  EXPECT_EQ(doc["compare_schema_version"], 1);
  EXPECT_EQ(doc["reports"][1]["file"], (in.path() / "b" / "index.json").generic_string());
  EXPECT_EQ(doc["disagreements"][0]["id"], "x/2");
  // No temporary file is left beside them (the folder's lock file stays, and is no report).
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(first.path() / "out")) {
    if (entry.path().filename() != reports::kReportLockName) ++files;
  }
  EXPECT_EQ(files, 3u);
}

// One report is a usage error: nothing to compare it with.
TEST(CompareCommand, OneReportIsAUsageError) {
  TempDir in, out;
  const auto a = in.Write("a.json", IndexText("A", kResultsA));
  const Captured c = Compare({a}, out.path() / "out");
  EXPECT_EQ(c.status, kExitBadInput);
  EXPECT_EQ(c.err,
            "gemini-oracle compare: needs at least two reports (index.json files or report "
            "folders), got 1\n");
  EXPECT_FALSE(std::filesystem::exists(out.path() / "out"));
}

struct BadInput {
  const char* name;
  std::string text;   // written as the second report; empty: not written at all
  std::string error;  // after "gemini-oracle compare: FILE: "
};

void PrintTo(const BadInput& bad, std::ostream* os) { *os << bad.name; }

class CompareRefuses : public ::testing::TestWithParam<BadInput> {};

// A report that is missing, not JSON or not an index: exit 4, the file and what is wrong,
// and nothing written.
TEST_P(CompareRefuses, NamingTheFileAndWritingNothing) {
  TempDir in, out;
  const auto good = in.Write("good.json", IndexText("A", kResultsA));
  const auto bad = in.path() / "bad.json";
  if (!GetParam().text.empty()) in.Write("bad.json", GetParam().text);
  const Captured c = Compare({good, bad}, out.path() / "out");
  EXPECT_EQ(c.status, kExitBadInput);
  EXPECT_EQ(c.err,
            "gemini-oracle compare: " + bad.generic_string() + ": " + GetParam().error + "\n");
  EXPECT_EQ(c.out, "");
  EXPECT_FALSE(std::filesystem::exists(out.path() / "out"));
}

INSTANTIATE_TEST_SUITE_P(
    BadReports, CompareRefuses,
    ::testing::Values(
        BadInput{"missing", "", "no such file or folder"},
        BadInput{"truncated", "{\"results\": [",
                 "invalid JSON at byte 14: parse error at line 1, column 14: syntax error while "
                 "parsing value - unexpected end of input; expected '[', '{', or a literal"},
        BadInput{"no_results", R"({"context": {}, "summary": {}})",
                 "not a report index: no results array"},
        BadInput{"array", "[]", "not a report index: the top level is not an object"},
        BadInput{"context_not_object", R"({"context": 1, "results": []})",
                 "not a report index: context is not an object"},
        BadInput{"result_without_id", R"({"results": [{"verdict": "pass"}]})",
                 "results[0]: not a result (no string id)"},
        BadInput{"result_without_verdict", R"({"results": [{"id": "x/1"}]})",
                 "results[0] (x/1): no string verdict"},
        BadInput{
            "case_twice",
            R"({"results": [{"id": "x/1", "verdict": "pass"}, {"id": "x/1", "verdict": "fail"}]})",
            "results[1]: case x/1 appears twice"},
        // 100,000 levels crashed compare (SIGSEGV); refused in one pass before parsing.
        BadInput{"nested_100000_deep", std::string(100000, '[') + std::string(100000, ']'),
                 "refused at byte 1025: arrays and objects nest deeper than 1024 levels, the "
                 "bound of a report file"},
        BadInput{"newer_schema", R"({"json_schema_version": 99, "results": []})",
                 "json_schema_version 99 is not one this tool reads (1 to " +
                     std::to_string(reports::kJsonSchemaVersion) + ")"}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return std::string(info.param.name); });

// A report whose context holds a value nested 100,000 deep (dumping it crashed compare with
// SIGSEGV) is refused in one pass, naming the file and the byte, with nothing written.
TEST(CompareCommand, RefusesADeeplyNestedReportWithoutCrashing) {
  TempDir in, out;
  const auto good = in.Write("good.json", IndexText("A", kResultsA));
  const std::string text = R"({"context": {"implementation": "B", "suite_version": )" +
                           std::string(100000, '[') + std::string(100000, ']') +
                           R"(}, "results": [{"id": "x/1", "verdict": "pass"}]})";
  // The value starts at level 3 (index, context): level 1025 opens 1,023 brackets in.
  const std::size_t at = text.find('[') + 1023;
  const auto deep = in.Write("deep.json", text);
  const Captured c = Compare({good, deep}, out.path() / "out");
  EXPECT_EQ(c.status, kExitBadInput);
  EXPECT_EQ(c.err, "gemini-oracle compare: " + deep.generic_string() + ": refused at byte " +
                       std::to_string(at) +
                       ": arrays and objects nest deeper than 1024 levels, the bound of a "
                       "report file\n");
  EXPECT_FALSE(std::filesystem::exists(out.path() / "out"));
}

// A folder without an index.json is named with the file it lacks.
TEST(CompareCommand, RefusesAFolderWithoutAnIndex) {
  TempDir in, out;
  const auto good = in.Write("good.json", IndexText("A", kResultsA));
  std::filesystem::create_directories(in.path() / "empty");
  const Captured c = Compare({good, in.path() / "empty"}, out.path() / "out");
  EXPECT_EQ(c.status, kExitBadInput);
  EXPECT_EQ(c.err,
            "gemini-oracle compare: " + (in.path() / "empty" / "index.json").generic_string() +
                ": no such file (a report folder holds an index.json)\n");
  EXPECT_FALSE(std::filesystem::exists(out.path() / "out"));
}

}  // namespace
}  // namespace gemini_oracle::cli
