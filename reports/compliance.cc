#include "reports/compliance.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>

#include "reports/atomic_file.h"
#include "reports/compare.h"
#include "reports/index.h"
#include "reports/text.h"

namespace gemini_oracle::reports {
namespace {

using nlohmann::json;

// Verdicts that say nothing of the implementation's behaviour: the case was not run, or the
// run broke before a verdict on the wire could be reached.
bool Judged(const json& result, const std::string& verdict) {
  if (verdict == kKnown) {
    // A listed error or timeout stays what it was: nothing was judged.
    const auto known = result.find("known_failure");
    if (known != result.end() && known->is_object()) {
      const std::string was = StringField(*known, "verdict");
      if (was == kError || was == kTimeout) return false;
    }
  }
  return verdict != kSkipped && verdict != kError && verdict != kTimeout && !verdict.empty();
}

// What the implementation did, for a reader: clause, request, place and the judge's sentence.
// Never the finding's values: an expected or actual value can be an id the implementation made
// up at random, and the page must not change between runs that agree.
std::string Observed(const json& finding) {
  std::string line = StringField(finding, "clause");
  if (finding.contains("request") && finding["request"].is_number_integer()) {
    line += " request " + std::to_string(finding["request"].get<std::int64_t>());
  }
  if (const std::string pointer = StringField(finding, "pointer"); !pointer.empty()) {
    line += " at " + pointer;
  }
  return OneLine(line + ": " + StringField(finding, "message"), 400);
}

bool Failing(const std::string& verdict) { return verdict == kFail || verdict == kKnown; }

const json& Findings(const json& result) {
  static const json kNone = json::array();
  const auto it = result.find("findings");
  return it != result.end() && it->is_array() ? *it : kNone;
}

bool GatingFinding(const json& finding) {
  if (!finding.is_object()) return false;
  const auto it = finding.find("gating");
  return it != finding.end() && it->is_boolean() && it->get<bool>();
}

// The first sentence a reader needs: twins ("x.streamed") after their original, so an example
// is the plainest form of the case.
bool ExampleBefore(const std::string& a, const std::string& b) {
  const bool a_twin = a.find('.') != std::string::npos;
  const bool b_twin = b.find('.') != std::string::npos;
  if (a_twin != b_twin) return !a_twin;
  return a < b;
}

struct Cell {
  int judged = 0;
  int failing = 0;
  int noted = 0;  // non-gating findings (open and beyond clauses)
};

struct Defect {
  std::string cause;
  std::string link;
  std::set<std::string> clauses;
  std::vector<std::string> cases;
  std::map<std::string, std::string> sends;  // case -> its first gating finding, one line
};

// An expectations file may say of a streamed twin's entry that it is one ("... (Twin: every
// answer streamed.)"); the twin fails for its original's cause, so the note does not split it.
std::string WithoutTwinNote(std::string reason) {
  for (std::size_t at; (at = reason.find(" (Twin")) != std::string::npos;) {
    const std::size_t end = reason.find(')', at);
    if (end == std::string::npos) break;
    reason.erase(at, end + 1 - at);
  }
  return reason;
}

struct Cause {
  std::string text;
  std::string link;
};

// The causes a failing result has, by key: the expectations file's named causes (one defect
// each, a case counted under every cause it has), else its reason as one cause, else, for a
// failure no file lists, the clause and message of its first gating finding.
std::vector<std::pair<std::string, Cause>> CausesOf(const json& result) {
  std::vector<std::pair<std::string, Cause>> out;
  const auto known = result.find("known_failure");
  if (known != result.end() && known->is_object()) {
    const auto causes = known->find("causes");
    if (causes != known->end() && causes->is_array()) {
      for (const auto& cause : *causes) {
        const std::string key = StringField(cause, "key");
        if (!key.empty()) {
          out.push_back({"cause:" + key, {StringField(cause, "text"), StringField(cause, "link")}});
        }
      }
      if (!out.empty()) return out;
    }
    const std::string reason = WithoutTwinNote(StringField(*known, "reason"));
    if (!reason.empty()) {
      out.push_back({"known:" + reason, {reason, StringField(*known, "link")}});
      return out;
    }
  }
  for (const auto& finding : Findings(result)) {
    if (!GatingFinding(finding)) continue;
    const std::string message = StringField(finding, "message");
    out.push_back({"finding:" + StringField(finding, "clause") + ":" + message, {message, ""}});
    return out;
  }
  const std::string reason = StringField(result, "reason");
  out.push_back({"reason:" + reason, {reason, ""}});
  return out;
}

// Whether `text` names `clause` ("ADR-224.8"), also in the short form a list of clauses uses
// after its first ("ADR-224.3, 224.8"): the number must stand on its own.
bool NamesClause(const std::string& text, const std::string& clause) {
  const std::size_t dash = clause.find('-');
  const std::string tail = dash == std::string::npos ? clause : clause.substr(dash + 1);
  for (std::size_t at = text.find(tail); at != std::string::npos; at = text.find(tail, at + 1)) {
    const std::size_t end = at + tail.size();
    // "ADR-224.1" is not named by "ADR-224.12" nor by "ADR-224.1.2".
    const bool digit_follows = std::isdigit(static_cast<unsigned char>(text[end]));
    const bool step_follows = text[end] == '.' && end + 1 < text.size() &&
                              std::isdigit(static_cast<unsigned char>(text[end + 1]));
    const bool ends = end == text.size() || !(digit_follows || step_follows);
    const bool starts = at == 0 || !std::isdigit(static_cast<unsigned char>(text[at - 1]));
    if (starts && ends) return true;
  }
  return false;
}

json ImplementationEntry(const ComplianceInput& input) {
  const json& index = input.report.index;
  const json context = index.contains("context") ? index["context"] : json::object();
  json summary = SummarizeResults(index.at("results"));
  json entry = {{"label", input.label},
                {"implementation", StringField(context, "implementation")},
                {"profile", StringField(context, "profile")},
                {"summary", std::move(summary)}};
  const auto expectations = context.find("expectations");
  if (expectations != context.end() && expectations->is_object()) {
    entry["expectations"] = StringField(*expectations, "file");
  }
  return entry;
}

}  // namespace

const std::vector<std::string>& ComplianceFileNames() {
  static const std::vector<std::string> names = {"README.md", "index.html", "compliance.json"};
  return names;
}

json BuildCompliance(const std::vector<ComplianceInput>& inputs, const json& clauses) {
  std::set<std::string> labels;
  for (const auto& input : inputs) {
    if (input.label.empty()) throw std::invalid_argument("an implementation has an empty label");
    if (!labels.insert(input.label).second) {
      throw std::invalid_argument("the label \"" + input.label + "\" is given twice");
    }
  }

  json doc;
  doc["compliance_schema_version"] = kComplianceSchemaVersion;
  doc["implementations"] = json::array();
  std::set<std::string> suites;
  std::set<std::string> profiles;
  for (const auto& input : inputs) {
    doc["implementations"].push_back(ImplementationEntry(input));
    const json& index = input.report.index;
    const json context = index.contains("context") ? index["context"] : json::object();
    suites.insert(StringField(context, "suite_version"));
    profiles.insert(StringField(context, "profile"));
  }
  doc["suite_version"] = suites.size() == 1 ? *suites.begin() : std::string();
  doc["profile"] = profiles.size() == 1 ? *profiles.begin() : std::string();

  // Per clause and implementation: the cells; per implementation: the defects by cause.
  std::map<std::string, std::vector<Cell>> cells;
  std::vector<std::map<std::string, Defect>> defects(inputs.size());
  for (std::size_t r = 0; r < inputs.size(); ++r) {
    for (const auto& result : inputs[r].report.index.at("results")) {
      const std::string id = StringField(result, "id");
      const std::string verdict = StringField(result, "verdict");
      if (!Judged(result, verdict)) continue;
      std::set<std::string> concerned;
      for (const auto& clause : StringList(result, "clauses")) concerned.insert(clause);
      std::set<std::string> failed;
      std::set<std::string> noted;
      for (const auto& finding : Findings(result)) {
        const std::string clause = StringField(finding, "clause");
        if (clause.empty()) continue;
        concerned.insert(clause);
        (GatingFinding(finding) ? failed : noted).insert(clause);
      }
      for (const auto& clause : concerned) {
        auto& row = cells[clause];
        row.resize(inputs.size());
        ++row[r].judged;
        if (failed.count(clause) != 0) ++row[r].failing;
        if (noted.count(clause) != 0) ++row[r].noted;
      }
      if (!Failing(verdict)) continue;
      for (const auto& [key, cause] : CausesOf(result)) {
        Defect& defect = defects[r][key];
        defect.cause = cause.text;
        if (defect.link.empty()) defect.link = cause.link;
        // The clauses the cause names among the case's gating ones; all of them when it
        // names none (a reason written without clause ids).
        std::set<std::string> named;
        for (const auto& clause : failed) {
          if (NamesClause(cause.text, clause)) named.insert(clause);
        }
        const std::set<std::string>& clauses_of = named.empty() ? failed : named;
        defect.clauses.insert(clauses_of.begin(), clauses_of.end());
        defect.cases.push_back(id);
        // The gating finding of a clause the cause names, else the first gating one.
        const json* shown = nullptr;
        for (const auto& finding : Findings(result)) {
          if (!GatingFinding(finding)) continue;
          if (shown == nullptr) shown = &finding;
          if (clauses_of.count(StringField(finding, "clause")) != 0) {
            shown = &finding;
            break;
          }
        }
        if (shown != nullptr) defect.sends[id] = Observed(*shown);
      }
    }
  }

  std::map<std::string, json> registry;
  std::vector<std::string> order;
  for (const auto& clause : clauses) {
    const std::string id = StringField(clause, "id");
    if (id.empty() || registry.count(id) != 0) continue;
    registry[id] = clause;
    order.push_back(id);
  }
  // A clause some report cites that this registry lacks still gets its row, after the rest.
  std::vector<std::string> extra;
  for (const auto& [clause, row] : cells) {
    if (registry.count(clause) == 0) extra.push_back(clause);
  }
  std::sort(extra.begin(), extra.end(), ClauseLess);
  order.insert(order.end(), extra.begin(), extra.end());

  doc["clauses"] = json::array();
  for (const auto& id : order) {
    const json entry = registry.count(id) != 0 ? registry[id] : json::object();
    const std::string level = StringField(entry, "level");
    json row = {{"id", id},
                {"level", level.empty() ? "must" : level},
                {"summary", StringField(entry, "summary")},
                {"cells", json::object()}};
    auto counts = cells[id];
    counts.resize(inputs.size());
    const std::vector<std::string> judged_under = StringList(entry, "profiles");
    for (std::size_t r = 0; r < inputs.size(); ++r) {
      const Cell& cell = counts[r];
      const std::string profile = StringField(
          inputs[r].report.index.value("context", json::object()), "profile");
      // A clause the report's profile leaves out was never judged there (registry `profiles`:
      // the ADRs' own result encodings under `adr` only), whatever its cases did.
      const bool excluded = !judged_under.empty() && !profile.empty() &&
                            std::find(judged_under.begin(), judged_under.end(), profile) ==
                                judged_under.end();
      // An open or beyond clause never gates, judged or not: its cell only counts findings.
      // A gating finding under a clause the profile leaves out (an outcome finding) is still a
      // failure: it is shown, never hidden as not judged.
      std::string state = excluded && cell.failing == 0 ? "excluded"
                          : row["level"] != "must"       ? "open"
                          : cell.judged == 0       ? "not_run"
                          : cell.failing > 0       ? "fail"
                                                   : "pass";
      row["cells"][inputs[r].label] = {{"state", state},
                                       {"profile", profile},
                                       {"judged", cell.judged},
                                       {"failing", cell.failing},
                                       {"noted", cell.noted}};
    }
    doc["clauses"].push_back(std::move(row));
  }

  doc["defects"] = json::object();
  for (std::size_t r = 0; r < inputs.size(); ++r) {
    std::vector<const Defect*> sorted;
    for (const auto& [key, defect] : defects[r]) sorted.push_back(&defect);
    std::sort(sorted.begin(), sorted.end(), [](const Defect* a, const Defect* b) {
      if (a->cases.size() != b->cases.size()) return a->cases.size() > b->cases.size();
      return a->cause < b->cause;
    });
    json list = json::array();
    for (const Defect* defect : sorted) {
      std::vector<std::string> cases = defect->cases;
      std::sort(cases.begin(), cases.end(), ExampleBefore);
      const std::string& example = cases.front();
      json adr = json::array();
      std::vector<std::string> ids(defect->clauses.begin(), defect->clauses.end());
      std::sort(ids.begin(), ids.end(), ClauseLess);
      for (const auto& clause : ids) {
        adr.push_back({{"clause", clause},
                       {"says", registry.count(clause) != 0
                                    ? StringField(registry[clause], "summary")
                                    : std::string()}});
      }
      const auto sends = defect->sends.find(example);
      list.push_back({{"cause", defect->cause},
                      {"link", defect->link},
                      {"clauses", ids},
                      {"cases", cases.size()},
                      {"example", example},
                      {"sends", sends == defect->sends.end() ? std::string() : sends->second},
                      {"adr", std::move(adr)}});
    }
    doc["defects"][inputs[r].label] = std::move(list);
  }

  // The disagreements, by label: compare's rule (not running a case is no verdict; a known
  // failure counts as the failure it was listed for).
  std::vector<LoadedReport> reports;
  for (const auto& input : inputs) reports.push_back(input.report);
  const json comparison = BuildComparison(reports);
  const auto columns = comparison.value("implementations", std::vector<std::string>{});
  // Profiles differ on purpose (frameworks that wrap results their own way run under gemini):
  // the legend names each report's profile and the cells say what it leaves out.
  doc["warnings"] = json::array();
  for (const auto& warning : comparison.value("warnings", json::array())) {
    if (warning.is_string() && warning.get<std::string>().find("differ in profile") ==
                                   std::string::npos) {
      doc["warnings"].push_back(warning);
    }
  }
  doc["disagreements"] = json::array();
  for (const auto& row : comparison.at("disagreements")) {
    json verdicts = json::object();
    for (std::size_t r = 0; r < inputs.size() && r < columns.size(); ++r) {
      const json& verdict = row.at("verdicts").at(columns[r]);
      verdicts[inputs[r].label] = verdict;
    }
    doc["disagreements"].push_back({{"id", row.at("id")}, {"verdicts", std::move(verdicts)}});
  }
  doc["cases"] = comparison.at("summary").value("cases", 0);
  return doc;
}

void WriteCompliance(const json& compliance, const std::filesystem::path& dir) {
  WriteFileAtomically(dir / "README.md",
                      [&](std::ostream& out) { WriteComplianceMarkdown(compliance, out); });
  WriteFileAtomically(dir / "index.html",
                      [&](std::ostream& out) { WriteComplianceHtml(compliance, out); });
  WriteFileAtomically(dir / "compliance.json",
                      [&](std::ostream& out) { out << compliance.dump(2) << "\n"; });
}

}  // namespace gemini_oracle::reports
