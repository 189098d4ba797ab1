#include "oracles/runner/case_schema.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/oracles/runner/test_fixtures.h"

namespace gemini_oracle::runner {
namespace {

using testing::SourceRoot;

constexpr char kCase[] = R"({
  "description": "Answers one call.",
  "clauses": ["ADR-224.1"],
  "exchanges": [
    {"user": "go",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"name": "f", "args": {}}}]}}]}},
     "then": {"results": [{"call": 0, "json": {"r": 1}}]}},
    {"response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "done"}]}}]}}}
  ],
  "expect": {"outcome": "accept", "requests": 2,
    "wire": [{"request": 2, "pointer": "/contents/1/parts/0/functionCall/args", "equals": {},
              "clause": "ADR-224.7"}]}
})";

std::vector<std::string> Pointers(const std::vector<SchemaViolation>& violations) {
  std::vector<std::string> pointers;
  for (const auto& violation : violations) pointers.push_back(violation.pointer);
  return pointers;
}

// Matches `pattern` keywords against strings of any length: a 200,000-character pointer and
// clause id once overflowed the stack in std::regex's recursive matcher.
TEST(CaseSchema, MatchesPatternsAgainstVeryLongStrings) {
  const CaseSchema schema = CaseSchema::Load(SchemaPath(SourceRoot()));
  nlohmann::json document = nlohmann::json::parse(kCase);
  ASSERT_EQ(Pointers(schema.Validate(document)), std::vector<std::string>{});

  document["expect"]["wire"][0]["pointer"] = "/" + std::string(200000, 'a');
  EXPECT_EQ(Pointers(schema.Validate(document)), std::vector<std::string>{});

  document["clauses"][0] = "ADR-224." + std::string(200000, '1') + "x";
  EXPECT_EQ(Pointers(schema.Validate(document)), std::vector<std::string>{"/clauses/0"});
}

}  // namespace
}  // namespace gemini_oracle::runner
