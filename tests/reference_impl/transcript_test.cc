#include "reference_impl/transcript.h"

#include <gtest/gtest.h>

#include "reference_impl/provider_error.h"

namespace gemini_oracle::ref {
namespace {

constexpr const char* kKinds = R"([
  {"role":"system","content":"be brief"},
  {"role":"user","content":"hi"},
  {"role":"assistant","id":"turn_2","content":"","tool_calls":[
    {"id":"tc_1","name":"f","arguments":{"empty":{},"list":[],"one":1.0,"int":1,"neg0":-0.0,
      "max":18446744073709551615,"min":-9223372036854775808,"big":9007199254740993,
      "nested":[[],{}]}},
    {"id":"tc_2","name":"g","arguments":[]}],
   "provider_state":{"gemini":{"owner":"turn_2","native_parts":[{"functionCall":{"name":"f","args":{}}}],
     "tool_call_bindings":[]},"openai":{"id":"call_x"}}},
  {"role":"tool","tool_call_id":"tc_1","name":"f","content":"{\"a\":[]}","is_error":false}
])";

// Round-trips every JSON kind the ADRs care about through the transcript's JSON form.
TEST(Transcript, RoundTripKeepsEveryKind) {
  const Json original = ParseJson(kKinds);
  const Transcript t = TranscriptFromJson(original);
  const Json again = ToJson(t);
  EXPECT_EQ(DumpJson(again), DumpJson(original));
  const Json& args = t.messages[2].tool_calls[0].arguments;
  EXPECT_TRUE(args["empty"].is_object());
  EXPECT_TRUE(args["list"].is_array());
  EXPECT_TRUE(args["one"].is_number_float());
  EXPECT_TRUE(args["int"].is_number_integer());
  EXPECT_TRUE(std::signbit(args["neg0"].get<double>()));
  EXPECT_EQ(args["max"].get<std::uint64_t>(), 18446744073709551615ULL);
  EXPECT_EQ(args["min"].get<std::int64_t>(), INT64_MIN);
  EXPECT_EQ(args["big"].get<std::uint64_t>(), 9007199254740993ULL);
  EXPECT_TRUE(t.messages[2].tool_calls[1].arguments.is_array());
}

// Refuses a message without its required fields, naming the turn and field only.
TEST(Transcript, MalformedMessageIsATypedError) {
  try {
    TranscriptFromJson(ParseJson(R"([{"role":"user","content":"x"},{"role":"tool","name":"f"}])"));
    FAIL() << "accepted a tool message without tool_call_id";
  } catch (const ProviderError& e) {
    EXPECT_EQ(e.code(), "transcript.malformed");
    EXPECT_EQ(e.position().turn, 1u);
    EXPECT_EQ(e.position().field, "tool_call_id");
  }
  EXPECT_THROW(TranscriptFromJson(ParseJson(R"([{"role":"robot"}])")), ProviderError);
  EXPECT_THROW(TranscriptFromJson(ParseJson(R"({"role":"user"})")), ProviderError);
}

}  // namespace
}  // namespace gemini_oracle::ref
