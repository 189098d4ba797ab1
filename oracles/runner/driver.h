#pragma once
// The seam between a case and an implementation under test. The reference implementation
// runs in-process; foreign implementations will speak the same report over a driver protocol.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "oracles/runner/model_names.h"
#include "reference_impl/json.h"

namespace gemini_oracle::runner {


class Driver {
 public:
  virtual ~Driver() = default;
  virtual std::string Name() const = 0;
  /// Runs the case's conversation against `base_url` (the capture server's script).
  virtual DriverReport Run(const Case& c, const std::string& base_url) = 0;
  /// Whether Run() suspends this case's conversation into a store and resumes it (the case's
  /// own `stored`/`then.suspend`, or every turn when the driver was given a store). The
  /// runner then also runs it in memory, for the resume-equivalence oracle (ADR-226.18).
  virtual bool Persists(const Case& c) const {
    (void)c;
    return false;
  }
  /// Run() with every suspension left out: the conversation stays in memory throughout.
  virtual DriverReport RunInMemory(const Case& c, const std::string& base_url) {
    return Run(c, base_url);
  }
  /// Called from another thread when the case ran past its time limit: Run() must return
  /// soon (its report is then discarded for the `timeout` verdict). May come more than once,
  /// and just before Run() starts talking, so a driver keeps refusing until its next Run().
  virtual void Cancel() {}
};

}  // namespace gemini_oracle::runner
