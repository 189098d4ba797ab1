#include "reference_impl/correlation.h"

#include <gtest/gtest.h>

#include "reference_impl/provider_error.h"
#include "reference_impl/request_builder.h"
#include "tests/reference_impl/test_support.h"

namespace gemini_oracle::ref {
namespace {

using testing::Conversation;
using testing::OwnedTurn;

constexpr const char* kTwoCalls = R"([{"id":"tc_1","name":"f","arguments":{"x":1}},
                                      {"id":"tc_2","name":"f","arguments":{"x":2}}])";
constexpr const char* kTwoParts = R"([{"functionCall":{"id":"n1","name":"f","args":{"x":1}}},
                                      {"functionCall":{"id":"n2","name":"f","args":{"x":2}}}])";
constexpr const char* kGoodBindings = R"([{"tool_call_id":"tc_1","native_id":"n1"},
                                          {"tool_call_id":"tc_2","native_id":"n2"}])";

std::string Refusal(const std::string& assistant_turn, const std::string& extra = "") {
  const std::string messages = R"([{"role":"user","content":"go"},)" + assistant_turn + extra + "]";
  try {
    Correlate(Conversation(messages));
  } catch (const ProviderError& e) {
    return e.code();
  }
  return "accepted";
}

// Accepts captured bindings that are complete, one-to-one and matching (positive control).
TEST(Correlation, AcceptsValidBindings) {
  EXPECT_EQ(Refusal(OwnedTurn("t1", kTwoCalls, kTwoParts, kGoodBindings)), "accepted");
  const Transcript t = Conversation(std::string(R"([{"role":"user","content":"go"},)") +
                                    OwnedTurn("t1", kTwoCalls, kTwoParts, kGoodBindings) + "]");
  const auto result = Correlate(t);
  ASSERT_TRUE(result[1].owned);
  EXPECT_EQ(result[1].links.at("tc_2").native_id, "n2");
  EXPECT_EQ(result[1].links.at("tc_2").native_part, 1u);
}

struct RefusalRow {
  const char* name;
  std::string turn;
  std::string extra;
  const char* code;
};

void PrintTo(const RefusalRow& row, std::ostream* os) { *os << row.name; }

class CorrelationRefusals : public ::testing::TestWithParam<RefusalRow> {};

// Refuses each kind of bad carried state with its own code (ADR-226.6/7/10/11/12/15).
TEST_P(CorrelationRefusals, RefusesWithTheRuleCode) {
  EXPECT_EQ(Refusal(GetParam().turn, GetParam().extra), GetParam().code);
}

INSTANTIATE_TEST_SUITE_P(
    CarriedState, CorrelationRefusals,
    ::testing::Values(
        RefusalRow{"OwnerMismatch",
                   R"({"role":"assistant","id":"t1","tool_calls":[],
                       "provider_state":{"gemini":{"owner":"t9","native_parts":[]}}})",
                   "", "capsule.owner_mismatch"},
        RefusalRow{
            "CapsuleNotObject",
            R"({"role":"assistant","id":"t1","tool_calls":[],"provider_state":{"gemini":[]}})", "",
            "capsule.malformed"},
        RefusalRow{
            "CapsuleWithoutParts",
            R"({"role":"assistant","id":"t1","tool_calls":[],"provider_state":{"gemini":{"owner":"t1"}}})",
            "", "capsule.malformed"},
        RefusalRow{
            "ReplayIdEmpty",
            OwnedTurn("t1", "[]", R"([{"functionCall":{"id":"","name":"f","args":{}}}])", ""), "",
            "replay.native_id_malformed"},
        RefusalRow{"ReplayIdNumber",
                   OwnedTurn("t1", "[]", R"([{"functionCall":{"id":3,"name":"f","args":{}}}])", ""),
                   "", "replay.native_id_malformed"},
        RefusalRow{"ReplayIdDuplicate",
                   OwnedTurn("t1", "[]",
                             R"([{"functionCall":{"id":"a","name":"f","args":{}}},
                                 {"functionCall":{"id":"a","name":"g","args":{}}}])",
                             ""),
                   "", "replay.native_id_duplicate"},
        RefusalRow{"BindingsNotList", OwnedTurn("t1", kTwoCalls, kTwoParts, "{}"), "",
                   "binding.malformed"},
        RefusalRow{"BindingMissingNativeId",
                   OwnedTurn("t1", kTwoCalls, kTwoParts, R"([{"tool_call_id":"tc_1"}])"), "",
                   "binding.malformed"},
        RefusalRow{
            "BindingEmptyString",
            OwnedTurn("t1", kTwoCalls, kTwoParts, R"([{"tool_call_id":"tc_1","native_id":""}])"),
            "", "binding.malformed"},
        RefusalRow{"BindingExtraMember",
                   OwnedTurn("t1", kTwoCalls, kTwoParts,
                             R"([{"tool_call_id":"tc_1","native_id":"n1","x":1}])"),
                   "", "binding.malformed"},
        RefusalRow{"NonEmptyBindingsOnIdLessTurn",
                   OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{}}])",
                             R"([{"functionCall":{"name":"f","args":{}}}])",
                             R"([{"tool_call_id":"tc_1","native_id":"n1"}])"),
                   "", "binding.unexpected"},
        RefusalRow{"BindingTwiceForOneCall",
                   OwnedTurn("t1", kTwoCalls, kTwoParts,
                             R"([{"tool_call_id":"tc_1","native_id":"n1"},
                                 {"tool_call_id":"tc_1","native_id":"n2"}])"),
                   "", "binding.not_one_to_one"},
        RefusalRow{"BindingToForeignCall",
                   OwnedTurn("t1", kTwoCalls, kTwoParts,
                             R"([{"tool_call_id":"tc_1","native_id":"n1"},
                                 {"tool_call_id":"tc_9","native_id":"n2"}])"),
                   "", "binding.unknown_call"},
        RefusalRow{"BindingToUnknownNativeId",
                   OwnedTurn("t1", kTwoCalls, kTwoParts,
                             R"([{"tool_call_id":"tc_1","native_id":"n1"},
                                 {"tool_call_id":"tc_2","native_id":"n7"}])"),
                   "", "binding.unknown_native_id"},
        RefusalRow{
            "BindingsIncomplete",
            OwnedTurn("t1", kTwoCalls, kTwoParts, R"([{"tool_call_id":"tc_1","native_id":"n1"}])"),
            "", "binding.incomplete"},
        RefusalRow{"BindingsSwapped",
                   OwnedTurn("t1", kTwoCalls, kTwoParts,
                             R"([{"tool_call_id":"tc_1","native_id":"n2"},
                                 {"tool_call_id":"tc_2","native_id":"n1"}])"),
                   "", "binding.call_mismatch"},
        RefusalRow{
            "BoundArgumentsRoundedLargeInteger",
            OwnedTurn(
                "t1", R"([{"id":"tc_1","name":"f","arguments":{"x":9007199254740993}}])",
                R"([{"functionCall":{"id":"n1","name":"f","args":{"x":9007199254740992.0}}}])",
                R"([{"tool_call_id":"tc_1","native_id":"n1"}])"),
            "", "binding.call_mismatch"},
        RefusalRow{"BoundArgumentsStringForNumber",
                   OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{"x":"1"}}])",
                             R"([{"functionCall":{"id":"n1","name":"f","args":{"x":1}}}])",
                             R"([{"tool_call_id":"tc_1","native_id":"n1"}])"),
                   "", "binding.call_mismatch"},
        RefusalRow{"PublicIdReusedLater", OwnedTurn("t1", kTwoCalls, kTwoParts, kGoodBindings),
                   R"(,{"role":"tool","tool_call_id":"tc_1","name":"f","content":"1"},
                      {"role":"tool","tool_call_id":"tc_2","name":"f","content":"2"},
                      {"role":"assistant","id":"t2","content":"","tool_calls":[{"id":"tc_1","name":"g","arguments":{}}]})",
                   "binding.public_id_reused"},
        RefusalRow{"LegacyIdenticalParallelCalls",
                   OwnedTurn("t1",
                             R"([{"id":"tc_1","name":"f","arguments":{"x":1}},
                                 {"id":"tc_2","name":"f","arguments":{"x":1}}])",
                             R"([{"functionCall":{"id":"n1","name":"f","args":{"x":1}}},
                                 {"functionCall":{"id":"n2","name":"f","args":{"x":1.0}}}])",
                             ""),
                   "", "legacy.ambiguous"},
        RefusalRow{"LegacyCallWithoutNativeMatch",
                   OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{"x":3}}])",
                             R"([{"functionCall":{"id":"n1","name":"f","args":{"x":1}}}])", ""),
                   "", "legacy.unmatched"},
        RefusalRow{
            "LegacyNativeCallLeftUnanswered",
            OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{"x":1}}])", kTwoParts, ""), "",
            "legacy.unmatched"},
        // A legacy turn mixing an ID'd and an ID-less call where only the ID'd call has its
        // generic call: answering it alone would send fewer responses than calls (WIRE.1).
        RefusalRow{"LegacyMixedTurnIdLessPartUnanswered",
                   OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{"x":1}}])",
                             R"([{"functionCall":{"id":"n1","name":"f","args":{"x":1}}},
                                 {"functionCall":{"name":"g","args":{}}}])",
                             ""),
                   R"(,{"role":"tool","tool_call_id":"tc_1","name":"f","content":"1"})",
                   "replay.calls_mismatch"},
        // A call the server answered in its own content needs no generic call; one listed for
        // it matches no pending native call (ADR-226.B2).
        RefusalRow{"GenericCallForServerAnsweredCall",
                   OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{}}])",
                             R"([{"functionCall":{"name":"f","args":{}}},
                                 {"functionResponse":{"name":"f","response":{"ok":true}}}])",
                             "[]"),
                   "", "replay.calls_mismatch"},
        RefusalRow{"IdLessNativeCallWithoutGenericCall",
                   OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{}}])",
                             R"([{"functionCall":{"name":"f","args":{}}},
                                 {"functionCall":{"name":"g","args":{}}}])",
                             "[]"),
                   "", "replay.calls_mismatch"},
        RefusalRow{"IdLessGenericCallRenamed",
                   OwnedTurn("t1", R"([{"id":"tc_1","name":"h","arguments":{}}])",
                             R"([{"functionCall":{"name":"f","args":{}}}])", ""),
                   "", "replay.calls_mismatch"},
        RefusalRow{"MixedTurnIdLessPartUnanswered",
                   OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{"x":1}}])",
                             R"([{"functionCall":{"id":"n1","name":"f","args":{"x":1}}},
                                 {"functionCall":{"name":"g","args":{}}}])",
                             R"([{"tool_call_id":"tc_1","native_id":"n1"}])"),
                   "", "replay.calls_mismatch"},
        RefusalRow{"NativeArgsScalar",
                   OwnedTurn("t1", "[]", R"([{"functionCall":{"name":"f","args":7}}])", ""), "",
                   "capsule.malformed"},
        RefusalRow{"NativeNameEmpty",
                   OwnedTurn("t1", "[]", R"([{"functionCall":{"name":"","args":{}}}])", ""), "",
                   "capsule.malformed"},
        RefusalRow{
            "GenericArgumentsScalar",
            R"({"role":"assistant","id":"t1","tool_calls":[{"id":"a","name":"f","arguments":"{}"}]})",
            "", "transcript.malformed"},
        RefusalRow{
            "DuplicatePublicIdInTurn",
            R"({"role":"assistant","id":"t1","tool_calls":[{"id":"a","name":"f","arguments":{}},{"id":"a","name":"g","arguments":{}}]})",
            "", "transcript.duplicate_tool_call_id"}),
    [](const ::testing::TestParamInfo<RefusalRow>& info) { return info.param.name; });

// Recovers older capsules only by unambiguous name and arguments, never by position (226.11).
TEST(Correlation, LegacyRecoversByNameAndArguments) {
  const Transcript t = Conversation(std::string(R"([{"role":"user","content":"go"},)") +
                                    OwnedTurn("t1",
                                              R"([{"id":"tc_2","name":"f","arguments":{"x":2}},
                    {"id":"tc_1","name":"f","arguments":{"x":1}}])",
                                              kTwoParts, "") +
                                    "]");
  const auto result = Correlate(t);
  EXPECT_EQ(result[1].links.at("tc_1").native_id, "n1");
  EXPECT_EQ(result[1].links.at("tc_2").native_id, "n2");
}

// Accepts ID-less turns, native-only turns and an empty bindings list on them (226.13-15).
TEST(Correlation, AcceptsCompatibleTurns) {
  EXPECT_EQ(Refusal(OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{}}])",
                              R"([{"functionCall":{"name":"f","args":{}}}])", "")),
            "accepted");
  EXPECT_EQ(Refusal(OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{}}])",
                              R"([{"functionCall":{"name":"f","args":{}}}])", "[]")),
            "accepted");
  EXPECT_EQ(Refusal(OwnedTurn("t1", "[]", R"([{"text":"","thoughtSignature":"c2ln"}])", "[]")),
            "accepted");
  EXPECT_EQ(Refusal(OwnedTurn("t1", "[]", R"([{"functionCall":{"id":"n1","name":"f"}}])", "")),
            "accepted");
  // Identical ID-less calls in older state with IDs elsewhere are interchangeable.
  EXPECT_EQ(Refusal(OwnedTurn("t1",
                              R"([{"id":"tc_1","name":"f","arguments":{"x":1}},
                                  {"id":"tc_2","name":"g","arguments":{}},
                                  {"id":"tc_3","name":"g","arguments":{}}])",
                              R"([{"functionCall":{"id":"n1","name":"f","args":{"x":1}}},
                                  {"functionCall":{"name":"g","args":{}}},
                                  {"functionCall":{"name":"g","args":{}}}])",
                              "")),
            "accepted");
  // Identical ID-less parallel calls carry no ID to confuse.
  EXPECT_EQ(Refusal(OwnedTurn("t1",
                              R"([{"id":"tc_1","name":"f","arguments":{}},
                                  {"id":"tc_2","name":"f","arguments":{}}])",
                              R"([{"functionCall":{"name":"f","args":{}}},
                                  {"functionCall":{"name":"f","args":{}}}])",
                              "")),
            "accepted");
}

// Reports where the refused state is: the transcript message and the native part
// (fixtures/INTERPRETING.md §7.2), positions only.
TEST(Correlation, RefusalNamesMessageAndNativePart) {
  const auto location_of = [](const std::string& turn) -> std::optional<StateLocation> {
    try {
      Correlate(Conversation(R"([{"role":"user","content":"go"},)" + turn + "]"));
    } catch (const ProviderError& e) {
      return e.location();
    }
    return std::nullopt;
  };
  const auto mixed =
      location_of(OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{"x":1}}])",
                            R"([{"text":"a"},{"functionCall":{"id":"n1","name":"f","args":{"x":1}}},
                    {"functionCall":{"name":"g","args":{}}}])",
                            ""));
  ASSERT_TRUE(mixed.has_value());
  EXPECT_EQ(mixed->message, 1u);
  EXPECT_EQ(mixed->native_part, 2u);
  const auto duplicate = location_of(OwnedTurn("t1", "[]",
                                               R"([{"functionCall":{"id":"a","name":"f"}},
                                                   {"functionCall":{"id":"a","name":"g"}}])",
                                               ""));
  ASSERT_TRUE(duplicate.has_value());
  EXPECT_EQ(duplicate->native_part, 1u);
  // A refusal about a binding entry names the message but no native part.
  const auto binding = location_of(OwnedTurn("t1", kTwoCalls, kTwoParts, "{}"));
  ASSERT_TRUE(binding.has_value());
  EXPECT_EQ(binding->message, 1u);
  EXPECT_FALSE(binding->native_part.has_value());
  // Bound call and native part disagree: the native part of the binding.
  const auto mismatch = location_of(OwnedTurn("t1", kTwoCalls, kTwoParts,
                                              R"([{"tool_call_id":"tc_1","native_id":"n2"},
                                                  {"tool_call_id":"tc_2","native_id":"n1"}])"));
  ASSERT_TRUE(mismatch.has_value());
  EXPECT_EQ(mismatch->native_part, 1u);
}

// ADR-226.B2: a functionCall answered inside its own content, by id when the response has
// one, else by name in order; an ID'd call is never answered by an ID-less response.
TEST(Correlation, CallsAnsweredInContent) {
  const Json parts = ParseJson(R"([
      {"functionCall":{"name":"f","args":{}}},
      {"functionCall":{"name":"f","args":{"x":1}}},
      {"functionCall":{"id":"s1","name":"g","args":{}}},
      {"functionCall":{"id":"s2","name":"g","args":{}}},
      {"functionCall":{"id":"s3","name":"h","args":{}}},
      {"functionResponse":{"name":"f","response":{}}},
      {"functionResponse":{"id":"s2","name":"g","response":{}}},
      {"functionResponse":{"name":"h","response":{}}},
      {"text":"done"}])");
  EXPECT_EQ(CallsAnsweredInContent(parts),
            (std::vector<bool>{true, false, false, true, false, false, false, false, false}));
  EXPECT_EQ(CallsAnsweredInContent(ParseJson("[]")), std::vector<bool>{});
}

// A turn whose only call the server answered is no pending call: accepted without generic
// calls, with or without an empty bindings list, and with a native ID (ADR-226.B2).
TEST(Correlation, ServerAnsweredCallIsNotPending) {
  const char* parts = R"([{"functionCall":{"name":"f","args":{}}},
                          {"functionResponse":{"name":"f","response":{"ok":true}}},
                          {"text":"done"}])";
  EXPECT_EQ(Refusal(OwnedTurn("t1", "[]", parts, "[]")), "accepted");
  EXPECT_EQ(Refusal(OwnedTurn("t1", "[]", parts, "")), "accepted");
  const char* with_id = R"([{"functionCall":{"id":"s1","name":"f","args":{}}},
                            {"functionResponse":{"id":"s1","name":"f","response":{}}}])";
  EXPECT_EQ(Refusal(OwnedTurn("t1", "[]", with_id, "[]")), "accepted");
  // Beside a pending call, only the pending one needs its generic call and binding.
  EXPECT_EQ(Refusal(OwnedTurn("t1", R"([{"id":"tc_1","name":"g","arguments":{}}])",
                              R"([{"functionCall":{"id":"s1","name":"f","args":{}}},
                                  {"functionResponse":{"id":"s1","name":"f","response":{}}},
                                  {"functionCall":{"id":"n1","name":"g","args":{}}}])",
                              R"([{"tool_call_id":"tc_1","native_id":"n1"}])")),
            "accepted");
}

// Ignores a foreign provider's payload, whatever IDs it holds (ADR-226.16).
TEST(Correlation, ForeignPayloadIsNotACapsule) {
  EXPECT_EQ(
      Refusal(
          R"({"role":"assistant","id":"t1","tool_calls":[{"id":"call_1","name":"f","arguments":{}}],
                        "provider_state":{"openai":{"tool_call_bindings":[{"bogus":1}]}}})"),
      "accepted");
}

// Never puts argument values, native IDs, signatures or text into an error (ADR-226.19).
TEST(Correlation, ErrorsNeverEchoNativeContent) {
  const std::string s = "SENTINEL-d41d8";
  const std::vector<std::string> turns = {
      OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{"q":")" + s + R"("}}])",
                R"([{"text":")" + s + R"("},{"functionCall":{"id":")" + s +
                    R"(","name":"f","args":{"q":")" + s + R"(x"}},"thoughtSignature":")" + s +
                    R"("}])",
                R"([{"tool_call_id":"tc_1","native_id":")" + s + R"("}])"),
      OwnedTurn("t1", "[]",
                R"([{"functionCall":{"id":")" + s +
                    R"(","name":"f","args":{}}},)"
                    R"({"functionCall":{"id":")" +
                    s + R"(","name":"f","args":{"v":")" + s + R"("}}}])",
                ""),
      OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{}}])",
                R"([{"functionCall":{"name":"f","args":{}},"thoughtSignature":")" + s + R"("}])",
                R"([{"tool_call_id":"tc_1","native_id":")" + s + R"("}])"),
  };
  for (const auto& turn : turns) {
    const Transcript t =
        Conversation(std::string(R"([{"role":"user","content":")") + s + R"("},)" + turn + "]");
    try {
      BuildRequest(t, RequestOptions{});
      ADD_FAILURE() << "accepted bad state";
    } catch (const ProviderError& e) {
      EXPECT_EQ(std::string(e.what()).find("SENTINEL"), std::string::npos) << e.what();
    }
  }
}

// Carried state holding a call in pieces (INTERPRETING §5.6) counts calls, not pieces.
constexpr const char* kPieceParts =
    R"([{"functionCall":{"id":"n1","name":"f","willContinue":true},"thoughtSignature":"c2ln"},)"
    R"({"functionCall":{"partialArgs":[{"jsonPath":"$.x","numberValue":1}],"willContinue":true}},)"
    R"({"functionCall":{}},)"
    R"({"functionCall":{"name":"f","willContinue":true}},)"
    R"({"functionCall":{"partialArgs":[{"jsonPath":"$.x","numberValue":2}]}}])";

TEST(Correlation, CallsInPiecesAreOneCallEach) {
  const std::string turn =
      OwnedTurn("t1", kTwoCalls, kPieceParts, R"([{"tool_call_id":"tc_1","native_id":"n1"}])");
  EXPECT_EQ(Refusal(turn), "accepted");
  const auto result =
      Correlate(Conversation(std::string(R"([{"role":"user","content":"go"},)") + turn + "]"));
  EXPECT_EQ(result[1].links.at("tc_1").native_id, "n1");
  EXPECT_EQ(result[1].links.at("tc_1").native_part, 0u);
  EXPECT_FALSE(result[1].links.at("tc_2").native_id.has_value());
  EXPECT_EQ(result[1].links.at("tc_2").native_part, 3u);
  // Bound arguments are compared with the assembled ones.
  EXPECT_EQ(Refusal(OwnedTurn("t1",
                              R"([{"id":"tc_1","name":"f","arguments":{"x":9}},)"
                              R"({"id":"tc_2","name":"f","arguments":{"x":2}}])",
                              kPieceParts, R"([{"tool_call_id":"tc_1","native_id":"n1"}])")),
            "binding.call_mismatch");
  // A generic call for every piece would be calls the turn does not have.
  EXPECT_EQ(Refusal(OwnedTurn("t1", R"([{"id":"tc_1","name":"f","arguments":{"x":1}}])",
                              kPieceParts, R"([{"tool_call_id":"tc_1","native_id":"n1"}])")),
            "replay.calls_mismatch");
}

TEST(Correlation, CarriedPiecesAreCheckedLikeAnAnswer) {
  const auto refusal = [](const char* parts) { return Refusal(OwnedTurn("t1", "[]", parts, "")); };
  EXPECT_EQ(refusal(R"([{"functionCall":{"partialArgs":[]}}])"), "capsule.malformed");
  EXPECT_EQ(refusal(R"([{"functionCall":{"name":"f","willContinue":true}}])"), "capsule.malformed");
  EXPECT_EQ(refusal(R"([{"functionCall":{"id":"a","name":"f","willContinue":true}},)"
                    R"({"functionCall":{"id":"b"}}])"),
            "replay.native_id_malformed");
  EXPECT_EQ(refusal(R"([{"functionCall":{"id":"a","name":"f","willContinue":true}},)"
                    R"({"functionCall":{}},{"functionCall":{"id":"a","name":"g"}}])"),
            "replay.native_id_duplicate");
  EXPECT_EQ(refusal(R"([{"functionCall":{"id":"a","name":"f","willContinue":true}},)"
                    R"({"functionCall":{"id":"a"}}])"),
            "accepted");
  // An id only on a later piece is no malformed id (it is a nonempty string): the reference's
  // refusal of it is a grammar refusal, so in carried state capsule.malformed.
  EXPECT_EQ(refusal(R"([{"functionCall":{"name":"f","willContinue":true}},)"
                    R"({"functionCall":{"id":"a"}}])"),
            "capsule.malformed");
}

// A list args root in carried pieces is degraded state repaired as on replay (ADR-224: "Apply
// the same rule to Gemini-owned native parts on replay, including already carried turns"):
// read as the numeric-key object before entries or a later piece's args apply, on every
// piece; the generic call matches the assembled arguments.
TEST(Correlation, CarriedListArgsInPiecesAreRepaired) {
  const auto refusal = [](const char* calls, const char* parts) {
    return Refusal(OwnedTurn("t1", calls, parts, ""));
  };
  EXPECT_EQ(refusal(R"([{"id":"tc_1","name":"f","arguments":{"x":1}}])",
                    R"([{"functionCall":{"name":"f","args":[],"willContinue":true}},)"
                    R"({"functionCall":{"partialArgs":[{"jsonPath":"$.x","numberValue":1}]}}])"),
            "accepted");
  EXPECT_EQ(refusal(R"([{"id":"tc_1","name":"f","arguments":{"0":"a","x":1}}])",
                    R"([{"functionCall":{"name":"f","args":["a"],)"
                    R"("partialArgs":[{"jsonPath":"$.x","numberValue":1}]}}])"),
            "accepted");
  EXPECT_EQ(refusal(R"([{"id":"tc_1","name":"f","arguments":{"0":5,"x":1}}])",
                    R"([{"functionCall":{"name":"f","willContinue":true}},)"
                    R"({"functionCall":{"args":[5],"willContinue":true}},)"
                    R"({"functionCall":{"partialArgs":[{"jsonPath":"$.x","numberValue":1}]}}])"),
            "accepted");
  // Negative control: the assembled arguments are what the generic call must match.
  EXPECT_EQ(refusal(R"([{"id":"tc_1","name":"f","arguments":{"x":2}}])",
                    R"([{"functionCall":{"name":"f","args":[],"willContinue":true}},)"
                    R"({"functionCall":{"partialArgs":[{"jsonPath":"$.x","numberValue":1}]}}])"),
            "replay.calls_mismatch");
}

}  // namespace
}  // namespace gemini_oracle::ref
