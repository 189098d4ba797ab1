// mutants.json follows Stryker's mutation-testing-report-schema (tests/data/stryker/), for a
// clean run and for one with every status, and carries the clauses each kill proves.
#include <gtest/gtest.h>

#include "mutants/proofs.h"
#include "mutants/stryker_report.h"
#include "tests/mutants/stryker_schema.h"
#include "tests/source_root.h"
#include "tests/temp_dir.h"

namespace gemini_oracle {
namespace {

using testing::SourceRoot;

std::string Violations(const nlohmann::json& document) {
  return testing::StrykerSchemaViolations(document);
}

nlohmann::json Row(const std::string& id, const std::string& status) {
  nlohmann::json row = nlohmann::json::object();
  row["id"] = id;
  row["status"] = status;
  row["file"] = "reference_impl/request_builder.cc";
  row["line_number"] = 3;
  row["description"] = "A fault.";
  row["clauses"] = {"ADR-226.3"};
  row["proven_clauses"] = status == "Killed" ? nlohmann::json{"ADR-226.3"} : nlohmann::json::array();
  row["killing_clauses"] = row["proven_clauses"];
  row["killed_by"] = status == "Killed" ? nlohmann::json{"adr-226/y_a", "adr-226/y_b"}
                                        : nlohmann::json::array();
  row["killing_case"] = status == "Killed" ? "adr-226/y_a" : "";
  row["killing_clause"] = status == "Killed" ? "ADR-226.3" : "";
  row["reason"] = status == "RuntimeError" ? "the fault run crashed (signal 11)" : "";
  row["cases_run"] = 2;
  row["duration_ms"] = 12.5;
  return row;
}

nlohmann::json Input(const std::vector<nlohmann::json>& faults) {
  mutants::StrykerInput input;
  input.section = nlohmann::json::object();
  input.section["canary"] = Row("canary.no_contents", "Killed");
  input.section["canary"]["canary"] = true;
  input.section["faults"] = faults;
  input.section["baseline_ms"] = 100.0;
  input.section["mutation_ms"] = 900.0;
  input.baseline_results = nlohmann::json::array();
  for (const char* id : {"adr-226/y_a", "adr-226/y_b"}) {
    input.baseline_results.push_back(
        {{"id", id}, {"file", std::string("fixtures/") + id + ".json"}, {"description", "d"}});
  }
  input.source_root = SourceRoot();
  input.tool_version = "0.1.0";
  input.config = {{"fingerprint", "0123456789abcdef"}, {"whole_catalogue", true}};
  return mutants::StrykerReport(input);
}

TEST(StrykerReport, CleanRunValidates) {
  const auto report = Input({Row("builder.a", "Killed")});
  EXPECT_EQ(Violations(report), "");
  const auto& mutants = report["files"]["reference_impl/request_builder.cc"]["mutants"];
  ASSERT_EQ(mutants.size(), 2u);
  EXPECT_EQ(mutants[1]["killedBy"], (nlohmann::json{"adr-226/y_a", "adr-226/y_b"}));
  EXPECT_EQ(mutants[1]["provenClauses"], nlohmann::json{"ADR-226.3"});
  EXPECT_EQ(mutants[1]["mutatorName"], "builder");
  EXPECT_EQ(mutants[1]["location"]["start"]["line"], 3);
  EXPECT_FALSE(report["files"]["reference_impl/request_builder.cc"]["source"].get<std::string>().empty());
  EXPECT_EQ(report["testFiles"]["fixtures/adr-226/y_a.json"]["tests"][0]["id"], "adr-226/y_a");
}

TEST(StrykerReport, EveryStatusValidates) {
  auto equivalent = Row("builder.e", "Ignored");
  equivalent["equivalent"] = "nothing observable changes";
  const auto report = Input({Row("builder.s", "Survived"), Row("builder.r", "RuntimeError"),
                             Row("builder.t", "Timeout"), equivalent});
  EXPECT_EQ(Violations(report), "");
  const auto& mutants = report["files"]["reference_impl/request_builder.cc"]["mutants"];
  EXPECT_EQ(mutants[4]["statusReason"], "equivalent: nothing observable changes");
  EXPECT_EQ(mutants[2]["statusReason"], "the fault run crashed (signal 11)");
}

// The control: the validator does refuse a report that breaks the schema.
TEST(StrykerReport, BrokenReportIsRefused) {
  auto report = Input({Row("builder.a", "Killed")});
  report["files"]["reference_impl/request_builder.cc"]["mutants"][1]["status"] = "Dead";
  EXPECT_NE(Violations(report), "");
  report = Input({Row("builder.a", "Killed")});
  report.erase("thresholds");
  EXPECT_NE(Violations(report), "");
}

// A mutants.json nested 100,000 deep (its config copied recursively crashed `clauses`) is an
// unusable report that says why, read in one bounded pass.
TEST(ClauseProofs, ADeeplyNestedReportIsUnusableNotACrash) {
  testing::TempDir dir;
  const auto report = dir.Write("mutants.json", R"({"files": {}, "config": {"fingerprint": )" +
                                                    std::string(100000, '[') +
                                                    std::string(100000, ']') + "}}");
  const auto proofs = mutants::ReadClauseProofs(report, SourceRoot(), SourceRoot() / "fixtures",
                                                SourceRoot() / "mutants" / "catalogue.json");
  EXPECT_NE(proofs.unusable.find("nest deeper than 1024 levels"), std::string::npos)
      << proofs.unusable.substr(0, 300);
  EXPECT_TRUE(proofs.proving.empty());
}

}  // namespace
}  // namespace gemini_oracle
