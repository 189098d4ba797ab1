// Function calls in pieces (fixtures/INTERPRETING.md §5.6; generators/call_pieces.h). For any
// drawn calls (name, id, signature, args), split into pieces in a drawn way and streamed in
// drawn events: the reference reads back exactly those calls (names, args kind-exact, one
// binding per native id) and its capsule holds every part verbatim, in place; and the drawn
// case, written as a fixture, passes `check` and the judges (with its streamed twins).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "generators/call_pieces.h"
#include "generators/case_writing.h"
#include "reference_impl/call_pieces.h"
#include "reference_impl/fault.h"
#include "reference_impl/response_parser.h"
#include "reference_impl/stream_accumulator.h"
#include "tests/generators/generated_case.h"
#include "tests/property_support.h"

namespace gemini_oracle::generators {
namespace {

using gemini_oracle::testing::CheckProperty;
using gemini_oracle::testing::EnvNumber;
using gemini_oracle::testing::kDefaultSeed;

// The answer as the reference gets it: each event's text through the stream accumulator.
Json Folded(const CallPiecesScenario& s) {
  const Json answer = StreamedAnswer(s.Parts(), s.event_sizes);
  ref::StreamAccumulator accumulator;
  for (const Json& event : answer["stream"]["events"]) accumulator.Add(DumpJson(event));
  return accumulator.Response();
}

TEST(CallPiecesProperty, ReferenceReadsBackEveryDrawnCall) {
  CheckProperty([] {
    const CallPiecesScenario s = *genCallPiecesScenario();
    const Json parts = s.Parts();
    RC_TAG(s.calls.size() == 1 ? "one call" : "two calls");
    const ref::Message turn = ref::ParseResponse(Folded(s), ref::Transcript{});
    RC_ASSERT(turn.tool_calls.size() == s.calls.size());
    Json bindings = Json::array();
    for (std::size_t c = 0; c < s.calls.size(); ++c) {
      const ref::ToolCall& call = turn.tool_calls[c];
      RC_ASSERT(call.name == s.calls[c].name);
      if (!KindExactEqual(call.arguments, s.calls[c].args)) {
        RC_FAIL("call " + std::to_string(c) + ": read " + DumpJson(call.arguments) +
                ", drawn " + DumpJson(s.calls[c].args));
      }
      if (!s.calls[c].id.is_null()) {
        bindings.push_back(Json{{"tool_call_id", call.id}, {"native_id", s.calls[c].id}});
      }
    }
    const Json& capsule = turn.provider_state.at(ref::kGeminiCapsuleKey);
    // Every part verbatim, in place: member order and number spelling included.
    RC_ASSERT(DumpJson(capsule.at("native_parts")) == DumpJson(parts));
    RC_ASSERT(KindExactEqual(capsule.at("tool_call_bindings"), bindings));
    // Each call at its opening part, its pieces the parts drawn for it.
    const auto read = ref::ReadFunctionCalls(parts);
    RC_ASSERT(read.size() == s.calls.size());
    const auto openings = s.Openings();
    for (std::size_t c = 0; c < read.size(); ++c) {
      RC_ASSERT(read[c].first() == openings[c]);
      RC_ASSERT(read[c].pieces.size() == s.calls[c].pieces.size());
    }
  });
}

void PassesTheJudges(runner::ReferenceDriver::RequestHook hook, bool keep = true) {
  const CallPiecesScenario s = *genCallPiecesScenario();
  const std::uint64_t seed = EnvNumber("GEMINI_ORACLE_PROPERTY_SEED", kDefaultSeed);
  gemini_oracle::testing::PassesWithPredictedOutcome(
      "call_pieces", CallPiecesStem(seed, 0), CallPiecesCase(s, seed, 0), "", std::move(hook),
      keep);
}

TEST(CallPiecesProperty, GeneratedCasePassesTheJudges) {
  CheckProperty([] { PassesTheJudges(nullptr); });
}

// Negative control: the replayed pieces of a call sent last-first (ADR-224.8) falsify it.
TEST(CallPiecesProperty, PiecesReplayedOutOfOrderAreFalsified) {
  EXPECT_TRUE(gemini_oracle::testing::Falsifies([] {
    PassesTheJudges(
        [](Json& request) {
          for (auto& content : request["contents"]) {
            if (content.value("role", "") != "model") continue;
            auto& parts = content["parts"];
            std::size_t first = 0;
            while (first < parts.size() && !parts[first].contains("functionCall")) ++first;
            if (parts.size() - first > 2) std::reverse(parts.begin() + first + 1, parts.end());
          }
        },
        false);
  }));
}

#ifdef GEMINI_ORACLE_MUTANTS
// In the mutants build: the catalogued faults of piece reading and replay that a well-formed
// stream can show (mutants/catalogue.json) falsify the properties too.
TEST(CallPiecesProperty, PieceFaultsAreFalsified) {
  for (const char* id : {"stream.continued_value_replaced", "stream.call_name_from_last_piece",
                         "builder.call_pieces_replayed_reversed"}) {
    ref::fault::SetActive(id);
    EXPECT_TRUE(gemini_oracle::testing::Falsifies([] { PassesTheJudges(nullptr, false); })) << id;
  }
  for (const char* id : {"stream.continued_value_replaced", "stream.call_name_from_last_piece"}) {
    ref::fault::SetActive(id);
    EXPECT_TRUE(gemini_oracle::testing::Falsifies([] {
      const CallPiecesScenario s = *genCallPiecesScenario();
      const ref::Message turn = ref::ParseResponse(Folded(s), ref::Transcript{});
      for (std::size_t c = 0; c < s.calls.size(); ++c) {
        RC_ASSERT(turn.tool_calls[c].name == s.calls[c].name);
        RC_ASSERT(KindExactEqual(turn.tool_calls[c].arguments, s.calls[c].args));
      }
    })) << id;
  }
  ref::fault::SetActive("");
}
#endif

// The generator reaches every shape §5.6 allows.
TEST(CallPiecesGenerator, DrawsEveryShape) {
  std::set<std::string> seen;
  const auto gen = genCallPiecesScenario();
  for (std::uint64_t i = 0; i < 2000; ++i) {
    const CallPiecesScenario s = gen(rc::Random(i), 30).value();
    if (s.text_before) seen.insert("text before");
    if (s.calls.size() == 2) seen.insert("two calls");
    if (s.event_sizes.size() > 1) seen.insert("several events");
    for (const PiecedCall& call : s.calls) {
      if (call.pieces.size() == 1) seen.insert("whole call");
      if (call.pieces.size() >= 4) seen.insert("four pieces or more");
      if (call.args.empty()) seen.insert("empty args");
      const Json& last = call.pieces.back()["functionCall"];
      if (last.empty()) seen.insert("closing {}");
      for (std::size_t p = 0; p < call.pieces.size(); ++p) {
        const Json& piece = call.pieces[p];
        const Json& fc = piece["functionCall"];
        if (p > 0 && fc.contains("id")) seen.insert("id repeated");
        if (p == 0 && fc.contains("id")) seen.insert("id");
        if (p == 0 && piece.contains("thoughtSignature")) seen.insert("signed");
        if (p > 0 && piece.contains("thoughtSignature")) seen.insert("later piece signed");
        if (p == 0 && fc.contains("partialArgs")) seen.insert("opening entries");
        if (p == 0 && fc.contains("args") && !fc["args"].empty()) seen.insert("opening args");
        for (const Json& e : fc.value("partialArgs", Json::array())) {
          const std::string path = e["jsonPath"];
          if (path.find("[0]") != std::string::npos) seen.insert("index");
          if (path.find("['") != std::string::npos) seen.insert("single quotes");
          if (path.find("[\"") != std::string::npos) seen.insert("double quotes");
          if (path.find("\\u") != std::string::npos) seen.insert("unicode escape");
          if (path.find(' ') != std::string::npos) seen.insert("blank");
          if (std::count(path.begin(), path.end(), '.') + std::count(path.begin(), path.end(), '[') >= 3) {
            seen.insert("three steps");
          }
          for (const char* kind : {"stringValue", "numberValue", "boolValue", "nullValue"}) {
            if (e.contains(kind)) seen.insert(kind);
          }
          if (e.contains("stringValue") && e.value("willContinue", false)) {
            seen.insert("string continued");
          }
          if (!e.contains("stringValue") && !e.contains("numberValue") &&
              !e.contains("boolValue") && !e.contains("nullValue")) {
            seen.insert("valueless end");
          }
        }
      }
    }
  }
  for (const std::string region :
       {"text before", "two calls", "several events", "whole call", "four pieces or more",
        "empty args", "closing {}", "id repeated", "id", "signed", "later piece signed",
        "opening entries", "opening args", "index", "single quotes", "double quotes",
        "unicode escape", "blank", "three steps", "stringValue", "numberValue", "boolValue",
        "nullValue", "valueless end", "string continued"}) {
    EXPECT_EQ(seen.count(region), 1u) << region;
  }
}

}  // namespace
}  // namespace gemini_oracle::generators
