#include "oracles/runner/case_schema.h"

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validation_visitor.hpp>

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

// Every `pattern` string in the schema. A member named "pattern" that is no keyword (a
// property called so) is collected too; compiling one regex more is harmless.
void CollectPatterns(const nlohmann::json& node, std::vector<std::string>& out) {
  if (node.is_object()) {
    for (const auto& [key, value] : node.items()) {
      if (key == "pattern" && value.is_string()) out.push_back(value.get<std::string>());
      CollectPatterns(value, out);
    }
  } else if (node.is_array()) {
    for (const auto& value : node) CollectPatterns(value, out);
  }
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
  auto patterns = std::make_shared<std::vector<std::string>>();
  CollectPatterns(schema, *patterns);
  CaseSchema result;
  result.schema_ = std::move(compiled);
  result.patterns_ = std::move(patterns);
  return result;
}

std::vector<SchemaViolation> CaseSchema::Validate(const nlohmann::json& document) const {
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter adapter(document);
  std::vector<SchemaViolation> violations;
  // std::regex's default matcher recurses once per character of the subject, so a long
  // string under a `pattern` (a 50,000-character wire pointer or clause id) overflowed the
  // stack; libstdc++'s __polynomial matcher steps through the subject in a loop and recurses
  // only along the pattern. valijson 1.0 compiles patterns with default flags into its
  // Validator's private cache, so validation runs through its ValidationVisitor with a cache of
  // ours, keyed by pattern text as valijson looks it up. One cache per thread, reused: compiling
  // on every use cost 85% of loading the corpus.
  thread_local std::unordered_map<std::string, std::regex> regexes;
  for (const auto& pattern : *patterns_) {
    if (regexes.count(pattern) == 0) {
      regexes.emplace(pattern, std::regex(pattern, std::regex::ECMAScript |
                                                       std::regex_constants::__polynomial));
    }
  }
  valijson::ValidationVisitor<valijson::adapters::NlohmannJsonAdapter> visitor(
      adapter, std::vector<std::string>(1, "<root>"), /*strictTypes=*/true, &results, regexes);
  if (visitor.validateSchema(*schema_)) return violations;
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
