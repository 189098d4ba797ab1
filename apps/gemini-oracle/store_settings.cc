#include "apps/gemini-oracle/store_settings.h"

#include <cstdlib>
#include <ostream>

#include "apps/gemini-oracle/commands.h"
#include "reference_impl/provider_error.h"
#include "reference_impl/store/state_store.h"

namespace gemini_oracle::cli {

std::optional<ref::Keyring> KeyringFor(const std::filesystem::path& key_file,
                                       bool ephemeral_allowed) {
  if (!key_file.empty()) return ref::Keyring::FromFile(key_file);
  const auto set = [](const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0';
  };
  if (set("GEMINI_ORACLE_STATE_KEY_FILE") || set("GEMINI_ORACLE_STATE_KEY") || !ephemeral_allowed) {
    return ref::Keyring::FromEnvironment();
  }
  return std::nullopt;
}

std::optional<runner::ReferenceDriver::StoreSettings> CheckedStoreSettings(
    const std::string& url, const std::filesystem::path& key_file, const char* command,
    std::ostream& out, std::ostream& err, int& status, std::chrono::milliseconds wait_limit) {
  runner::ReferenceDriver::StoreSettings settings;
  settings.wait_limit = wait_limit;
  if (url.empty()) {
    if (!key_file.empty()) {
      err << command << ": --store-key-file needs --store\n";
      status |= kExitBadInput;
      return std::nullopt;
    }
    return settings;
  }
  settings.url = url;
  try {
    settings.keyring = KeyringFor(key_file, /*ephemeral_allowed=*/true);
    if (!settings.keyring) {
      out << command << ": store " << ref::RedactedStoreUrl(url)
          << " sealed under an ephemeral key (what it stores cannot be read after this run; "
             "give --store-key-file or GEMINI_ORACLE_STATE_KEY to keep it readable)\n";
      settings.keyring = ref::Keyring::Ephemeral();
    }
    ref::OpenStateStore(url, *settings.keyring, ref::StoreOpening::kCreateWhenMissing,
                        wait_limit);
  } catch (const ref::ProviderError& e) {
    err << command << ": " << e.what() << " [" << e.code() << "]\n";
    status |= e.code() == "store.unavailable" ? kExitHarness : kExitBadInput;
    return std::nullopt;
  }
  return settings;
}

}  // namespace gemini_oracle::cli
