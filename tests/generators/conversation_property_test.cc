// Generated multi-turn conversations (generators/conversation.h) are ordinary cases: each passes
// `check`, and the reference implementation, through the capture server and the judges, passes
// it or refuses with exactly the code the construction predicts (never from running it).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "generators/conversation.h"
#include "oracles/model/normalize_numbers.h"
#include "tests/generators/generated_case.h"
#include "tests/property_support.h"

namespace gemini_oracle::generators {
namespace {

using gemini_oracle::testing::CheckProperty;
using gemini_oracle::testing::EnvNumber;
using gemini_oracle::testing::kDefaultSeed;

void PassesWithPredictedOutcome(runner::ReferenceDriver::RequestHook hook, bool keep = true) {
  const auto scenario = *genConversationScenario();
  const std::string expected = ExpectedErrorCode(scenario);
  RC_TAG(expected.empty() ? "accept" : expected);
  const std::uint64_t seed = EnvNumber("GEMINI_ORACLE_PROPERTY_SEED", kDefaultSeed);
  gemini_oracle::testing::PassesWithPredictedOutcome(
      "conversation", ConversationStem(scenario, seed, 0), ConversationCase(scenario, seed, 0),
      expected, std::move(hook), keep);
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
                part["functionCall"]["args"] =
                    model::NormalizeNumbers(part["functionCall"]["args"]);
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

// Levels of nesting: 1 for a scalar, one more per list or object around it.
int Depth(const Json& value) {
  int below = 0;
  if (value.is_object() || value.is_array()) {
    for (const auto& item : value) below = std::max(below, Depth(item));
    return below + 1;
  }
  return 1;
}

// The generator reaches every region it is meant to search.
TEST(ConversationGenerator, DrawsEveryRegion) {
  std::set<std::string> seen;
  const auto gen = genConversationScenario();
  for (std::uint64_t i = 0; i < 2500; ++i) {
    const ConversationScenario s = gen(rc::Random(i), 30).value();
    seen.insert("prefix " + std::to_string(static_cast<int>(s.prefix)));
    seen.insert("fault " + std::to_string(static_cast<int>(s.fault)));
    seen.insert("expected " + ExpectedErrorCode(s));
    if (s.closing) seen.insert("closing");
    if (!s.final_event_sizes.empty()) seen.insert("final streamed");
    if (s.prefix_turn.renormalized) seen.insert("prefix renormalized");
    seen.insert("change " + std::to_string(static_cast<int>(s.prefix_turn.change)) +
                (s.prefix_turn.change_keeps_match ? " kept" : " refused"));
    if (!s.final_cut_permille.empty()) seen.insert("cut stream");
    if (s.fault == IdFault::kNotString) seen.insert("bad id " + DumpJson(s.bad_id));
    for (const auto& r : s.prefix_turn.results) seen.insert("shape " + std::string(ShapeName(r.shape)));
    std::size_t with_ids = s.prefix == Prefix::kOlderCapsule ? 1 : 0;
    for (const CallTurn& t : s.turns) {
      for (const auto& r : t.results) seen.insert("shape " + std::string(ShapeName(r.shape)));
      if (!t.event_sizes.empty()) seen.insert(t.event_sizes.size() > 1 ? "split stream" : "stream");
      if (!t.cut_permille.empty()) seen.insert("cut stream");
      if (t.thought) seen.insert("thought");
      for (const auto& r : t.results) {
        if (r.shape == ToolResult::Shape::kError && r.text.front() == '{') seen.insert("JSON error");
        if ((r.value.is_object() || r.value.is_array()) && r.value.empty()) {
          seen.insert(std::string("empty ") + ShapeName(r.shape));
        }
        if (r.value.is_array() && r.value.size() >= 11) seen.insert("long list");
      }
      for (const Json& args : t.args_of_group) {
        if (Depth(args) >= 7) seen.insert("depth 6");  // six containers around a scalar
      }
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
        "change 7 refused", "change 8 refused", "cut stream", "thought", "empty object",
        "empty list", "long list", "depth 6", "JSON error", "bad id 7", "bad id true",
        "bad id {\"v\":1}", "bad id [\"call_1\"]", "bad id 1.5",
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

// Drawing is deterministic: the same stream gives the same case (that case i depends on
// neither the count nor the other families is Generate's test).
TEST(ConversationGenerator, SameStreamSameCase) {
  const auto gen = genConversationScenario();
  for (std::uint64_t i = 0; i < 50; ++i) {
    EXPECT_EQ(ConversationCase(gen(rc::Random(i), 30).value(), 1, i),
              ConversationCase(gen(rc::Random(i), 30).value(), 1, i));
  }
}

}  // namespace
}  // namespace gemini_oracle::generators
