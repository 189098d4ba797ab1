// REF.B1: a request the case gives a tool mode carries that mode. ADR-226 says of closing
// requests only "Use the same association on closing and streaming requests carrying existing
// state", which the results judge checks under ADR-226.17; how a framework disables its tools
// is its own rendering, so this judge gates the reference alone (a beyond clause).
#include "oracles/checks/judge.h"
#include "oracles/checks/judge_json.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {
namespace {

// A member under its proto JSON name or its proto field name: Google's JSON parsers accept
// both ("Parsers accept both the lowerCamelCase name ... and the original proto field name").
const Json* Field(const Json* object, const char* camel, const char* snake) {
  if (object == nullptr || !object->is_object()) return nullptr;
  if (const Json* value = detail::Member(*object, camel)) return value;
  return detail::Member(*object, snake);
}

const Json* SentMode(const Json& body) {
  const Json* config = Field(&body, "toolConfig", "tool_config");
  return Field(Field(config, "functionCallingConfig", "function_calling_config"), "mode", "mode");
}

// Whether any tool of the request declares a function, whatever the tools are grouped in.
bool DeclaresFunctions(const Json& body) {
  const Json* tools = Field(&body, "tools", "tools");
  if (tools == nullptr || !tools->is_array()) return false;
  for (const Json& tool : *tools) {
    const Json* declarations = Field(&tool, "functionDeclarations", "function_declarations");
    if (declarations != nullptr && declarations->is_array() && !declarations->empty()) return true;
  }
  return false;
}

}  // namespace

std::vector<Finding> JudgeClosing(const CaseRun& run) {
  std::vector<Finding> findings;
  std::vector<detail::DecodedRequest> storage;
  const auto& decoded = detail::DecodedJournal(run, storage);
  const std::string clause(kRecordingFidelity);
  for (std::size_t k = 1; k <= run.c.exchanges.size() && k <= decoded.size(); ++k) {
    const auto& mode = run.c.exchanges[k - 1].tool_mode;
    if (!mode || !decoded[k - 1].body || !decoded[k - 1].body->is_object()) continue;
    const Json& body = *decoded[k - 1].body;
    const Json* sent = SentMode(body);
    if (sent != nullptr && SameJson(*sent, Json(*mode))) continue;
    // Google's FunctionCallingConfig reference, mode NONE: "Model will not predict any function
    // call. Model behavior is same as when not passing any function declarations." A request
    // declaring no function disables calling as NONE does; tools merged into one object or
    // declared in another grouping are still declared.
    if (*mode == "NONE" && !DeclaresFunctions(body)) continue;
    findings.push_back(MakeFinding(
        clause, kWireViolation, k, "/toolConfig/functionCallingConfig/mode",
        "request " + std::to_string(k) + " does not set tool mode " + *mode +
            (*mode == "NONE" ? " and declares functions: function calling stays enabled" : ""),
        *mode, sent == nullptr ? Json("absent") : *sent));
  }
  return findings;
}

}  // namespace gemini_oracle::checks
