// Every line the oracle and the shipped drivers write to each other over a whole corpus run is
// a message its schema (drivers/protocol/*.schema.json) accepts: the schemas describe the
// protocol as it is spoken, not only as documented.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>

#include "oracles/model/streamed_twin.h"
#include "oracles/runner/case_loader.h"
#include "oracles/runner/case_schema.h"
#include "oracles/runner/process_driver.h"
#include "oracles/runner/suite_runner.h"
#include "tests/required_tool.h"
#include "tests/source_root.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::runner {
namespace {

using gemini_oracle::testing::SourceRoot;
using gemini_oracle::testing::TempDir;

// Runs the corpus (twins included) through `command`, recording both directions with tee, one
// pair of files per driver process (dir/to-driver-PID.jsonl, dir/from-driver-PID.jsonl).
void RunRecorded(const std::string& command, const std::filesystem::path& dir) {
  const auto loader = CaseLoader::FromSourceRoot(SourceRoot());
  const auto corpus = CheckCorpus(SourceRoot() / "fixtures", loader);
  ASSERT_TRUE(corpus.ok());
  ProcessDriver::Options driver_options;
  driver_options.command = "tee '" + dir.string() + "'/to-driver-$$.jsonl | " + command +
                           " | tee '" + dir.string() + "'/from-driver-$$.jsonl";
  ProcessDriver probe(driver_options);
  SuiteOptions options;
  options.capabilities = probe.Hello().capabilities;
  driver_options.capabilities = options.capabilities;
  options.jobs = 2;
  const auto results = RunSuite(
      model::WithStreamedTwins(corpus.cases), loader.registry(),
      [driver_options] { return std::make_unique<ProcessDriver>(driver_options); }, options);
  for (const auto& r : results) EXPECT_NE(r["verdict"], "error") << r["id"] << ": " << r["reason"];
}

// Validates each line of `file` against the schema its `type` names; adds to counts by type.
void ValidateLines(const std::filesystem::path& file, std::map<std::string, std::size_t>& counts) {
  std::map<std::string, CaseSchema> schemas;
  std::ifstream lines(file);
  std::string line;
  std::size_t number = 0;
  while (std::getline(lines, line)) {
    ++number;
    nlohmann::json message;
    try {
      message = nlohmann::json::parse(line);
    } catch (const std::exception&) {
      ADD_FAILURE() << file.filename() << ":" << number << ": not JSON";
      continue;
    }
    const std::string type = message.value("type", "");
    const auto schema_file = SourceRoot() / "drivers" / "protocol" / (type + ".schema.json");
    if (!std::filesystem::exists(schema_file)) {
      ADD_FAILURE() << file.filename() << ":" << number << ": no schema for type '" << type << "'";
      continue;
    }
    auto it = schemas.find(type);
    if (it == schemas.end()) it = schemas.emplace(type, CaseSchema::Load(schema_file)).first;
    for (const auto& v : it->second.Validate(message)) {
      ADD_FAILURE() << file.filename() << ":" << number << " (" << type << "): " << v.pointer
                    << ": " << v.description;
    }
    ++counts[type];
  }
}

// `cases`: how many run_case messages at least (a driver lacking capabilities is offered fewer).
void ExpectEveryLineValid(const std::string& command, std::size_t cases) {
  TempDir dir;
  RunRecorded(command, dir.path());
  std::map<std::string, std::size_t> sent, answered;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    const std::string name = entry.path().filename().string();
    ValidateLines(entry.path(), name.rfind("to-driver", 0) == 0 ? sent : answered);
  }
  EXPECT_GE(sent.count("run_case") ? sent.at("run_case") : 0, cases);
  EXPECT_GT(sent.count("start") ? sent.at("start") : 0, 0u);
  EXPECT_GT(answered.count("hello") ? answered.at("hello") : 0, 0u);
  EXPECT_GE(answered.count("report") ? answered.at("report") : 0, cases * 9 / 10);
}

TEST(DriverLines, ReferenceDriverAndOracleLinesMatchTheSchemas) {
  ExpectEveryLineValid(GEMINI_ORACLE_REFERENCE_DRIVER, 600);
}

TEST(DriverLines, MinimalExampleLinesMatchTheSchemas) {
  GEMINI_ORACLE_REQUIRE_TOOL("python3");
  ExpectEveryLineValid(
      "python3 '" + (SourceRoot() / "drivers" / "examples" / "minimal_driver.py").string() + "'",
      90);
}

}  // namespace
}  // namespace gemini_oracle::runner
