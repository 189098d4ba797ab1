#include "mutants/catalogue.h"

#include <fstream>
#include <span>
#include <set>
#include <sstream>

#include "oracles/runner/json_positions.h"
#include "oracles/runner/strict_json.h"

namespace gemini_oracle::mutants {
namespace {

constexpr std::string_view kKnownMembers[] = {"id",  "clauses", "file",       "function",
                                              "description", "bug", "equivalent", "canary"};
constexpr std::string_view kBugMembers[] = {"project", "report", "case"};

bool Known(std::string_view name, std::span<const std::string_view> names) {
  for (const auto known : names) {
    if (known == name) return true;
  }
  return false;
}

// group.name in lower case: [a-z][a-z0-9_]*(\.[a-z0-9_]+)+, at most 120 characters. A loop,
// not std::regex, whose matcher recurses once per character of the subject.
bool WellFormedId(std::string_view id) {
  if (id.empty() || id.size() > 120 || id.front() < 'a' || id.front() > 'z') return false;
  bool dot = false;
  char previous = '\0';
  for (const char ch : id) {
    const bool word = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
    if (ch == '.') {
      if (previous == '.') return false;
      dot = true;
    } else if (!word) {
      return false;
    }
    previous = ch;
  }
  return dot && previous != '.';
}

class Checker {
 public:
  Checker(std::string_view text, std::string file) : positions_(text), file_(std::move(file)) {}

  void Report(const std::string& pointer, std::string rule, std::string message) {
    const auto at = positions_.Find(pointer);
    diagnostics_.push_back({file_, at.line, at.column, std::move(rule), std::move(message)});
  }

  // The string member `name` of `entry`, or nullopt (reported) when absent, not a string or
  // empty.
  std::optional<std::string> Text(const Json& entry, const std::string& at, const char* name,
                                  bool required = true) {
    const std::string pointer = at + "/" + name;
    if (!entry.contains(name)) {
      if (required) Report(at, "catalogue.shape", std::string("missing member \"") + name + "\"");
      return std::nullopt;
    }
    const Json& value = entry.at(name);
    if (!value.is_string() || value.get<std::string>().empty()) {
      Report(pointer, "catalogue.shape", std::string("\"") + name + "\" must be a nonempty string");
      return std::nullopt;
    }
    return value.get<std::string>();
  }

  std::vector<runner::Diagnostic> Take() { return std::move(diagnostics_); }

 private:
  runner::JsonPositions positions_;
  std::string file_;
  std::vector<runner::Diagnostic> diagnostics_;
};

}  // namespace

std::string Fault::Group() const { return id.substr(0, id.find('.')); }

const Fault* Catalogue::Find(std::string_view id) const {
  for (const auto& fault : faults) {
    if (fault.id == id) return &fault;
  }
  return nullptr;
}

const Fault* Catalogue::Canary() const {
  for (const auto& fault : faults) {
    if (fault.canary) return &fault;
  }
  return nullptr;
}

CatalogueLoad ParseCatalogue(std::string_view text, const std::string& display_name,
                             const runner::ClauseRegistry& registry) {
  CatalogueLoad load;
  const runner::StrictJsonResult parsed = runner::ParseStrictJson(text);
  if (parsed.error) {
    const auto at = runner::PositionOfOffset(text, parsed.error->offset);
    load.diagnostics.push_back(
        {display_name, at.line, at.column, "catalogue.json", parsed.error->message});
    return load;
  }
  Checker check(text, display_name);
  const Json& root = parsed.value;
  if (!root.is_array()) {
    check.Report("", "catalogue.shape", "the catalogue must be an array of fault objects");
    load.diagnostics = check.Take();
    return load;
  }
  std::set<std::string> ids, bug_cases;
  std::size_t canaries = 0;
  for (std::size_t i = 0; i < root.size(); ++i) {
    const Json& entry = root[i];
    const std::string at = "/" + std::to_string(i);
    if (!entry.is_object()) {
      check.Report(at, "catalogue.shape", "each fault is an object");
      continue;
    }
    for (const auto& [name, value] : entry.items()) {
      if (!Known(name, kKnownMembers)) {
        check.Report(at + "/" + runner::EscapePointerToken(name), "catalogue.member",
                     "unknown member \"" + name +
                         "\" (known: id, clauses, file, function, description, bug, equivalent, "
                         "canary)");
      }
    }
    Fault fault;
    bool complete = true;
    const auto take = [&](const char* name, std::string& into) {
      if (auto value = check.Text(entry, at, name)) {
        into = std::move(*value);
      } else {
        complete = false;
      }
    };
    take("id", fault.id);
    take("file", fault.file);
    take("function", fault.function);
    take("description", fault.description);
    if (!fault.id.empty()) {
      if (!WellFormedId(fault.id)) {
        check.Report(at + "/id", "catalogue.id",
                     "a fault id is group.name in lower case, at most 120 characters "
                     "(builder.response_id_omitted)");
        complete = false;
      } else if (!ids.insert(fault.id).second) {
        check.Report(at + "/id", "catalogue.id", "fault id " + fault.id + " is catalogued twice");
        complete = false;
      }
    }
    if (!entry.contains("clauses") || !entry.at("clauses").is_array() ||
        entry.at("clauses").empty()) {
      check.Report(entry.contains("clauses") ? at + "/clauses" : at, "catalogue.shape",
                   "\"clauses\" must be a nonempty array of clause ids");
      complete = false;
    } else {
      const Json& clauses = entry.at("clauses");
      for (std::size_t k = 0; k < clauses.size(); ++k) {
        const std::string pointer = at + "/clauses/" + std::to_string(k);
        if (!clauses[k].is_string()) {
          check.Report(pointer, "catalogue.shape", "a clause id is a string");
          complete = false;
        } else if (!registry.Contains(clauses[k].get<std::string>())) {
          check.Report(pointer, "catalogue.clause",
                       "clause " + clauses[k].get<std::string>() +
                           " is not in oracles/clauses.json");
          complete = false;
        } else {
          fault.clauses.push_back(clauses[k].get<std::string>());
        }
      }
    }
    if (entry.contains("bug")) {
      const Json& bug = entry.at("bug");
      if (!bug.is_object()) {
        check.Report(at + "/bug", "catalogue.shape",
                     "\"bug\" is an object: {\"project\", \"report\", \"case\"}");
        complete = false;
      } else {
        for (const auto& [name, value] : bug.items()) {
          if (!Known(name, kBugMembers)) {
            check.Report(at + "/bug/" + runner::EscapePointerToken(name), "catalogue.member",
                         "unknown member \"" + name + "\" of bug (known: project, report, case)");
          }
        }
        BugReport report;
        const auto project = check.Text(bug, at + "/bug", "project");
        const auto what = check.Text(bug, at + "/bug", "report");
        const auto case_id = check.Text(bug, at + "/bug", "case");
        if (case_id && case_id->rfind("bugs/", 0) != 0) {
          check.Report(at + "/bug/case", "catalogue.bug",
                       "a bug case is a case of fixtures/bugs/, named bugs/<file stem>");
          complete = false;
        } else if (case_id && !bug_cases.insert(*case_id).second) {
          check.Report(at + "/bug/case", "catalogue.bug",
                       "bug case " + *case_id + " is paired with two faults");
          complete = false;
        }
        if (project && what && case_id) {
          fault.bug = BugReport{*project, *what, *case_id};
        } else {
          complete = false;
        }
      }
    }
    if (entry.contains("equivalent")) {
      if (auto argument = check.Text(entry, at, "equivalent")) {
        fault.equivalent = std::move(*argument);
      } else {
        complete = false;
      }
    }
    if (entry.contains("canary")) {
      if (!entry.at("canary").is_boolean()) {
        check.Report(at + "/canary", "catalogue.shape", "\"canary\" is true or absent");
        complete = false;
      } else {
        fault.canary = entry.at("canary").get<bool>();
      }
    }
    if (fault.canary) {
      ++canaries;
      if (fault.equivalent) {
        check.Report(at + "/canary", "catalogue.canary",
                     "the canary must be killable; it cannot be equivalent");
        complete = false;
      }
    }
    if (complete) load.catalogue.faults.push_back(std::move(fault));
  }
  if (canaries != 1) {
    check.Report("", "catalogue.canary",
                 "the catalogue needs exactly one fault with \"canary\": true (it has " +
                     std::to_string(canaries) + ")");
  }
  load.diagnostics = check.Take();
  return load;
}

CatalogueLoad LoadCatalogue(const std::filesystem::path& file, const std::string& display_name,
                            const runner::ClauseRegistry& registry) {
  std::error_code error;
  std::ifstream in(file, std::ios::binary);
  if (!in || !std::filesystem::is_regular_file(file, error)) {
    CatalogueLoad load;
    load.diagnostics.push_back(
        {display_name, 1, 1, "catalogue.read", "cannot read the fault catalogue (not a readable file)"});
    return load;
  }
  std::stringstream text;
  text << in.rdbuf();
  return ParseCatalogue(text.str(), display_name, registry);
}

std::filesystem::path CataloguePath(const std::filesystem::path& source_root) {
  return source_root / "mutants" / "catalogue.json";
}

}  // namespace gemini_oracle::mutants
