#pragma once
// JUnit XML for CI dashboards, derived from the report index.

#include <nlohmann/json.hpp>
#include <ostream>

namespace gemini_oracle::reports {

/// One <testsuite> per top folder of the case ids (adr-224, adr-226, ...), one <testcase>
/// per result (name = id, classname = folder, time in seconds). fail -> <failure>, error and
/// timeout -> <error>, skipped/known/implementation_defined -> <skipped>, each with the
/// findings listed. All text is XML-escaped, control characters included.
void WriteJunit(const nlohmann::json& index, std::ostream& out);

}  // namespace gemini_oracle::reports
