#pragma once
// What the state store tests share: a conversation state holding every kind the ADRs care
// about, the two places a store lives (a SQLite file in a temp folder; a database of its own on
// the MariaDB test server), and error helpers.

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>

#include "reference_impl/json.h"
#include "reference_impl/provider_error.h"
#include "reference_impl/store/conversation_state.h"
#include "reference_impl/store/sql_backend.h"
#include "reference_impl/store/state_store.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::ref::testing {

/// Planted in every stored string a test uses: no error message may contain it.
inline constexpr char kNeedle[] = "NEEDLE-5e1f";

/// A transcript with a capsule (native parts with ids and a signature, bindings), a foreign
/// payload, {} and [], 1.0 and 1, -0.0, int64 and uint64 extremes, unicode and NUL text, a tool
/// result; one pending call, a counter above the transcript's ids, two approvals.
inline ConversationState RichState() {
  const std::string args =
      R"({"empty":{},"list":[],"one":1.0,"int":1,"neg0":-0.0,"half":0.5,)"
      R"("i64max":9223372036854775807,"i64min":-9223372036854775808,)"
      R"("u64max":18446744073709551615,"big":9007199254740993,)"
      R"("nested":[[],{},{"0":"a","1":"b"},[1.0,-0.0,{}]],)"
      R"("text":"NEEDLE-5e1f \u00fc \u0000 \ud834\udd1e"})";
  const std::string transcript = R"([
    {"role":"system","content":"be exact"},
    {"role":"user","content":"h\u00e9llo \u2713 \ud834\udd1e NUL:\u0000 NEEDLE-5e1f"},
    {"role":"assistant","id":"turn_3","content":"checking","tool_calls":[
      {"id":"tc_1","name":"get_weather","arguments":)" +
                                 args + R"(},
      {"id":"tc_2","name":"get_weather","arguments":{}}],
     "provider_state":{"gemini":{"owner":"turn_3","native_parts":[
        {"text":"thinking NEEDLE-5e1f","thought":true,"thoughtSignature":"c2lnLXRob3VnaHQ="},
        {"functionCall":{"id":"NEEDLE-5e1f-a","name":"get_weather","args":)" +
                                 args + R"(},
         "thoughtSignature":"NEEDLE-5e1f-sig"},
        {"functionCall":{"id":"NEEDLE-5e1f-b","name":"get_weather","args":{}}}],
       "tool_call_bindings":[{"tool_call_id":"tc_1","native_id":"NEEDLE-5e1f-a"},
                             {"tool_call_id":"tc_2","native_id":"NEEDLE-5e1f-b"}]},
      "openai":{"id":"call_NEEDLE-5e1f","extra":[{},[],1.0,-0.0]}}},
    {"role":"tool","tool_call_id":"tc_1","name":"get_weather",
     "content":"{\"t\":21.0} NEEDLE-5e1f","is_error":false}
  ])";
  ConversationState state;
  state.transcript = TranscriptFromJson(ParseJson(transcript));
  state.pending_tool_calls = {"tc_2"};
  state.public_id_counter = 7;
  Approval approved;
  approved.approval_id = "ap_NEEDLE-5e1f";
  approved.tool_call_id = "tc_1";
  approved.name = "get_weather";
  approved.arguments_digest = "blake2b-256:" + std::string(64, 'a');
  approved.status = Approval::Status::kApproved;
  approved.decided_at = 1700000000;
  Approval denied = approved;
  denied.approval_id = "ap_2";
  denied.tool_call_id = "tc_2";
  denied.status = Approval::Status::kDenied;
  denied.decided_at = -1;
  state.approvals = {approved, denied};
  return state;
}

/// A fresh, empty place for a store; removed when destroyed.
class StoreLocation {
 public:
  virtual ~StoreLocation() = default;
  virtual std::string Url() const = 0;
};

/// Thrown when a backend's place cannot be prepared (no MariaDB settings); the test then skips,
/// or fails in CI.
class LocationUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A test parameter: a backend and how to make a fresh place for it.
struct BackendParam {
  std::string name;  // "Sqlite", "MariaDb"
  std::function<std::unique_ptr<StoreLocation>()> make;
  int crash_iterations = 0;  // the crash test's kill count on this backend
};

inline std::string ParamName(const ::testing::TestParamInfo<BackendParam>& info) {
  return info.param.name;
}

inline void PrintTo(const BackendParam& param, std::ostream* out) { *out << param.name; }

class SqliteLocation : public StoreLocation {
 public:
  std::string Url() const override { return "sqlite:" + (dir_.path() / "state.sqlite3").string(); }

 private:
  gemini_oracle::testing::TempDir dir_;
};

/// The error a call throws, or nullopt when it throws none.
template <typename F>
std::optional<ProviderError> ErrorOf(F&& call) {
  try {
    call();
  } catch (const ProviderError& e) {
    return e;
  }
  return std::nullopt;
}

/// The code of the error a call throws, or "(none)".
template <typename F>
std::string CodeOf(F&& call) {
  const auto e = ErrorOf(std::forward<F>(call));
  return e ? e->code() : "(none)";
}

/// Bytes that compare rows exactly (all columns but updated_at, which is the clock's).
inline std::string RowBytes(const std::optional<StoredRow>& row) {
  if (!row) return "(no row)";
  return row->conversation_id + "|" + std::to_string(row->version) + "|" + row->key_id + "|" +
         row->nonce + "|" + row->ciphertext + "|" + std::to_string(row->updated_at);
}

/// A random lowercase hex string: unique names for conversations and databases.
inline std::string RandomHex(std::size_t digits) {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < digits; ++i) out += kHex[rng() % 16];
  return out;
}

}  // namespace gemini_oracle::ref::testing
