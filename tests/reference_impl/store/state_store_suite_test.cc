// The state store's behaviour, once for both backends (state_store_suite.h).

#include "tests/reference_impl/store/state_store_suite.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <map>
#include <thread>

#include "reference_impl/store/sealing.h"

namespace gemini_oracle::ref::testing {
namespace {

// Resumes, adds one user message, suspends; after a conflict resumes again and redoes the
// change, as an application must. Returns how many conflicts it met.
int AppendUntilStored(StateStore& store, const std::string& id, const std::string& text) {
  for (int conflicts = 0;; ++conflicts) {
    ResumedState resumed = store.Resume(id);
    resumed.state.transcript.messages.push_back(UserMessage(text));
    try {
      store.Suspend(id, resumed.state, resumed.version);
      return conflicts;
    } catch (const ProviderError& e) {
      if (e.code() != "store.conflict") throw;
    }
  }
}

// How often each user text occurs in the transcript.
std::map<std::string, int> UserTexts(const ConversationState& state) {
  std::map<std::string, int> count;
  for (const auto& m : state.transcript.messages) {
    if (m.role == Role::kUser) ++count[m.content];
  }
  return count;
}

ConversationState SmallState(const std::string& text) {
  ConversationState state;
  state.transcript.messages.push_back(UserMessage(text));
  return state;
}

// The resume is refused with `code`, and the row is exactly as it was before.
void ExpectResumeRefused(StateStore& store, const std::string& id, const std::string& code) {
  const std::string before = RowBytes(store.ReadRaw(id));
  const auto error = ErrorOf([&] { store.Resume(id); });
  ASSERT_TRUE(error.has_value()) << "resumed a row it had to refuse (" << code << ")";
  EXPECT_EQ(error->code(), code) << error->what();
  EXPECT_EQ(std::string(error->what()).find(kNeedle), std::string::npos) << error->what();
  EXPECT_TRUE(RowBytes(store.ReadRaw(id)) == before) << "the refused row was changed";
}

// A store whose schema goes one step beyond this program's.
std::vector<SchemaMigration> MigrationsWithOneMoreStep() {
  std::vector<SchemaMigration> steps = StateSchemaMigrations();
  // No IF NOT EXISTS: running the step twice would fail, so a second open proves it ran once.
  steps.push_back({kStateSchemaVersion + 1,
                   "a later program's table",
                   {"CREATE TABLE gemini_oracle_later (n INTEGER)"},
                   {"CREATE TABLE gemini_oracle_later (n INT) ENGINE=InnoDB"}});
  return steps;
}

// Round-trips the whole state kind-exactly and byte for byte through a fresh store object.
TEST_P(StateStoreSuite, RoundTripKeepsEveryKindAndByte) {
  const ConversationState state = RichState();
  const std::string id = NewConversationId();
  EXPECT_EQ(Open()->Suspend(id, state, 0), 1u);

  const ResumedState resumed = Open()->Resume(id);  // as a fresh adapter would
  EXPECT_EQ(resumed.version, 1u);
  EXPECT_TRUE(KindExactEqual(ToJson(resumed.state), ToJson(state)));
  EXPECT_TRUE(EncodeState(resumed.state) == EncodeState(state)) << "stored text differs";

  const Json& args = resumed.state.transcript.messages[2].tool_calls[0].arguments;
  EXPECT_TRUE(args["empty"].is_object());
  EXPECT_TRUE(args["list"].is_array());
  EXPECT_TRUE(args["one"].is_number_float());
  EXPECT_TRUE(args["int"].is_number_integer());
  EXPECT_TRUE(std::signbit(args["neg0"].get<double>()));
  EXPECT_EQ(args["i64max"].get<std::int64_t>(), INT64_MAX);
  EXPECT_EQ(args["i64min"].get<std::int64_t>(), INT64_MIN);
  EXPECT_EQ(args["u64max"].get<std::uint64_t>(), UINT64_MAX);
  EXPECT_EQ(args["text"].get<std::string>(),
            std::string("NEEDLE-5e1f \xc3\xbc \0 \xf0\x9d\x84\x9e", 21));
  EXPECT_TRUE(resumed.state.transcript.messages[2].tool_calls[1].arguments.is_object());
  const Json& capsule = resumed.state.transcript.messages[2].provider_state["gemini"];
  EXPECT_EQ(capsule["tool_call_bindings"].size(), 2u);
  EXPECT_EQ(capsule["native_parts"][1]["thoughtSignature"], "NEEDLE-5e1f-sig");
  EXPECT_TRUE(capsule["native_parts"][2]["functionCall"]["args"].is_object());
  EXPECT_TRUE(resumed.state.transcript.messages[2].provider_state.contains("openai"));
  EXPECT_EQ(resumed.state.pending_tool_calls, std::vector<std::string>{"tc_2"});
  EXPECT_EQ(resumed.state.public_id_counter, 7u);
  ASSERT_EQ(resumed.state.approvals.size(), 2u);
  EXPECT_EQ(resumed.state.approvals[0].approval_id, "ap_NEEDLE-5e1f");
  EXPECT_EQ(resumed.state.approvals[0].tool_call_id, "tc_1");
  EXPECT_EQ(resumed.state.approvals[1].status, Approval::Status::kDenied);
  EXPECT_EQ(resumed.state.approvals[1].decided_at, -1);
}

// Stores only ciphertext: the row holds no plaintext, a 24-byte nonce and the sealing key's id.
TEST_P(StateStoreSuite, RowHoldsCiphertextOnly) {
  const ConversationState state = RichState();
  const std::string id = NewConversationId();
  Open()->Suspend(id, state, 0);
  const auto row = Open()->ReadRaw(id);
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->conversation_id, id);
  EXPECT_EQ(row->version, 1u);
  EXPECT_EQ(row->key_id, keyring_.Current().id);
  EXPECT_EQ(row->nonce.size(), 24u);
  EXPECT_EQ(row->ciphertext.size(), EncodeState(state).size() + 16);
  EXPECT_EQ(row->ciphertext.find("NEEDLE"), std::string::npos);
  EXPECT_EQ(row->ciphertext.find("get_weather"), std::string::npos);
  EXPECT_GT(row->updated_at, 1600000000);
  EXPECT_EQ(Open()->ReadRaw("no-such-conversation"), std::nullopt);
}

// Counts suspensions: each one writes the next version, and a resume returns the latest.
TEST_P(StateStoreSuite, VersionsCountSuspensions) {
  auto store = Open();
  const std::string id = NewConversationId();
  std::uint64_t version = store->Suspend(id, SmallState("v1"), 0);
  for (int v = 2; v <= 5; ++v) {
    const ResumedState resumed = store->Resume(id);
    EXPECT_EQ(resumed.version, version);
    version = store->Suspend(id, SmallState("v" + std::to_string(v)), resumed.version);
    EXPECT_EQ(version, static_cast<std::uint64_t>(v));
  }
  EXPECT_EQ(store->ReadRaw(id)->version, 5u);
  EXPECT_EQ(store->Resume(id).state.transcript.messages[0].content, "v5");
  // A writer still holding version 3 is told it is behind, and nothing is written.
  const std::string before = RowBytes(store->ReadRaw(id));
  EXPECT_EQ(CodeOf([&] { store->Suspend(id, SmallState("stale"), 3); }), "store.conflict");
  EXPECT_TRUE(RowBytes(store->ReadRaw(id)) == before);
}

// Refuses a second new conversation under a taken id; the first one's row stays.
TEST_P(StateStoreSuite, NewConversationUnderTakenIdConflicts) {
  auto store = Open();
  const std::string id = NewConversationId();
  store->Suspend(id, SmallState("first"), 0);
  const std::string before = RowBytes(store->ReadRaw(id));
  EXPECT_EQ(CodeOf([&] { Open()->Suspend(id, SmallState("second"), 0); }), "store.conflict");
  EXPECT_TRUE(RowBytes(store->ReadRaw(id)) == before);
  EXPECT_EQ(store->Resume(id).state.transcript.messages[0].content, "first");
}

// Refuses a version the conversation never had, creating nothing.
TEST_P(StateStoreSuite, UnknownVersionConflictsAndCreatesNothing) {
  auto store = Open();
  const std::string id = NewConversationId();
  EXPECT_EQ(CodeOf([&] { store->Suspend(id, SmallState("x"), 3); }), "store.conflict");
  EXPECT_EQ(store->ReadRaw(id), std::nullopt);
  EXPECT_EQ(CodeOf([&] { store->Resume(id); }), "store.not_found");
}

// Lets exactly one of two writers that resumed one version win; the loser gets store.conflict,
// resumes again, redoes its change, and both updates are kept.
TEST_P(StateStoreSuite, TwoWritersOneWinsNoUpdateLost) {
  auto a = Open();
  auto b = Open();
  const std::string id = NewConversationId();
  a->Suspend(id, SmallState("start"), 0);
  ResumedState at_a = a->Resume(id);
  ResumedState at_b = b->Resume(id);
  ASSERT_EQ(at_a.version, at_b.version);
  at_a.state.transcript.messages.push_back(UserMessage("from a"));
  at_b.state.transcript.messages.push_back(UserMessage("from b"));
  EXPECT_EQ(a->Suspend(id, at_a.state, at_a.version), 2u);
  EXPECT_EQ(CodeOf([&] { b->Suspend(id, at_b.state, at_b.version); }), "store.conflict");

  at_b = b->Resume(id);
  EXPECT_EQ(at_b.version, 2u);
  at_b.state.transcript.messages.push_back(UserMessage("from b"));
  EXPECT_EQ(b->Suspend(id, at_b.state, at_b.version), 3u);
  const auto texts = UserTexts(a->Resume(id).state);
  EXPECT_EQ(texts, (std::map<std::string, int>{{"start", 1}, {"from a", 1}, {"from b", 1}}));
}

// Keeps every update exactly once when threads with a store each race on one conversation.
TEST_P(StateStoreSuite, RacingThreadsLoseNoUpdate) {
  constexpr int kThreads = 4;
  constexpr int kRounds = 25;
  const std::string id = NewConversationId();
  Open()->Suspend(id, SmallState("start"), 0);
  std::vector<std::thread> threads;
  std::vector<int> conflicts(kThreads, 0);
  std::vector<std::string> failures(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      try {
        auto store = Open();
        for (int r = 0; r < kRounds; ++r) {
          conflicts[t] +=
              AppendUntilStored(*store, id, "t" + std::to_string(t) + "r" + std::to_string(r));
        }
      } catch (const std::exception& e) {
        failures[t] = e.what();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (const auto& failure : failures) EXPECT_EQ(failure, "");
  const ResumedState end = Open()->Resume(id);
  EXPECT_EQ(end.version, 1u + kThreads * kRounds);
  const auto texts = UserTexts(end.state);
  EXPECT_EQ(texts.size(), 1u + kThreads * kRounds);
  for (const auto& [text, count] : texts) EXPECT_EQ(count, 1) << text;
  int total = 0;
  for (const int c : conflicts) total += c;
  RecordProperty("conflicts", total);
  std::cout << GetParam().name << ": " << kThreads << " threads x " << kRounds << " rounds, "
            << total << " conflicts retried, no update lost\n";
}

// Keeps every update exactly once when processes with a store each race on one conversation.
TEST_P(StateStoreSuite, RacingProcessesLoseNoUpdate) {
  constexpr int kProcesses = 3;
  constexpr int kRounds = 20;
  const std::string id = NewConversationId();
  Open()->Suspend(id, SmallState("start"), 0);
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // The child opens its own connection and reports by exit status only.
      int status = 0;
      try {
        auto store = Open();
        for (int r = 0; r < kRounds; ++r) {
          AppendUntilStored(*store, id, "p" + std::to_string(p) + "r" + std::to_string(r));
        }
      } catch (...) {
        status = 1;
      }
      _exit(status);
    }
    children.push_back(pid);
  }
  for (const pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a writer process failed";
  }
  const ResumedState end = Open()->Resume(id);
  EXPECT_EQ(end.version, 1u + kProcesses * kRounds);
  const auto texts = UserTexts(end.state);
  EXPECT_EQ(texts.size(), 1u + kProcesses * kRounds);
  for (const auto& [text, count] : texts) EXPECT_EQ(count, 1) << text;
}

// Opens, writes and closes over and over from several processes, starting on a store no one
// has opened yet: each open (the first one's journal-mode change and migration, a last close's
// checkpoint) must wait for the others, never fail "store.unavailable" (ADR-226.18).
TEST_P(StateStoreSuite, ProcessesOpeningAndClosingEachTimeAllSucceed) {
  constexpr int kProcesses = 4;
  constexpr int kRounds = 30;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int status = 0;
      try {
        for (int r = 0; r < kRounds; ++r) {
          const std::string id = "p" + std::to_string(p) + "r" + std::to_string(r);
          Open()->Suspend(id, SmallState(id), 0);
          if (UserTexts(Open()->Resume(id).state).count(id) != 1) status = 2;
        }
      } catch (const std::exception& e) {
        std::cerr << "writer " << p << ": " << e.what() << "\n";
        status = 1;
      }
      _exit(status);
    }
    children.push_back(pid);
  }
  for (const pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "a writer process failed (status " << status << ")";
  }
  EXPECT_EQ(Open()->ConversationIds().size(), static_cast<std::size_t>(kProcesses * kRounds));
}

// Refuses a ciphertext with one flipped byte as tampered, and leaves the row alone.
TEST_P(StateStoreSuite, FlippedCiphertextByteIsTampered) {
  auto store = Open();
  const std::string id = NewConversationId();
  store->Suspend(id, RichState(), 0);
  for (const std::size_t at : {std::size_t{0}, std::size_t{100}, std::size_t{0} - 1}) {
    StoredRow row = *store->ReadRaw(id);
    const std::size_t i = std::min(at, row.ciphertext.size() - 1);  // the last byte: the tag
    row.ciphertext[i] = static_cast<char>(row.ciphertext[i] ^ 0x01);
    ASSERT_TRUE(Backend()->UpdateRow(row, row.version));
    ExpectResumeRefused(*store, id, "store.tampered");
    row.ciphertext[i] = static_cast<char>(row.ciphertext[i] ^ 0x01);  // put back
    ASSERT_TRUE(Backend()->UpdateRow(row, row.version));
    EXPECT_EQ(store->Resume(id).version, 1u);
  }
  StoredRow row = *store->ReadRaw(id);
  row.ciphertext.resize(10);  // shorter than the tag
  ASSERT_TRUE(Backend()->UpdateRow(row, row.version));
  ExpectResumeRefused(*store, id, "store.tampered");
}

// Refuses a row whose nonce has one flipped bit, or a nonce of the wrong length.
TEST_P(StateStoreSuite, FlippedNonceIsTampered) {
  auto store = Open();
  const std::string id = NewConversationId();
  store->Suspend(id, RichState(), 0);
  StoredRow row = *store->ReadRaw(id);
  row.nonce[23] = static_cast<char>(row.nonce[23] ^ 0x80);
  ASSERT_TRUE(Backend()->UpdateRow(row, row.version));
  ExpectResumeRefused(*store, id, "store.tampered");
  row.nonce.resize(12);
  ASSERT_TRUE(Backend()->UpdateRow(row, row.version));
  ExpectResumeRefused(*store, id, "store.tampered");
}

// Refuses a row whose key id was edited: to another key of the keyring it does not
// authenticate (tampered); to a key id the keyring lacks it is a wrong key.
TEST_P(StateStoreSuite, EditedKeyIdIsRefused) {
  const Keyring two = Keyring::FromKeys({Keyring::NewKey(), Keyring::NewKey()});
  auto store = Open(two);
  const std::string id = NewConversationId();
  store->Suspend(id, RichState(), 0);
  StoredRow row = *store->ReadRaw(id);
  ASSERT_EQ(row.key_id, two.keys()[0].id);
  row.key_id = two.keys()[1].id;
  ASSERT_TRUE(Backend()->UpdateRow(row, row.version));
  ExpectResumeRefused(*store, id, "store.tampered");
  row.key_id = "0123456789abcdef";
  ASSERT_TRUE(Backend()->UpdateRow(row, row.version));
  ExpectResumeRefused(*store, id, "store.wrong_key");
}

// Refuses a row copied under another conversation id: its ciphertext is bound to its own.
TEST_P(StateStoreSuite, RowCopiedToAnotherConversationIsTampered) {
  auto store = Open();
  const std::string victim = NewConversationId();
  const std::string source = NewConversationId();
  store->Suspend(victim, SmallState("victim's own"), 0);
  store->Suspend(source, RichState(), 0);
  StoredRow copy = *store->ReadRaw(source);
  copy.conversation_id = victim;
  ASSERT_TRUE(Backend()->UpdateRow(copy, 1));  // over the victim's row
  ExpectResumeRefused(*store, victim, "store.tampered");
  const std::string fresh = NewConversationId();
  copy.conversation_id = fresh;
  ASSERT_TRUE(Backend()->InsertRow(copy));  // as a new row
  ExpectResumeRefused(*store, fresh, "store.tampered");
  EXPECT_EQ(store->Resume(source).version, 1u);  // the original is untouched
}

// Refuses an older version's sealed bytes copied over a newer row (a rollback), and a version
// column edited without sealing.
TEST_P(StateStoreSuite, OldRowCopiedOverNewerVersionIsTampered) {
  auto store = Open();
  const std::string id = NewConversationId();
  store->Suspend(id, SmallState("old"), 0);
  const StoredRow old = *store->ReadRaw(id);
  store->Suspend(id, SmallState("new"), 1);
  StoredRow rolled_back = old;
  rolled_back.version = 2;
  ASSERT_TRUE(Backend()->UpdateRow(rolled_back, 2));
  ExpectResumeRefused(*store, id, "store.tampered");

  const std::string other = NewConversationId();
  store->Suspend(other, SmallState("x"), 0);
  StoredRow bumped = *store->ReadRaw(other);
  bumped.version = 7;
  ASSERT_TRUE(Backend()->UpdateRow(bumped, 1));
  ExpectResumeRefused(*store, other, "store.tampered");
}

// Refuses a row sealed under a key the keyring does not hold, and writes nothing.
TEST_P(StateStoreSuite, WrongKeyIsRefused) {
  const std::string id = NewConversationId();
  Open()->Suspend(id, RichState(), 0);
  auto stranger = Open(Keyring::Ephemeral());
  ExpectResumeRefused(*stranger, id, "store.wrong_key");
  EXPECT_EQ(Open()->Resume(id).version, 1u);
}

// Refuses decrypted bytes that are not a conversation state (sealed with the right key and
// associated data, as a buggy or older writer could have).
TEST_P(StateStoreSuite, MalformedPlaintextIsRefused) {
  auto store = Open();
  const StateKey& key = keyring_.Current();
  const std::string good = EncodeState(SmallState("x"));
  const std::string texts[] = {
      "not json " + std::string(kNeedle),
      good.substr(0, good.size() - 1) + R"(,"extra":")" + kNeedle + R"("})",
      R"({"format":"gemini-oracle/conversation-state","version":2,"transcript":[],)"
      R"("pending_tool_calls":[],"public_id_counter":0,"approvals":[]})",
  };
  for (const auto& text : texts) {
    const std::string id = NewConversationId();
    Sealed sealed = Seal(text, AssociatedData(id, 1, key.id), key);
    StoredRow row{id, 1, key.id, sealed.nonce, sealed.ciphertext, 0};
    ASSERT_TRUE(Backend()->InsertRow(row));
    ExpectResumeRefused(*store, id, "store.malformed");
  }
}

// Re-encrypts rows sealed under an old key: readable with [new, old] before, with [new] alone
// after, byte-identical, each version one higher; rows already current stay.
TEST_P(StateStoreSuite, RekeyMovesRowsToTheCurrentKey) {
  const StateKey old_key = Keyring::NewKey();
  const StateKey new_key = Keyring::NewKey();
  const std::string a = NewConversationId();
  const std::string b = NewConversationId();
  const std::string c = NewConversationId();
  {
    auto old_store = Open(Keyring::FromKeys({old_key}));
    old_store->Suspend(a, RichState(), 0);
    old_store->Suspend(b, SmallState("b1"), 0);
    old_store->Suspend(b, SmallState("b2"), 1);
  }
  auto both = Open(Keyring::FromKeys({new_key, old_key}));
  both->Suspend(c, SmallState("c"), 0);  // sealed under the new key already
  EXPECT_EQ(both->Resume(a).version, 1u);
  EXPECT_EQ(CodeOf([&] { Open(Keyring::FromKeys({new_key}))->Resume(a); }), "store.wrong_key");

  const RekeyResult rekeyed = both->Rekey();
  EXPECT_EQ(rekeyed.rekeyed, 2u);
  EXPECT_TRUE(rekeyed.refused.empty());
  EXPECT_EQ(both->ReadRaw(a)->key_id, new_key.id);
  EXPECT_EQ(both->ReadRaw(a)->version, 2u);
  EXPECT_EQ(both->ReadRaw(b)->version, 3u);
  EXPECT_EQ(both->ReadRaw(c)->version, 1u);

  auto only_new = Open(Keyring::FromKeys({new_key}));
  EXPECT_TRUE(EncodeState(only_new->Resume(a).state) == EncodeState(RichState()));
  EXPECT_EQ(only_new->Resume(b).state.transcript.messages[0].content, "b2");
  EXPECT_EQ(CodeOf([&] { Open(Keyring::FromKeys({old_key}))->Resume(a); }), "store.wrong_key");
  EXPECT_EQ(both->Rekey().rekeyed, 0u);
  EXPECT_EQ(only_new->Rekey().rekeyed, 0u);
}

// A rekey leaves a row it cannot open exactly as it was and lists it (under a key the keyring
// lacks, or tampered), and still re-encrypts every other row.
TEST_P(StateStoreSuite, RekeyLeavesRowsItCannotOpenAndGoesOn) {
  const StateKey old_key = Keyring::NewKey();
  const std::string lost = NewConversationId();
  const std::string tampered = NewConversationId();
  const std::string good = NewConversationId();
  Open(Keyring::Ephemeral())->Suspend(lost, SmallState("x"), 0);
  {
    auto old_store = Open(Keyring::FromKeys({old_key}));
    old_store->Suspend(tampered, SmallState("t"), 0);
    old_store->Suspend(good, SmallState("g"), 0);
  }
  StoredRow flipped = *Backend()->ReadRow(tampered);
  flipped.ciphertext[3] = static_cast<char>(flipped.ciphertext[3] ^ 1);
  ASSERT_TRUE(Backend()->UpdateRow(flipped, 1));
  auto store = Open(Keyring::FromKeys({keyring_.Current(), old_key}));
  const std::string lost_before = RowBytes(store->ReadRaw(lost));
  const std::string tampered_before = RowBytes(store->ReadRaw(tampered));

  const RekeyResult result = store->Rekey();
  EXPECT_EQ(result.rekeyed, 1u);
  std::vector<std::pair<std::string, std::string>> expected = {{lost, "store.wrong_key"},
                                                               {tampered, "store.tampered"}};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(result.refused, expected);
  EXPECT_TRUE(RowBytes(store->ReadRaw(lost)) == lost_before);
  EXPECT_TRUE(RowBytes(store->ReadRaw(tampered)) == tampered_before);
  EXPECT_EQ(store->ReadRaw(good)->key_id, keyring_.Current().id);
  EXPECT_EQ(store->Resume(good).state.transcript.messages[0].content, "g");
}

// Opens a store with no schema (version 0) by migrating it, and a second open changes nothing.
TEST_P(StateStoreSuite, MigrationsRunOnce) {
  EXPECT_EQ(Backend()->ReadSchemaVersion(), 0);
  EXPECT_EQ(Open()->SchemaVersion(), kStateSchemaVersion);
  EXPECT_EQ(Open()->SchemaVersion(), kStateSchemaVersion);
  const std::string id = NewConversationId();
  Open()->Suspend(id, RichState(), 0);

  // A later program's step: applied once (its CREATE TABLE would fail a second time), and the
  // rows written before it still resume.
  const auto later = MigrationsWithOneMoreStep();
  EXPECT_EQ(OpenStateStoreOn(Backend(), keyring_, later)->SchemaVersion(), kStateSchemaVersion + 1);
  auto again = OpenStateStoreOn(Backend(), keyring_, later);
  EXPECT_EQ(again->SchemaVersion(), kStateSchemaVersion + 1);
  EXPECT_TRUE(EncodeState(again->Resume(id).state) == EncodeState(RichState()));
}

// Maintenance opening (store info, store rekey) refuses a database that holds no store and
// leaves it without a table; once a store is there it opens it like any opener.
TEST_P(StateStoreSuite, ExistingOnlyOpeningNeverMakesAStore) {
  EXPECT_EQ(CodeOf([&] { OpenStateStore(Url(), keyring_, StoreOpening::kExistingOnly); }),
            "store.not_found");
  EXPECT_EQ(Backend()->ReadSchemaVersion(), 0);
  const std::string id = NewConversationId();
  Open()->Suspend(id, SmallState("x"), 0);
  auto existing = OpenStateStore(Url(), keyring_, StoreOpening::kExistingOnly);
  EXPECT_EQ(existing->SchemaVersion(), kStateSchemaVersion);
  EXPECT_EQ(existing->Resume(id).state.transcript.messages[0].content, "x");
}

// Refuses a store whose schema is newer than this program, naming both versions.
TEST_P(StateStoreSuite, NewerSchemaIsRefused) {
  OpenStateStoreOn(Backend(), keyring_, MigrationsWithOneMoreStep());
  const auto error = ErrorOf([&] { Open(); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code(), "store.schema_too_new");
  const std::string what = error->what();
  EXPECT_NE(what.find("newer than this program"), std::string::npos) << what;
  EXPECT_NE(what.find("store schema version " + std::to_string(kStateSchemaVersion + 1)),
            std::string::npos)
      << what;
  EXPECT_NE(what.find("program schema version " + std::to_string(kStateSchemaVersion)),
            std::string::npos)
      << what;
}

// Lists every conversation id bytewise sorted, binary ids included, and round-trips them.
TEST_P(StateStoreSuite, ListsConversationIdsSorted) {
  auto store = Open();
  std::vector<std::string> ids = {"b",        "a", std::string("\0x", 2),
                                  "\xff\xfe", "A", std::string(255, 'z')};
  const auto label = [](const std::string& id) {
    return std::to_string(std::hash<std::string>{}(id));
  };
  for (const auto& id : ids) store->Suspend(id, SmallState(label(id)), 0);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(store->ConversationIds(), ids);
  for (const auto& id : ids) {
    EXPECT_EQ(store->Resume(id).state.transcript.messages[0].content, label(id));
  }
  EXPECT_THROW(store->Suspend(std::string(256, 'z'), SmallState("x"), 0), std::invalid_argument);
  EXPECT_THROW(store->Resume(""), std::invalid_argument);
}

// Round-trips a state of several megabytes.
TEST_P(StateStoreSuite, LargeStateRoundTrips) {
  ConversationState state = RichState();
  std::string text;
  for (int i = 0; i < 200000; ++i) text += "line " + std::to_string(i) + " \xc3\xa9\n";
  state.transcript.messages.push_back(UserMessage(text));
  const std::string id = NewConversationId();
  Open()->Suspend(id, state, 0);
  EXPECT_TRUE(EncodeState(Open()->Resume(id).state) == EncodeState(state));
}

// A state above MariaDB's max_allowed_packet (16 MiB on the test server, the server's default)
// is the one limit the backends do not share: SQLite stores it, MariaDB refuses it in words and
// writes nothing (docs/state-store.md, "Limits").
TEST_P(StateStoreSuite, StateAboveTheServerPacketLimit) {
  ConversationState state = SmallState("x");
  state.transcript.messages.push_back(UserMessage(std::string(20u << 20, 'a')));
  const std::string id = NewConversationId();
  if (Url().rfind("mariadb:", 0) != 0) {
    Open()->Suspend(id, state, 0);
    EXPECT_EQ(Open()->Resume(id).state.transcript.messages.size(), 2u);
    return;
  }
  const auto error = ErrorOf([&] { Open()->Suspend(id, state, 0); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code(), "store.unavailable");
  EXPECT_NE(std::string(error->what()).find("max_allowed_packet"), std::string::npos)
      << error->what();
  EXPECT_FALSE(Open()->ReadRaw(id).has_value());
}

// Reports not_found for a conversation never suspended.
TEST_P(StateStoreSuite, UnknownConversationIsNotFound) {
  EXPECT_EQ(CodeOf([&] { Open()->Resume(NewConversationId()); }), "store.not_found");
}

// Keeps stored content out of every store error: text, arguments, ids, keys, ciphertext.
TEST_P(StateStoreSuite, ErrorsNeverQuoteStoredContent) {
  auto store = Open();
  const std::string id = NewConversationId();
  store->Suspend(id, RichState(), 0);
  const StoredRow row = *store->ReadRaw(id);
  std::vector<ProviderError> errors;
  const auto collect = [&](auto call) {
    if (auto e = ErrorOf(call)) errors.push_back(*e);
  };
  collect([&] { store->Resume(NewConversationId()); });      // not_found
  collect([&] { store->Suspend(id, RichState(), 0); });      // conflict
  collect([&] { Open(Keyring::Ephemeral())->Resume(id); });  // wrong_key
  StoredRow flipped = row;
  flipped.ciphertext[5] = static_cast<char>(flipped.ciphertext[5] ^ 1);
  ASSERT_TRUE(Backend()->UpdateRow(flipped, 1));
  collect([&] { store->Resume(id); });  // tampered
  collect([&] { store->Rekey(); });     // nothing to do: no error
  const std::string other = NewConversationId();
  const std::string bad = R"({"format":")" + std::string(kNeedle) + R"("})";
  Sealed sealed = Seal(bad, AssociatedData(other, 1, keyring_.Current().id), keyring_.Current());
  ASSERT_TRUE(
      Backend()->InsertRow({other, 1, keyring_.Current().id, sealed.nonce, sealed.ciphertext, 0}));
  collect([&] { store->Resume(other); });  // malformed
  ASSERT_EQ(errors.size(), 5u);
  std::vector<std::string> codes;
  for (const auto& e : errors) {
    codes.push_back(e.code());
    const std::string what = e.what();
    EXPECT_EQ(what.find(kNeedle), std::string::npos) << what;
    EXPECT_EQ(what.find(id), std::string::npos) << what;
    EXPECT_EQ(what.find(keyring_.Current().id), std::string::npos) << what;
    EXPECT_EQ(what.find(KeyToHex(keyring_.Current())), std::string::npos) << what;
    EXPECT_EQ(what.find("get_weather"), std::string::npos) << what;
  }
  EXPECT_EQ(codes, (std::vector<std::string>{"store.not_found", "store.conflict", "store.wrong_key",
                                             "store.tampered", "store.malformed"}));
}

}  // namespace
}  // namespace gemini_oracle::ref::testing
