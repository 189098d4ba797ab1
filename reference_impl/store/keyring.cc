#include "reference_impl/store/keyring.h"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <system_error>

#include "reference_impl/provider_error.h"
#include "reference_impl/store/sealing.h"

namespace gemini_oracle::ref {
namespace {

// The BLAKE2b key that makes a key id: ids derived for this purpose only, so an id never
// equals a hash of the key computed for anything else.
constexpr std::string_view kKeyIdDomain = "gemini-oracle/state-key-id/v1";

// Far above any real key file (a line per key and comments).
constexpr std::size_t kMaxKeyFileBytes = std::size_t{1} << 20;

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
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) Refuse("store.key_missing", file.string());
  // Checked on the open file, so a swap after the check changes nothing. A key file its group
  // or others may write could be replaced by them: refused before a byte of it is read. One
  // they may only read is said on standard error and used: secret mounts (Kubernetes 0644,
  // Docker 0444, a service group's 0640) cannot always be made private.
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    ::close(fd);
    Refuse("store.key_missing", file.string());
  }
  if (S_ISREG(status.st_mode) && (status.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(status.st_mode & 07777));
    if ((status.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
      ::close(fd);
      Refuse("store.key_exposed", file.string() + ", mode " + mode);
    }
    std::cerr << "gemini-oracle: warning: the key file " << file.string() << " (mode " << mode
              << ") may be read by its group or others: chmod 600 it where you can\n";
  }
  std::string text;
  char buffer[4096];
  bool failed = false;
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      failed = n < 0;
      break;
    }
    text.append(buffer, static_cast<std::size_t>(n));
    // A key file is a few lines; a huge one (a device, a wrong path) is not read to the end.
    if (text.size() > kMaxKeyFileBytes) {
      failed = true;
      break;
    }
  }
  sodium_memzero(buffer, sizeof buffer);
  ::close(fd);
  const auto wipe = [&text] { sodium_memzero(text.data(), text.size()); };
  if (failed) {
    wipe();
    Refuse("store.key_missing", file.string());
  }
  std::vector<StateKey> keys;
  std::size_t number = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    ++number;
    const std::string_view line = Trim(std::string_view(text).substr(start, end - start));
    start = end + 1;
    if (line.empty() || line.front() == '#') continue;
    auto bytes = ParseHex(line);
    if (!bytes) {
      wipe();
      Refuse("store.key_malformed", file.string() + ":" + std::to_string(number));
    }
    keys.push_back(KeyOf(*bytes));
    sodium_memzero(bytes->data(), bytes->size());
  }
  wipe();
  if (keys.empty()) Refuse("store.key_missing", file.string());
  return FromKeys(std::move(keys));
}

void WriteNewKeyFile(const std::filesystem::path& file, const StateKey& key) {
  // O_EXCL: an existing file (or a link planted at the name) is never replaced; 0600 from the
  // first byte, so the key is never readable by others, not even for a moment.
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    throw std::system_error(errno, std::generic_category(), "cannot create " + file.string());
  }
  std::string text = "# key id " + key.id + "\n" + KeyToHex(key) + "\n";
  std::size_t written = 0;
  int error = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = n < 0 ? errno : EIO;
      break;
    }
    written += static_cast<std::size_t>(n);
  }
  sodium_memzero(text.data(), text.size());
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) {
    ::unlink(file.c_str());  // a half-written key file would be refused later anyway
    throw std::system_error(error, std::generic_category(), "cannot write " + file.string());
  }
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
