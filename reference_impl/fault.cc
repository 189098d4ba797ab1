#include "reference_impl/fault.h"

#include <cstdlib>

namespace gemini_oracle::ref::fault {
namespace {

std::string& Slot() {
  static std::string active = [] {
    const char* from_environment = std::getenv("GEMINI_ORACLE_FAULT");
    return std::string(from_environment == nullptr ? "" : from_environment);
  }();
  return active;
}

}  // namespace

#ifdef GEMINI_ORACLE_MUTANTS
bool Active(std::string_view id) { return !Slot().empty() && Slot() == id; }
#endif

void SetActive(std::string id) { Slot() = std::move(id); }

std::string ActiveId() { return Slot(); }

}  // namespace gemini_oracle::ref::fault
