#include "oracles/runner/error_map.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "oracles/runner/json_positions.h"

namespace gemini_oracle::runner {
namespace {

// The catalogue's codes are dotted lower-case words (docs/error-codes.md).
bool LooksLikeCatalogueCode(const std::string& code) {
  if (code.empty() || code.size() > 64 || code.find('.') == std::string::npos) return false;
  for (const char ch : code) {
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '_')) {
      return false;
    }
  }
  return true;
}

}  // namespace

ErrorMapLoad LoadErrorMap(const std::filesystem::path& file,
                          const std::set<std::string>& catalogue_codes) {
  ErrorMapLoad load;
  load.map.file = file;
  const auto problem_at = [&](const std::string& text, std::size_t offset, const char* rule,
                              const std::string& message) {
    const TextPosition at = PositionOfOffset(text, offset);
    load.diagnostics.push_back({file.generic_string(), at.line, at.column, rule, message});
  };
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    load.diagnostics.push_back(
        {file.generic_string(), 1, 1, "error_map.unreadable", "cannot read the error map"});
    return load;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    problem_at(text, e.byte > 0 ? e.byte - 1 : 0, "error_map.json", "not a JSON document");
    return load;
  }
  const JsonPositions positions(text);
  const auto problem = [&](const std::string& pointer, const char* rule,
                           const std::string& message) {
    const TextPosition at = positions.Find(pointer);
    load.diagnostics.push_back({file.generic_string(), at.line, at.column, rule, message});
  };
  if (!document.is_object() || !document.contains("map") || !document["map"].is_object()) {
    problem("", "error_map.root",
            "an error map is an object {implementation, map: {class: catalogue code}}");
    return load;
  }
  for (const auto& [key, value] : document.items()) {
    if (key == "implementation" && value.is_string()) {
      load.map.implementation = value.get<std::string>();
    } else if (key != "map") {
      problem("/" + EscapePointerToken(key), "error_map.member",
              "unknown member or wrong kind (implementation: string, map: object)");
    }
  }
  for (const auto& [cls, target] : document["map"].items()) {
    const std::string pointer = "/map/" + EscapePointerToken(cls);
    if (!target.is_string() || !LooksLikeCatalogueCode(target.get<std::string>())) {
      problem(pointer, "error_map.code", "maps to a catalogue code (docs/error-codes.md)");
      continue;
    }
    if (catalogue_codes.count(target.get<std::string>()) == 0) {
      problem(pointer, "error_map.unknown_code",
              "not a code of the catalogue (docs/error-codes.md)");
      continue;
    }
    load.map.codes[cls] = target.get<std::string>();
  }
  SortDiagnostics(load.diagnostics);
  if (!load.ok()) load.map.codes.clear();
  return load;
}

}  // namespace gemini_oracle::runner
