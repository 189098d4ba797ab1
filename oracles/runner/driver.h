#pragma once
// The seam between a case and an implementation under test. The reference implementation
// runs in-process; foreign implementations will speak the same report over a driver protocol.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "oracles/runner/case.h"
#include "reference_impl/json.h"

namespace gemini_oracle::runner {

/// A call as the implementation parsed it, in parse order (the order of functionCall parts).
struct ParsedCall {
  std::string id;  // the public ID the implementation assigned
  std::string name;
  Json arguments;
};

/// What the implementation reports about one exchange. Judges never trust it for what was
/// sent: the journal is the only account of the wire.
struct ExchangeReport {
  bool request_built = false;
  bool response_parsed = false;
  std::vector<ParsedCall> calls;
  /// The carried transcript serialized just before and just after building the request
  /// (ADR-224.9); empty when the implementation cannot expose it.
  std::string transcript_before_build;
  std::string transcript_after_build;
};

/// A typed refusal the implementation raised.
struct Refusal {
  std::string code;          // dotted error code
  std::string phase;         // build, parse or http
  std::size_t exchange = 0;  // 1-based
  std::string message;       // the implementation's error text, judged for leaks (226.19)
};

struct DriverReport {
  std::vector<ExchangeReport> exchanges;  // one per exchange reached
  std::optional<Refusal> refusal;
  /// Set when the harness itself failed (not a verdict on the implementation).
  std::optional<std::string> harness_error;
};

class Driver {
 public:
  virtual ~Driver() = default;
  virtual std::string Name() const = 0;
  /// Runs the case's conversation against `base_url` (the capture server's script).
  virtual DriverReport Run(const Case& c, const std::string& base_url) = 0;
  /// Called from another thread when the case ran past its time limit: Run() must return
  /// soon (its report is then discarded for the `timeout` verdict). May come more than once,
  /// and just before Run() starts talking, so a driver keeps refusing until its next Run().
  virtual void Cancel() {}
};

}  // namespace gemini_oracle::runner
