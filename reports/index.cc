#include "reports/index.h"

#include <fstream>
#include <stdexcept>

namespace gemini_oracle::reports {
namespace {

std::string VerdictOf(const nlohmann::json& result) {
  if (!result.is_object()) return {};
  const auto it = result.find("verdict");
  return it != result.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

bool Gates(const nlohmann::json& result) {
  const std::string verdict = VerdictOf(result);
  return !(verdict == kPass || verdict == kSkipped || verdict == kKnown ||
           verdict == kImplementationDefined);
}

const std::vector<std::string>& SummaryKeys() {
  static const std::vector<std::string> keys = {"total",
                                                "passed",
                                                "failed",
                                                "errors",
                                                "timeouts",
                                                "skipped",
                                                "known",
                                                "implementation_defined",
                                                "unexpected_passes"};
  return keys;
}

nlohmann::json SummarizeResults(const nlohmann::json& results) {
  nlohmann::json summary = {{"total", 0},
                            {"passed", 0},
                            {"failed", 0},
                            {"errors", 0},
                            {"timeouts", 0},
                            {"skipped", 0},
                            {"known", 0},
                            {"implementation_defined", 0},
                            {"unexpected_passes", 0}};
  if (!results.is_array()) return summary;
  for (const auto& result : results) {
    const std::string verdict = VerdictOf(result);
    const char* key = "errors";
    if (verdict == kPass) {
      key = "passed";
    } else if (verdict == kFail) {
      key = "failed";
    } else if (verdict == kTimeout) {
      key = "timeouts";
    } else if (verdict == kSkipped) {
      key = "skipped";
    } else if (verdict == kKnown) {
      key = "known";
    } else if (verdict == kImplementationDefined) {
      key = "implementation_defined";
    } else if (verdict == kUnexpectedPass) {
      key = "unexpected_passes";
    }
    summary[key] = summary[key].get<std::int64_t>() + 1;
    summary["total"] = summary["total"].get<std::int64_t>() + 1;
  }
  return summary;
}

IndexParts ReadIndex(const nlohmann::json& index) {
  IndexParts parts;
  if (index.is_object()) {
    if (const auto it = index.find("context"); it != index.end() && it->is_object()) {
      parts.context = *it;
      if (const auto levels = it->find("clause_levels");
          levels != it->end() && levels->is_object()) {
        parts.clause_levels = *levels;
      }
    }
    if (const auto it = index.find("results"); it != index.end() && it->is_array()) {
      parts.results = *it;
    }
    if (const auto it = index.find("mutation"); it != index.end() && it->is_object()) {
      parts.mutation = *it;
    }
  }
  parts.summary = SummarizeResults(parts.results);
  return parts;
}

nlohmann::json BuildIndex(nlohmann::json context, nlohmann::json results) {
  nlohmann::json index;
  index["json_schema_version"] = kJsonSchemaVersion;
  index["summary"] = SummarizeResults(results);
  index["context"] = std::move(context);
  index["results"] = std::move(results);
  return index;
}

void WriteIndexTo(const nlohmann::json& index, std::ostream& out) {
  out << index.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace gemini_oracle::reports
