// The persistence faults of the mutation catalogue (reference_impl/fault.h), each shown to
// change what a resume returns in a way the store suite's round trip detects. Built only in
// the mutants build, which compiles the fault points in (the default build has none).

#include <gtest/gtest.h>

#include "reference_impl/fault.h"
#include "reference_impl/store/state_store.h"
#include "tests/reference_impl/store/store_test_support.h"

namespace gemini_oracle::ref::testing {
namespace {

// Chooses a fault for one scope.
class ActiveFault {
 public:
  explicit ActiveFault(const std::string& id) { fault::SetActive(id); }
  ~ActiveFault() { fault::SetActive(""); }
  ActiveFault(const ActiveFault&) = delete;
  ActiveFault& operator=(const ActiveFault&) = delete;
};

// Resumes a state different from the suspended one under each codec fault, the same without.
TEST(StoreFaults, EachFaultChangesWhatResumes) {
  ASSERT_TRUE(fault::kCompiledIn) << "this test is built in the mutants build only";
  SqliteLocation location;
  auto store = OpenStateStore(location.Url(), Keyring::Ephemeral());
  const ConversationState state = RichState();
  const std::string expected = EncodeState(state);
  int n = 0;
  for (const char* id : {"", "store.bindings_dropped_on_save", "store.signature_dropped_on_resume",
                         "store.empty_object_stored_as_list", "store.float_stored_as_integer"}) {
    const std::string conversation = "c" + std::to_string(n++);
    std::string resumed;
    {
      ActiveFault active(id);
      store->Suspend(conversation, state, 0);
      resumed = EncodeState(store->Resume(conversation).state);
    }
    if (*id == '\0') {
      EXPECT_TRUE(resumed == expected) << "the baseline changed the state";
    } else {
      EXPECT_FALSE(resumed == expected) << id << " left the state unchanged";
    }
  }
}

// Reports a suspension done under store.stale_row_resumed, and the next resume returns the
// older state.
TEST(StoreFaults, StaleRowFaultResumesTheOlderState) {
  ASSERT_TRUE(fault::kCompiledIn) << "this test is built in the mutants build only";
  SqliteLocation location;
  auto store = OpenStateStore(location.Url(), Keyring::Ephemeral());
  ConversationState older;
  older.transcript.messages.push_back(UserMessage("older"));
  ConversationState newer = older;
  newer.transcript.messages.push_back(UserMessage("newer"));
  store->Suspend("c", older, 0);
  {
    ActiveFault active("store.stale_row_resumed");
    EXPECT_EQ(store->Suspend("c", newer, 1), 2u);
  }
  const ResumedState resumed = store->Resume("c");
  EXPECT_EQ(resumed.state.transcript.messages.size(), 1u);
  EXPECT_EQ(resumed.version, 1u);
}

}  // namespace
}  // namespace gemini_oracle::ref::testing
