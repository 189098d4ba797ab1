#include "oracles/checks/judge.h"

#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {

// ADR-224.12: the checks read actual serialized requests; a body that does not decode as a
// generateContent request is itself a finding.
std::vector<Finding> JudgeDecoding(const CaseRun& run) {
  std::vector<Finding> findings;
  std::vector<detail::DecodedRequest> storage;
  const auto& decoded = detail::DecodedJournal(run, storage);
  for (std::size_t i = 0; i < decoded.size(); ++i) {
    const std::size_t request = i + 1;
    if (!decoded[i].body) {
      findings.push_back(MakeFinding("ADR-224.12", kWireViolation, request, "",
                                     "request body is " + decoded[i].error));
      continue;
    }
    // A repeated member name decodes one way here and maybe another at Google: the judges
    // would read a request the server may not. (Noticed by the judges' own reader.)
    if (decoded[i].repeated_member) {
      findings.push_back(MakeFinding("ADR-224.12", kWireViolation, request, "",
                                     "request body repeats a member name within one object"));
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

std::string_view ToString(Profile profile) {
  return profile == Profile::kAdr ? "adr" : "gemini";
}

std::optional<Profile> ProfileFromString(std::string_view text) {
  if (text == "adr") return Profile::kAdr;
  if (text == "gemini") return Profile::kGemini;
  return std::nullopt;
}

const std::vector<Judge>& Judges() {
  static const std::vector<Judge> judges = {
      {"decoding", &JudgeDecoding, {"ADR-224.12"}},
      {"outcome",
       &JudgeOutcome,
       {"ADR-224.12", "ADR-226.5", "ADR-226.6", "ADR-226.7", "ADR-226.8", "ADR-226.10",
        "ADR-226.11", "ADR-226.12", "ADR-226.13", "ADR-226.14", "ADR-226.15"}},
      {"struct_roots", &JudgeStructRoots, {"ADR-224.1", "ADR-224.2"}},
      {"results",
       &JudgeResults,
       {"ADR-224.2", "ADR-224.3", "ADR-224.4", "ADR-224.5", "ADR-224.6", "ADR-224.F1", "ADR-226.2",
        "ADR-226.3", "ADR-226.4", "ADR-226.9", "ADR-226.16", "ADR-226.17", "ADR-226.20",
        "ADR-226.B1", "WIRE.1", "WIRE.2"}},
      {"replay",
       &JudgeReplay,
       {"ADR-224.3", "ADR-224.6", "ADR-224.7", "ADR-224.8", "ADR-224.10", "ADR-224.F1", "ADR-224.F2",
        "ADR-226.4", "ADR-226.16", "ADR-226.17"}},
      {"ids", &JudgeIds, {"ADR-226.1", "ADR-226.4", "ADR-226.9"}},
      {"public_arguments",
       &JudgePublicArguments,
       {"ADR-224.6", "ADR-224.11", "ADR-224.F1", "ADR-226.2", "ADR-226.8", "ADR-226.20",
        "ADR-226.B1", "ADR-226.B2"}},
      {"wire_assertions", &JudgeWireAssertions, {"ADR-224.12", "REF.B1"}},
      {"no_rewrite", &JudgeNoRewrite, {"ADR-224.9"}},
      {"resume_equivalence", &JudgeResumeEquivalence, {"ADR-226.18", "ADR-224.F1"}},
      {"stream_equivalence",
       &JudgeStreamEquivalence,
       {"ADR-224.7", "ADR-224.8", "ADR-226.17", "ADR-226.B1"}},
      {"closing", &JudgeClosing, {"REF.B1"}},
      {"leaks", &JudgeLeaks, {"ADR-226.19"}},
  };
  return judges;
}

std::vector<Finding> JudgeAll(const CaseRun& run) {
  // Every judge reads the same bodies: decode them once.
  const std::vector<detail::DecodedRequest> decoded = detail::DecodeJournal(run.journal, &run.c);
  CaseRun shared = run;
  shared.decoded = &decoded;
  std::vector<Finding> all;
  for (const auto& judge : Judges()) {
    auto findings = judge.run(shared);
    all.insert(all.end(), std::make_move_iterator(findings.begin()),
               std::make_move_iterator(findings.end()));
  }
  // The judges read a turn sent as several model contents as one (INTERPRETING §8.5); the
  // report points into the request as it was sent.
  for (Finding& f : all) {
    if (!f.pointer_as_sent && f.request && *f.request >= 1 && *f.request <= decoded.size()) {
      f.pointer = detail::SentPointer(decoded[*f.request - 1], f.pointer);
    }
  }
  return all;
}

}  // namespace gemini_oracle::checks
