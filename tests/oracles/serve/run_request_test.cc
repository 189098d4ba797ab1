// The body of POST /runs read into a run's settings, or refused with the rule and a message.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "oracles/serve/serve_api.h"

namespace gemini_oracle::serve {
namespace {

// Reads every member, and gives a protocol 1 client that streams the stream-capture capability.
TEST(RunRequest, ReadsTheMembers) {
  const auto read = ReadRunRequest(
      R"({"implementation": {"name": "n", "version": "1", "language": "go"}, "capabilities":
          ["streaming"], "filter": "adr-224/y_*", "twins": false, "strict": true,
          "profile": "gemini"})");
  ASSERT_TRUE(std::holds_alternative<RunRequest>(read));
  const RunRequest& r = std::get<RunRequest>(read);
  EXPECT_EQ(r.name, "n");
  EXPECT_EQ(r.language, "go");
  EXPECT_EQ(r.capabilities.count("stream-capture"), 1u);
  EXPECT_FALSE(r.twins);
  EXPECT_TRUE(r.strict);
  EXPECT_EQ(r.profile, checks::Profile::kGemini);
  EXPECT_TRUE(std::holds_alternative<RunRequest>(ReadRunRequest("")));
}

// Refuses a `protocol` that is not a whole number (found by serve_body_fuzzer: 1e300 was cast
// to an integer, which is undefined behaviour) instead of reading 2.5 as protocol 2.
TEST(RunRequest, ProtocolIsAWholeNumber) {
  for (const char* body : {R"({"protocol": 1e300})", R"({"protocol": 2.5})",
                           R"({"protocol": "2"})", R"({"protocol": -1e300})"}) {
    const auto read = ReadRunRequest(body);
    ASSERT_TRUE(std::holds_alternative<BodyProblem>(read)) << body;
    EXPECT_EQ(std::get<BodyProblem>(read).rule, "serve.body");
    EXPECT_EQ(std::get<BodyProblem>(read).message, "`protocol` is a whole number") << body;
  }
  EXPECT_TRUE(std::holds_alternative<RunRequest>(ReadRunRequest(R"({"protocol": 2})")));
  EXPECT_TRUE(std::holds_alternative<RunRequest>(ReadRunRequest(R"({"protocol": null})")));
}

}  // namespace
}  // namespace gemini_oracle::serve
