// Approval records (ADR-226.18 approval identity; ADR-226.19 correlation establishes no trust).
#include "reference_impl/approvals.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/reference_impl/test_support.h"

namespace gemini_oracle::ref {
namespace {

using testing::Conversation;
using testing::OwnedTurn;

ToolCall MakeCall(std::string id, std::string name, const char* arguments) {
  return ToolCall{std::move(id), std::move(name), ParseJson(arguments)};
}

// Two turns whose calls reuse one native id; the public ids differ (ADR-226.9).
ConversationState TwoTurnsSharingNativeId() {
  ConversationState state;
  state.transcript = Conversation(
      "[" +
      OwnedTurn("turn_1", R"([{"id":"tc_1","name":"delete_file","arguments":{"path":"a"}}])",
                R"([{"functionCall":{"id":"call_1","name":"delete_file","args":{"path":"a"}}}])",
                R"([{"tool_call_id":"tc_1","native_id":"call_1"}])") +
      "," +
      OwnedTurn("turn_2", R"([{"id":"tc_2","name":"delete_file","arguments":{"path":"b"}}])",
                R"([{"functionCall":{"id":"call_1","name":"delete_file","args":{"path":"b"}}}])",
                R"([{"tool_call_id":"tc_2","native_id":"call_1"}])") +
      "]");
  return state;
}

// The digest reads decoded arguments: member order is free, number kinds are not.
TEST(ArgumentsDigest, IgnoresMemberOrderButKeepsNumberKinds) {
  EXPECT_EQ(ArgumentsDigest(ParseJson(R"({"a":1,"b":[true,null]})")),
            ArgumentsDigest(ParseJson(R"({"b":[true,null],"a":1})")));
  EXPECT_NE(ArgumentsDigest(ParseJson(R"({"n":1})")), ArgumentsDigest(ParseJson(R"({"n":1.0})")));
  EXPECT_NE(ArgumentsDigest(ParseJson("{}")), ArgumentsDigest(ParseJson("[]")));
  EXPECT_EQ(ArgumentsDigest(ParseJson("{}")).rfind("blake2b-256:", 0), 0u);
  EXPECT_EQ(ArgumentsDigest(ParseJson("{}")).size(), 12u + 64u);
}

// An approval authorizes exactly its own call: same public id, name and arguments.
TEST(Approvals, AuthorizeTheirOwnCall) {
  ConversationState state = TwoTurnsSharingNativeId();
  const ToolCall first = state.transcript.messages[0].tool_calls[0];
  RecordApproval(state, "ap_1", first, Approval::Status::kApproved, 1700000000);
  EXPECT_TRUE(Authorizes(state, first));
  EXPECT_TRUE(Authorizes(state, first, "ap_1"));
  EXPECT_FALSE(Authorizes(state, first, "ap_other"));
  ASSERT_EQ(state.approvals.size(), 1u);
  EXPECT_EQ(state.approvals[0].tool_call_id, "tc_1");
  EXPECT_EQ(state.approvals[0].decided_at, 1700000000);
}

// A later call reusing the native id, or repeating name and arguments, gains nothing; nor
// does presenting the approval id for another call (ADR-226.19).
TEST(Approvals, GrantNothingToOtherCalls) {
  ConversationState state = TwoTurnsSharingNativeId();
  const ToolCall first = state.transcript.messages[0].tool_calls[0];
  RecordApproval(state, "ap_1", first, Approval::Status::kApproved, 0);
  const ToolCall same_native_id = state.transcript.messages[1].tool_calls[0];
  EXPECT_FALSE(Authorizes(state, same_native_id));
  EXPECT_FALSE(Authorizes(state, same_native_id, "ap_1"));
  EXPECT_FALSE(Authorizes(state, MakeCall("tc_9", "delete_file", R"({"path":"a"})")));
  // The approved call with other arguments (state edited since): not the approved action.
  EXPECT_FALSE(Authorizes(state, MakeCall("tc_1", "delete_file", R"({"path":"b"})")));
}

// A denial authorizes nothing; an approval id is recorded once.
TEST(Approvals, DenialsAuthorizeNothingAndIdsAreUnique) {
  ConversationState state = TwoTurnsSharingNativeId();
  const ToolCall first = state.transcript.messages[0].tool_calls[0];
  RecordApproval(state, "ap_1", first, Approval::Status::kDenied, 0);
  EXPECT_FALSE(Authorizes(state, first));
  EXPECT_THROW(RecordApproval(state, "ap_1", first, Approval::Status::kApproved, 0),
               std::invalid_argument);
}

}  // namespace
}  // namespace gemini_oracle::ref
