#include "oracles/model/payload_forms.h"

namespace gemini_oracle::model {

Json PayloadWireForm(bool json, const Json& value) {
  if (!json || !value.is_array()) return value;
  Json object = Json::object();
  for (std::size_t i = 0; i < value.size(); ++i) object[std::to_string(i)] = value[i];
  return object;
}

bool PayloadsClash(const Json& a_form, const Json& b_form) {
  if (KindExactEqual(a_form, b_form)) return true;
  const auto wraps = [](const Json& object, const Json& bare) {
    return object.is_object() && !bare.is_object() && object.size() == 1 &&
           KindExactEqual(*object.begin(), bare);
  };
  return wraps(a_form, b_form) || wraps(b_form, a_form);
}

}  // namespace gemini_oracle::model
