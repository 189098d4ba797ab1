// The leaks judge: ADR-226.19 on refusal messages.
#include <set>

#include "reference_impl/provider_error.h"
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

// Finds a two-character native id quoted in a message, and not in running text.
TEST(Leaks, FindsShortNativeIdOnlyWhenQuoted) {
  const auto c = MakeCase(R"({
    "description": "A duplicate native id is refused without exposing content.",
    "clauses": ["ADR-226.19", "ADR-226.5"],
    "exchanges": [{"user": "go",
      "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"id": "c1", "name": "f", "args": {}}},
        {"functionCall": {"id": "c1", "name": "f", "args": {}}}]}}]}}}],
    "expect": {"outcome": "refuse", "error": "native_id.duplicate", "phase": "parse",
               "exchange": 1}
  })",
                          "n_short.json");
  const auto journal = MakeJournal({R"({"contents":[]})"});
  const auto judge = [&](std::string message) {
    model::DriverReport report;
    report.refusal = model::Refusal{"native_id.duplicate", "parse", 1, std::move(message), {}, {}};
    return JudgeLeaks({c, journal, report});
  };
  EXPECT_FALSE(judge("duplicate native id 'c1'").empty());
  EXPECT_FALSE(judge(R"(duplicate id: "c1")").empty());
  EXPECT_TRUE(judge("functionCall 1 of the response repeats the id of functionCall 0").empty());
  EXPECT_TRUE(judge("c1 c2 c3: three parts").empty());
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

// Reports a message that quotes an argument value; the short member name "secret" is an
// ordinary word and no needle (a distinctive one is: see kEncodings, "member name").
TEST(Leaks, ReportsLeakedArgument) {
  const auto findings = JudgeMessage("call f(secret=hunter2-arg) repeats an id");
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
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
  // Argument member names are the tool's declared parameters, public: never a leak.
  EXPECT_TRUE(JudgeMessage("field account_number is bad").empty());
  EXPECT_TRUE(JudgeMessage("argument /transcript/1/tool_calls/0/arguments/account_number differs")
                  .empty());
}

// A case whose native content reuses ordinary words (an id starting "function", an argument
// member "message", argument values "call" and "part") and carries content beyond
// functionCall ids and arguments: code, a code result, a functionResponse inside the model
// content and an unknown member.
constexpr std::string_view kWideCase = R"json({
  "description": "A duplicate native id is refused without exposing content.",
  "clauses": ["ADR-226.19", "ADR-226.5"],
  "exchanges": [{"user": "go",
    "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
      {"functionCall": {"id": "function-call-0000123", "name": "lookup",
                        "args": {"message": "call", "where": "part", "ticket": "90210777"}}},
      {"functionCall": {"id": "function-call-0000123", "name": "lookup", "args": {}}},
      {"executableCode": {"language": "PYTHON", "code": "print(41 + 7731)"}},
      {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "answer-7772\n"}},
      {"functionResponse": {"name": "lookup", "response": {"forecast": "drizzle-4417"}}},
      {"text": "ok", "vendorExtra": {"trace": ["trace-55e1a"]}}]}}]}}}],
  "expect": {"outcome": "refuse", "error": "native_id.duplicate", "phase": "parse",
             "exchange": 1}
})json";

std::vector<Finding> JudgeWide(std::string message) {
  const auto c = MakeCase(kWideCase, "n_leak_wide.json");
  const auto journal = MakeJournal({R"({"contents":[]})"});
  model::DriverReport report;
  report.refusal = model::Refusal{"native_id.duplicate", "parse", 1, std::move(message), {}, {}};
  return JudgeLeaks({c, journal, report});
}

// Correct refusals that only use ordinary words a case happens to reuse as native content:
// none of them exposes anything.
TEST(Leaks, PassesOrdinaryWordsReusedAsContent) {
  for (const char* message : {
           "functionCall 0 of the response has a duplicate id",  // not a cut of the id
           "tool message 2 answers no call",                     // member name, value "call"
           "part 3 of the response repeats an id",               // value "part"
           "[native_id.duplicate] ADR-226.5: Two functionCall parts of one response carry the "
           "same id. (at part 1, field id)",
           "function call 1 of turn 2 has a duplicate native id",
           "function_call 0 repeats an id; function-call 1 too",
           "A bound call's name or decoded arguments differ from its native part (ADR-226.8 rule).",
       }) {
    const auto findings = JudgeWide(message);
    EXPECT_TRUE(findings.empty()) << message << " -> " << Describe(findings);
  }
}

// Native content beyond functionCall ids, arguments, signatures and text is looked for too.
TEST(Leaks, FindsEveryNativeString) {
  for (const char* message : {
           "code print(41 + 7731) is refused",         // executableCode
           "output answer-7772 is refused",            // codeExecutionResult
           "response drizzle-4417 is refused",         // functionResponse in the model content
           "member trace-55e1a is refused",            // unknown member, nested in a list
           "id function-call-0000123 repeats",         // the id itself
           "id ...call-0000123 repeats",               // the id cut at the front
           "id FUNCTION_CALL_0000123 repeats",         // case and separators changed
           "code PRINT(41 + 7731) is refused",         // case changed
           "id ZnVuY3Rpb24tY2FsbC0wMDAwMTIz repeats",  // base64
       }) {
    const auto findings = JudgeWide(message);
    EXPECT_EQ(findings.size(), 1u) << message << " -> " << Describe(findings);
    for (const auto& finding : findings) {
      EXPECT_EQ(finding.message.find("7731"), std::string::npos) << finding.message;
      EXPECT_EQ(finding.message.find("7772"), std::string::npos) << finding.message;
      EXPECT_EQ(finding.message.find("4417"), std::string::npos) << finding.message;
      EXPECT_EQ(finding.message.find("55e1a"), std::string::npos) << finding.message;
    }
  }
}

// Content inside a larger encoded text, and content cut at the front, is found: the message's
// own base64 and hex runs are decoded and searched.
TEST(Leaks, FindsContentInsideEncodedTextAndSuffixCuts) {
  struct Control {
    const char* message;
    const char* form;
  };
  for (const Control& control : std::vector<Control>{
           // base64 of {"city": "SENTINEL-d41d8"}
           {"args eyJjaXR5IjogIlNFTlRJTkVMLWQ0MWQ4In0= rejected", "base64"},
           {"args eyJjaXR5IjogIlNFTlRJTkVMLWQ0MWQ4In0 rejected", "base64"},
           {"args:eyJjaXR5IjogIlNFTlRJTkVMLWQ0MWQ4In0=", "base64"},
           // hex of the same text
           {"args 7b2263697479223a202253454e54494e454c2d6434316438227d rejected", "hex"},
           // the last characters of the sentinel
           {"duplicate id ...NEL-d41d8 at part 1", "cut short"},
       }) {
    const auto findings = JudgeMessage(control.message);
    EXPECT_EQ(findings.size(), 1u) << control.message << " -> " << Describe(findings);
    if (findings.empty()) continue;
    EXPECT_NE(findings[0].message.find("corpus sentinel"), std::string::npos)
        << findings[0].message;
    EXPECT_NE(findings[0].message.find(control.form), std::string::npos) << findings[0].message;
    EXPECT_EQ(findings[0].message.find("SENTINEL"), std::string::npos) << findings[0].message;
  }
}

// A number counts only as a whole number, not as a piece of a longer one.
TEST(Leaks, MatchesNumbersWhole) {
  EXPECT_TRUE(JudgeMessage("request 94815162342 failed").empty());
  EXPECT_TRUE(JudgeMessage("request 48151623421 failed").empty());
  EXPECT_TRUE(JudgeMessage("request 4815162342.5 failed").empty());
  EXPECT_FALSE(JudgeMessage("request (4815162342) failed").empty());
  // A string of digits too.
  EXPECT_EQ(JudgeWide("ticket 90210777 is refused").size(), 1u);
  EXPECT_TRUE(JudgeWide("ticket 190210777 is refused").empty());
}

// The store's codes are the application's, never the adapter's refusal: a store error in a run
// is the runner's harness error (docs/error-codes.md), so its sentences are not judged here.
bool IsStoreCode(std::string_view code) { return code.rfind("store.", 0) == 0; }

// The reference implementation's own refusal texts stay clean even when a case reuses every
// word of the error catalogue (codes included) as argument values and member names.
TEST(Leaks, CatalogueWordsAreNeverContent) {
  std::set<std::string> words;
  for (const auto& info : ref::ErrorCatalogue()) {
    if (IsStoreCode(info.code)) continue;
    for (const std::string_view text : {info.code, info.sentence}) {
      std::string word;
      for (const char ch : std::string(text) + " ") {
        if (ch == ' ' || ch == ',' || ch == '(' || ch == ')' || ch == '{' || ch == '}') {
          while (!word.empty() && (word.back() == '.' || word.back() == '\'')) word.pop_back();
          if (!word.empty()) words.insert(word);
          word.clear();
        } else {
          word.push_back(ch);
        }
      }
    }
  }
  Json args = Json::object();
  for (const auto& word : words) args[word] = word;
  Json c = ParseJson(kWideCase);
  c["exchanges"][0]["response"]["body"]["candidates"][0]["content"]["parts"][1]["functionCall"]
   ["args"] = args;
  const auto kase = MakeCase(DumpJson(c), "n_leak_catalogue.json");
  const auto journal = MakeJournal({R"({"contents":[]})"});
  std::size_t judged = 0;
  for (const auto& info : ref::ErrorCatalogue()) {
    if (IsStoreCode(info.code)) continue;
    ++judged;
    model::DriverReport report;
    const std::string message =
        "[" + std::string(info.code) + "] " + std::string(info.clause) + ": " +
        std::string(info.sentence) +
        " (at turn 1, part 2, field tool_calls[0].arguments, native part 3)";
    report.refusal = model::Refusal{std::string(info.code), "parse", 1, message, {}, {}};
    const auto findings = JudgeLeaks({kase, journal, report});
    EXPECT_TRUE(findings.empty()) << message << " -> " << Describe(findings);
  }
  EXPECT_GE(judged, 20u);
}

// A value streamed in pieces (INTERPRETING §5.6) is content once assembled: "Inns" and
// "bruck" are each too short to look for, "Innsbruck" is not. Found whether the pieces came in
// a scripted answer (several entries of one piece, or several pieces) or a carried capsule;
// a message naming neither passes (negative control).
TEST(Leaks, FindsAnArgumentAssembledFromPieces) {
  const std::string parts = R"([
      {"functionCall": {"name": "get_weather", "willContinue": true}},
      {"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "Inns",
                                         "willContinue": true}], "willContinue": true}},
      {"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "bruck"}]}}])";
  const std::string one_piece = R"([
      {"functionCall": {"name": "get_weather", "partialArgs": [
        {"jsonPath": "$.city", "stringValue": "Inns", "willContinue": true},
        {"jsonPath": "$.city", "stringValue": "bruck"}]}}])";
  const auto answered = [](const std::string& turn) {
    return MakeCase(R"({
      "description": "A call in pieces refused later.",
      "clauses": ["ADR-226.B1"],
      "exchanges": [{"user": "go", "response": {"body": {"candidates": [{"content": {
        "role": "model", "parts": )" + turn + R"(}}]}}}],
      "expect": {"outcome": "refuse", "error": "response.call_unfinished", "phase": "parse",
                 "exchange": 1}})",
                    "n_pieces.json");
  };
  const auto carried = [](const std::string& turn) {
    return MakeCase(R"({
      "description": "A carried call in pieces refused.",
      "clauses": ["ADR-226.B1"],
      "transcript": [{"role": "assistant", "id": "turn_1",
        "provider_state": {"gemini": {"owner": "turn_1", "native_parts": )" + turn + R"(}}}],
      "exchanges": [{"response": {"body": {}}}],
      "expect": {"outcome": "refuse", "error": "binding.malformed", "phase": "build",
                 "exchange": 1}})",
                    "n_carried.json");
  };
  const auto journal = MakeJournal({});
  const auto judge = [&](const model::Case& c, std::string message) {
    model::DriverReport report;
    report.refusal = model::Refusal{"binding.malformed", "build", 1, std::move(message), {}, {}};
    return JudgeLeaks({c, journal, report});
  };
  for (const model::Case& c : {answered(parts), answered(one_piece), carried(parts)}) {
    const auto findings = judge(c, "no weather for Innsbruck (part 2)");
    ASSERT_EQ(findings.size(), 1u) << Describe(findings);
    EXPECT_NE(findings[0].message.find("argument"), std::string::npos);
    EXPECT_EQ(findings[0].message.find("Innsbruck"), std::string::npos);
    EXPECT_TRUE(judge(c, "no weather for that place (part 2)").empty());
  }
}

}  // namespace
}  // namespace gemini_oracle::checks
