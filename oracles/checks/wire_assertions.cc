// ADR-224.12 and the case's own clauses: the case's literal wire assertions, kind-exact.
#include "oracles/checks/judge.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {

std::vector<Finding> JudgeWireAssertions(const CaseRun& run) {
  std::vector<Finding> findings;
  const auto& assertions = run.c.expect.wire;
  if (assertions.empty()) return findings;
  // A wire assertion demonstrates the clause the case cites first.
  const std::string clause = run.c.clauses.empty() ? "ADR-224.12" : run.c.clauses.front();
  std::vector<detail::DecodedRequest> storage;
  const auto& decoded = detail::DecodedJournal(run, storage);
  for (std::size_t a = 0; a < assertions.size(); ++a) {
    const model::WireAssertion& assertion = assertions[a];
    const std::string label = "wire assertion " + std::to_string(a);
    const std::size_t request = assertion.request;
    if (request == 0 || request > decoded.size() || !decoded[request - 1].body) {
      findings.push_back(MakeFinding(
          clause, kWireViolation, request, assertion.pointer,
          label + ": request " + std::to_string(request) + " was not sent or did not decode",
          assertion.equals ? *assertion.equals : Json("absent"), "no request"));
      continue;
    }
    const Json& body = *decoded[request - 1].body;
    const Json* value = nullptr;
    try {
      const Json::json_pointer pointer(assertion.pointer);
      if (body.contains(pointer)) value = &body.at(pointer);
    } catch (const Json::exception&) {
      value = nullptr;  // a pointer that cannot resolve resolves to nothing
    }
    if (assertion.absent) {
      if (value != nullptr) {
        findings.push_back(MakeFinding(clause, kWireViolation, request, assertion.pointer,
                                       label + ": the member is present", "absent", *value));
      }
      continue;
    }
    if (!assertion.equals) continue;
    if (value == nullptr) {
      findings.push_back(MakeFinding(clause, kWireViolation, request, assertion.pointer,
                                     label + ": the member is absent", *assertion.equals,
                                     "absent"));
    } else if (!KindExactEqual(*value, *assertion.equals)) {
      findings.push_back(MakeFinding(clause, kWireViolation, request, assertion.pointer,
                                     label + ": the value differs (kind-exact)", *assertion.equals,
                                     *value));
    }
  }
  return findings;
}

}  // namespace gemini_oracle::checks
