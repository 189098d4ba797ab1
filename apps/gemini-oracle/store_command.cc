// gemini-oracle store: key material and maintenance of a state store (docs/state-store.md).
#include <filesystem>
#include <ostream>
#include <string_view>
#include <system_error>

#include "apps/gemini-oracle/commands.h"
#include "apps/gemini-oracle/store_settings.h"
#include "reference_impl/provider_error.h"
#include "reference_impl/store/keyring.h"
#include "reference_impl/store/state_store.h"

namespace gemini_oracle::cli {

int StoreCommand(const StoreArgs& args, std::ostream& out, std::ostream& err) {
  const std::string command = "gemini-oracle store " + args.action;
  if (args.action == "keygen") {
    // A key line for a key file; rotation puts the new line first and keeps the old ones.
    const ref::StateKey key = ref::Keyring::NewKey();
    out << "# key id " << key.id << "\n" << ref::KeyToHex(key) << "\n";
    return 0;
  }
  if (args.store.empty()) {
    err << command << ": --store URL is required\n";
    return kExitBadInput;
  }
  // Maintenance works on a store that exists: a mistyped SQLite path must not quietly create
  // an empty one and report it empty.
  constexpr std::string_view kSqlite = "sqlite:";
  if (args.store.rfind(kSqlite, 0) == 0) {
    const std::filesystem::path path = args.store.substr(kSqlite.size());
    std::error_code ec;
    if (!path.empty() && !std::filesystem::exists(path, ec)) {
      err << command << ": no store at " << path.string() << " (" << command
          << " never creates one)\n";
      return kExitBadInput;
    }
  }
  try {
    // No ephemeral key here: rows sealed under a key nobody holds cannot be read or rekeyed.
    const auto keyring = KeyringFor(args.key_file, /*ephemeral_allowed=*/false);
    auto store = ref::OpenStateStore(args.store, *keyring);
    const std::string url = ref::RedactedStoreUrl(args.store);
    if (args.action == "rekey") {
      const ref::RekeyResult result = store->Rekey();
      out << command << ": " << result.rekeyed << " conversation"
          << (result.rekeyed == 1 ? "" : "s") << " re-encrypted under key "
          << keyring->Current().id << " in " << url << "\n";
      // Rows it could not open stay as they were; the old key must not be retired yet.
      for (const auto& [id, code] : result.refused) {
        err << command << ": conversation " << id << " left under its old key [" << code
            << "]\n";
      }
      if (!result.refused.empty()) {
        err << command << ": " << result.refused.size() << " conversation"
            << (result.refused.size() == 1 ? "" : "s")
            << " could not be opened (store.wrong_key: its key is not in the key file; "
               "store.tampered: it fails authentication); keep the old keys until they are "
               "dealt with\n";
        return kExitBadInput;
      }
      return 0;
    }
    // info: what is there, without decrypting anything.
    const auto ids = store->ConversationIds();
    std::size_t current = 0;
    for (const auto& id : ids) {
      const auto row = store->ReadRaw(id);
      if (row && row->key_id == keyring->Current().id) ++current;
    }
    out << url << ": schema version " << store->SchemaVersion() << ", " << ids.size()
        << " conversation" << (ids.size() == 1 ? "" : "s") << ", " << current
        << " sealed under the current key " << keyring->Current().id << "\n";
    return 0;
  } catch (const ref::ProviderError& e) {
    err << command << ": " << e.what() << " [" << e.code() << "]\n";
    return e.code() == "store.unavailable" || e.code() == "store.conflict" ? kExitHarness
                                                                           : kExitBadInput;
  }
}

}  // namespace gemini_oracle::cli
