// ADR-224.9: building a request never rewrites the carried state (the transcript, and the
// encrypted stored row when the conversation is in a store); the wire copy is separate.
#include <algorithm>

#include "oracles/checks/judge.h"
#include "oracles/checks/judge_json.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {

std::vector<Finding> JudgeNoRewrite(const CaseRun& run) {
  std::vector<Finding> findings;
  std::size_t unreported = 0;
  for (std::size_t k = 0; k < run.report.exchanges.size(); ++k) {
    const auto& report = run.report.exchanges[k];
    const std::string& before = report.transcript_before_build;
    const std::string& after = report.transcript_after_build;
    // A build that was attempted without both snapshots could not be judged: say so.
    if (report.request_built && (before.empty() || after.empty())) ++unreported;
    if (before.empty() || after.empty() || before == after) continue;
    const std::size_t offset = static_cast<std::size_t>(
        std::mismatch(before.begin(), before.end(), after.begin(), after.end()).first -
        before.begin());
    const std::string message = "building request " + std::to_string(k + 1) +
                                " changed the carried transcript (first difference at byte " +
                                std::to_string(offset) + ")";
    Json expected = nullptr;
    Json actual = nullptr;
    // The judges' own bounded reader: a snapshot is the driver's text, never trusted to be sane.
    const JudgeDecoded old_decoded = DecodeJudgeJson(before);
    const JudgeDecoded new_decoded = DecodeJudgeJson(after);
    if (old_decoded.value && new_decoded.value) {
      const Json& old_state = *old_decoded.value;
      const Json& new_state = *new_decoded.value;
      // Where the snapshots differ, as a pointer into the transcript snapshot.
      const std::string at = detail::FirstDifference(old_state, new_state, "").value_or("");
      const Json::json_pointer pointer(at);
      expected = Json::object();
      actual = Json::object();
      expected["transcript_pointer"] = at;
      actual["transcript_pointer"] = at;
      expected["value"] = old_state.contains(pointer) ? old_state.at(pointer) : Json("absent");
      actual["value"] = new_state.contains(pointer) ? new_state.at(pointer) : Json("absent");
    }
    findings.push_back(
        MakeFinding("ADR-224.9", kWireViolation, k + 1, "", message, expected, actual));
  }
  // The stored row: compared as bytes (it is ciphertext; any change is a rewrite, even one
  // that seals the same content again: INTERPRETING §14). Only the lengths travel in the
  // finding, never the bytes.
  bool built = false;
  bool row_reported = false;
  for (std::size_t k = 0; k < run.report.exchanges.size(); ++k) {
    const auto& report = run.report.exchanges[k];
    const std::string& before = report.stored_before_build;
    const std::string& after = report.stored_after_build;
    built = built || report.request_built;
    if (report.request_built && !(before.empty() && after.empty())) row_reported = true;
    if (!report.request_built || before == after) continue;
    Json expected = Json::object();
    Json actual = Json::object();
    expected["stored_bytes"] = before.size();
    actual["stored_bytes"] = after.size();
    findings.push_back(MakeFinding(
        "ADR-224.9", kWireViolation, k + 1, "",
        "building request " + std::to_string(k + 1) + " changed the stored conversation row" +
            (after.empty() ? " (it is gone)" : before.empty() ? " (it appeared)" : ""),
        expected, actual));
  }
  // A conversation that went through a store and had a request built, without a single row
  // shown around a build: the stored half of the clause could not be judged (an empty row is no
  // evidence of none). A run refused before its first build built nothing to judge.
  if (run.report.persisted && built && !row_reported) {
    findings.push_back(NotJudged("ADR-224.9",
                                 "the implementation suspended the conversation but reported "
                                 "no stored row around any of its request builds"));
  } else if (!run.report.persisted && built && run.c.Suspends()) {
    findings.push_back(NotJudged("ADR-224.9",
                                 "the case suspends the conversation, but the implementation "
                                 "kept it in memory: no stored row to judge"));
  }
  if (unreported > 0) {
    findings.push_back(NotJudged(
        "ADR-224.9", "the implementation reported no transcript snapshots for " +
                         std::to_string(unreported) + " of its request builds"));
  }
  return findings;
}

}  // namespace gemini_oracle::checks
