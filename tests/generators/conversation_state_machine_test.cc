// The conversation state machine (conversation_state_machine.h) on the embedded SQLite store;
// tests/persistence/conversation_state_machine_on_mariadb_test.cc runs it on both stores.
#include <gtest/gtest.h>

#include <iostream>

#include "reference_impl/store/keyring.h"
#include "tests/generators/conversation_state_machine.h"
#include "tests/property_support.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::testing::conversation_model {
namespace {

TEST(ConversationStateMachine, ReferenceAgreesWithTheModelOnSqlite) {
  TempDir dir;
  ScriptedServer server;
  const ref::Keyring keyring = ref::Keyring::Ephemeral();
  const std::vector<NamedStore> stores = {
      {"SQLite", [&] {
         return ref::OpenStateStore("sqlite:" + (dir.path() / "state.sqlite3").string(), keyring);
       }}};
  CheckProperty([&] { CheckConversationStateMachine(server, stores); });
  std::cout << "resumed " << *stores[0].resumes << " times" << std::endl;
  EXPECT_GT(*stores[0].resumes, 0u);
}

// A negative control: the same model falsifies an application whose store loses the native
// parts' signatures (what the model checks after every resume and on every later request).
TEST(ConversationStateMachine, BrokenStoreIsFalsified) {
  TempDir dir;
  ScriptedServer server;
  const ref::Keyring keyring = ref::Keyring::Ephemeral();
  struct Forgetful : ref::StateStore {
    std::unique_ptr<ref::StateStore> inner;
    std::uint64_t Suspend(std::string_view id, const ref::ConversationState& state,
                          std::uint64_t expected) override {
      return inner->Suspend(id, state, expected);
    }
    ref::ResumedState Resume(std::string_view id) override {
      ref::ResumedState resumed = inner->Resume(id);
      for (auto& message : resumed.state.transcript.messages) {
        if (!message.provider_state.contains("gemini")) continue;
        for (auto& part : message.provider_state["gemini"]["native_parts"]) {
          part.erase("thoughtSignature");
        }
      }
      return resumed;
    }
    std::optional<ref::StoredRow> ReadRaw(std::string_view id) override {
      return inner->ReadRaw(id);
    }
    std::vector<std::string> ConversationIds() override { return inner->ConversationIds(); }
    ref::RekeyResult Rekey() override { return inner->Rekey(); }
    int SchemaVersion() override { return inner->SchemaVersion(); }
  };
  const std::vector<NamedStore> stores = {{"forgetful SQLite", [&] {
    auto store = std::make_unique<Forgetful>();
    store->inner =
        ref::OpenStateStore("sqlite:" + (dir.path() / "state.sqlite3").string(), keyring);
    return std::unique_ptr<ref::StateStore>(std::move(store));
  }}};
  ::setenv("GEMINI_ORACLE_COUNTEREXAMPLES", (dir.path() / "kept").c_str(), 1);
  EXPECT_TRUE(Falsifies([&] { CheckConversationStateMachine(server, stores); }));
  ::unsetenv("GEMINI_ORACLE_COUNTEREXAMPLES");
  // The failing sequence was kept as a case file.
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "kept" / "state_machine" /
                                      "y_state_machine_counterexample.json"));
}

// Negative controls for the request checks: answers without their native ids (ADR-226.3) and
// replayed parts out of order (ADR-224.8) are caught.
TEST(ConversationStateMachine, BrokenWireIsFalsified) {
  TempDir dir;
  ScriptedServer server;
  const ref::Keyring keyring = ref::Keyring::Ephemeral();
  const std::vector<NamedStore> stores = {
      {"SQLite", [&] {
         return ref::OpenStateStore("sqlite:" + (dir.path() / "state.sqlite3").string(), keyring);
       }}};
  ::setenv("GEMINI_ORACLE_COUNTEREXAMPLES", (dir.path() / "kept").c_str(), 1);
  EXPECT_TRUE(Falsifies([&] {
    CheckConversationStateMachine(server, stores, [](Json& request) {
      for (auto& content : request["contents"]) {
        for (auto& part : content["parts"]) {
          if (part.contains("functionResponse")) part["functionResponse"].erase("id");
        }
      }
    });
  }));
  EXPECT_TRUE(Falsifies([&] {
    CheckConversationStateMachine(server, stores, [](Json& request) {
      for (auto& content : request["contents"]) {
        auto& parts = content["parts"];
        if (content["role"] == "model" && parts.size() > 1) {
          std::reverse(parts.begin(), parts.end());
        }
      }
    });
  }));
  ::unsetenv("GEMINI_ORACLE_COUNTEREXAMPLES");
}

}  // namespace
}  // namespace gemini_oracle::testing::conversation_model
