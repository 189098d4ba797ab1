// gemini-oracle compliance: the document (cells, defects, disagreements), its pages, and the
// command's contract.

#include "reports/compliance.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "apps/gemini-oracle/commands.h"
#include "apps/gemini-oracle/report_commands.h"
#include "reports/index.h"
#include "tests/captured_output.h"
#include "tests/source_root.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::reports {
namespace {

using gemini_oracle::testing::ReadText;
using gemini_oracle::testing::TempDir;
using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

json Finding(const std::string& clause, bool gating, const std::string& message) {
  return {{"clause", clause},
          {"level", gating ? "must" : "open"},
          {"gating", gating},
          {"message", message},
          {"actual", "sent"}};
}

json Result(const std::string& id, const std::string& verdict, json clauses,
            json findings = json::array()) {
  return {{"id", id},
          {"verdict", verdict},
          {"reason", verdict},
          {"clauses", std::move(clauses)},
          {"findings", std::move(findings)}};
}

json Known(json result, const std::string& reason, const std::string& link = "") {
  result["verdict"] = "known";
  result["known_failure"] = {{"reason", reason}, {"link", link}, {"verdict", "fail"}};
  return result;
}

LoadedReport Report(const std::string& implementation, json results) {
  json context = {{"implementation", implementation},
                  {"suite_version", "3.0.0"},
                  {"profile", "adr"},
                  {"strict", false},
                  {"seed", 1},
                  {"started_at", "2026-01-02T03:04:05Z"}};
  return {"/somewhere/" + implementation + "/index.json",
          BuildIndex(std::move(context), std::move(results))};
}

const json kClauses = json::array({
    {{"id", "ADR-224.1"}, {"level", "must"}, {"summary", "args are objects"}},
    {{"id", "ADR-226.3"}, {"level", "must"}, {"summary", "answers echo their native id"}},
    {{"id", "ADR-224.F1"}, {"level", "open"}, {"summary", "left open"}},
    {{"id", "ADR-226.6"}, {"level", "must"}, {"summary", "refused before contact"}},
    {{"id", "ADR-224.5"}, {"level", "must"}, {"summary", "fallback wrapping"},
     {"profiles", {"adr"}}},
});

json Cell(const json& doc, const std::string& clause, const std::string& label) {
  for (const auto& row : doc.at("clauses")) {
    if (row.at("id") == clause) return row.at("cells").at(label);
  }
  ADD_FAILURE() << "no row " << clause;
  return json();
}

// Two implementations: a clean one, and one failing ADR-224.1 on a case and its twin for one
// listed cause, ADR-226.3 on an unlisted case, with an error and a skip that judge nothing.
std::vector<ComplianceInput> TwoImplementations() {
  const json fail_args = json::array({Finding("ADR-224.1", true, "args is a list")});
  return {
      {"clean",
       Report("clean 1.0", json::array({
                               Result("a/y_one", "pass", {"ADR-224.1"}),
                               Result("a/y_one.streamed", "pass", {"ADR-224.1"}),
                               Result("b/y_two", "pass", {"ADR-226.3"}),
                               Result("c/n_three", "pass", {"ADR-226.6"}),
                           }))},
      {"broken",
       Report("broken 2.0 (JavaScript)",
              json::array({
                  Known(Result("a/y_one", "fail", {"ADR-224.1"}, fail_args),
                        "Replays args lists as lists.", "https://example.org/issues/1"),
                  Known(Result("a/y_one.streamed", "fail", {"ADR-224.1"}, fail_args),
                        "Replays args lists as lists. (Twin: every answer streamed.)"),
                  Result("b/y_two", "fail", {"ADR-226.3"},
                         json::array({Finding("ADR-224.F1", false, "drift"),
                                      Finding("ADR-226.3", true, "answer lacks its id")})),
                  Result("c/n_three", "skipped", {"ADR-226.6"}),
                  Result("c/n_four", "error", {"ADR-226.6"}),
              }))},
  };
}

TEST(Compliance, CellsCountJudgedCasesAndFailingOnes) {
  const json doc = BuildCompliance(TwoImplementations(), kClauses);
  EXPECT_EQ(Cell(doc, "ADR-224.1", "clean").at("state"), "pass");
  EXPECT_EQ(Cell(doc, "ADR-224.1", "clean").at("judged"), 2);
  const json broken = Cell(doc, "ADR-224.1", "broken");
  EXPECT_EQ(broken.at("state"), "fail");
  EXPECT_EQ(broken.at("failing"), 2);  // a known failure is a failure
  EXPECT_EQ(Cell(doc, "ADR-226.3", "broken").at("state"), "fail");
  // Skipped and errored cases judged nothing: not run, never pass.
  EXPECT_EQ(Cell(doc, "ADR-226.6", "broken").at("state"), "not_run");
  EXPECT_EQ(Cell(doc, "ADR-226.6", "clean").at("state"), "pass");
  // An open clause never fails; its findings are noted, also where no case cites it.
  EXPECT_EQ(Cell(doc, "ADR-224.F1", "broken").at("state"), "open");
  EXPECT_EQ(Cell(doc, "ADR-224.F1", "broken").at("noted"), 1);
  EXPECT_EQ(Cell(doc, "ADR-224.F1", "clean").at("state"), "open");
}

// A clause its profile leaves out is not judged in that report, whatever its cases did.
TEST(Compliance, ClausesAProfileLeavesOutAreNotJudged) {
  auto inputs = TwoImplementations();
  for (auto& input : inputs) {
    input.report.index["results"].push_back(Result("d/y_wrap", "pass", {"ADR-224.5"}));
  }
  inputs[1].report.index["context"]["profile"] = "gemini";
  const json doc = BuildCompliance(inputs, kClauses);
  EXPECT_EQ(Cell(doc, "ADR-224.5", "clean").at("state"), "pass");
  EXPECT_EQ(Cell(doc, "ADR-224.5", "broken").at("state"), "excluded");
  std::ostringstream md;
  WriteComplianceMarkdown(doc, md);
  EXPECT_THAT(md.str(), HasSubstr("| ADR-224.5 | pass 1 | not judged |"));
  std::ostringstream html;
  WriteComplianceHtml(doc, html);
  EXPECT_THAT(html.str(), HasSubstr("title=\"not judged under profile gemini\""));
  // Reports under different profiles are expected here: no warning, the legend says which.
  EXPECT_TRUE(doc.at("warnings").empty()) << doc.at("warnings").dump();
  EXPECT_THAT(md.str(), HasSubstr("| broken | `broken 2.0 (JavaScript)` | gemini |"));
  // A gating finding under a clause the profile leaves out is still shown as a failure.
  inputs[1].report.index["results"].push_back(
      Result("d/y_wrap_refused", "fail", {"ADR-224.5"},
             json::array({Finding("ADR-224.5", true, "should-have-accepted")})));
  EXPECT_EQ(Cell(BuildCompliance(inputs, kClauses), "ADR-224.5", "broken").at("state"), "fail");
}

TEST(Compliance, DefectsGroupByCauseWithTwinsTogether) {
  const json doc = BuildCompliance(TwoImplementations(), kClauses);
  EXPECT_TRUE(doc.at("defects").at("clean").empty());
  const json& defects = doc.at("defects").at("broken");
  ASSERT_EQ(defects.size(), 2u);
  const json& listed = defects[0];
  EXPECT_EQ(listed.at("cause"), "Replays args lists as lists.");
  EXPECT_EQ(listed.at("cases"), 2);
  EXPECT_EQ(listed.at("example"), "a/y_one");  // the original before its twin
  EXPECT_EQ(listed.at("link"), "https://example.org/issues/1");
  EXPECT_EQ(listed.at("clauses"), json::array({"ADR-224.1"}));
  EXPECT_THAT(listed.at("sends").get<std::string>(), HasSubstr("args is a list"));
  EXPECT_EQ(listed.at("adr")[0].at("says"), "args are objects");
  // An unlisted failure is grouped by its first gating finding (not the open one before it).
  EXPECT_EQ(defects[1].at("cause"), "answer lacks its id");
  EXPECT_EQ(defects[1].at("clauses"), json::array({"ADR-226.3"}));
}

// Named causes: a case with two causes counts under each, with the clauses each cause names and
// the finding of one of them as what was observed; twins join their original.
TEST(Compliance, NamedCausesAreDefectsOfTheirOwn) {
  auto inputs = TwoImplementations();
  json two = Result("e/y_two_causes", "fail", {"ADR-224.1", "ADR-226.3"},
                    json::array({Finding("ADR-224.1", true, "args is a list"),
                                 Finding("ADR-226.3", true, "answer lacks its id")}));
  two["verdict"] = "known";
  two["known_failure"] = {
      {"reason", "lists. ids."},
      {"verdict", "fail"},
      {"causes", json::array({{{"key", "lists"}, {"text", "Replays lists: ADR-224.1."}},
                              {{"key", "ids"}, {"text", "Drops ids: ADR-226.3."},
                               {"link", "https://example.org/issues/2"}}})}};
  json one = two;
  one["id"] = "e/y_two_causes.streamed";
  one["known_failure"]["causes"].erase(1);
  inputs[1].report.index["results"].push_back(two);
  inputs[1].report.index["results"].push_back(one);
  const json doc = BuildCompliance(inputs, kClauses);
  const auto find = [&](const std::string& cause) {
    for (const auto& defect : doc.at("defects").at("broken")) {
      if (defect.at("cause") == cause) return defect;
    }
    ADD_FAILURE() << "no defect " << cause;
    return json();
  };
  const json lists = find("Replays lists: ADR-224.1.");
  EXPECT_EQ(lists.at("cases"), 2);
  EXPECT_EQ(lists.at("example"), "e/y_two_causes");
  EXPECT_EQ(lists.at("clauses"), json::array({"ADR-224.1"}));
  EXPECT_THAT(lists.at("sends").get<std::string>(), HasSubstr("args is a list"));
  const json ids = find("Drops ids: ADR-226.3.");
  EXPECT_EQ(ids.at("cases"), 1);
  EXPECT_EQ(ids.at("clauses"), json::array({"ADR-226.3"}));
  EXPECT_THAT(ids.at("sends").get<std::string>(), HasSubstr("answer lacks its id"));
  EXPECT_EQ(ids.at("link"), "https://example.org/issues/2");
}

// A listed error or timeout judged nothing: it is no defect and its clauses were not run.
TEST(Compliance, KnownErrorsAreNotJudged) {
  auto inputs = TwoImplementations();
  json errored = Known(Result("c/n_five", "error", {"ADR-226.6"}), "crashes on this answer");
  errored["known_failure"]["verdict"] = "error";
  inputs[1].report.index["results"].push_back(errored);
  const json doc = BuildCompliance(inputs, kClauses);
  EXPECT_EQ(Cell(doc, "ADR-226.6", "broken").at("state"), "not_run");
  for (const auto& defect : doc.at("defects").at("broken")) {
    EXPECT_NE(defect.at("cause"), "crashes on this answer");
  }
}

TEST(Compliance, DisagreementsUseLabels) {
  const json doc = BuildCompliance(TwoImplementations(), kClauses);
  ASSERT_EQ(doc.at("disagreements").size(), 3u);  // a/y_one, its twin, b/y_two
  EXPECT_EQ(doc.at("disagreements")[0].at("verdicts").at("broken"), "known");
  EXPECT_EQ(doc.at("disagreements")[0].at("verdicts").at("clean"), "pass");
}

TEST(Compliance, LabelsMustBeUniqueAndNonempty) {
  auto inputs = TwoImplementations();
  inputs[1].label = "clean";
  EXPECT_THROW(BuildCompliance(inputs, kClauses), std::invalid_argument);
  inputs[1].label = "";
  EXPECT_THROW(BuildCompliance(inputs, kClauses), std::invalid_argument);
}

// Nothing that changes from run to run reaches the pages: the same verdicts from runs at other
// times, seeds and paths give the same bytes.
TEST(Compliance, PagesDependOnVerdictsAlone) {
  auto later = TwoImplementations();
  for (auto& input : later) {
    input.report.file = "/elsewhere/index.json";
    input.report.index["context"]["started_at"] = "2027-05-06T07:08:09Z";
    input.report.index["context"]["seed"] = 99;
    for (auto& result : input.report.index["results"]) result["duration_ms"] = 12.5;
  }
  const json a = BuildCompliance(TwoImplementations(), kClauses);
  const json b = BuildCompliance(later, kClauses);
  EXPECT_EQ(a.dump(), b.dump());
  std::ostringstream md_a, md_b, html_a, html_b;
  WriteComplianceMarkdown(a, md_a);
  WriteComplianceMarkdown(b, md_b);
  WriteComplianceHtml(a, html_a);
  WriteComplianceHtml(b, html_b);
  EXPECT_EQ(md_a.str(), md_b.str());
  EXPECT_EQ(html_a.str(), html_b.str());
  EXPECT_THAT(md_a.str(), Not(HasSubstr("somewhere")));
  EXPECT_THAT(html_a.str(), Not(HasSubstr("2026-01-02")));
}

TEST(Compliance, PagesShowMatrixLegendDefectsAndEscape) {
  auto inputs = TwoImplementations();
  inputs[1].label = "<b>roken|";
  const json doc = BuildCompliance(inputs, kClauses);
  std::ostringstream md, html;
  WriteComplianceMarkdown(doc, md);
  WriteComplianceHtml(doc, html);
  EXPECT_THAT(md.str(), HasSubstr("| ADR-224.1 | pass 2 | **fail 2/2** |"));
  EXPECT_THAT(md.str(), HasSubstr("`broken 2.0 (JavaScript)`"));
  EXPECT_THAT(md.str(), HasSubstr("upstream: <https://example.org/issues/1>"));
  EXPECT_THAT(html.str(), HasSubstr("<td class=\"s-fail\">fail 2/2</td>"));
  // Values a finding carries (an id made up at random) never reach the pages.
  EXPECT_THAT(md.str(), Not(HasSubstr("sent")));
  EXPECT_THAT(html.str(), HasSubstr("&lt;b&gt;roken|"));
  EXPECT_THAT(html.str(), Not(HasSubstr("<b>roken")));
  EXPECT_THAT(html.str(), HasSubstr("<a href=\"https://example.org/issues/1\">"));
  EXPECT_THAT(html.str(), HasSubstr("id=\"matrix\""));
}

TEST(ComplianceCommand, WritesThePagesUnderLabels) {
  TempDir dir;
  const auto inputs = TwoImplementations();
  for (const auto& input : inputs) {
    std::filesystem::create_directories(dir.path() / input.label);
    std::ofstream(dir.path() / input.label / "index.json") << input.report.index.dump();
  }
  cli::ComplianceArgs args;
  args.source_root = gemini_oracle::testing::SourceRoot();
  args.reports = {"clean=" + (dir.path() / "clean").string(), (dir.path() / "broken").string()};
  args.out = dir.path() / "out";
  std::ostringstream out, err;
  ASSERT_EQ(cli::ComplianceCommand(args, out, err), 0) << err.str();
  const std::string md = ReadText(args.out / "README.md");
  // The second report has no label: its implementation names its column.
  EXPECT_THAT(md, HasSubstr("| clause | clean | broken 2.0 (JavaScript) |"));
  EXPECT_THAT(ReadText(args.out / "index.html"), HasSubstr("<!DOCTYPE html>"));
  EXPECT_TRUE(json::parse(ReadText(args.out / "compliance.json")).is_object());
}

TEST(ComplianceCommand, BadInputWritesNothing) {
  TempDir dir;
  cli::ComplianceArgs args;
  args.source_root = gemini_oracle::testing::SourceRoot();
  args.out = dir.path() / "out";
  std::ostringstream out, err;
  EXPECT_EQ(cli::ComplianceCommand(args, out, err), cli::kExitBadInput);
  args.reports = {"x=" + (dir.path() / "missing").string()};
  EXPECT_EQ(cli::ComplianceCommand(args, out, err), cli::kExitBadInput);
  EXPECT_THAT(err.str(), HasSubstr("missing"));
  EXPECT_FALSE(std::filesystem::exists(args.out));
}

}  // namespace
}  // namespace gemini_oracle::reports
