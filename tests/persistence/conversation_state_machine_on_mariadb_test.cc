// The conversation state machine (tests/generators/conversation_state_machine.h) suspending and
// resuming on both stores, SQLite and MariaDB, each suspension on a drawn one (ADR-226.18).
#include <gtest/gtest.h>

#include <iostream>

#include "reference_impl/store/keyring.h"
#include "tests/generators/conversation_state_machine.h"
#include "tests/mariadb_settings.h"
#include "tests/property_support.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::testing::conversation_model {
namespace {

TEST(ConversationStateMachine, ReferenceAgreesWithTheModelOnSqliteAndMariaDb) {
  std::string why;
  const auto settings = LoadMariaDbSettings(&why);
  if (!settings) {
    if (MariaDbRequired()) FAIL() << kMariaDbRequiredHint << " (" << why << ")";
    GTEST_SKIP() << why << ". " << kMariaDbRequiredHint;
  }
  settings->ExportPassword();
  TempDir dir;
  ScriptedServer server;
  const ref::Keyring keyring = ref::Keyring::Ephemeral();
  const std::vector<NamedStore> stores = {
      {"SQLite", "sqlite",
       [&] {
         return ref::OpenStateStore("sqlite:" + (dir.path() / "state.sqlite3").string(), keyring);
       }},
      {"MariaDB", "mariadb", [&] { return ref::OpenStateStore(settings->StoreUrl(), keyring); }}};
  CheckProperty([&] { CheckConversationStateMachine(server, stores); });
  std::cout << "resumed " << *stores[0].resumes << " times from SQLite, " << *stores[1].resumes
            << " from MariaDB" << std::endl;
  EXPECT_GT(*stores[0].resumes, 0u);
  EXPECT_GT(*stores[1].resumes, 0u);
}

}  // namespace
}  // namespace gemini_oracle::testing::conversation_model
