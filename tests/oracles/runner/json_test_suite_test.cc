// Nicolas Seriot's JSONTestSuite (tests/data/JSONTestSuite, test_parsing/ of
// https://github.com/nst/JSONTestSuite at 1ef36fa, MIT licence) through the strict case reader
// and the case loader. y_ files are valid JSON, n_ files are not, i_ files are left to the
// parser; ParseStrictJson adds rules of its own (strict_json.h), listed below with reasons.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "oracles/runner/case_loader.h"
#include "oracles/runner/strict_json.h"
#include "tests/source_root.h"

namespace gemini_oracle::runner {
namespace {

namespace fs = std::filesystem;

struct SuiteFile {
  std::string name;
  std::string text;
};

const std::vector<SuiteFile>& Suite() {
  static const std::vector<SuiteFile> files = [] {
    std::vector<SuiteFile> out;
    const fs::path folder = gemini_oracle::testing::SourceRoot() / "tests/data/JSONTestSuite";
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (entry.path().extension() != ".json") continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      out.push_back({entry.path().filename().string(), text.str()});
    }
    std::sort(out.begin(), out.end(),
              [](const SuiteFile& a, const SuiteFile& b) { return a.name < b.name; });
    return out;
  }();
  return files;
}

std::vector<const SuiteFile*> WithPrefix(const std::string& prefix) {
  std::vector<const SuiteFile*> out;
  for (const auto& file : Suite()) {
    if (file.name.starts_with(prefix)) out.push_back(&file);
  }
  return out;
}

// Valid JSON that case files may not hold, each with the rule that refuses it and why.
struct StricterRule {
  std::string rule;
  std::string reason;
};
const std::map<std::string, StricterRule>& YesRefused() {
  // Parsers keep the first, the last or both of a repeated name, so one file would mean
  // different cases to different runners.
  static const std::string kDuplicate =
      "a repeated member name is read differently by different parsers";
  static const std::map<std::string, StricterRule> refused = {
      {"y_object_duplicated_key.json", {"json.duplicate_key", kDuplicate}},
      {"y_object_duplicated_key_and_value.json", {"json.duplicate_key", kDuplicate}},
  };
  return refused;
}

// The i_ files ParseStrictJson accepts; every other i_ file is refused. Both are decimals that
// underflow to zero: rounding to the nearest double, as 0.1 rounds, not an overflow. Refused
// are integers beyond 64 bits and overflowing exponents (json.number_range), invalid UTF-8 and
// lone surrogates (json.syntax), UTF-16 text (json.syntax: a NUL byte), a UTF-8 byte order
// mark (json.bom) and 500 nested arrays (json.depth).
const std::set<std::string>& ImplementationAccepted() {
  static const std::set<std::string> accepted = {
      "i_number_double_huge_neg_exp.json",  // [123.456e-789]
      "i_number_real_underflow.json",       // [123e-10000000]
  };
  return accepted;
}

bool IsStrictRule(const std::string& rule) {
  static const std::set<std::string> rules = {"json.bom", "json.syntax", "json.depth",
                                              "json.number_range", "json.duplicate_key"};
  return rules.count(rule) > 0;
}

// Finds all three prefixes in the copied suite, so a lost folder fails loudly.
TEST(JsonTestSuite, HoldsTheWholeParsingSuite) {
  EXPECT_EQ(WithPrefix("y_").size(), 95u);
  EXPECT_EQ(WithPrefix("n_").size(), 188u);
  EXPECT_EQ(WithPrefix("i_").size(), 35u);
}

// Refuses every n_ file with one of the documented json.* rules.
TEST(JsonTestSuite, RefusesEveryInvalidDocument) {
  for (const SuiteFile* file : WithPrefix("n_")) {
    const StrictJsonResult result = ParseStrictJson(file->text);
    ASSERT_TRUE(result.error.has_value())
        << file->name << " accepted as " << DumpJson(result.value);
    EXPECT_TRUE(IsStrictRule(result.error->rule)) << file->name << ": " << result.error->rule;
    EXPECT_LE(result.error->offset, file->text.size()) << file->name;
  }
}

// Refuses a NUL byte after a complete value, which nlohmann alone would stop reading at.
TEST(JsonTestSuite, RefusesNulAfterValue) {
  const auto files = WithPrefix("n_multidigit_number_then_00.json");
  ASSERT_EQ(files.size(), 1u);
  const StrictJsonResult result = ParseStrictJson(files[0]->text);
  ASSERT_TRUE(result.error.has_value());
  EXPECT_EQ(result.error->rule, "json.syntax");
  EXPECT_EQ(result.error->offset, 3u);
}

// Accepts every y_ file except those a stricter rule refuses, and those with exactly that rule.
TEST(JsonTestSuite, AcceptsEveryValidDocumentOutsideStricterRules) {
  for (const SuiteFile* file : WithPrefix("y_")) {
    const StrictJsonResult result = ParseStrictJson(file->text);
    const auto stricter = YesRefused().find(file->name);
    if (stricter == YesRefused().end()) {
      EXPECT_FALSE(result.error.has_value())
          << file->name << ": " << result.error->rule << " " << result.error->message;
    } else {
      ASSERT_TRUE(result.error.has_value()) << file->name << " accepted";
      EXPECT_EQ(result.error->rule, stricter->second.rule) << file->name;
    }
  }
  for (const auto& [name, stricter] : YesRefused()) {
    EXPECT_TRUE(name.starts_with("y_")) << name;
    EXPECT_FALSE(stricter.reason.empty()) << name;
  }
}

// Reads every i_ file without crashing; accepts exactly the recorded ones, refuses the rest
// with a documented rule.
TEST(JsonTestSuite, DecidesImplementationDefinedDocumentsAsRecorded) {
  std::set<std::string> accepted;
  for (const SuiteFile* file : WithPrefix("i_")) {
    const StrictJsonResult result = ParseStrictJson(file->text);
    if (!result.error) {
      accepted.insert(file->name);
    } else {
      EXPECT_TRUE(IsStrictRule(result.error->rule)) << file->name << ": " << result.error->rule;
    }
  }
  EXPECT_EQ(accepted, ImplementationAccepted());
}

// Loads every file as a case without throwing: a refused text gives the reader's rule as a
// diagnostic, an accepted one is no valid case and gives schema diagnostics.
TEST(JsonTestSuite, LoaderNeverThrows) {
  const fs::path source = gemini_oracle::testing::SourceRoot();
  const CaseLoader loader = CaseLoader::FromSourceRoot(source);
  const fs::path root = source / "fixtures";
  for (const auto& file : Suite()) {
    const LoadedCase loaded =
        loader.LoadText(file.text, root / "json-test-suite" / file.name, root);
    EXPECT_FALSE(loaded.value.has_value()) << file.name;
    ASSERT_FALSE(loaded.diagnostics.empty()) << file.name;
    const StrictJsonResult result = ParseStrictJson(file.text);
    if (result.error) {
      // The reader's rule, besides at most a file.name diagnostic: the suite's own names
      // (upper case, '+', '#') are no portable case ids.
      std::vector<std::string> rules;
      for (const auto& d : loaded.diagnostics) {
        if (d.rule != "file.name") rules.push_back(d.rule);
      }
      ASSERT_EQ(rules.size(), 1u) << file.name;
      EXPECT_EQ(rules[0], result.error->rule) << file.name;
    }
  }
}

}  // namespace
}  // namespace gemini_oracle::runner
