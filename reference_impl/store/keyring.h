#pragma once
// The keys that seal stored state (XChaCha20-Poly1305, 32-byte keys). The first key is
// current (it seals); the others only open rows sealed before a rotation. A key's id is
// derived from the key itself, so a wrong key is told apart from tampering.

#include <array>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace gemini_oracle::ref {

struct StateKey {
  std::string id;  // 16 hex digits derived from the key (BLAKE2b, personalised)
  std::array<unsigned char, 32> bytes{};
  ~StateKey();  // wipes `bytes`, so no copy of a key outlives its use in freed memory
};

class Keyring {
 public:
  /// A key file: one key per line (64 hex digits), '#' comments and blank lines ignored; the
  /// first key is current. Throws ProviderError "store.key_malformed" (line number, never
  /// the key), "store.key_missing", or "store.key_exposed" for a regular file its group or
  /// others may write (mode & 022; the file and mode named, nothing read). One they may only
  /// read is used, with a warning on standard error.
  static Keyring FromFile(const std::filesystem::path& file);
  /// GEMINI_ORACLE_STATE_KEY_FILE (a key file), else GEMINI_ORACLE_STATE_KEY (one key, 64
  /// hex digits). Throws "store.key_missing" when neither is set.
  static Keyring FromEnvironment();
  /// A fresh random key held in memory only (a store it seals cannot be read after exit).
  static Keyring Ephemeral();
  static Keyring FromKeys(std::vector<StateKey> keys);  // first is current
  static StateKey NewKey();
  static StateKey KeyFromHex(std::string_view hex);  // throws "store.key_malformed"

  const StateKey& Current() const { return keys_.front(); }
  /// nullptr when no key has this id.
  const StateKey* Find(std::string_view id) const;
  const std::vector<StateKey>& keys() const { return keys_; }

 private:
  std::vector<StateKey> keys_;
};

/// 64 lowercase hex digits.
std::string KeyToHex(const StateKey& key);

/// Creates `file` holding `key` as a key file ("# key id ..." and the key line), mode 0600,
/// never replacing anything at that name (O_CREAT | O_EXCL). Throws std::system_error.
void WriteNewKeyFile(const std::filesystem::path& file, const StateKey& key);

/// A key's id: 16 lowercase hex digits, the first 8 bytes of BLAKE2b-256 of the key, keyed
/// with a fixed domain string (docs/state-store.md). Reveals nothing usable about the key.
std::string KeyIdOf(const std::array<unsigned char, 32>& bytes);

}  // namespace gemini_oracle::ref
