#pragma once
// Whether a driver handed each tool result back to the call the case meant it for
// (INTERPRETING §15.2). A framework that runs the tool loop itself gives its tool function a
// call and the driver looks the case's result up; a wrong lookup would make the run test
// another conversation than the case's, so it is the driver's error, never a verdict on the
// implementation. What reached the wire is still judged from the journal alone.

#include <optional>
#include <string>

#include "oracles/model/case.h"
#include "oracles/model/driver_report.h"

namespace gemini_oracle::runner {

/// nullopt when every `answered` entry pairs a result with the call its selector picks (by
/// parse-order position among the exchange's pending calls); otherwise what is wrong, in
/// positions only (never a name, id or argument of the case). Exchanges without `answered`
/// are not checked.
std::optional<std::string> CheckAnsweredCalls(const model::Case& c,
                                              const model::DriverReport& report);

}  // namespace gemini_oracle::runner
