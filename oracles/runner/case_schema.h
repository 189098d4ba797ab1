#pragma once
// fixtures/case.schema.json, compiled once and applied to every fixture with valijson.

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace valijson {
class Schema;
}  // namespace valijson

namespace gemini_oracle::runner {

/// One schema violation: the JSON pointer of the offending value and valijson's words.
struct SchemaViolation {
  std::string pointer;
  std::string description;
};

class CaseSchema {
 public:
  /// Reads and compiles the schema; throws std::runtime_error naming the file on failure.
  static CaseSchema Load(const std::filesystem::path& schema_file);
  /// Compiles an already parsed schema (tests, embedded copies).
  static CaseSchema FromJson(const nlohmann::json& schema);

  /// valijson's violations in its order, without exact duplicates and without the messages
  /// that only say a descendant failed (kept when nothing else remains). `pattern` keywords
  /// match in time and stack linear in the string, so no string length exhausts the stack.
  std::vector<SchemaViolation> Validate(const nlohmann::json& document) const;

 private:
  std::shared_ptr<const valijson::Schema> schema_;
  std::shared_ptr<const std::vector<std::string>> patterns_;  // every `pattern` of the schema
};

/// <source root>/fixtures/case.schema.json.
std::filesystem::path SchemaPath(const std::filesystem::path& source_root);

}  // namespace gemini_oracle::runner
