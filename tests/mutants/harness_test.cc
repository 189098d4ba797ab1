// Proof of the mutation harness itself (mutants builds): an unknown fault id is an error, a
// harness that cannot kill is caught by the canary, a failing baseline stops the run, a
// surviving fault fails it, and the lines and reports say what was killed, by what, at any
// --jobs.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include "apps/gemini-oracle/commands.h"
#include "mutants/catalogue.h"
#include "mutants/fingerprint.h"
#include "reference_impl/fault.h"
#include "reference_impl/json.h"
#include "tests/mutants/stryker_schema.h"
#include "tests/source_root.h"
#include "tests/temp_dir.h"

namespace gemini_oracle {
namespace {

using testing::SourceRoot;
using testing::ReadText;
using testing::TempDir;

struct Outcome {
  int status = 0;
  std::string out;
  std::string err;
};

class MutantsCommand : public ::testing::Test {
 protected:
  cli::MutantsArgs Args() const {
    cli::MutantsArgs args;
    args.source_root = SourceRoot();
    args.fixtures = SourceRoot() / "fixtures";
    args.report_dir = reports_.path() / "latest";
    args.jobs = 2;
    return args;
  }
  static Outcome Run(const cli::MutantsArgs& args) {
    std::ostringstream out, err;
    Outcome outcome;
    outcome.status = cli::MutantsCommand(args, out, err);
    outcome.out = out.str();
    outcome.err = err.str();
    return outcome;
  }
  // The real catalogue's entries, as JSON lines, by id.
  static Json CatalogueEntry(const std::function<bool(const Json&)>& wanted) {
    for (const auto& entry : ParseJson(ReadText(SourceRoot() / "mutants" / "catalogue.json"))) {
      if (wanted(entry)) return entry;
    }
    return Json();
  }
  TempDir reports_;
};

// The program's registered fault points are the catalogue, each in the file the catalogue
// names (relative to the source root) at a real line.
TEST(FaultPoints, AreTheCatalogue) {
  ASSERT_TRUE(ref::fault::kCompiledIn);
  const auto load = mutants::LoadCatalogue(
      mutants::CataloguePath(SourceRoot()), "mutants/catalogue.json",
      runner::ClauseRegistry::Load(runner::ClausesPath(SourceRoot())));
  ASSERT_TRUE(load.ok());
  const auto points = ref::fault::Points();
  EXPECT_EQ(points.size(), load.catalogue.faults.size());
  for (const auto& point : points) {
    const auto* fault = load.catalogue.Find(point.id);
    ASSERT_NE(fault, nullptr) << point.id << " at " << point.file << ":" << point.line;
    EXPECT_EQ(point.file, fault->file) << point.id;
    std::istringstream lines(ReadText(SourceRoot() / point.file));
    std::string line;
    for (int i = 0; i < point.line; ++i) std::getline(lines, line);
    EXPECT_NE(line.find("GEMINI_FAULT(\"" + point.id + "\")"), std::string::npos)
        << point.id << " is not at " << point.file << ":" << point.line;
  }
  EXPECT_THROW(ref::fault::SetActive("parser.no_such_fault"), ref::fault::UnknownFault);
  EXPECT_EQ(ref::fault::ActiveId(), "");
}

TEST_F(MutantsCommand, UnknownFaultIdInTheFilterIsAnError) {
  auto args = Args();
  args.filters = {"parser.no_such_fault"};
  const auto outcome = Run(args);
  EXPECT_EQ(outcome.status, cli::kExitBadInput);
  EXPECT_NE(outcome.err.find("unknown fault id 'parser.no_such_fault'"), std::string::npos)
      << outcome.err;
}

TEST_F(MutantsCommand, CatalogueFaultWithoutAPointInThisBuildIsAnError) {
  TempDir dir;
  Json catalogue = Json::array();
  catalogue.push_back(CatalogueEntry([](const Json& e) { return e.value("canary", false); }));
  Json ghost = catalogue[0];
  ghost.erase("canary");
  ghost["id"] = "parser.not_compiled_in";
  catalogue.push_back(ghost);
  auto args = Args();
  args.catalogue = dir.Write("catalogue.json", catalogue.dump(1));
  const auto outcome = Run(args);
  EXPECT_EQ(outcome.status, cli::kExitBadInput);
  EXPECT_NE(outcome.err.find("unknown fault id 'parser.not_compiled_in'"), std::string::npos)
      << outcome.err;
}

// A fault switch that never reaches the code: nothing can be killed, and the canary says so
// before any survivor could be read as a pass.
TEST_F(MutantsCommand, CanaryCatchesAHarnessThatCannotKill) {
  auto args = Args();
  args.activate = [](const std::string&) {};
  const auto outcome = Run(args);
  EXPECT_TRUE(outcome.status & cli::kExitHarness) << outcome.out << outcome.err;
  EXPECT_NE(outcome.out.find("canary: "), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find(": Survived: "), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.err.find("cannot kill"), std::string::npos) << outcome.err;
  EXPECT_EQ(outcome.out.find("mutation score"), std::string::npos) << outcome.out;
}

// A corpus the reference fails without any fault: no kill would mean anything.
TEST_F(MutantsCommand, BaselineFailureStopsTheRun) {
  TempDir fixtures;
  std::string text = ReadText(SourceRoot() / "fixtures" / "bugs" /
                              "y_nested_empty_lists_not_forced_to_objects.json");
  const std::string pinned = R"("equals": {"filter": {"status": "open"}, "tags": []})";
  const auto at = text.find(pinned);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, pinned.size(), R"("equals": {"filter": {"status": "closed"}, "tags": []})");
  fixtures.Write("bugs/y_nested_empty_lists_not_forced_to_objects.json", text);
  auto args = Args();
  args.fixtures = fixtures.path();
  const auto outcome = Run(args);
  EXPECT_EQ(outcome.status, cli::kExitHarness) << outcome.out << outcome.err;
  EXPECT_NE(outcome.err.find("baseline"), std::string::npos) << outcome.err;
  EXPECT_EQ(outcome.out.find("canary: "), std::string::npos) << outcome.out;
  // The reports still say why.
  const std::string summary = ReadText(args.report_dir / "summary.md");
  EXPECT_NE(summary.find("Stopped:"), std::string::npos);
}

// A fault no case can kill, catalogued without an equivalence argument, survives and fails
// the run (the real catalogue's equivalent fault, stripped of its argument, in a test-only
// catalogue); with its argument it is listed apart and the run is clean.
TEST_F(MutantsCommand, SurvivingFaultFailsTheRun) {
  TempDir dir;
  Json catalogue = Json::array();
  catalogue.push_back(CatalogueEntry([](const Json& e) { return e.value("canary", false); }));
  Json toothless = CatalogueEntry([](const Json& e) { return e.contains("equivalent"); });
  ASSERT_TRUE(toothless.is_object()) << "the catalogue needs an equivalent fault";
  const std::string id = toothless["id"].get<std::string>();
  toothless.erase("equivalent");
  catalogue.push_back(toothless);
  auto args = Args();
  args.filters = {id};  // the run-wide checks (bug cases, every must-clause) stay out
  args.catalogue = dir.Write("catalogue.json", catalogue.dump(1));
  const auto outcome = Run(args);
  EXPECT_EQ(outcome.status, cli::kExitConformance) << outcome.out << outcome.err;
  EXPECT_NE(outcome.out.find(": Survived: " + toothless["description"].get<std::string>() + " [" +
                             id + "]"),
            std::string::npos)
      << outcome.out;
  EXPECT_NE(outcome.out.find("mutation score: 0.0%"), std::string::npos) << outcome.out;

  catalogue[1] = CatalogueEntry([](const Json& e) { return e.contains("equivalent"); });
  args.catalogue = dir.Write("catalogue.json", catalogue.dump(1));
  const auto equivalent = Run(args);
  EXPECT_EQ(equivalent.status, 0) << equivalent.out << equivalent.err;
  EXPECT_EQ(equivalent.out.find(": Survived: "), std::string::npos) << equivalent.out;
  EXPECT_NE(equivalent.out.find("equivalent faults (not counted"), std::string::npos)
      << equivalent.out;
}

// A fault catalogued as equivalent that a case does kill: the argument is wrong, the run fails,
// and the score never counts it (never above 100%).
TEST_F(MutantsCommand, KilledEquivalentFaultFailsTheRun) {
  TempDir dir;
  Json catalogue = Json::array();
  catalogue.push_back(CatalogueEntry([](const Json& e) { return e.value("canary", false); }));
  Json killable =
      CatalogueEntry([](const Json& e) { return e["id"] == "builder.thought_signature_dropped"; });
  killable["equivalent"] = "claimed, wrongly";
  catalogue.push_back(killable);
  auto args = Args();
  args.filters = {"builder.thought_signature_dropped"};
  args.catalogue = dir.Write("catalogue.json", catalogue.dump(1));
  const auto outcome = Run(args);
  EXPECT_EQ(outcome.status, cli::kExitConformance) << outcome.out << outcome.err;
  EXPECT_NE(outcome.out.find("the argument does not hold"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("mutation score: 100.0% (0 killed of 0"), std::string::npos)
      << outcome.out;
}

// A fault run that crashes or hangs is recorded as such, is not a kill, and the harness goes
// on with the next fault.
TEST_F(MutantsCommand, CrashAndHangAreRecordedNotKilled) {
  auto args = Args();
  args.filters = {"builder.response_id_omitted", "builder.thought_signature_dropped",
                  "parser.native_id_not_bound"};
  args.fault_timeout = std::chrono::seconds(3);
  args.activate = [](const std::string& id) {
    if (id == "builder.response_id_omitted") std::abort();
    if (id == "builder.thought_signature_dropped") {
      std::this_thread::sleep_for(std::chrono::hours(1));
    }
    ref::fault::SetActive(id);
  };
  const auto outcome = Run(args);
  EXPECT_TRUE(outcome.status & cli::kExitHarness) << outcome.out << outcome.err;
  EXPECT_NE(outcome.out.find(": RuntimeError: "), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("[builder.response_id_omitted] (the fault run crashed (signal 6))"),
            std::string::npos)
      << outcome.out;
  EXPECT_NE(outcome.out.find(": Timeout: "), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("Killed: "), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("[parser.native_id_not_bound] by "), std::string::npos)
      << outcome.out;
}

// `FILE:LINE: Killed: DESCRIPTION [ID] by CASE (CLAUSE)`, and the reports carry the run.
TEST_F(MutantsCommand, KilledLineNamesWhereWhatAndWhy) {
  auto args = Args();
  args.filters = {"builder.thought_signature_dropped"};
  const auto outcome = Run(args);
  EXPECT_EQ(outcome.status, 0) << outcome.out << outcome.err;
  const std::regex line(
      R"(\nreference_impl/request_builder\.cc:[0-9]+: Killed: [^\n]+ \[builder\.thought_signature_dropped\] by [a-z0-9_/-]+ \((ADR-224\.8)\)\n)");
  EXPECT_TRUE(std::regex_search(outcome.out, line)) << outcome.out;
  EXPECT_NE(outcome.out.find("mutation score: 100"), std::string::npos) << outcome.out;
  const Json index = ParseJson(ReadText(args.report_dir / "index.json"));
  ASSERT_TRUE(index.contains("mutation"));
  EXPECT_EQ(index["mutation"]["faults"][0]["status"], "Killed");
  EXPECT_NE(ReadText(args.report_dir / "summary.md").find("## Mutation testing"),
            std::string::npos);
  EXPECT_NE(ReadText(args.report_dir / "summary.html").find("<h2>Mutation testing</h2>"),
            std::string::npos);
  // The report the program wrote follows Stryker's schema.
  const auto stryker = nlohmann::json::parse(ReadText(args.report_dir / "mutants.json"));
  EXPECT_EQ(testing::StrykerSchemaViolations(stryker), "");
  EXPECT_EQ(stryker["files"]["reference_impl/request_builder.cc"]["mutants"].size(), 2u);
}

// A program whose fault points are no longer where its sources say is refused: its kills
// would be of code that is gone.
TEST(StaleProgram, PointsMustStillBeInTheSources) {
  EXPECT_EQ(mutants::StaleProgram(SourceRoot()), std::nullopt);
  TempDir elsewhere;
  const auto stale = mutants::StaleProgram(elsewhere.path());
  ASSERT_TRUE(stale.has_value());
  EXPECT_NE(stale->find("is no longer at"), std::string::npos) << *stale;
}

// The same lines at one fault run at a time and at many.
TEST_F(MutantsCommand, SameVerdictsAtAnyJobs) {
  auto args = Args();
  args.filters = {"builder."};
  args.jobs = 1;
  const auto one = Run(args);
  args.jobs = 6;
  const auto many = Run(args);
  const auto lines = [](const std::string& out) {
    // Everything but the header and the time line, which name --jobs and durations.
    std::istringstream in(out);
    std::string line, kept;
    for (std::getline(in, line); std::getline(in, line);) {
      if (line.rfind("time: ", 0) != 0) kept += line + "\n";
    }
    return kept;
  };
  EXPECT_EQ(one.status, many.status);
  EXPECT_EQ(lines(one.out), lines(many.out));
}

}  // namespace
}  // namespace gemini_oracle
