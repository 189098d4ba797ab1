#pragma once
// Validates a document against Stryker's mutation-testing-report-schema (tests/data/stryker/).

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "tests/source_root.h"

namespace gemini_oracle::testing {

/// Every violation, one per line ("" when the document is valid).
inline std::string StrykerSchemaViolations(const nlohmann::json& document) {
  std::ifstream in(SourceRoot() / "tests" / "data" / "stryker" /
                   "mutation-testing-report-schema.json");
  const nlohmann::json schema_json = nlohmann::json::parse(in);
  valijson::Schema schema;
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  valijson::adapters::NlohmannJsonAdapter schema_adapter(schema_json);
  parser.populateSchema(schema_adapter, schema);
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter adapter(document);
  if (validator.validate(schema, adapter, &results)) return "";
  std::string text;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    std::string where;
    for (const auto& part : error.context) where += part;
    text += where + ": " + error.description + "\n";
  }
  return text.empty() ? "invalid" : text;
}

}  // namespace gemini_oracle::testing
