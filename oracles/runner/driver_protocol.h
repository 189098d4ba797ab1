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

/// The protocol version this oracle speaks.
inline constexpr int kVersion = 1;

/// What a driver may support beyond running a fresh conversation; a case needing one the
/// driver lacks is skipped with the reason.
inline constexpr const char* kCarriedState = "carried-state";  // load `transcript` and capsules
inline constexpr const char* kPersistence = "persistence";     // `stored`, `then.suspend`
inline constexpr const char* kApprovals = "approvals";         // `then.approvals`, gated results
inline constexpr const char* kStreaming = "streaming";         // :streamGenerateContent
inline constexpr const char* kSnapshots = "snapshots";         // transcripts before/after build
inline constexpr const char* kTypedErrors = "typed-errors";    // refusals with catalogue codes

/// The driver's answer to `start`.
struct Hello {
  std::string name, version, language;
  std::set<std::string> capabilities;
};

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
/// error's context) keep at most 200 printable characters with every string of the case's
/// own content (ids, arguments, text) cut out, so that no report echoes native content.
Reply ParseReply(const Json& message, std::size_t seq, const Case& c);

/// `text` with control characters dropped, at most `limit` bytes, and every string of `c`'s
/// content of 4 or more characters replaced by "…".
std::string SafeDriverText(std::string text, const Case* c, std::size_t limit = 200);

/// A report as the driver writes it (the reference process driver's side).
Json ReportMessage(const DriverReport& report, std::size_t seq);

/// The case a `run_case` describes, rebuilt so that an in-process driver can run it: the
/// scripted answers it never sees are stand-ins (whole or streamed, as the message says).
/// Throws std::invalid_argument when the message is not a run_case.
Case CaseOfRunMessage(const Json& message);

}  // namespace gemini_oracle::runner::protocol
