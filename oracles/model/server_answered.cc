#include "oracles/model/server_answered.h"
#include "oracles/model/json_member.h"

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
  std::vector<bool> answered(parts.is_array() ? parts.size() : 0, false);
  if (!parts.is_array()) return answered;
  for (const Json& part : parts) {
    const Json* fr = Member(part, "functionResponse");
    if (fr == nullptr || !fr->is_object()) continue;
    const std::string* id = NonemptyString(*fr, "id");
    const std::string* name = NonemptyString(*fr, "name");
    // By id when the response carries one; otherwise the first unanswered ID-less call of
    // that name, so several ID-less answers pair with their calls in order.
    for (std::size_t p = 0; p < parts.size(); ++p) {
      const Json* fc = Member(parts[p], "functionCall");
      if (fc == nullptr || !fc->is_object() || answered[p]) continue;
      const std::string* call_id = NonemptyString(*fc, "id");
      const std::string* call_name = NonemptyString(*fc, "name");
      const bool match = id != nullptr ? call_id != nullptr && *call_id == *id
                                       : Member(*fc, "id") == nullptr && call_name != nullptr &&
                                             name != nullptr && *call_name == *name;
      if (match) {
        answered[p] = true;
        break;
      }
    }
  }
  return answered;
}

std::vector<std::size_t> PendingCallPositions(const Json& parts) {
  std::vector<std::size_t> out;
  if (!parts.is_array()) return out;
  const std::vector<bool> answered = CallsAnsweredInside(parts);
  for (std::size_t p = 0; p < parts.size(); ++p) {
    if (Member(parts[p], "functionCall") != nullptr && !answered[p]) out.push_back(p);
  }
  return out;
}

}  // namespace gemini_oracle::model
