// ADR-226.17: closing requests (tools disabled) are real Gemini requests: they carry their tool
// mode and, for NONE, still declare the tools that earlier turns called.
#include "oracles/checks/judge.h"
#include "oracles/checks/judge_json.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {

std::vector<Finding> JudgeClosing(const CaseRun& run) {
  std::vector<Finding> findings;
  std::vector<detail::DecodedRequest> storage;
  const auto& decoded = detail::DecodedJournal(run, storage);
  const Json* declared = detail::Member(run.c.options, "tools");
  const bool case_declares_tools =
      declared != nullptr && declared->is_array() && !declared->empty();
  for (std::size_t k = 1; k <= run.c.exchanges.size() && k <= decoded.size(); ++k) {
    const auto& mode = run.c.exchanges[k - 1].tool_mode;
    if (!mode || !decoded[k - 1].body || !decoded[k - 1].body->is_object()) continue;
    const Json& body = *decoded[k - 1].body;
    const Json::json_pointer at("/toolConfig/functionCallingConfig/mode");
    const Json* sent = body.contains(at) ? &body.at(at) : nullptr;
    if (sent == nullptr || !SameJson(*sent, Json(*mode))) {
      findings.push_back(
          MakeFinding("ADR-226.17", kWireViolation, k, "/toolConfig/functionCallingConfig/mode",
                      "request " + std::to_string(k) + " does not set tool mode " + *mode, *mode,
                      sent == nullptr ? Json("absent") : *sent));
    }
    if (*mode == "NONE" && case_declares_tools) {
      const Json* tools = detail::Member(body, "tools");
      if (tools == nullptr || !tools->is_array() || tools->empty()) {
        findings.push_back(
            MakeFinding("ADR-226.17", kWireViolation, k, "/tools",
                        "closing request " + std::to_string(k) + " drops the declared tools",
                        *declared, tools == nullptr ? Json("absent") : *tools));
      }
    }
  }
  return findings;
}

}  // namespace gemini_oracle::checks
