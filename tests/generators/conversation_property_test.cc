// Generated multi-turn conversations (generators/conversation.h) are ordinary cases: each passes
// `check`, and the reference implementation, through the capture server and the judges, passes
// it or refuses with exactly the code the construction predicts (never from running it).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "generators/conversation.h"
#include "tests/generators/generated_case.h"
#include "tests/property_support.h"

namespace gemini_oracle::generators {
namespace {

using gemini_oracle::testing::CheckProperty;
using gemini_oracle::testing::EnvNumber;
using gemini_oracle::testing::GeneratedRun;
using gemini_oracle::testing::kDefaultSeed;
using gemini_oracle::testing::KeepCounterexample;
using gemini_oracle::testing::RunGeneratedCase;

void PassesWithPredictedOutcome(runner::ReferenceDriver::RequestHook hook, bool keep = true) {
  const auto scenario = *genConversationScenario();
  const std::string expected = ExpectedErrorCode(scenario);
  RC_TAG(expected.empty() ? "accept" : expected);
  const std::uint64_t seed = EnvNumber("GEMINI_ORACLE_PROPERTY_SEED", kDefaultSeed);
  const std::string stem = ConversationStem(scenario, seed, 0);
  const Json file = ConversationCase(scenario, seed, 0);
  const GeneratedRun run = RunGeneratedCase("conversation", stem, file, hook);
  if (!run.problems.empty()) RC_FAIL("the generated case fails check:\n" + run.problems);
  const auto& r = run.result;
  const bool passed = r.is_object() && r["verdict"] == "pass" &&
                      r["expected"] == (expected.empty() ? "accept" : "refuse");
  if (!passed) {
    const std::string kept =
        keep ? "\nkept as " + KeepCounterexample("conversation", stem, file).string() : "";
    RC_FAIL(r.dump(2) + kept);
  }
}

TEST(ConversationProperty, ReferencePassesEveryGeneratedConversation) {
  CheckProperty([] { PassesWithPredictedOutcome(nullptr); });
}

// Negative controls: the property falsified where the wire is broken on purpose.
TEST(ConversationProperty, BrokenWireIsFalsified) {
  // Answers that drop their call's native id (ADR-226.3).
  EXPECT_TRUE(gemini_oracle::testing::Falsifies([] {
    PassesWithPredictedOutcome(
        [](Json& request) {
          for (auto& content : request["contents"]) {
            for (auto& part : content["parts"]) {
              if (part.contains("functionResponse")) part["functionResponse"].erase("id");
            }
          }
        },
        false);
  }));
  // Replayed arguments with integral floats renormalized (ADR-224.8: parts as received).
  EXPECT_TRUE(gemini_oracle::testing::Falsifies([] {
    PassesWithPredictedOutcome(
        [](Json& request) {
          for (auto& content : request["contents"]) {
            for (auto& part : content["parts"]) {
              if (part.contains("functionCall") && part["functionCall"].contains("args")) {
                part["functionCall"]["args"] = RenormalizeNumbers(part["functionCall"]["args"]);
              }
            }
          }
        },
        false);
  }));
  // Replayed signatures dropped (ADR-224.8).
  EXPECT_TRUE(gemini_oracle::testing::Falsifies([] {
    PassesWithPredictedOutcome(
        [](Json& request) {
          for (auto& content : request["contents"]) {
            for (auto& part : content["parts"]) part.erase("thoughtSignature");
          }
        },
        false);
  }));
}

// The generator reaches every region it is meant to search.
TEST(ConversationGenerator, DrawsEveryRegion) {
  std::set<std::string> seen;
  const auto gen = genConversationScenario();
  for (std::uint64_t i = 0; i < 1500; ++i) {
    const ConversationScenario s = gen(rc::Random(i), 30).value();
    seen.insert("prefix " + std::to_string(static_cast<int>(s.prefix)));
    seen.insert("fault " + std::to_string(static_cast<int>(s.fault)));
    seen.insert("expected " + ExpectedErrorCode(s));
    if (s.closing) seen.insert("closing");
    if (!s.final_event_sizes.empty()) seen.insert("final streamed");
    if (s.prefix_turn.renormalized) seen.insert("prefix renormalized");
    seen.insert("change " + std::to_string(static_cast<int>(s.prefix_turn.change)) +
                (s.prefix_turn.change_keeps_value ? " kept" : " refused"));
    for (const auto& r : s.prefix_turn.results) seen.insert("shape " + std::string(ShapeName(r.shape)));
    std::size_t with_ids = s.prefix == Prefix::kOlderCapsule ? 1 : 0;
    for (const CallTurn& t : s.turns) {
      for (const auto& r : t.results) seen.insert("shape " + std::string(ShapeName(r.shape)));
      if (!t.event_sizes.empty()) seen.insert(t.event_sizes.size() > 1 ? "split stream" : "stream");
      if (t.normalize) seen.insert("normalize");
      if (!t.call_order.empty()) seen.insert("call order");
      if (t.suspend) seen.insert("suspend");
      if (t.signed_text) seen.insert("signed text");
      if (t.group_of.size() > 1 &&
          std::set<std::size_t>(t.group_of.begin(), t.group_of.end()).size() < t.group_of.size()) {
        seen.insert("identical calls");
      }
      seen.insert("ids " + std::to_string(static_cast<int>(t.ids)));
      with_ids += t.ids != TurnIds::kAbsent ? 1 : 0;
    }
    if (with_ids > 1) seen.insert("recurring ids");
  }
  for (const std::string region :
       {"prefix 0", "prefix 1", "prefix 2", "prefix 3", "prefix 4", "prefix 5",
        "change 0 kept", "change 1 kept", "change 2 kept", "change 2 refused",
        "change 3 refused", "change 4 refused", "change 5 refused", "change 6 refused",
        "expected binding.call_mismatch", "expected legacy.unmatched", "fault 0", "fault 1",
        "fault 2", "fault 3", "expected ", "expected legacy.ambiguous",
        "expected native_id.malformed", "expected native_id.duplicate", "closing",
        "final streamed", "prefix renormalized", "shape object", "shape list", "shape scalar",
        "shape invalid text", "shape error", "split stream", "stream",
        "normalize", "call order", "suspend", "signed text", "identical calls", "ids 0", "ids 1",
        "ids 2", "recurring ids"}) {
    EXPECT_TRUE(seen.count(region) == 1) << region;
  }
}

// Renormalization keeps the value under ADR-226.8 and changes only integral floats.
TEST(ConversationGenerator, RenormalizeNumbersIsExact) {
  EXPECT_EQ(DumpJson(RenormalizeNumbers(ParseJson(R"({"a":[1.0,-0.0,2.5,1e308]})"))),
            R"({"a":[1,0,2.5,1e+308]})");
  EXPECT_EQ(DumpJson(RenormalizeNumbers(Json(9223372036854775808.0))), "9223372036854775808");
  EXPECT_EQ(DumpJson(RenormalizeNumbers(Json(18446744073709551616.0))),
            DumpJson(Json(18446744073709551616.0)));
}

}  // namespace
}  // namespace gemini_oracle::generators
