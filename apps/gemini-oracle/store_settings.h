#pragma once
// The state store and keys a command was given (docs/state-store.md), checked before any
// case runs so that a bad URL or key file stops the command with a clear error.

#include <chrono>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>

#include "oracles/runner/reference_driver.h"
#include "reference_impl/store/keyring.h"

namespace gemini_oracle::cli {

/// The key file when given, else GEMINI_ORACLE_STATE_KEY_FILE / GEMINI_ORACLE_STATE_KEY, else
/// (when `ephemeral_allowed`) nullopt for an ephemeral key. Throws ProviderError store.key_*.
std::optional<ref::Keyring> KeyringFor(const std::filesystem::path& key_file,
                                       bool ephemeral_allowed);

/// Opens the store once (creating and migrating it) to check the URL, the server and the keys.
/// On failure prints "<command>: <what> [code]" and sets `status` (4: the URL or the key
/// material, 2: the store could not be reached or opened) and returns nullopt. `wait_limit`
/// (the case time limit; zero: the store's defaults) bounds each store call, this check's and
/// the run's.
std::optional<runner::ReferenceDriver::StoreSettings> CheckedStoreSettings(
    const std::string& url, const std::filesystem::path& key_file, const char* command,
    std::ostream& out, std::ostream& err, int& status,
    std::chrono::milliseconds wait_limit = std::chrono::milliseconds::zero());

}  // namespace gemini_oracle::cli
