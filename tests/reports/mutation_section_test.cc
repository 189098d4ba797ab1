// The "Mutation testing" section of summary.md and summary.html: the score, a row per fault,
// the bug cases with their faults, the equivalent faults apart, the problems; a stopped run
// shows no score; text from the index is escaped.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "reports/index.h"
#include "reports/markdown.h"
#include "reports/html.h"
#include "reports/mutation_section.h"

namespace gemini_oracle::reports {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

nlohmann::json Section() {
  return nlohmann::json::parse(R"({
    "score": 50.0,
    "counts": {"total": 3, "equivalent": 1, "killed": 1, "survived": 1, "runtime_errors": 0,
               "timeouts": 0},
    "stop_reason": "",
    "canary": {"id": "canary.no_contents", "status": "Killed", "canary": true,
               "file": "reference_impl/request_builder.cc", "line_number": 9,
               "killing_case": "adr-224/y_a", "killing_clause": "WIRE.1", "killed_by": ["adr-224/y_a"]},
    "faults": [
      {"id": "builder.x", "status": "Killed", "file": "reference_impl/request_builder.cc",
       "line_number": 12, "killing_case": "bugs/y_b", "killing_clause": "ADR-224.1",
       "killed_by": ["bugs/y_b", "adr-224/y_c"], "proven_clauses": ["ADR-224.1"],
       "bug": {"project": "prism <PHP>", "report": "empty args as []", "case": "bugs/y_b",
               "killed": true}, "problems": []},
      {"id": "parser.y", "status": "Survived", "file": "reference_impl/response_parser.cc",
       "line_number": 40, "killed_by": [], "proven_clauses": [],
       "problems": ["its bug case bugs/y_d does not kill it"]},
      {"id": "builder.z", "status": "Ignored", "file": "reference_impl/request_builder.cc",
       "line_number": 50, "equivalent": "the sort keys are distinct", "killed_by": []}
    ],
    "unpaired_bug_cases": ["bugs/y_e"],
    "unproven_must_clauses": [{"clause": "ADR-226.3", "reason": ""},
                              {"clause": "ADR-226.18", "reason": "needs the state stores"}]
  })");
}

TEST(MutationSection, MarkdownShowsEveryPart) {
  std::ostringstream out;
  WriteMutationMarkdown(Section(), out);
  const std::string md = out.str();
  EXPECT_THAT(md, HasSubstr("## Mutation testing"));
  EXPECT_THAT(md, HasSubstr("Mutation score 50.00%: 1 killed, 1 survived"));
  EXPECT_THAT(md, HasSubstr("`canary.no_contents` (canary)"));
  EXPECT_THAT(md, HasSubstr(R"(bugs/y\_b (ADR-224.1) +1)"));
  EXPECT_THAT(md, HasSubstr("### Public bugs and their cases"));
  EXPECT_THAT(md, HasSubstr("### Equivalent faults (not counted)"));
  EXPECT_THAT(md, HasSubstr("the sort keys are distinct"));
  EXPECT_THAT(md, HasSubstr(R"(parser.y: its bug case bugs/y\_d does not kill it)"));
  EXPECT_THAT(md, HasSubstr(R"(bug case bugs/y\_e is paired with no fault)"));
  EXPECT_THAT(md, HasSubstr("must-clause ADR-226.3 is proven by no killed fault"));
  EXPECT_THAT(md, HasSubstr("must-clause ADR-226.18 cannot be proven yet: needs the state stores"));
  // The equivalent fault is not among the counted rows.
  EXPECT_THAT(md, Not(HasSubstr("| `builder.z`")));
}

TEST(MutationSection, HtmlEscapesIndexText) {
  std::ostringstream out;
  WriteMutationHtml(Section(), out);
  const std::string html = out.str();
  EXPECT_THAT(html, HasSubstr("<h2>Mutation testing</h2>"));
  EXPECT_THAT(html, HasSubstr("prism &lt;PHP&gt;"));
  EXPECT_THAT(html, Not(HasSubstr("prism <PHP>")));
  EXPECT_THAT(html, HasSubstr("<td class=\"fail\">Survived</td>"));
}

TEST(MutationSection, StoppedRunHasNoScore) {
  nlohmann::json section = Section();
  section["score"] = nullptr;
  section["stop_reason"] = "the baseline (no fault) does not pass";
  std::ostringstream out;
  WriteMutationMarkdown(section, out);
  EXPECT_THAT(out.str(), HasSubstr("No mutation score"));
  EXPECT_THAT(out.str(), HasSubstr("**Stopped:** the baseline"));
  EXPECT_THAT(out.str(), Not(HasSubstr("Mutation score")));
}

// summary.md and summary.html carry the section only for a mutation run.
TEST(MutationSection, OnlyMutationRunsShowIt) {
  nlohmann::json index = BuildIndex(nlohmann::json::object(), nlohmann::json::array());
  std::ostringstream plain;
  WriteMarkdown(index, plain);
  EXPECT_THAT(plain.str(), Not(HasSubstr("Mutation testing")));
  index["mutation"] = Section();
  std::ostringstream md, html;
  WriteMarkdown(index, md);
  WriteHtml(index, html);
  EXPECT_THAT(md.str(), HasSubstr("## Mutation testing"));
  EXPECT_THAT(html.str(), HasSubstr("<h2>Mutation testing</h2>"));
}

}  // namespace
}  // namespace gemini_oracle::reports
