// Any bytes as a case file: the loader returns a case or diagnostics and never throws, and the
// strict reader either refuses the text with a documented rule or returns a value that
// survives a dump and a second read unchanged.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>

#include "oracles/runner/case_loader.h"
#include "oracles/runner/strict_json.h"
#include "reference_impl/json.h"

namespace {

using gemini_oracle::DumpJson;
using gemini_oracle::KindExactEqual;
using gemini_oracle::runner::CaseLoader;
using gemini_oracle::runner::ParseStrictJson;

const std::filesystem::path& FixturesRoot() {
  static const std::filesystem::path root =
      std::filesystem::path(GEMINI_ORACLE_FUZZ_SOURCE_DIR) / "fixtures";
  return root;
}

const CaseLoader& Loader() {
  static const CaseLoader loader = CaseLoader::FromSourceRoot(GEMINI_ORACLE_FUZZ_SOURCE_DIR);
  return loader;
}

// Every rule ParseStrictJson documents; another one is a finding.
bool IsStrictRule(const std::string& rule) {
  static const std::set<std::string> rules = {"json.bom", "json.syntax", "json.depth",
                                              "json.number_range", "json.duplicate_key"};
  return rules.count(rule) > 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  const auto strict = ParseStrictJson(text);
  if (strict.error) {
    if (!IsStrictRule(strict.error->rule) || strict.error->offset > size) __builtin_trap();
  } else {
    // What the reader accepted means the same after a round trip through its own dump.
    const auto again = ParseStrictJson(DumpJson(strict.value));
    if (again.error || !KindExactEqual(again.value, strict.value)) __builtin_trap();
  }

  const auto loaded =
      Loader().LoadText(text, FixturesRoot() / "adr-226" / "y_fuzz.json", FixturesRoot());
  // A case comes without diagnostics, and a refusal names at least one.
  if (loaded.value.has_value() == !loaded.diagnostics.empty()) __builtin_trap();
  // The loader reads through the strict reader: what it refuses never becomes a case.
  if (strict.error && loaded.value) __builtin_trap();
  return 0;
}
