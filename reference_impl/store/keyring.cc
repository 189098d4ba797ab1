#include "reference_impl/store/keyring.h"

#include <sodium.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "reference_impl/provider_error.h"
#include "reference_impl/store/sealing.h"

namespace gemini_oracle::ref {
namespace {

// The BLAKE2b key that makes a key id: ids derived for this purpose only, so an id never
// equals a hash of the key computed for anything else.
constexpr std::string_view kKeyIdDomain = "gemini-oracle/state-key-id/v1";

constexpr const char* kKeyFileVariable = "GEMINI_ORACLE_STATE_KEY_FILE";
constexpr const char* kKeyVariable = "GEMINI_ORACLE_STATE_KEY";

// `where` is a file and line or a variable name: the message never holds the key.
[[noreturn]] void Refuse(const char* code, std::string where) {
  Position position;
  position.field = std::move(where);
  throw ProviderError(code, std::move(position));
}

std::string_view Trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n\f\v");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n\f\v");
  return text.substr(first, last - first + 1);
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Exactly 64 hex digits (surrounding whitespace already trimmed); nullopt otherwise.
// The bytes are written in place (no temporary copy of the key is left behind); the caller
// wipes them after use.
std::optional<std::array<unsigned char, 32>> ParseHex(std::string_view hex) {
  std::optional<std::array<unsigned char, 32>> out(std::in_place);
  auto& bytes = *out;
  if (hex.size() != 2 * bytes.size()) return std::nullopt;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const int high = HexValue(hex[2 * i]);
    const int low = HexValue(hex[2 * i + 1]);
    if (high < 0 || low < 0) {
      sodium_memzero(bytes.data(), bytes.size());
      return std::nullopt;
    }
    bytes[i] = static_cast<unsigned char>(high * 16 + low);
  }
  return out;
}

StateKey KeyOf(const std::array<unsigned char, 32>& bytes) {
  StateKey key;
  key.bytes = bytes;
  key.id = KeyIdOf(bytes);
  return key;
}

}  // namespace

StateKey::~StateKey() { sodium_memzero(bytes.data(), bytes.size()); }

std::string KeyIdOf(const std::array<unsigned char, 32>& bytes) {
  EnsureSodium();
  unsigned char digest[crypto_generichash_BYTES];
  crypto_generichash(digest, sizeof digest, bytes.data(), bytes.size(),
                     reinterpret_cast<const unsigned char*>(kKeyIdDomain.data()),
                     kKeyIdDomain.size());
  char hex[2 * 8 + 1];
  sodium_bin2hex(hex, sizeof hex, digest, 8);
  sodium_memzero(digest, sizeof digest);
  return hex;
}

Keyring Keyring::FromFile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) Refuse("store.key_missing", file.string());
  std::vector<StateKey> keys;
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string_view text = Trim(line);
    if (text.empty() || text.front() == '#') continue;
    auto bytes = ParseHex(text);
    sodium_memzero(line.data(), line.size());
    if (!bytes) Refuse("store.key_malformed", file.string() + ":" + std::to_string(number));
    keys.push_back(KeyOf(*bytes));
    sodium_memzero(bytes->data(), bytes->size());
  }
  if (in.bad()) Refuse("store.key_missing", file.string());
  if (keys.empty()) Refuse("store.key_missing", file.string());
  return FromKeys(std::move(keys));
}

Keyring Keyring::FromEnvironment() {
  if (const char* file = std::getenv(kKeyFileVariable); file != nullptr && *file != '\0') {
    return FromFile(file);
  }
  if (const char* hex = std::getenv(kKeyVariable); hex != nullptr && *hex != '\0') {
    auto bytes = ParseHex(Trim(hex));
    if (!bytes) Refuse("store.key_malformed", kKeyVariable);
    StateKey key = KeyOf(*bytes);
    sodium_memzero(bytes->data(), bytes->size());
    return FromKeys({std::move(key)});
  }
  Refuse("store.key_missing", std::string(kKeyFileVariable) + ", " + kKeyVariable);
}

Keyring Keyring::Ephemeral() { return FromKeys({NewKey()}); }

Keyring Keyring::FromKeys(std::vector<StateKey> keys) {
  if (keys.empty()) Refuse("store.key_missing", "keyring");
  Keyring ring;
  for (auto& key : keys) {
    // The id is a function of the key: one given with another id is corrected, so that a row
    // names the key that really sealed it.
    key.id = KeyIdOf(key.bytes);
    ring.keys_.push_back(std::move(key));
  }
  return ring;
}

StateKey Keyring::NewKey() {
  EnsureSodium();
  std::array<unsigned char, 32> bytes{};
  crypto_aead_xchacha20poly1305_ietf_keygen(bytes.data());
  StateKey key = KeyOf(bytes);
  sodium_memzero(bytes.data(), bytes.size());
  return key;
}

StateKey Keyring::KeyFromHex(std::string_view hex) {
  auto bytes = ParseHex(Trim(hex));
  if (!bytes) Refuse("store.key_malformed", "key");
  StateKey key = KeyOf(*bytes);
  sodium_memzero(bytes->data(), bytes->size());
  return key;
}

const StateKey* Keyring::Find(std::string_view id) const {
  for (const auto& key : keys_) {
    if (key.id == id) return &key;
  }
  return nullptr;
}

std::string KeyToHex(const StateKey& key) {
  char hex[2 * 32 + 1];
  sodium_bin2hex(hex, sizeof hex, key.bytes.data(), key.bytes.size());
  return hex;
}

}  // namespace gemini_oracle::ref
