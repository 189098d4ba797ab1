// The leaks judge: ADR-226.19 on refusal messages.
#include "tests/oracles/checks/checks_test_support.h"

namespace gemini_oracle::checks {
namespace {

using testing::MakeCase;
using testing::MakeJournal;
using testing::Places;
using testing::Where;

constexpr std::string_view kSentinelCase = R"({
  "description": "A duplicate native id is refused without exposing content.",
  "clauses": ["ADR-226.19", "ADR-226.5"],
  "exchanges": [{"user": "go",
    "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
      {"functionCall": {"id": "SENTINEL-d41d8-id", "name": "f",
                        "args": {"secret": "hunter2-arg", "route": "route>>?/~x",
                                 "account_number": 4815162342, "ratio": 0.5, "flag": true,
                                 "round": 1000000}},
       "thoughtSignature": "c2lnbmF0dXJlLXNlbnRpbmVs"},
      {"functionCall": {"id": "SENTINEL-d41d8-id", "name": "f", "args": {}}}]}}]}}}],
  "expect": {"outcome": "refuse", "error": "native_id.duplicate", "phase": "parse",
             "exchange": 1}
})";

std::vector<Finding> JudgeMessage(std::string message) {
  const auto c = MakeCase(kSentinelCase, "n_leak.json");
  const auto journal = MakeJournal({R"({"contents":[]})"});
  model::DriverReport report;
  report.refusal = model::Refusal{"native_id.duplicate", "parse", 1, std::move(message), {}, {}};
  return JudgeLeaks({c, journal, report});
}

// Finds nothing in a message that names only positions and fields.
TEST(Leaks, AcceptsPositionalMessage) {
  EXPECT_TRUE(JudgeMessage("native_id.duplicate: part 1, field id").empty());
}

// Ignores a native id that only occurs inside a longer field name.
TEST(Leaks, IgnoresIdInsideLongerName) {
  const auto c = MakeCase(R"({
    "description": "A malformed binding field is refused.",
    "clauses": ["ADR-226.15"],
    "transcript": [{"role": "assistant", "id": "turn_1",
      "provider_state": {"gemini": {"owner": "turn_1", "native_parts": [
        {"functionCall": {"id": "call_b", "name": "f", "args": {}}}],
        "tool_call_bindings": null}}}],
    "exchanges": [{"response": {"body": {}}}],
    "expect": {"outcome": "refuse", "error": "binding.malformed", "phase": "build",
               "exchange": 1}
  })",
                          "n_bindings.json");
  const auto journal = MakeJournal({});
  model::DriverReport report;
  report.refusal = model::Refusal{"binding.malformed",
                                  "build",
                                  1,
                                  "tool_call_bindings is not a list (field tool_call_bindings)",
                                  {},
                                  {}};
  EXPECT_TRUE(JudgeLeaks({c, journal, report}).empty());
  report.refusal->message = "binding for call_b is malformed";
  EXPECT_EQ(Where(JudgeLeaks({c, journal, report})), (Places{{"ADR-226.19", ""}}));
}

// Reports a message that quotes the native id, naming its kind but not its content.
TEST(Leaks, ReportsLeakedSentinel) {
  const auto findings = JudgeMessage("duplicate id SENTINEL-d41d8-id at part 1");
  EXPECT_EQ(Where(findings), (Places{{"ADR-226.19", ""}})) << Describe(findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].message.find("SENTINEL"), std::string::npos);
  EXPECT_EQ(findings[0].request, std::nullopt);
}

// Reports a message that quotes an argument value (and its member name).
TEST(Leaks, ReportsLeakedArgument) {
  const auto findings = JudgeMessage("call f(secret=hunter2-arg) repeats an id");
  ASSERT_EQ(findings.size(), 2u) << Describe(findings);
  for (const auto& finding : findings) {
    EXPECT_NE(finding.message.find("argument"), std::string::npos);
    EXPECT_EQ(finding.message.find("hunter2"), std::string::npos);
    EXPECT_EQ(finding.message.find("secret"), std::string::npos);
  }
}

// Reports a message that quotes a thought signature.
TEST(Leaks, ReportsLeakedSignature) {
  const auto findings = JudgeMessage("bad part c2lnbmF0dXJlLXNlbnRpbmVs");
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_NE(findings[0].message.find("thought signature"), std::string::npos);
}

// The kinds (message parts) of the findings for a message.
std::vector<std::string> Kinds(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const auto& finding : findings) out.push_back(finding.actual.get<std::string>());
  return out;
}

// Each encoding of native content: a message exposing it (positive control) and an ordinary
// message in the same style that must pass (negative control).
struct EncodingControl {
  const char* encoding;
  const char* exposing;
  const char* ordinary;
  const char* form;  // how the finding says the content showed
};

const std::vector<EncodingControl> kEncodings = {
    {"lowercased", "duplicate id sentinel-d41d8-id", "Duplicate ID at part 1", "changed"},
    {"uppercased", "DUPLICATE ID HUNTER2-ARG", "DUPLICATE ID AT PART 1", "changed"},
    {"spaced", "id S E N T I N E L - d 4 1 d 8 - i d repeats", "id of part 1 2 3 repeats",
     "changed"},
    {"separators changed", "id SENTINEL_d41d8_id repeats", "id native_id_duplicate repeats",
     "changed"},
    {"unicode escaped", R"(id \u0053\u0045NTINEL-d41d8-id repeats)", R"(id \u0041BC repeats)",
     "escapes"},
    {"hex", "id 53454e54494e454c2d64343164382d6964 repeats", "request 0x7f3a9c2b failed", "hex"},
    {"hex uppercased", "id 53454E54494E454C2D64343164382D6964", "request 0X7F3A9C2B failed", "hex"},
    {"base64", "id U0VOVElORUwtZDQxZDgtaWQ= repeats", "token dGVzdA== rejected", "base64"},
    {"base64 standard", "arg cm91dGU+Pj8vfng= rejected", "token dGVzdA== rejected", "base64"},
    {"base64 url-safe unpadded", "arg cm91dGU-Pj8vfng rejected", "token dGVzdA rejected", "base64"},
    {"cut short", "bad part c2lnbmF0dXJl...", "bad part c2lnbmF", "cut short"},
    {"number", "account 4815162342 is duplicated", "account 4815162 or 123456 is duplicated",
     "as written"},
    {"number with separators", "account 4,815,162,342 repeats", "account 1,000,000 repeats",
     "changed"},
    {"member name", "field account_number is bad", "field account is bad", "as written"},
};

// Finds native content in every encoding, and nothing in the ordinary messages.
TEST(Leaks, FindsEveryEncodingAndPassesOrdinaryMessages) {
  for (const auto& control : kEncodings) {
    const auto exposed = JudgeMessage(control.exposing);
    EXPECT_FALSE(exposed.empty()) << control.encoding << ": " << control.exposing;
    if (!exposed.empty()) {
      EXPECT_NE(exposed[0].message.find(control.form), std::string::npos)
          << control.encoding << ": " << exposed[0].message;
    }
    for (const auto& finding : exposed) {
      EXPECT_EQ(finding.message.find("SENTINEL"), std::string::npos) << finding.message;
      EXPECT_EQ(finding.message.find("hunter2"), std::string::npos) << finding.message;
      EXPECT_EQ(finding.message.find("4815162342"), std::string::npos) << finding.message;
    }
    const auto ordinary = JudgeMessage(control.ordinary);
    EXPECT_TRUE(ordinary.empty()) << control.encoding << ": " << control.ordinary << " -> "
                                  << Describe(ordinary);
  }
}

// Never looks for booleans, numbers of few significant digits or short member names.
TEST(Leaks, IgnoresCommonScalars) {
  EXPECT_TRUE(JudgeMessage("flag true, ratio 0.5, round 1000000 rejected").empty());
}

// Names what was exposed and how, never the content.
TEST(Leaks, NamesKindAndForm) {
  const auto findings = JudgeMessage("id 53454e54494e454c2d64343164382d6964 repeats");
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  EXPECT_NE(findings[0].message.find("corpus sentinel"), std::string::npos) << findings[0].message;
  EXPECT_NE(findings[0].message.find("hex"), std::string::npos) << findings[0].message;
  const auto number = JudgeMessage("account 4815162342 is duplicated");
  ASSERT_EQ(number.size(), 1u) << Describe(number);
  EXPECT_NE(number[0].message.find("argument number"), std::string::npos) << number[0].message;
  EXPECT_EQ(Kinds(JudgeMessage("field account_number is bad")),
            std::vector<std::string>{"argument member name"});
}

}  // namespace
}  // namespace gemini_oracle::checks
