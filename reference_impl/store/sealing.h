#pragma once
// The sealed form of one stored state (ADR-226.18): XChaCha20-Poly1305 (IETF) with a random
// 24-byte nonce per write; the associated data binds the ciphertext to its conversation id,
// version and key id. docs/state-store.md, "Sealed format".

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "reference_impl/store/keyring.h"

namespace gemini_oracle::ref {

/// Initializes libsodium once per process; throws ProviderError "store.unavailable" when it
/// cannot (no usable random source).
void EnsureSodium();

/// The associated data of a row: a domain string, then the conversation id, the version and the
/// key id, each preceded by its length (8 bytes, big-endian), the version as 8 bytes
/// big-endian. No two different triples give the same bytes.
std::string AssociatedData(std::string_view conversation_id, std::uint64_t version,
                           std::string_view key_id);

struct Sealed {
  std::string nonce;       // 24 random bytes
  std::string ciphertext;  // the plaintext's length + 16 (the Poly1305 tag)
};

/// Encrypts `plaintext` under `key` with a fresh random nonce.
Sealed Seal(std::string_view plaintext, std::string_view associated_data, const StateKey& key);

/// The plaintext, or nullopt when the ciphertext does not authenticate under this key, nonce
/// and associated data (or the nonce is not 24 bytes).
std::optional<std::string> Open(std::string_view ciphertext, std::string_view nonce,
                                std::string_view associated_data, const StateKey& key);

}  // namespace gemini_oracle::ref
