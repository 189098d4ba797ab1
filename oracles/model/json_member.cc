#include "oracles/model/json_member.h"

namespace gemini_oracle::model {

const Json* Member(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

}  // namespace gemini_oracle::model
