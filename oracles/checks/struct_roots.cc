// ADR-224.1, 224.2: the two API-known Struct roots are JSON objects on the wire.
#include "oracles/checks/judge.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {
namespace {

const char* KindName(const Json& value) {
  if (value.is_array()) return "a list";
  if (value.is_null()) return "null";
  if (value.is_string()) return "a string";
  if (value.is_boolean()) return "a boolean";
  if (value.is_number()) return "a number";
  return "an object";
}

// ADR-224: "Encode these two API-known roots as JSON objects when constructing the final Gemini
// request": no capture premise, so the finding keeps its level in a streamed-capture case.
Finding RootFinding(Finding f) {
  f.premise_free = true;
  return f;
}

}  // namespace

std::vector<Finding> JudgeStructRoots(const CaseRun& run) {
  std::vector<Finding> findings;
  std::vector<detail::DecodedRequest> storage;
  const auto& decoded = detail::DecodedJournal(run, storage);
  for (std::size_t r = 0; r < decoded.size(); ++r) {
    const Json* contents = detail::Contents(decoded[r].body);
    if (contents == nullptr) continue;
    const std::size_t request = r + 1;
    for (std::size_t c = 0; c < contents->size(); ++c) {
      const Json* parts = detail::Member((*contents)[c], "parts");
      if (parts == nullptr || !parts->is_array()) continue;
      for (std::size_t p = 0; p < parts->size(); ++p) {
        const Json& part = (*parts)[p];
        const std::string at = "/contents/" + std::to_string(c) + "/parts/" + std::to_string(p);
        // ADR-224.1: functionCall.args, when present, is an object (also {} and numeric keys).
        // A piece of a call in pieces (INTERPRETING §5.6) without `args` is absent args: no
        // finding; its `partialArgs` are no Struct root.
        if (const Json* fc = detail::Member(part, "functionCall")) {
          if (const Json* args = detail::Member(*fc, "args");
              args != nullptr && !args->is_object()) {
            findings.push_back(RootFinding(MakeFinding(
                "ADR-224.1", kWireViolation, request, at + "/functionCall/args",
                std::string("functionCall.args is ") + KindName(*args) + ", not an object",
                "object", KindName(*args))));
          }
        }
        // ADR-224.2: functionResponse.response is present and an object.
        if (const Json* fr = detail::Member(part, "functionResponse")) {
          const Json* response = detail::Member(*fr, "response");
          if (response == nullptr) {
            findings.push_back(RootFinding(
                MakeFinding("ADR-224.2", kWireViolation, request, at + "/functionResponse",
                            "functionResponse has no response member", "object", "absent")));
          } else if (!response->is_object()) {
            findings.push_back(RootFinding(MakeFinding(
                "ADR-224.2", kWireViolation, request, at + "/functionResponse/response",
                std::string("functionResponse.response is ") + KindName(*response) +
                    ", not an object",
                "object", KindName(*response))));
          }
        }
      }
    }
  }
  return findings;
}

}  // namespace gemini_oracle::checks
