#include "oracles/checks/judge.h"

#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {

// ADR-224.12: the checks read actual serialized requests; a body that does not decode as a
// generateContent request is itself a finding.
std::vector<Finding> JudgeDecoding(const CaseRun& run) {
  std::vector<Finding> findings;
  const auto decoded = detail::DecodeJournal(run.journal);
  for (std::size_t i = 0; i < decoded.size(); ++i) {
    const std::size_t request = i + 1;
    if (!decoded[i].body) {
      findings.push_back(MakeFinding("ADR-224.12", kWireViolation, request, "",
                                     "request body is " + decoded[i].error));
      continue;
    }
    if (!decoded[i].body->is_object()) {
      findings.push_back(MakeFinding("ADR-224.12", kWireViolation, request, "",
                                     "request body is not a JSON object"));
      continue;
    }
    if (detail::Contents(decoded[i].body) == nullptr) {
      findings.push_back(MakeFinding("ADR-224.12", kWireViolation, request, "/contents",
                                     "request body has no contents array"));
    }
  }
  return findings;
}

const std::vector<Judge>& Judges() {
  static const std::vector<Judge> judges = {
      {"decoding", &JudgeDecoding},
      {"outcome", &JudgeOutcome},
      {"struct_roots", &JudgeStructRoots},
      {"results", &JudgeResults},
      {"replay", &JudgeReplay},
      {"ids", &JudgeIds},
      {"public_arguments", &JudgePublicArguments},
      {"wire_assertions", &JudgeWireAssertions},
      {"no_rewrite", &JudgeNoRewrite},
      {"closing", &JudgeClosing},
      {"leaks", &JudgeLeaks},
  };
  return judges;
}

std::vector<Finding> JudgeAll(const CaseRun& run) {
  std::vector<Finding> all;
  for (const auto& judge : Judges()) {
    auto findings = judge.run(run);
    all.insert(all.end(), std::make_move_iterator(findings.begin()),
               std::make_move_iterator(findings.end()));
  }
  return all;
}

}  // namespace gemini_oracle::checks
