// The fault catalogue (mutants/catalogue.json) and the fault points in reference_impl/ agree:
// every catalogued fault has exactly one GEMINI_FAULT point in the file it names, every point
// is catalogued, and every fault cites registered clauses.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "oracles/runner/clause_registry.h"
#include "reference_impl/json.h"
#include "tests/source_root.h"

namespace gemini_oracle {
namespace {

using testing::SourceRoot;

std::string ReadText(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// fault id -> the files (relative to the source root) holding a point for it, once per point.
std::multimap<std::string, std::string> FaultPoints() {
  std::multimap<std::string, std::string> points;
  const std::regex point(R"re(GEMINI_FAULT\("([a-z0-9_.]+)"\))re");
  for (const auto& entry : std::filesystem::recursive_directory_iterator(SourceRoot() /
                                                                          "reference_impl")) {
    if (!entry.is_regular_file() || entry.path().extension() != ".cc") continue;
    const std::string text = ReadText(entry.path());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), point);
         it != std::sregex_iterator(); ++it) {
      points.emplace((*it)[1].str(),
                     entry.path().lexically_relative(SourceRoot()).generic_string());
    }
  }
  return points;
}

Json Catalogue() { return ParseJson(ReadText(SourceRoot() / "mutants" / "catalogue.json")); }

// Finds each catalogued fault once, in the file it names, and no uncatalogued fault point.
TEST(FaultCatalogue, MatchesTheFaultPoints) {
  const auto points = FaultPoints();
  const Json catalogue = Catalogue();
  ASSERT_TRUE(catalogue.is_array());
  std::set<std::string> ids;
  for (const auto& fault : catalogue) {
    const std::string id = fault.at("id").get<std::string>();
    EXPECT_TRUE(ids.insert(id).second) << id << " is catalogued twice";
    EXPECT_EQ(points.count(id), 1u) << id << " needs exactly one fault point";
    const auto at = points.find(id);
    if (at != points.end()) {
      EXPECT_EQ(at->second, fault.at("file").get<std::string>()) << id;
    }
    EXPECT_FALSE(fault.at("description").get<std::string>().empty()) << id;
    EXPECT_FALSE(fault.at("function").get<std::string>().empty()) << id;
  }
  for (const auto& [id, file] : points) {
    EXPECT_TRUE(ids.count(id)) << file << " has fault point " << id << " not in the catalogue";
  }
}

// Cites only registered clauses, at least one per fault.
TEST(FaultCatalogue, CitesRegisteredClauses) {
  const auto registry =
      runner::ClauseRegistry::Load(runner::ClausesPath(SourceRoot()));
  for (const auto& fault : Catalogue()) {
    ASSERT_FALSE(fault.at("clauses").empty()) << fault.dump();
    for (const auto& clause : fault.at("clauses")) {
      EXPECT_TRUE(registry.Contains(clause.get<std::string>())) << fault.dump();
    }
  }
}

}  // namespace
}  // namespace gemini_oracle
