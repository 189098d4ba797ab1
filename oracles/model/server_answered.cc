#include "oracles/model/server_answered.h"
#include "oracles/model/call_pieces.h"
#include "oracles/model/json_member.h"

#include <deque>
#include <map>
#include <string>

namespace gemini_oracle::model {
namespace {

// A member that is a nonempty string, or nullptr.
const std::string* NonemptyString(const Json& object, const char* key) {
  const Json* value = Member(object, key);
  if (value == nullptr || !value->is_string() || value->get_ref<const std::string&>().empty()) {
    return nullptr;
  }
  return &value->get_ref<const std::string&>();
}

}  // namespace

std::vector<bool> CallsAnsweredInside(const Json& parts) {
  if (!parts.is_array()) return {};
  return CallsAnsweredInside(parts, GroupCalls(parts));
}

std::vector<bool> CallsAnsweredInside(const Json& parts, const TurnCalls& turn) {
  std::vector<bool> answered(parts.is_array() ? parts.size() : 0, false);
  if (!parts.is_array()) return answered;
  // Calls, not parts (INTERPRETING §5.6): a call in pieces is answered at its opening part, by
  // its name and native id (the opening piece's). Each call waits in at most one queue, in
  // parse order: by its id (a nonempty string), or by its name when it has no `id` member.
  std::map<std::string, std::deque<std::size_t>> by_id;
  std::map<std::string, std::deque<std::size_t>> by_name;
  for (const PieceCall& call : turn.calls) {
    const Json& fc = call.call;
    if (!fc.is_object()) continue;
    const std::size_t p = call.pieces.front();
    if (const std::string* call_id = NonemptyString(fc, "id")) {
      by_id[*call_id].push_back(p);
    } else if (Member(fc, "id") == nullptr) {
      if (const std::string* call_name = NonemptyString(fc, "name")) {
        by_name[*call_name].push_back(p);
      }
    }
  }
  for (const Json& part : parts) {
    const Json* fr = Member(part, "functionResponse");
    if (fr == nullptr || !fr->is_object()) continue;
    // By id when the response carries one; otherwise the first unanswered ID-less call of
    // that name, so several ID-less answers pair with their calls in order.
    const std::string* id = NonemptyString(*fr, "id");
    const std::string* name = NonemptyString(*fr, "name");
    auto& queues = id != nullptr ? by_id : by_name;
    const std::string* key = id != nullptr ? id : name;
    if (key == nullptr) continue;
    const auto it = queues.find(*key);
    if (it == queues.end() || it->second.empty()) continue;
    answered[it->second.front()] = true;
    it->second.pop_front();
  }
  return answered;
}

std::vector<std::size_t> PendingCallPositions(const Json& parts) {
  if (!parts.is_array()) return {};
  return PendingCallPositions(parts, GroupCalls(parts));
}

std::vector<std::size_t> PendingCallPositions(const Json& parts, const TurnCalls& turn) {
  std::vector<std::size_t> out;
  if (!parts.is_array()) return out;
  const std::vector<bool> answered = CallsAnsweredInside(parts, turn);
  for (const PieceCall& call : turn.calls) {
    if (!answered[call.pieces.front()]) out.push_back(call.pieces.front());
  }
  return out;
}

}  // namespace gemini_oracle::model
