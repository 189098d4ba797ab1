// ADR-224.7 "Apply the same rule to Gemini-owned native parts on replay, including already
// carried turns on closing and streaming requests. Preserve native order, signatures and every
// other member." (ADR-224.8 for the latter) and ADR-226.17 "Use the same association on
// closing and streaming requests carrying existing state", observable as: a streamed twin
// (INTERPRETING §5.5) sends the same contents, and ends the same way, as its original with every
// answer sent whole. For a twin whose state is captured from streams the difference is
// ADR-226.B1's (beyond: ADR-226 leaves "new streamed capture" separate).
#include <string>
#include <vector>

#include "oracles/checks/judge.h"
#include "oracles/checks/run_comparison.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {

bool RefusedReadingStreamedAnswer(const model::Case& c,
                                  const std::vector<capture::JournalEntry>& journal,
                                  const model::DriverReport& report) {
  // Refused at exchange k after request k went out to the streaming method and the script
  // answered it (the capture server serves a streamed answer there and nothing else).
  if (!report.refusal || report.refusal->phase == "build") return false;
  const std::size_t k = report.refusal->exchange;
  return k >= 1 && k <= c.exchanges.size() && journal.size() == k && journal.back().scripted &&
         journal.back().path.ends_with(":streamGenerateContent");
}

std::vector<Finding> JudgeStreamEquivalence(const CaseRun& run) {
  std::vector<Finding> findings;
  if (!run.c.twin) return findings;
  const bool captured = run.c.twin->kind == model::TwinKind::kEveryAnswer;
  if (run.whole_journal == nullptr || run.whole_report == nullptr) {
    findings.push_back(NotJudged(captured ? "ADR-226.B1" : "ADR-226.17",
                                 "the run with every answer sent whole is missing"));
    return findings;
  }
  std::vector<detail::DecodedRequest> storage;
  const auto& decoded = detail::DecodedJournal(run, storage);
  detail::RunComparison how;
  // The streamed answer itself is read after the last request went out: a refusal there, or
  // an answer read otherwise, concerns the reading of a stream (ADR-226.B1), not the request.
  const bool refused_reading = RefusedReadingStreamedAnswer(run.c, run.journal, run.report);
  how.clause_of = [captured, refused_reading, &decoded](std::size_t request,
                                                       const std::string& pointer) {
    if (captured || (request == 0 && refused_reading)) return std::string("ADR-226.B1");
    // In a replayed model content: the root rule (ADR-224.7) where a functionCall.args root
    // differs, the parts' order, signatures and members (ADR-224.8) elsewhere. An answer, a
    // user turn, the outcome or the count is the association's (ADR-226.17).
    if (request >= 1 && request <= decoded.size() && pointer.starts_with("/contents/")) {
      const Json* contents = detail::Contents(decoded[request - 1].body);
      const std::size_t slash = pointer.find('/', 10);
      const std::string index = pointer.substr(10, slash == std::string::npos ? slash : slash - 10);
      if (contents != nullptr && !index.empty() && index.size() < 9 &&
          index.find_first_not_of("0123456789") == std::string::npos) {
        const std::size_t at = std::stoul(index);
        const Json* role = at < contents->size() ? detail::Member((*contents)[at], "role") : nullptr;
        if (role != nullptr && role->is_string() && *role == "model") {
          return std::string(pointer.ends_with("/functionCall/args") ? "ADR-224.7" : "ADR-224.8");
        }
      }
    }
    return std::string("ADR-226.17");
  };
  how.this_run = "with its answers streamed";
  how.other_run = "with every answer sent whole";
  how.this_request = "with the answers streamed";
  how.other_request = "the conversation with every answer sent whole";
  how.whole_endpoint = false;
  how.contents_only = true;
  return detail::CompareRuns(run, *run.whole_journal, *run.whole_report, how,
                             captured ? "ADR-226.B1" : "ADR-226.17");
}

}  // namespace gemini_oracle::checks
