#pragma once
// The driver protocol (fixtures/INTERPRETING.md §15; one JSON Schema per message in
// drivers/protocol/): JSON lines between the oracle and an implementation's driver process.
// The oracle writes `start`, `run_case` and `stop`; the driver answers `start` with `hello` and
// each `run_case` with `report`, `skipped` or `errored`. Pure functions: no I/O here.

#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "oracles/runner/model_names.h"
#include "reference_impl/json.h"

namespace gemini_oracle::runner::protocol {

/// The protocol version this oracle speaks, and the oldest it still runs. Version 2 adds the
/// `stream-capture` capability and, per exchange of `run_case`, the calls of the answer and the
/// call each selector picks (INTERPRETING §15.1).
inline constexpr int kVersion = 2;
inline constexpr int kOldestVersion = 1;

/// The descriptor a driver inherits for its protocol lines, apart from its standard output
/// (where Node libraries log): a driver that writes its hello there speaks the protocol there.
inline constexpr int kReplyFd = 3;

/// What a driver may support beyond running a fresh conversation; a case needing one the
/// driver lacks is skipped with the reason.
inline constexpr const char* kCarriedState = "carried-state";  // load `transcript` and capsules
inline constexpr const char* kPersistence = "persistence";     // `stored`, `then.suspend`
inline constexpr const char* kApprovals = "approvals";         // `then.approvals`, gated results
inline constexpr const char* kStreaming = "streaming";         // :streamGenerateContent
inline constexpr const char* kSnapshots = "snapshots";         // transcripts before/after build
inline constexpr const char* kTypedErrors = "typed-errors";    // refusals with catalogue codes
inline constexpr const char* kStreamCapture = "stream-capture";  // state captured from streams

/// The driver's answer to `start`.
struct Hello {
  int protocol = kVersion;
  std::string name, version, language;
  /// As declared; a protocol 1 driver that streams also captures from streams (it was offered
  /// the streamed twins before the capability existed).
  std::set<std::string> capabilities;
};

/// Places a refusal its driver reported without `exchange` and `phase` (a framework that
/// raises says neither): from the `sent` requests of the journal, at the case's expected
/// refusal when the journal fits it, else at the parse of the last answer received (the build
/// of exchange 1 when none went out). Returns whether it placed one.
bool PlaceRefusal(const Case& c, std::size_t sent, DriverReport& report);

/// The capabilities a case needs (none for a fresh conversation), in a fixed order.
std::vector<std::string> RequiredCapabilities(const Case& c);

Json StartMessage();
Json StopMessage();

/// `run_case`: the case id, the base URL serving it, the model, the options, the initial
/// transcript (and `stored`), and per exchange the client's actions and whether its answer is
/// streamed, never the scripted answers. `keep_in_memory`: run without any suspension.
Json RunCaseMessage(const Case& c, const std::string& base_url, std::size_t seq,
                    bool keep_in_memory);

/// A driver line that breaks the protocol (not JSON, wrong type, missing member, another
/// seq): the reason, without echoing the line's content.
struct Garbled {
  std::string why;
};

/// Requires `protocol` 1 and a `capabilities` list (names it does not know are kept and never
/// asked for); throws std::invalid_argument. Texts are made safe (SafeDriverText).
Hello ParseHello(const Json& message);

struct Skipped {
  std::string reason;
};
struct Errored {
  std::string context;
};
using Reply = std::variant<DriverReport, Skipped, Errored, Garbled>;

/// The driver's answer to `run_case` number `seq` of case `c`. A refusal code must look like a
/// code (letters, digits, `_ . : -`, at most 64); the driver's free texts (a skip's reason, an
/// error's context) keep at most 200 printable characters with the case's native content (ids,
/// argument and result values, signatures, texts) cut out, so that no report echoes it, and
/// its ordinary words kept, so that like texts group.
Reply ParseReply(const Json& message, std::size_t seq, const Case& c);

/// `text` with control characters dropped, at most `limit` bytes, and `c`'s native content
/// replaced by "…": values of 8 or more characters wherever they occur, of 4 to 7 where they
/// stand as a token of their own.
std::string SafeDriverText(std::string text, const Case* c, std::size_t limit = 200);

/// A report as the driver writes it (the reference process driver's side).
Json ReportMessage(const DriverReport& report, std::size_t seq);

/// The case a `run_case` describes, rebuilt so that an in-process driver can run it: the
/// scripted answers it never sees are stand-ins (whole or streamed, as the message says).
/// Throws std::invalid_argument when the message is not a run_case.
Case CaseOfRunMessage(const Json& message);

}  // namespace gemini_oracle::runner::protocol
