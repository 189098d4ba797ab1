// The conversation state machine (conversation_state_machine.h) on the embedded SQLite store;
// tests/persistence/conversation_state_machine_on_mariadb_test.cc runs it on both stores.
#include <gtest/gtest.h>

#include <functional>
#include <iostream>

#include "reference_impl/store/keyring.h"
#include "tests/generators/conversation_state_machine.h"
#include "tests/property_support.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::testing::conversation_model {
namespace {

// One SQLite file in `dir` under an ephemeral key.
std::vector<NamedStore> SqliteStore(const std::filesystem::path& dir) {
  const std::string url = "sqlite:" + (dir / "state.sqlite3").string();
  const ref::Keyring keyring = ref::Keyring::Ephemeral();
  return {{"SQLite", "sqlite", [url, keyring] { return ref::OpenStateStore(url, keyring); }}};
}

TEST(ConversationStateMachine, ReferenceAgreesWithTheModelOnSqlite) {
  TempDir dir;
  ScriptedServer server;
  const std::vector<NamedStore> stores = SqliteStore(dir.path());
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
  const std::vector<NamedStore> stores = {{"forgetful SQLite", "sqlite", [&] {
    auto store = std::make_unique<Forgetful>();
    store->inner =
        ref::OpenStateStore("sqlite:" + (dir.path() / "state.sqlite3").string(), keyring);
    return std::unique_ptr<ref::StateStore>(std::move(store));
  }}};
  ::setenv("GEMINI_ORACLE_COUNTEREXAMPLES", (dir.path() / "kept").c_str(), 1);
  // Seen by the comparison of the resumed state ...
  EXPECT_TRUE(Falsifies([&] { CheckConversationStateMachine(server, stores); }));
  // ... and, without it, by the predictions of the later requests alone.
  EXPECT_TRUE(Falsifies([&] { CheckConversationStateMachine(server, stores, {}, false); }));
  ::unsetenv("GEMINI_ORACLE_COUNTEREXAMPLES");
  // The failing sequence was kept as a case file named by the run's seed.
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "kept" / "state_machine" /
                                      (CounterexampleStem('y', "state_machine_sqlite") + ".json")));
  // It is an ordinary case: it passes `check`.
  const auto loader = runner::CaseLoader::FromSourceRoot(SourceRoot());
  const runner::CorpusCheck kept = runner::CheckCorpus(dir.path() / "kept", loader);
  EXPECT_TRUE(kept.ok()) << (kept.diagnostics.empty()
                                 ? std::string()
                                 : runner::FormatDiagnostic(kept.diagnostics.front()));
  EXPECT_EQ(kept.cases.size(), 1u);
}

// Negative controls for the request checks: answers without their native ids (ADR-226.3) and
// replayed parts out of order (ADR-224.8) are caught.
TEST(ConversationStateMachine, BrokenWireIsFalsified) {
  TempDir dir;
  ScriptedServer server;
  const std::vector<NamedStore> stores = SqliteStore(dir.path());
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
  // A list result sent as a list (ADR-224.4).
  EXPECT_TRUE(Falsifies([&] {
    CheckConversationStateMachine(server, stores, [](Json& request) {
      for (auto& content : request["contents"]) {
        for (auto& part : content["parts"]) {
          if (!part.contains("functionResponse")) continue;
          Json& response = part["functionResponse"]["response"];
          if (response.contains("0")) {
            Json list = Json::array();
            for (const auto& item : response) list.push_back(item);
            response = Json{{"result", list}};
          }
        }
      }
    });
  }));
  // ID-less answers out of call order (WIRE.2): the last two ID-less answers swapped.
  EXPECT_TRUE(Falsifies([&] {
    CheckConversationStateMachine(server, stores, [](Json& request) {
      for (auto& content : request["contents"]) {
        std::vector<std::size_t> idless;
        for (std::size_t p = 0; p < content["parts"].size(); ++p) {
          const Json& part = content["parts"][p];
          if (part.contains("functionResponse") && !part["functionResponse"].contains("id")) {
            idless.push_back(p);
          }
        }
        if (idless.size() > 1) {
          std::swap(content["parts"][idless[0]], content["parts"][idless[1]]);
        }
      }
    });
  }));
  // An empty model content before each model content (ADR-224.8: parts as received).
  EXPECT_TRUE(Falsifies([&] {
    CheckConversationStateMachine(server, stores, [](Json& request) {
      Json contents = Json::array();
      for (auto& content : request["contents"]) {
        if (content["role"] == "model") {
          contents.push_back(Json{{"role", "model"}, {"parts", Json::array()}});
        }
        contents.push_back(content);
      }
      request["contents"] = contents;
    });
  }));
  // A nested empty list in a result sent as {} (ADR-224.6: lists stay lists).
  EXPECT_TRUE(Falsifies([&] {
    CheckConversationStateMachine(server, stores, [](Json& request) {
      const std::function<void(Json&)> cast = [&cast](Json& value) {
        for (auto& item : value) {
          if (item.is_array() && item.empty()) {
            item = Json::object();
          } else if (item.is_object() || item.is_array()) {
            cast(item);
          }
        }
      };
      for (auto& content : request["contents"]) {
        for (auto& part : content["parts"]) {
          if (part.contains("functionResponse")) cast(part["functionResponse"]["response"]);
        }
      }
    });
  }));
  // A closing request that does not disable tools (ADR-226.17).
  EXPECT_TRUE(Falsifies([&] {
    CheckConversationStateMachine(server, stores, [](Json& request) {
      request.erase("toolConfig");
    });
  }));
  ::unsetenv("GEMINI_ORACLE_COUNTEREXAMPLES");
}

}  // namespace
}  // namespace gemini_oracle::testing::conversation_model
