#include "oracles/runner/clause_registry.h"

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace gemini_oracle::runner {
namespace {

std::string RequiredString(const Json& entry, const char* key, std::size_t index) {
  const auto it = entry.find(key);
  if (it == entry.end() || !it->is_string() || it->get<std::string>().empty()) {
    throw std::runtime_error("clause registry entry " + std::to_string(index) + ": \"" + key +
                             "\" must be a nonempty string");
  }
  return it->get<std::string>();
}

}  // namespace

std::string_view ToString(Level level) {
  switch (level) {
    case Level::kMust:
      return "must";
    case Level::kOpen:
      return "open";
    case Level::kBeyond:
      return "beyond";
  }
  return "must";
}

std::optional<Level> LevelFromString(std::string_view text) {
  if (text == "must") return Level::kMust;
  if (text == "open") return Level::kOpen;
  if (text == "beyond") return Level::kBeyond;
  return std::nullopt;
}

ClauseRegistry ClauseRegistry::Load(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(file.generic_string() + ": cannot read the clause registry");
  std::stringstream buffer;
  buffer << in.rdbuf();
  try {
    return FromJson(ParseJson(buffer.str()));
  } catch (const std::exception& e) {
    throw std::runtime_error(file.generic_string() + ": " + e.what());
  }
}

ClauseRegistry ClauseRegistry::FromJson(const Json& array) {
  if (!array.is_array()) throw std::runtime_error("the clause registry must be a JSON array");
  ClauseRegistry registry;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < array.size(); ++i) {
    const Json& entry = array[i];
    if (!entry.is_object()) {
      throw std::runtime_error("clause registry entry " + std::to_string(i) + " is not an object");
    }
    Clause clause;
    clause.id = RequiredString(entry, "id", i);
    clause.adr = RequiredString(entry, "adr", i);
    clause.summary = RequiredString(entry, "summary", i);
    if (const auto pending = entry.find("pending"); pending != entry.end()) {
      if (!pending->is_string() || pending->get_ref<const std::string&>().empty()) {
        throw std::runtime_error("clause " + clause.id + ": pending must be a nonempty reason");
      }
      clause.pending = pending->get<std::string>();
    }
    if (const auto partial = entry.find("partial"); partial != entry.end()) {
      if (!partial->is_string() || partial->get_ref<const std::string&>().empty()) {
        throw std::runtime_error("clause " + clause.id + ": partial must be a nonempty reason");
      }
      clause.partial = partial->get<std::string>();
    }
    if (const auto profiles = entry.find("profiles"); profiles != entry.end()) {
      if (!profiles->is_array() || profiles->empty()) {
        throw std::runtime_error("clause " + clause.id + ": profiles must be a nonempty list");
      }
      for (const auto& profile : *profiles) {
        if (!profile.is_string() || (profile != "adr" && profile != "gemini")) {
          throw std::runtime_error("clause " + clause.id + ": a profile is adr or gemini");
        }
        clause.profiles.push_back(profile.get<std::string>());
      }
    }
    if (const auto when = entry.find("not_judged_when"); when != entry.end()) {
      if (!when->is_string() || when->get_ref<const std::string&>().empty()) {
        throw std::runtime_error("clause " + clause.id +
                                 ": not_judged_when must be a nonempty reason");
      }
      clause.not_judged_when = when->get<std::string>();
    }
    const auto level = LevelFromString(RequiredString(entry, "level", i));
    if (!level) {
      throw std::runtime_error("clause " + clause.id + ": level must be must, open or beyond");
    }
    clause.level = *level;
    if (!clause.id.starts_with(clause.adr + ".")) {
      throw std::runtime_error("clause " + clause.id + " does not belong to " + clause.adr);
    }
    if (!seen.insert(clause.id).second) {
      throw std::runtime_error("clause " + clause.id + " is listed twice");
    }
    registry.clauses_.push_back(std::move(clause));
  }
  return registry;
}

const Clause* ClauseRegistry::Find(std::string_view id) const {
  // Thirty-odd entries: a scan is as fast as a map and keeps document order.
  for (const auto& clause : clauses_) {
    if (clause.id == id) return &clause;
  }
  return nullptr;
}

std::optional<Level> ClauseRegistry::LevelOf(std::string_view id) const {
  const Clause* clause = Find(id);
  if (clause == nullptr) return std::nullopt;
  return clause->level;
}

std::filesystem::path ClausesPath(const std::filesystem::path& source_root) {
  return source_root / "oracles" / "clauses.json";
}

}  // namespace gemini_oracle::runner
