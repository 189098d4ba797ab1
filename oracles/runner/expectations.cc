#include "oracles/runner/expectations.h"

#include <fstream>
#include <sstream>

#include "oracles/runner/json_positions.h"

namespace gemini_oracle::runner {
namespace {

constexpr const char* kVerdictKnown = "known";
constexpr const char* kVerdictUnexpectedPass = "unexpected_pass";

class Reader {
 public:
  Reader(std::filesystem::path file, std::string text)
      : file_(std::move(file)), text_(std::move(text)), positions_(text_) {}

  void Problem(const std::string& pointer, const std::string& rule, const std::string& message) {
    const TextPosition at = positions_.Find(pointer);
    diagnostics_.push_back({file_.generic_string(), at.line, at.column, rule, message});
  }
  void ProblemAtOffset(std::size_t offset, const std::string& rule, const std::string& message) {
    const TextPosition at = PositionOfOffset(text_, offset);
    diagnostics_.push_back({file_.generic_string(), at.line, at.column, rule, message});
  }
  const std::string& text() const { return text_; }
  std::vector<Diagnostic>& diagnostics() { return diagnostics_; }

 private:
  std::filesystem::path file_;
  std::string text_;
  JsonPositions positions_;
  std::vector<Diagnostic> diagnostics_;
};

bool IsHttpLink(const std::string& link) {
  return link.rfind("https://", 0) == 0 || link.rfind("http://", 0) == 0;
}

bool IsCauseKey(const std::string& key) {
  return !key.empty() && key.size() <= 64 &&
         key.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
}

// The file's `causes`: {"<key>": {"text": "...", "link": "..."}}.
void ReadCauses(const nlohmann::json& value, Reader& reader,
                std::map<std::string, FailureCause>& causes) {
  if (!value.is_object()) {
    reader.Problem("/causes", "expect.causes", "`causes` is an object of named causes");
    return;
  }
  for (const auto& [key, cause] : value.items()) {
    const std::string pointer = "/causes/" + EscapePointerToken(key);
    if (!IsCauseKey(key)) {
      reader.Problem(pointer, "expect.cause_key",
                     "a cause's key is 1 to 64 of a-z, 0-9 and '-'");
      continue;
    }
    if (!cause.is_object()) {
      reader.Problem(pointer, "expect.cause", "a cause is an object {text, link}");
      continue;
    }
    FailureCause read{key, "", ""};
    bool ok = true;
    for (const auto& [member, member_value] : cause.items()) {
      if (member == "text" && member_value.is_string() && !member_value.get<std::string>().empty()) {
        read.text = member_value.get<std::string>();
      } else if (member == "link" && member_value.is_string() &&
                 IsHttpLink(member_value.get<std::string>())) {
        read.link = member_value.get<std::string>();
      } else if (member == "text" || member == "link") {
        reader.Problem(pointer + "/" + member, member == "text" ? "expect.reason" : "expect.link",
                       member == "text" ? "a cause's `text` is a non-empty string"
                                        : "`link` is an http(s) URL");
        ok = false;
      } else {
        reader.Problem(pointer + "/" + EscapePointerToken(member), "expect.member",
                       "unknown member of a cause (text, link)");
        ok = false;
      }
    }
    if (read.text.empty() && ok) {
      reader.Problem(pointer, "expect.reason", "a cause says what fails (a non-empty `text`)");
      ok = false;
    }
    if (ok) causes.emplace(key, std::move(read));
  }
}

void ReadEntry(const nlohmann::json& entry, const std::string& pointer, Reader& reader,
               const std::map<std::string, FailureCause>& causes, std::set<std::string>& cited,
               Expectations& expectations) {
  if (!entry.is_object()) {
    reader.Problem(pointer, "expect.entry",
                   "an entry of `known` is an object {id, reason | causes, link}");
    return;
  }
  for (const auto& [key, value] : entry.items()) {
    if (key != "id" && key != "reason" && key != "link" && key != "causes") {
      reader.Problem(pointer + "/" + EscapePointerToken(key), "expect.member",
                     "unknown member of an entry (id, reason, causes, link)");
    }
  }
  const auto id = entry.find("id");
  if (id == entry.end() || !id->is_string() || id->get<std::string>().empty()) {
    reader.Problem(pointer, "expect.id", "each entry names a case by its exact id (a string)");
    return;
  }
  const auto reason = entry.find("reason");
  const auto listed = entry.find("causes");
  KnownFailure failure;
  if (listed != entry.end()) {
    if (reason != entry.end()) {
      reader.Problem(pointer, "expect.reason", "an entry gives `reason` or `causes`, not both");
      return;
    }
    if (!listed->is_array() || listed->empty()) {
      reader.Problem(pointer + "/causes", "expect.causes",
                     "an entry's `causes` is a non-empty list of the file's cause keys");
      return;
    }
    std::set<std::string> seen;
    for (std::size_t i = 0; i < listed->size(); ++i) {
      const auto& key = (*listed)[i];
      const auto found = key.is_string() ? causes.find(key.get<std::string>()) : causes.end();
      if (found == causes.end() || !seen.insert(found->first).second) {
        reader.Problem(pointer + "/causes/" + std::to_string(i), "expect.cause_key",
                       "not a key of the file's `causes`, or named twice");
        return;
      }
      cited.insert(found->first);
      failure.causes.push_back(found->second);
      failure.reason += (failure.reason.empty() ? "" : " ") + found->second.text;
      if (failure.link.empty()) failure.link = found->second.link;
    }
  } else if (reason == entry.end() || !reason->is_string() ||
             reason->get<std::string>().empty()) {
    reader.Problem(pointer, "expect.reason",
                   "each entry says why the case fails (a non-empty `reason`, or `causes`)");
    return;
  } else {
    failure.reason = reason->get<std::string>();
  }
  if (const auto link = entry.find("link"); link != entry.end()) {
    if (!link->is_string() || !IsHttpLink(link->get<std::string>())) {
      reader.Problem(pointer + "/link", "expect.link", "`link` is an http(s) URL");
      return;
    }
    failure.link = link->get<std::string>();
  }
  if (!expectations.known.emplace(id->get<std::string>(), std::move(failure)).second) {
    reader.Problem(pointer + "/id", "expect.duplicate", "this case is listed twice");
  }
}

}  // namespace

ExpectationsLoad LoadExpectations(const std::filesystem::path& file) {
  ExpectationsLoad load;
  load.expectations.file = file;
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    load.diagnostics.push_back(
        {file.generic_string(), 1, 1, "expect.unreadable", "cannot read the expectations file"});
    return load;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  Reader reader(file, buffer.str());
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(reader.text());
  } catch (const nlohmann::json::parse_error& e) {
    reader.ProblemAtOffset(e.byte > 0 ? e.byte - 1 : 0, "expect.json", "not a JSON document");
    load.diagnostics = std::move(reader.diagnostics());
    return load;
  }
  std::map<std::string, FailureCause> causes;
  if (!document.is_object()) {
    reader.Problem("", "expect.root", "an expectations file is an object {implementation, known}");
  } else {
    for (const auto& [key, value] : document.items()) {
      if (key == "implementation") {
        if (!value.is_string()) {
          reader.Problem("/implementation", "expect.implementation",
                         "`implementation` is a string");
        } else {
          load.expectations.implementation = value.get<std::string>();
        }
      } else if (key == "causes") {
        ReadCauses(value, reader, causes);
      } else if (key != "known") {
        reader.Problem("/" + EscapePointerToken(key), "expect.member",
                       "unknown member (implementation, causes, known)");
      }
    }
    // Entries after the causes they cite, wherever `causes` is written.
    if (const auto known = document.find("known"); known != document.end()) {
      if (!known->is_array()) {
        reader.Problem("/known", "expect.known", "`known` is an array of entries");
      } else {
        std::set<std::string> cited;
        for (std::size_t i = 0; i < known->size(); ++i) {
          ReadEntry((*known)[i], "/known/" + std::to_string(i), reader, causes, cited,
                    load.expectations);
        }
        for (const auto& [cause_key, cause] : causes) {
          if (cited.count(cause_key) == 0) {
            reader.Problem("/causes/" + EscapePointerToken(cause_key), "expect.unused_cause",
                           "no entry cites this cause (remove it with its last case)");
          }
        }
      }
    }
    if (!document.contains("known")) {
      reader.Problem("", "expect.known", "an expectations file lists `known` (may be empty)");
    }
  }
  load.diagnostics = std::move(reader.diagnostics());
  if (!load.ok()) load.expectations.known.clear();  // nothing kept from a file with a problem
  SortDiagnostics(load.diagnostics);
  return load;
}

std::vector<Diagnostic> UnknownCaseDiagnostics(const Expectations& expectations,
                                               const std::set<std::string>& corpus_ids) {
  std::vector<Diagnostic> diagnostics;
  std::ifstream in(expectations.file, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  for (const auto& [id, failure] : expectations.known) {
    if (corpus_ids.count(id) != 0) continue;
    // Where the id is written: its quoted form's first occurrence (ids are plain ASCII).
    const std::size_t offset = text.find("\"" + id + "\"");
    const TextPosition at = PositionOfOffset(text, offset == std::string::npos ? 0 : offset);
    diagnostics.push_back({expectations.file.generic_string(), at.line, at.column,
                           "expect.unknown_case",
                           "no case of the corpus has this id (removed or renamed? a streamed "
                           "twin is listed by its own id)"});
  }
  SortDiagnostics(diagnostics);
  return diagnostics;
}

void ApplyExpectations(const Expectations& expectations, nlohmann::json& results) {
  for (auto& result : results) {
    if (!result.is_object() || !result.contains("id") || !result["id"].is_string()) continue;
    if (result.value("bad_fixture", false)) continue;
    const auto listed = expectations.known.find(result["id"].get<std::string>());
    if (listed == expectations.known.end()) continue;
    const std::string verdict = result.value("verdict", std::string());
    nlohmann::json known_failure = {{"reason", listed->second.reason},
                               {"file", expectations.file.filename().generic_string()}};
    if (!listed->second.link.empty()) known_failure["link"] = listed->second.link;
    if (!listed->second.causes.empty()) {
      known_failure["causes"] = nlohmann::json::array();
      for (const auto& cause : listed->second.causes) {
        nlohmann::json entry = {{"key", cause.key}, {"text", cause.text}};
        if (!cause.link.empty()) entry["link"] = cause.link;
        known_failure["causes"].push_back(std::move(entry));
      }
    }
    if (verdict == "fail" || verdict == "error" || verdict == "timeout") {
      known_failure["verdict"] = verdict;
      known_failure["was_reason"] = result.value("reason", std::string());
      result["verdict"] = kVerdictKnown;
      result["reason"] = "known failure (" + verdict + "): " + listed->second.reason;
      result["known_failure"] = std::move(known_failure);
    } else if (verdict == "pass" || verdict == "implementation_defined") {
      // An i_ case without a gating finding has passed everything that is judged of it.
      result["verdict"] = kVerdictUnexpectedPass;
      result["reason"] =
          "listed as a known failure but passed: remove it from the expectations file";
      result["known_failure"] = std::move(known_failure);
    }
  }
}

}  // namespace gemini_oracle::runner
