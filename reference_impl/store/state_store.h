#pragma once
// Encrypted suspension and resume (ADR-226.18; stored bytes never rewritten by a build,
// ADR-224.9). One interface, two backends with the same semantics: SQLite (a file, the
// embedded default) and MariaDB (InnoDB on a real server). See docs/state-store.md.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference_impl/store/conversation_state.h"
#include "reference_impl/store/keyring.h"

namespace gemini_oracle::ref {

/// One stored row exactly as the database holds it (for byte-identity checks and tests).
struct StoredRow {
  std::string conversation_id;
  std::uint64_t version = 0;  // 1 for the first suspension, +1 for each later one
  std::string key_id;         // which key of the keyring sealed it
  std::string nonce;          // 24 bytes
  std::string ciphertext;     // XChaCha20-Poly1305 (IETF) of EncodeState(), tag included
  std::int64_t updated_at = 0;
};

struct ResumedState {
  ConversationState state;
  std::uint64_t version = 0;  // pass it back to Suspend as expected_version
};

/// What Rekey did.
struct RekeyResult {
  std::size_t rekeyed = 0;
  /// Rows left under their old key: the conversation id and the refusal's code.
  std::vector<std::pair<std::string, std::string>> refused;
};

/// Errors are ProviderError with codes store.* (docs/error-codes.md); none quotes stored
/// content. A refused resume decrypts nothing into a transcript and writes nothing.
class StateStore {
 public:
  virtual ~StateStore() = default;

  /// Seals `state` with the keyring's current key and writes it as version expected_version+1.
  /// expected_version is the version this writer resumed (0: a new conversation). When another
  /// writer moved the row on first, nothing is written and "store.conflict" is thrown.
  /// All-or-nothing: a crash leaves the old row or the new one, never a mix.
  virtual std::uint64_t Suspend(std::string_view conversation_id, const ConversationState& state,
                                std::uint64_t expected_version) = 0;

  /// Reads, authenticates and decrypts the latest row. "store.not_found", "store.wrong_key"
  /// (sealed under a key id the keyring lacks), "store.tampered" (the ciphertext does not
  /// authenticate: changed bytes, or a row moved from another conversation or version).
  virtual ResumedState Resume(std::string_view conversation_id) = 0;

  /// The row as stored, without decrypting; nullopt when there is none.
  virtual std::optional<StoredRow> ReadRaw(std::string_view conversation_id) = 0;

  /// Every conversation id, sorted.
  virtual std::vector<std::string> ConversationIds() = 0;

  /// Re-encrypts every row not sealed under the current key, each in its own optimistic
  /// update (its version goes up by one). A row that cannot be opened (its key is not in the
  /// keyring: "store.wrong_key"; it fails authentication: "store.tampered") is left exactly as
  /// it was and listed, and the rest are still re-encrypted. Throws only when the store itself
  /// fails ("store.unavailable").
  virtual RekeyResult Rekey() = 0;

  /// The schema version of the opened store (after migrations).
  virtual int SchemaVersion() = 0;
};

/// The schema version this code writes; a store with a newer one is refused
/// ("store.schema_too_new").
inline constexpr int kStateSchemaVersion = 1;

/// Whether opening may make a store where there is none.
enum class StoreOpening {
  kCreateWhenMissing,  // an application's store: the file and the schema are made as needed
  kExistingOnly,       // maintenance (store info, store rekey): a SQLite file that does not
                       // exist, or a database without this schema, is "store.not_found" and
                       // nothing is written to it (not even SQLite's journal mode)
};

/// Opens (creating and migrating as needed) the store a URL names:
///   sqlite:PATH                          a file (created when missing)
///   mariadb://USER@HOST:PORT/DATABASE    password from GEMINI_ORACLE_MARIADB_PASSWORD
/// Throws ProviderError "store.url_malformed" or "store.unavailable"; with kExistingOnly also
/// "store.not_found". `wait_limit`: the longest one store call may wait on the database (a
/// server that stopped answering, a lock held elsewhere) before it fails "store.unavailable";
/// zero keeps the defaults (MariaDB: 10 s to connect, 120 s per read or write; SQLite: 30 s
/// for a lock).
std::unique_ptr<StateStore> OpenStateStore(
    std::string_view url, Keyring keyring,
    StoreOpening opening = StoreOpening::kCreateWhenMissing,
    std::chrono::milliseconds wait_limit = std::chrono::milliseconds::zero());

/// The URL with any password removed, for messages and reports.
std::string RedactedStoreUrl(std::string_view url);

}  // namespace gemini_oracle::ref
