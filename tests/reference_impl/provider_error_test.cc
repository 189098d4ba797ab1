#include "reference_impl/provider_error.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "tests/source_root.h"

namespace gemini_oracle::ref {
namespace {

// Lists every code once, dotted, with a sentence (GUIDE: expected errors are data).
TEST(ErrorCatalogue, CodesAreUniqueAndDotted) {
  std::set<std::string_view> seen;
  const std::regex dotted("^[a-z_]+(\\.[a-z_]+)+$");
  for (const auto& info : ErrorCatalogue()) {
    EXPECT_TRUE(seen.insert(info.code).second) << info.code;
    EXPECT_TRUE(std::regex_match(std::string(info.code), dotted)) << info.code;
    EXPECT_FALSE(info.sentence.empty()) << info.code;
  }
  EXPECT_EQ(FindErrorCode("binding.malformed")->clause, "ADR-226.15");
  EXPECT_EQ(FindErrorCode("no.such_code"), nullptr);
}

// Keeps docs/error-codes.md in step with the catalogue: every code documented, none extra.
TEST(ErrorCatalogue, DocumentListsEveryCode) {
  std::ifstream in(gemini_oracle::testing::SourceRoot() / "docs" / "error-codes.md");
  ASSERT_TRUE(in) << "docs/error-codes.md missing";
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  std::set<std::string> documented;
  const std::regex row("\\| `([a-z_]+(\\.[a-z_]+)+)` \\|");
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), row); it != std::sregex_iterator();
       ++it) {
    documented.insert((*it)[1]);
  }
  std::set<std::string> catalogued;
  for (const auto& info : ErrorCatalogue()) catalogued.insert(std::string(info.code));
  EXPECT_EQ(documented, catalogued);
}

// Composes the message from the rule and the position only.
TEST(ProviderError, MessageNamesRuleAndPosition) {
  const ProviderError e("binding.call_mismatch", Position{3, 1, "tool_calls", std::nullopt});
  EXPECT_EQ(e.code(), "binding.call_mismatch");
  EXPECT_EQ(e.clause(), "ADR-226.7");
  EXPECT_STREQ(e.what(),
               "[binding.call_mismatch] ADR-226.7: A bound call's name or decoded arguments differ "
               "from its native part (ADR-226.8 rule). (at turn 3, part 1, field tool_calls)");
  EXPECT_THROW(ProviderError("not.a_code"), std::logic_error);
}

// Reports the stored state a build refusal concerns; parse positions index the response and
// are no transcript location.
TEST(ProviderError, LocationOnlyForStoredState) {
  Position stored;
  stored.turn = 4;
  stored.part = 0;
  stored.field = "tool_calls";
  stored.native_part = 2;
  const ProviderError build("binding.call_mismatch", stored);
  ASSERT_TRUE(build.location().has_value());
  EXPECT_EQ(build.location()->message, 4u);
  EXPECT_EQ(build.location()->native_part, 2u);
  EXPECT_NE(std::string(build.what()).find("native part 2"), std::string::npos);
  Position response;
  response.part = 1;
  EXPECT_FALSE(ProviderError("native_id.malformed", response).location().has_value());
  EXPECT_FALSE(ProviderError("http.status", HttpFailure{}).location().has_value());
}

// Keeps the provider's message and body out of what() (they may quote request content).
TEST(ProviderError, HttpFailureKeepsProviderTextApart) {
  const ProviderError e("http.status",
                        HttpFailure{400, "INVALID_ARGUMENT", "SENTINEL-1", "SENTINEL-2"});
  EXPECT_EQ(std::string(e.what()).find("SENTINEL"), std::string::npos);
  EXPECT_NE(std::string(e.what()).find("400 INVALID_ARGUMENT"), std::string::npos);
  EXPECT_EQ(e.http()->provider_message, "SENTINEL-1");
}

}  // namespace
}  // namespace gemini_oracle::ref
