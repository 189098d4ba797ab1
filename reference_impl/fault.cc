#include "reference_impl/fault.h"

#include <cstdlib>
#include <map>

namespace gemini_oracle::ref::fault {
namespace {

std::string& Slot() {
  static std::string active;
  return active;
}

// Filled before main() by the fault points' static members; read-only afterwards.
std::map<std::string, Point, std::less<>>& Registry() {
  static std::map<std::string, Point, std::less<>> points;
  return points;
}

}  // namespace

#ifdef GEMINI_ORACLE_MUTANTS
bool Active(std::string_view id) { return !Slot().empty() && Slot() == id; }

namespace detail {
bool Register(const char* id, const char* file, int line) {
  // A second point under one id is a catalogue defect (mutants_catalogue_test names it);
  // the first one registered is kept so the process still starts.
  Registry().try_emplace(id, Point{id, file, line});
  return true;
}
}  // namespace detail
#endif

std::vector<Point> Points() {
  std::vector<Point> points;
  for (const auto& [id, point] : Registry()) points.push_back(point);
  return points;
}

const Point* Find(std::string_view id) {
  const auto it = Registry().find(id);
  return it == Registry().end() ? nullptr : &it->second;
}

void SetActive(const std::string& id) {
  if (!id.empty() && Find(id) == nullptr) {
    throw UnknownFault(kCompiledIn
                           ? "unknown fault id '" + id +
                                 "': this build has no such fault point (see mutants/catalogue.json)"
                           : "fault '" + id +
                                 "' chosen, but this build has no fault points; build the mutants "
                                 "preset (./scripts/build mutants) and use build-mutants/bin/gemini-oracle");
  }
  Slot() = id;
}

void SetActiveFromEnvironment() {
  const char* chosen = std::getenv("GEMINI_ORACLE_FAULT");
  if (chosen != nullptr && *chosen != '\0') SetActive(chosen);
}

std::string ActiveId() { return Slot(); }

}  // namespace gemini_oracle::ref::fault
