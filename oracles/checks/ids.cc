// ADR-226.1, 226.4: IDs on the wire come only from the server; public IDs are sound.
#include <set>

#include "oracles/checks/judge.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {
namespace {

// The ids the server sent. A native `"id": null` counts as sent: ADR-226 does not say whether
// null is an absent or a malformed id, so keeping it on replay or echoing it invents nothing.
struct ServerIds {
  std::set<std::string> strings;
  bool null = false;

  bool Sent(const Json& id) const {
    if (id.is_null()) return null;
    return id.is_string() && strings.count(id.get<std::string>()) != 0;
  }
};

// Every functionCall part's id, the pieces of a call in pieces included (INTERPRETING §5.6:
// "a later piece may repeat it"): an id the server sent on any part is no invented id.
void AddNativeIds(const Json& parts, ServerIds& out) {
  if (!parts.is_array()) return;
  for (const Json& part : parts) {
    const Json* fc = detail::Member(part, "functionCall");
    const Json* id = fc != nullptr ? detail::Member(*fc, "id") : nullptr;
    if (id == nullptr) continue;
    if (id->is_string()) out.strings.insert(id->get<std::string>());
    if (id->is_null()) out.null = true;
  }
}

}  // namespace

std::vector<Finding> JudgeIds(const CaseRun& run) {
  std::vector<Finding> findings;
  std::vector<detail::DecodedRequest> storage;
  const auto& decoded = detail::DecodedJournal(run, storage);
  const auto initial = detail::InitialAssistants(run.c);

  // ADR-226.4: no synthesized ID ever appears on the wire. Request m may carry the IDs of the
  // initial capsules and of the responses to requests 1..m-1, nothing else.
  ServerIds sent_by_server;
  for (const Json* message : initial) {
    if (const Json* parts = detail::CapsuleNativeParts(*message))
      AddNativeIds(*parts, sent_by_server);
  }
  for (std::size_t r = 0; r < decoded.size(); ++r) {
    if (r >= 1 && r <= run.c.exchanges.size()) {
      AddNativeIds(detail::ScriptedParts(run.c.exchanges[r - 1]), sent_by_server);
    }
    const Json* contents = detail::Contents(decoded[r].body);
    if (contents == nullptr) continue;
    for (std::size_t c = 0; c < contents->size(); ++c) {
      const Json* parts = detail::Member((*contents)[c], "parts");
      if (parts == nullptr || !parts->is_array()) continue;
      for (std::size_t p = 0; p < parts->size(); ++p) {
        for (const char* field : {"functionCall", "functionResponse"}) {
          const Json* holder = detail::Member((*parts)[p], field);
          if (holder == nullptr) continue;
          const Json* id = detail::Member(*holder, "id");
          if (id == nullptr) continue;
          if (sent_by_server.Sent(*id)) continue;
          Finding invented = MakeFinding(
              "ADR-226.4", kWireViolation, r + 1,
              "/contents/" + std::to_string(c) + "/parts/" + std::to_string(p) + "/" + field +
                  "/id",
              std::string("a ") + field + " carries an id the server never sent", "absent", *id);
          // "Echo only that native ID": an id the server never sent is no native id, whatever
          // the implementation captured, from a stream or not.
          invented.premise_free = true;
          findings.push_back(std::move(invented));
        }
      }
    }
  }

  // ADR-226.1: public IDs are nonempty and unique across the conversation, the initial
  // transcript included, also when native IDs recur ("IDs may recur in later turns without
  // replacing the conversation-unique public IDs"). How an ID was made is not observable: a
  // native ID reused as a public ID is fine while it stays unique.
  std::set<std::string> public_ids;
  for (const Json* message : initial) {
    const Json* calls = detail::Member(*message, "tool_calls");
    if (calls == nullptr || !calls->is_array()) continue;
    for (const auto& call : *calls) {
      const Json* id = detail::Member(call, "id");
      if (id != nullptr && id->is_string()) public_ids.insert(id->get<std::string>());
    }
  }
  // Fewer public calls than pending functionCall parts is the public arguments judge's failure
  // (ADR-224.11, 226.2, 226.20); the ids of the calls reported are judged here all the same.
  for (std::size_t k = 0; k < run.report.exchanges.size(); ++k) {
    const auto& calls = run.report.exchanges[k].calls;
    for (std::size_t i = 0; i < calls.size(); ++i) {
      const std::string label =
          "the public id of call " + std::to_string(i) + " of exchange " + std::to_string(k + 1);
      const std::string& id = calls[i].id;
      if (id.empty()) {
        findings.push_back(MakeFinding("ADR-226.1", kWireViolation, std::nullopt, "",
                                       label + " is empty", "nonempty", id));
        continue;
      }
      if (!public_ids.insert(id).second) {
        findings.push_back(MakeFinding("ADR-226.1", kWireViolation, std::nullopt, "",
                                       label + " is already used in the conversation", "unique",
                                       id));
      }
    }
  }
  return findings;
}

}  // namespace gemini_oracle::checks
