#include "oracles/runner/case_schema.h"

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "oracles/runner/json_positions.h"

namespace gemini_oracle::runner {
namespace {

// valijson names a location as {"<root>", "[key]", "[3]", ...}; "[3]" is an index only when
// the value at that point is an array, so the document decides.
std::string PointerOfContext(const std::vector<std::string>& context,
                             const nlohmann::json& document) {
  std::string pointer;
  const nlohmann::json* node = &document;
  for (std::size_t i = 1; i < context.size(); ++i) {
    std::string token = context[i];
    if (token.size() >= 2 && token.front() == '[' && token.back() == ']') {
      token = token.substr(1, token.size() - 2);
    }
    pointer += "/" + EscapePointerToken(token);
    if (node == nullptr) continue;
    if (node->is_object()) {
      const auto it = node->find(token);
      node = it == node->end() ? nullptr : &*it;
    } else if (node->is_array()) {
      std::size_t index = 0;
      try {
        index = std::stoul(token);
      } catch (const std::exception&) {
        index = node->size();
      }
      node = index < node->size() ? &(*node)[index] : nullptr;
    } else {
      node = nullptr;
    }
  }
  return pointer;
}

// valijson also reports every ancestor of a failing value ("Failed to validate against
// schema associated with property name 'expect'."); those say nothing the leaf does not.
bool IsChainMessage(const std::string& description) {
  return description.starts_with("Failed to validate against schema associated with property") ||
         description.starts_with("Failed to validate item #") ||
         description.starts_with("Failed to validate against child schema #") ||
         description.starts_with("Failed to validate against a conditional schema");
}

}  // namespace

CaseSchema CaseSchema::Load(const std::filesystem::path& schema_file) {
  std::ifstream in(schema_file, std::ios::binary);
  if (!in) throw std::runtime_error(schema_file.generic_string() + ": cannot read the schema");
  std::stringstream buffer;
  buffer << in.rdbuf();
  try {
    return FromJson(nlohmann::json::parse(buffer.str()));
  } catch (const std::exception& e) {
    throw std::runtime_error(schema_file.generic_string() + ": " + e.what());
  }
}

CaseSchema CaseSchema::FromJson(const nlohmann::json& schema) {
  auto compiled = std::make_shared<valijson::Schema>();
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  valijson::adapters::NlohmannJsonAdapter adapter(schema);
  parser.populateSchema(adapter, *compiled);
  CaseSchema result;
  result.schema_ = std::move(compiled);
  return result;
}

std::vector<SchemaViolation> CaseSchema::Validate(const nlohmann::json& document) const {
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter adapter(document);
  std::vector<SchemaViolation> violations;
  // One validator per thread, reused: it caches the compiled `pattern` regexes, which
  // otherwise cost 85% of loading the corpus (std::regex compiles on every use). The cache is
  // keyed by pattern text, so it serves any schema.
  thread_local valijson::Validator validator;
  if (validator.validate(*schema_, adapter, &results)) return violations;
  std::set<std::pair<std::string, std::string>> seen;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    SchemaViolation violation{PointerOfContext(error.context, document), error.description};
    if (seen.emplace(violation.pointer, violation.description).second) {
      violations.push_back(std::move(violation));
    }
  }
  std::vector<SchemaViolation> leaves;
  for (const auto& violation : violations) {
    if (!IsChainMessage(violation.description)) leaves.push_back(violation);
  }
  return leaves.empty() ? violations : leaves;
}

std::filesystem::path SchemaPath(const std::filesystem::path& source_root) {
  return source_root / "fixtures" / "case.schema.json";
}

}  // namespace gemini_oracle::runner
