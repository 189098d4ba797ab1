// The fault catalogue (mutants/catalogue.json) and the fault points agree: every catalogued
// fault has exactly one GEMINI_FAULT point in the file it names, every point is catalogued,
// every must-clause and every bug case of the corpus has its fault, and the loader names each
// broken entry with its position and rule.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "mutants/catalogue.h"
#include "oracles/runner/clause_registry.h"
#include "reference_impl/fault.h"
#include "tests/source_root.h"
#include "tests/temp_dir.h"

namespace gemini_oracle {
namespace {

using testing::SourceRoot;
using testing::ReadText;

runner::ClauseRegistry Registry() {
  return runner::ClauseRegistry::Load(runner::ClausesPath(SourceRoot()));
}

mutants::Catalogue RealCatalogue() {
  const auto load = mutants::LoadCatalogue(mutants::CataloguePath(SourceRoot()),
                                           "mutants/catalogue.json", Registry());
  EXPECT_TRUE(load.ok()) << (load.ok() ? "" : runner::FormatDiagnostic(load.diagnostics[0]));
  return load.catalogue;
}

// fault id -> the files (relative to the source root) holding a point for it, once per point.
// Fault points live in the reference implementation and in its driver.
std::multimap<std::string, std::string> FaultPoints() {
  std::multimap<std::string, std::string> points;
  const std::regex point(R"re(GEMINI_FAULT\("([a-z0-9_.]+)"\))re");
  for (const char* folder : {"reference_impl", "oracles"}) {
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator(SourceRoot() / folder)) {
      if (!entry.is_regular_file() || entry.path().extension() != ".cc") continue;
      const std::string text = ReadText(entry.path());
      for (auto it = std::sregex_iterator(text.begin(), text.end(), point);
           it != std::sregex_iterator(); ++it) {
        points.emplace((*it)[1].str(),
                       entry.path().lexically_relative(SourceRoot()).generic_string());
      }
    }
  }
  return points;
}

// Finds each catalogued fault once, in the file it names, and no uncatalogued fault point.
TEST(FaultCatalogue, MatchesTheFaultPoints) {
  const auto points = FaultPoints();
  const auto catalogue = RealCatalogue();
  for (const auto& fault : catalogue.faults) {
    EXPECT_EQ(points.count(fault.id), 1u) << fault.id << " needs exactly one fault point";
    const auto at = points.find(fault.id);
    if (at != points.end()) {
      EXPECT_EQ(at->second, fault.file) << fault.id;
    }
  }
  for (const auto& [id, file] : points) {
    EXPECT_NE(catalogue.Find(id), nullptr) << file << " has fault point " << id
                                           << " not in the catalogue";
  }
}

// In the default build there is no fault point, and choosing a fault is refused rather than
// run as a silent baseline. (In the mutants build, mutants_harness_test checks the program's
// registered points against the catalogue: only a program links every source holding one.)
#ifndef GEMINI_ORACLE_MUTANTS
TEST(FaultCatalogue, DefaultBuildHasNoFaultPoints) {
  const auto catalogue = RealCatalogue();
  EXPECT_TRUE(ref::fault::Points().empty());
  EXPECT_THROW(ref::fault::SetActive(catalogue.faults.front().id), ref::fault::UnknownFault);
  EXPECT_EQ(ref::fault::ActiveId(), "");
}
#endif

// At least 40 faults besides the canary; at least one equivalent fault, argued.
TEST(FaultCatalogue, IsLargeEnough) {
  const auto catalogue = RealCatalogue();
  std::size_t counted = 0;
  for (const auto& fault : catalogue.faults) {
    if (!fault.canary) ++counted;
  }
  EXPECT_GE(counted, 40u);
  ASSERT_NE(catalogue.Canary(), nullptr);
  std::size_t equivalent = 0;
  for (const auto& fault : catalogue.faults) {
    if (fault.equivalent) {
      ++equivalent;
      EXPECT_GE(fault.equivalent->size(), 80u) << fault.id << ": an argument, not a word";
    }
  }
  EXPECT_GE(equivalent, 1u);
}

// Every must-clause that a case can reach today is cited by at least one fault.
TEST(FaultCatalogue, CitesEveryMustClause) {
  const auto catalogue = RealCatalogue();
  const auto registry = Registry();
  for (const auto& clause : registry.clauses()) {
    if (clause.level != runner::Level::kMust || !clause.pending.empty()) continue;
    bool cited = false;
    for (const auto& fault : catalogue.faults) {
      if (!fault.canary &&
          std::find(fault.clauses.begin(), fault.clauses.end(), clause.id) != fault.clauses.end()) {
        cited = true;
      }
    }
    EXPECT_TRUE(cited) << "no fault cites must-clause " << clause.id;
  }
}

// Every case of fixtures/bugs/ is the bug case of exactly one fault, and every bug case named
// exists.
TEST(FaultCatalogue, PairsEveryBugCase) {
  const auto catalogue = RealCatalogue();
  std::map<std::string, int> named;
  for (const auto& fault : catalogue.faults) {
    if (fault.bug) ++named[fault.bug->case_id];
  }
  std::set<std::string> cases;
  for (const auto& entry : std::filesystem::directory_iterator(SourceRoot() / "fixtures" / "bugs")) {
    if (entry.path().extension() != ".json") continue;
    const std::string id = "bugs/" + entry.path().stem().string();
    cases.insert(id);
    EXPECT_EQ(named[id], 1) << id << " must be the bug case of exactly one fault";
  }
  for (const auto& [id, count] : named) {
    EXPECT_TRUE(cases.count(id)) << id << " is named as a bug case but is not in fixtures/bugs/";
  }
}

// Broken entries are named with their position and rule; nothing is guessed.
struct BrokenCatalogue {
  const char* text;
  const char* rule;
  int line;
};

class CatalogueDiagnostics : public ::testing::TestWithParam<BrokenCatalogue> {};

TEST_P(CatalogueDiagnostics, NamesRuleAndPosition) {
  const auto load = mutants::ParseCatalogue(GetParam().text, "c.json", Registry());
  ASSERT_FALSE(load.ok());
  bool found = false;
  for (const auto& d : load.diagnostics) {
    if (d.rule == GetParam().rule && d.line == GetParam().line) found = true;
  }
  EXPECT_TRUE(found) << runner::FormatDiagnostic(load.diagnostics.front());
}

#define CANARY R"({"id": "canary.x", "clauses": ["WIRE.1"], "file": "f.cc", "function": "F", "description": "d", "canary": true})"
#define FAULT(extra) \
  R"({"id": "parser.x", "clauses": ["ADR-226.1"], "file": "f.cc", "function": "F", "description": "d")" extra "}"

INSTANTIATE_TEST_SUITE_P(
    Rules, CatalogueDiagnostics,
    ::testing::Values(
        BrokenCatalogue{"[\n" CANARY ",\n" FAULT(R"(, "clause": ["ADR-226.1"])") "\n]",
                        "catalogue.member", 3},
        BrokenCatalogue{"[\n" CANARY ",\n" FAULT("") ",\n" FAULT("") "\n]", "catalogue.id", 4},
        BrokenCatalogue{"[\n" CANARY ",\n{\"id\": \"Parser-X\", \"clauses\": [\"ADR-226.1\"], "
                        "\"file\": \"f.cc\", \"function\": \"F\", \"description\": \"d\"}\n]",
                        "catalogue.id", 3},
        BrokenCatalogue{"[\n" CANARY ",\n{\"id\": \"parser.y\", \"clauses\": [\n\"ADR-999.1\"], "
                        "\"file\": \"f.cc\", \"function\": \"F\", \"description\": \"d\"}\n]",
                        "catalogue.clause", 4},
        BrokenCatalogue{"[\n" FAULT("") "\n]", "catalogue.canary", 1},
        BrokenCatalogue{"[\n" CANARY ",\n" FAULT(R"(, "bug": {"project": "p", "report": "r", "case": "adr-224/y_x"})") "\n]",
                        "catalogue.bug", 3},
        BrokenCatalogue{"[\n" CANARY ",\n" FAULT(R"(, "equivalent": "")") "\n]", "catalogue.shape", 3},
        BrokenCatalogue{"[\n" CANARY ",\n{\"id\": \"parser.z\",\n\"id\": \"parser.w\"}\n]",
                        "catalogue.json", 4},
        BrokenCatalogue{"{\"faults\": []}", "catalogue.shape", 1}),
    [](const ::testing::TestParamInfo<BrokenCatalogue>& info) {
      std::string name = info.param.rule;
      for (auto& ch : name) {
        if (ch == '.') ch = '_';
      }
      return name + "_" + std::to_string(info.index);
    });

#undef FAULT
#undef CANARY

TEST(CatalogueDiagnostics, AcceptsAWellFormedEntry) {
  const auto load = mutants::ParseCatalogue(
      R"([{"id": "canary.x", "clauses": ["WIRE.1"], "file": "f.cc", "function": "F", "description": "d", "canary": true},
          {"id": "parser.x", "clauses": ["ADR-226.1"], "file": "f.cc", "function": "F", "description": "d",
           "bug": {"project": "p", "report": "r", "case": "bugs/y_x"}, "equivalent": "why"}])",
      "c.json", Registry());
  ASSERT_TRUE(load.ok()) << runner::FormatDiagnostic(load.diagnostics.front());
  ASSERT_EQ(load.catalogue.faults.size(), 2u);
  EXPECT_EQ(load.catalogue.Canary()->id, "canary.x");
  EXPECT_EQ(load.catalogue.faults[1].bug->case_id, "bugs/y_x");
  EXPECT_EQ(load.catalogue.faults[1].Group(), "parser");
  EXPECT_EQ(*load.catalogue.faults[1].equivalent, "why");
}

}  // namespace
}  // namespace gemini_oracle
