#include "reference_impl/store/sealing.h"

#include <sodium.h>

#include <mutex>

#include "reference_impl/provider_error.h"

namespace gemini_oracle::ref {
namespace {

constexpr std::string_view kAssociatedDataDomain = "gemini-oracle/conversation-state/v1";

void AppendUint64(std::string& out, std::uint64_t value) {
  for (int shift = 56; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((value >> shift) & 0xff));
  }
}

void AppendField(std::string& out, std::string_view field) {
  AppendUint64(out, field.size());
  out.append(field);
}

const unsigned char* Bytes(std::string_view text) {
  return reinterpret_cast<const unsigned char*>(text.data());
}

}  // namespace

void EnsureSodium() {
  static std::once_flag once;
  static bool ready = false;
  // sodium_init is itself safe to call more than once; the flag keeps it off the hot path.
  std::call_once(once, [] { ready = sodium_init() >= 0; });
  if (!ready) throw ProviderError("store.unavailable", Position{{}, {}, "libsodium", {}});
}

std::string AssociatedData(std::string_view conversation_id, std::uint64_t version,
                           std::string_view key_id) {
  std::string ad;
  AppendField(ad, kAssociatedDataDomain);
  AppendField(ad, conversation_id);
  AppendUint64(ad, version);
  AppendField(ad, key_id);
  return ad;
}

Sealed Seal(std::string_view plaintext, std::string_view associated_data, const StateKey& key) {
  EnsureSodium();
  Sealed sealed;
  sealed.nonce.resize(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES);
  // A random 192-bit nonce per write: no counter to keep across processes, and a repeat is
  // out of reach however many rows one key seals.
  randombytes_buf(sealed.nonce.data(), sealed.nonce.size());
  sealed.ciphertext.resize(plaintext.size() + crypto_aead_xchacha20poly1305_ietf_ABYTES);
  unsigned long long length = 0;
  crypto_aead_xchacha20poly1305_ietf_encrypt(
      reinterpret_cast<unsigned char*>(sealed.ciphertext.data()), &length, Bytes(plaintext),
      plaintext.size(), Bytes(associated_data), associated_data.size(), nullptr,
      Bytes(sealed.nonce), key.bytes.data());
  sealed.ciphertext.resize(static_cast<std::size_t>(length));
  return sealed;
}

std::optional<std::string> Open(std::string_view ciphertext, std::string_view nonce,
                                std::string_view associated_data, const StateKey& key) {
  EnsureSodium();
  if (nonce.size() != crypto_aead_xchacha20poly1305_ietf_NPUBBYTES ||
      ciphertext.size() < crypto_aead_xchacha20poly1305_ietf_ABYTES) {
    return std::nullopt;
  }
  std::string plaintext(ciphertext.size() - crypto_aead_xchacha20poly1305_ietf_ABYTES, '\0');
  unsigned long long length = 0;
  if (crypto_aead_xchacha20poly1305_ietf_decrypt(
          reinterpret_cast<unsigned char*>(plaintext.data()), &length, nullptr, Bytes(ciphertext),
          ciphertext.size(), Bytes(associated_data), associated_data.size(), Bytes(nonce),
          key.bytes.data()) != 0) {
    return std::nullopt;
  }
  plaintext.resize(static_cast<std::size_t>(length));
  return plaintext;
}

}  // namespace gemini_oracle::ref
