// gemini-oracle store: key material and maintenance of a state store (docs/state-store.md).
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>
#include <system_error>

#include "apps/gemini-oracle/commands.h"
#include "apps/gemini-oracle/store_settings.h"
#include "reference_impl/provider_error.h"
#include "reference_impl/store/keyring.h"
#include "reference_impl/store/state_store.h"

namespace gemini_oracle::cli {
namespace {

// A conversation id as an operator can read and paste it: ids are any bytes (1 to 255), so
// anything outside printable ASCII, the quote and the backslash is written as \xNN.
std::string Printable(std::string_view id) {
  std::string out = "\"";
  for (const unsigned char byte : id) {
    if (byte >= 0x20 && byte < 0x7f && byte != '"' && byte != '\\') {
      out.push_back(static_cast<char>(byte));
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      out += escaped;
    }
  }
  return out + "\"";
}

}  // namespace

int StoreCommand(const StoreArgs& args, std::ostream& out, std::ostream& err) {
  const std::string command = "gemini-oracle store " + args.action;
  if (args.action == "keygen") {
    const ref::StateKey key = ref::Keyring::NewKey();
    if (!args.out.empty()) {
      try {
        ref::WriteNewKeyFile(args.out, key);
      } catch (const std::system_error& e) {
        err << command << ": " << e.what() << " (an existing file is never replaced)\n";
        return e.code() == std::errc::file_exists ? kExitBadInput : kExitHarness;
      }
      out << command << ": key " << key.id << " written to " << DisplayPath(args.out)
          << " (mode 600)\n";
      return 0;
    }
    // A key line for a key file; rotation puts the new line first and keeps the old ones.
    out << "# key id " << key.id << "\n" << ref::KeyToHex(key) << "\n";
    return 0;
  }
  if (!args.out.empty()) {
    err << command << ": --out is for keygen only\n";
    return kExitBadInput;
  }
  if (args.store.empty()) {
    err << command << ": --store URL is required\n";
    return kExitBadInput;
  }
  try {
    // No ephemeral key here: rows sealed under a key nobody holds cannot be read or rekeyed.
    const auto keyring = KeyringFor(args.key_file, /*ephemeral_allowed=*/false);
    // Maintenance works on a store that exists: a mistyped path or another application's
    // database is refused and left as it was, never made into an empty store.
    auto store = ref::OpenStateStore(args.store, *keyring, ref::StoreOpening::kExistingOnly);
    const std::string url = ref::RedactedStoreUrl(args.store);
    if (args.action == "rekey") {
      const ref::RekeyResult result = store->Rekey();
      out << command << ": " << result.rekeyed << " conversation"
          << (result.rekeyed == 1 ? "" : "s") << " re-encrypted under key "
          << keyring->Current().id << " in " << url << "\n";
      // Rows it could not open stay as they were; the old key must not be retired yet.
      for (const auto& [id, code] : result.refused) {
        err << command << ": conversation " << Printable(id) << " left under its old key ["
            << code << "]\n";
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
    err << command << ": " << e.what() << " [" << e.code() << "]"
        << (e.code() == "store.not_found" ? " (" + command + " never creates a store)" : "")
        << "\n";
    return e.code() == "store.unavailable" || e.code() == "store.conflict" ? kExitHarness
                                                                           : kExitBadInput;
  }
}

}  // namespace gemini_oracle::cli
