#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "reports/clause_stats.h"
#include "reports/html.h"
#include "reports/index.h"
#include "reports/junit.h"
#include "reports/markdown.h"
#include "reports/text.h"
#include "reports/text.h"
#include "reports/write_all.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::reports {
namespace {

using nlohmann::json;

// Text a harness could plausibly produce that breaks naive XML/HTML/Markdown writers.
const std::string kNasty = "<tag> & \"q\" 's' | `tick`\x01 end";

json Result(const std::string& id, const std::string& verdict, const std::string& reason = "") {
  return {{"id", id},
          {"file", "fixtures/" + id + ".json"},
          {"description", "Describes " + id + "."},
          {"clauses", {"ADR-226.3"}},
          {"features", json::array()},
          {"verdict", verdict},
          {"reason", reason},
          {"duration_ms", 1.25},
          {"requests", 2},
          {"findings", json::array()}};
}

json SampleIndex() {
  json results = json::array();
  results.push_back(Result("adr-224/y_a", "pass"));
  json failed = Result("adr-224/n_b", "fail", "should-have-refused");
  failed["clauses"] = {"ADR-224.10", "ADR-224.2"};
  failed["findings"].push_back({{"clause", "ADR-224.2"},
                                {"level", "must"},
                                {"request", 2},
                                {"pointer", "/contents/1/parts/0/functionResponse/response"},
                                {"expected", json::object()},
                                {"actual", json::array()},
                                {"message", kNasty}});
  results.push_back(failed);
  results.push_back(Result("adr-226/y_c", "error", "driver exited with status 3"));
  results.push_back(Result("adr-226/y_d", "timeout"));
  results.push_back(Result("adr-226/i_e", "implementation_defined", "wrapping key differs"));
  results.push_back(Result("adr-226/y_f", "known", "https://example.invalid/issue/1"));
  results.push_back(Result("adr-226/y_g", "skipped", "unsupported feature: streaming"));
  json context = {{"tool", "gemini-oracle"},
                  {"tool_version", "0.1.0"},
                  {"suite_version", "1.0.0"},
                  {"seed", 42u},
                  {"started_at", "2025-01-01T00:00:00Z"},
                  {"implementation", "reference"},
                  {"strict", false},
                  {"filter", ""},
                  {"shard", "1/1"}};
  return BuildIndex(context, results);
}

std::string Render(void (*write)(const json&, std::ostream&), const json& index) {
  std::ostringstream out;
  write(index, out);
  return out.str();
}

// A small XML 1.0 well-formedness check: balanced tags, quoted attributes, known entities,
// no raw markup characters in text and no characters XML forbids.
::testing::AssertionResult WellFormedXml(const std::string& xml) {
  std::vector<std::string> open;
  std::size_t i = 0;
  const auto fail = [&](const std::string& why) {
    return ::testing::AssertionFailure() << why << " at byte " << i;
  };
  const auto check_entity = [&](std::size_t at) {
    const auto end = xml.find(';', at);
    if (end == std::string::npos) return false;
    const std::string name = xml.substr(at + 1, end - at - 1);
    static const std::vector<std::string> kNamed = {"amp", "lt", "gt", "quot", "apos"};
    if (std::find(kNamed.begin(), kNamed.end(), name) != kNamed.end()) return true;
    return name.size() > 1 && name[0] == '#' &&
           name.find_first_not_of("0123456789", 1) == std::string::npos;
  };
  if (!xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")) return fail("no prolog");
  i = xml.find('\n') + 1;
  bool root_seen = false;
  while (i < xml.size()) {
    const auto byte = static_cast<unsigned char>(xml[i]);
    if (byte < 0x20 && byte != '\n' && byte != '\r' && byte != '\t') return fail("control char");
    if (xml[i] == '&') {
      if (!check_entity(i)) return fail("bad entity");
      ++i;
    } else if (xml[i] == '>') {
      return fail("raw > in text");
    } else if (xml[i] != '<') {
      if (open.empty() && !std::isspace(byte)) return fail("text outside the root");
      ++i;
    } else {
      const auto end = xml.find('>', i);
      if (end == std::string::npos) return fail("unclosed tag");
      const std::string tag = xml.substr(i + 1, end - i - 1);
      if (tag.starts_with("/")) {
        if (open.empty() || open.back() != tag.substr(1)) return fail("mismatched </" + tag);
        open.pop_back();
      } else {
        const bool empty = tag.ends_with("/");
        const std::string body = empty ? tag.substr(0, tag.size() - 1) : tag;
        const std::string name = body.substr(0, body.find(' '));
        // Attributes: name="value" with no raw < or " inside; & must start an entity.
        std::size_t k = name.size();
        while (k < body.size()) {
          while (k < body.size() && body[k] == ' ') ++k;
          if (k >= body.size()) break;
          const auto eq = body.find("=\"", k);
          if (eq == std::string::npos) return fail("attribute without quotes in <" + name);
          const auto close = body.find('"', eq + 2);
          if (close == std::string::npos) return fail("unterminated attribute");
          const std::string value = body.substr(eq + 2, close - eq - 2);
          if (value.find('<') != std::string::npos) return fail("< in attribute");
          for (std::size_t a = value.find('&'); a != std::string::npos;
               a = value.find('&', a + 1)) {
            if (!check_entity(i + 1 + eq + 2 + a)) return fail("bad entity in attribute");
          }
          k = close + 1;
        }
        if (open.empty() && root_seen) return fail("second root");
        root_seen = true;
        if (!empty) open.push_back(name);
      }
      i = end + 1;
    }
  }
  if (!open.empty()) return fail("unclosed <" + open.back() + ">");
  return ::testing::AssertionSuccess();
}

std::string Attribute(const std::string& xml, const std::string& element,
                      const std::string& attribute) {
  const auto at = xml.find("<" + element + " ");
  const auto end = xml.find('>', at);
  const auto key = xml.find(" " + attribute + "=\"", at);
  if (at == std::string::npos || key == std::string::npos || key > end) return "";
  const auto start = key + attribute.size() + 3;
  return xml.substr(start, xml.find('"', start) - start);
}

// Counts each verdict into its summary field and every result into total.
TEST(SummarizeResults, CountsEachVerdict) {
  const json summary = SummarizeResults(SampleIndex()["results"]);
  EXPECT_EQ(summary, json::parse(R"({"total": 7, "passed": 1, "failed": 1, "errors": 1,
      "timeouts": 1, "skipped": 1, "known": 1, "implementation_defined": 1,
      "unexpected_passes": 0})"));
}

// Counts an unexpected pass under its own key, not as an error.
TEST(SummarizeResults, UnexpectedPassHasItsOwnCount) {
  const json summary = SummarizeResults(json::array({{{"verdict", "unexpected_pass"}}}));
  EXPECT_EQ(summary["unexpected_passes"], 1);
  EXPECT_EQ(summary["errors"], 0);
}

// Counts a result with an unknown or missing verdict as an error.
TEST(SummarizeResults, UnknownVerdictCountsAsError) {
  const json summary =
      SummarizeResults(json::array({{{"verdict", "maybe"}}, json::object(), {{"verdict", 3}}}));
  EXPECT_EQ(summary["errors"], 3);
  EXPECT_EQ(summary["total"], 3);
}

// Gates on fail, error, timeout and unexpected_pass only.
TEST(Gates, FailErrorTimeoutGate) {
  for (const char* verdict : {"fail", "error", "timeout", "unexpected_pass", "bogus"}) {
    EXPECT_TRUE(Gates({{"verdict", verdict}})) << verdict;
  }
  for (const char* verdict : {"pass", "skipped", "known", "implementation_defined"}) {
    EXPECT_FALSE(Gates({{"verdict", verdict}})) << verdict;
  }
}

// Writes the index with sorted keys, so two runs diff cleanly.
TEST(WriteIndex, KeysAreSorted) {
  std::ostringstream out;
  WriteIndexTo(SampleIndex(), out);
  const std::string text = out.str();
  const auto pos = [&](const std::string& key) { return text.find("\"" + key + "\":"); };
  EXPECT_LT(pos("context"), pos("json_schema_version"));
  EXPECT_LT(pos("json_schema_version"), pos("results"));
  EXPECT_LT(pos("results"), pos("summary"));
  EXPECT_LT(pos("implementation"), pos("seed"));
  EXPECT_TRUE(text.ends_with("}\n"));
  // The ordered parse keeps file order: every object's keys must already be sorted.
  const nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(text);
  std::function<void(const nlohmann::ordered_json&)> sorted = [&](const auto& value) {
    if (value.is_object()) {
      std::string previous;
      for (const auto& [key, member] : value.items()) {
        EXPECT_LE(previous, key);
        previous = key;
        sorted(member);
      }
    } else if (value.is_array()) {
      for (const auto& item : value) sorted(item);
    }
  };
  sorted(parsed);
  EXPECT_EQ(parsed["json_schema_version"], kJsonSchemaVersion);
}

// Produces well-formed JUnit XML with correct per-suite and total counts.
TEST(WriteJunit, WellFormedWithCorrectCounts) {
  const std::string xml = Render(WriteJunit, SampleIndex());
  ASSERT_TRUE(WellFormedXml(xml)) << xml;
  EXPECT_EQ(Attribute(xml, "testsuites", "tests"), "7");
  EXPECT_EQ(Attribute(xml, "testsuites", "failures"), "1");
  EXPECT_EQ(Attribute(xml, "testsuites", "errors"), "2");
  EXPECT_EQ(Attribute(xml, "testsuites", "skipped"), "3");
  const std::string second = xml.substr(xml.find("<testsuite name=\"adr-226\""));
  EXPECT_EQ(Attribute(xml, "testsuite", "name"), "adr-224");
  EXPECT_EQ(Attribute(xml, "testsuite", "tests"), "2");
  EXPECT_EQ(Attribute(xml, "testsuite", "failures"), "1");
  EXPECT_EQ(Attribute(second, "testsuite", "tests"), "5");
  EXPECT_EQ(Attribute(second, "testsuite", "errors"), "2");
  EXPECT_EQ(Attribute(second, "testsuite", "skipped"), "3");
  EXPECT_NE(xml.find("<testcase name=\"adr-226/y_c\" classname=\"adr-226\" time=\"0.001\">"),
            std::string::npos);
  EXPECT_NE(xml.find("<failure message=\"should-have-refused\""), std::string::npos);
  EXPECT_NE(xml.find("<error message=\"timeout\" type=\"timeout\""), std::string::npos);
  EXPECT_NE(xml.find("<skipped message=\"known: https://example.invalid/issue/1\"/>"),
            std::string::npos);
}

// Escapes <>&"' and replaces control characters XML cannot carry.
TEST(WriteJunit, EscapesMarkupAndControlCharacters) {
  json index = SampleIndex();
  index["results"][2]["reason"] = kNasty + "\n2nd line";
  const std::string xml = Render(WriteJunit, index);
  ASSERT_TRUE(WellFormedXml(xml)) << xml;
  EXPECT_EQ(xml.find('\x01'), std::string::npos);
  EXPECT_NE(xml.find("&lt;tag&gt; &amp; &quot;q&quot; &apos;s&apos; | `tick`\\u0001 end"),
            std::string::npos);
  EXPECT_NE(xml.find("end&#10;2nd line"), std::string::npos);
}

// Escapes in SanitizeText also repair invalid UTF-8.
TEST(SanitizeText, ReplacesInvalidUtf8) {
  EXPECT_EQ(SanitizeText("a\xFF"
                         "b"),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(SanitizeText("\xC3\xA9"), "\xC3\xA9");
  EXPECT_EQ(SanitizeText("\x1F"), "\\u001F");
}

// Puts the summary table first, then failures with findings, then the clause table.
TEST(WriteMarkdown, SummaryFailuresClausesInOrder) {
  const std::string md = Render(WriteMarkdown, SampleIndex());
  const auto summary = md.find("| total | passed | failed |");
  const auto failures = md.find("## Failures");
  const auto clauses = md.find("## Clauses");
  ASSERT_NE(summary, std::string::npos) << md;
  EXPECT_LT(summary, failures);
  EXPECT_LT(failures, clauses);
  EXPECT_NE(md.find("| 7 | 1 | 1 | 1 | 1 | 1 | 1 | 1 |"), std::string::npos) << md;
  const json sample = SampleIndex();  // a named copy outlives the loop
  for (const auto& result : sample["results"]) {
    EXPECT_NE(md.find(result["id"].get<std::string>()), std::string::npos) << result["id"];
  }
  // The failure lists its finding; 224.2 sorts before 224.10 in the clause table.
  EXPECT_NE(md.find("`/contents/1/parts/0/functionResponse/response`"), std::string::npos);
  EXPECT_LT(md.find("| `ADR-224.2` |"), md.find("| `ADR-224.10` |"));
  // The visible "\u0001" keeps its backslash escaped, so it renders literally.
  EXPECT_NE(md.find("\\<tag\\> \\& \"q\" 's' \\| \\`tick\\`\\\\u0001 end"), std::string::npos)
      << md;
  EXPECT_EQ(md.find('\x01'), std::string::npos);
}

// Lists checks that could not run apart from passes: a "Not judged" section and a clause column.
TEST(WriteMarkdown, ListsNotJudgedChecksApart) {
  json index = SampleIndex();
  index["results"][0]["not_judged"] = json::array(
      {{{"clause", "ADR-224.9"}, {"reason", "the implementation reported no snapshots"}}});
  const std::string md = Render(WriteMarkdown, index);
  const auto section = md.find("## Not judged");
  ASSERT_NE(section, std::string::npos) << md;
  EXPECT_LT(section, md.find("## Clauses"));
  EXPECT_NE(md.find("| `ADR-224.9` | 1 | the implementation reported no snapshots |"),
            std::string::npos)
      << md;
  // The clause row counts the case as not judged, and not as passed.
  EXPECT_NE(md.find("| `ADR-224.9` | "), std::string::npos);
  EXPECT_NE(md.find("| 0 | 0 | 0 | 0 | 0 | 1 |"), std::string::npos) << md;
  const std::string html = Render(WriteHtml, index);
  EXPECT_NE(html.find("<th>not judged</th>"), std::string::npos);
  // Without notes there is no section.
  EXPECT_EQ(Render(WriteMarkdown, SampleIndex()).find("## Not judged"), std::string::npos);
}

// A passing case that cites a clause its checks could not judge did not pass that clause: the
// row counts it as not judged (and other), never as passed.
TEST(ClauseRows, PassWithTheClauseNotJudgedIsNoPass) {
  const json results = json::array(
      {{{"id", "a"},
        {"verdict", "pass"},
        {"clauses", {"ADR-226.18", "ADR-226.2"}},
        {"not_judged", {{{"clause", "ADR-226.18"}, {"reason", "kept in memory"}}}}}});
  const auto rows = ClauseRows(results);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].clause, "ADR-226.2");
  EXPECT_EQ(rows[0].passed, 1);
  EXPECT_EQ(rows[1].clause, "ADR-226.18");
  EXPECT_EQ(rows[1].cases, 1);
  EXPECT_EQ(rows[1].passed, 0);
  EXPECT_EQ(rows[1].other, 1);
  EXPECT_EQ(rows[1].not_judged, 1);
}

// Writes one self-contained page with every id and escaped text.
TEST(WriteHtml, SelfContainedAndEscaped) {
  const std::string html = Render(WriteHtml, SampleIndex());
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>"));
  EXPECT_TRUE(html.ends_with("</html>\n"));
  const json sample = SampleIndex();  // a named copy outlives the loop
  for (const auto& result : sample["results"]) {
    EXPECT_NE(html.find(result["id"].get<std::string>()), std::string::npos) << result["id"];
  }
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("<tag>"), std::string::npos);
  EXPECT_NE(html.find("&lt;tag&gt; &amp; &quot;q&quot; &#39;s&#39;"), std::string::npos);
  EXPECT_EQ(html.find('\x01'), std::string::npos);
}

// Creates the folder and writes the four report files.
TEST(WriteAll, WritesEveryFormat) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("gemini-oracle-reports-" + std::to_string(std::random_device()())) / "nested";
  WriteAll(SampleIndex(), dir);
  for (const char* name : {"index.json", "junit.xml", "summary.md", "summary.html"}) {
    EXPECT_GT(std::filesystem::file_size(dir / name), 0u) << name;
  }
  std::filesystem::remove_all(dir.parent_path());
}

// Orders clause ids by their numbers, not as plain text.
TEST(ClauseLess, NumericRunsCompareAsNumbers) {
  EXPECT_TRUE(ClauseLess("ADR-224.2", "ADR-224.10"));
  EXPECT_FALSE(ClauseLess("ADR-224.10", "ADR-224.2"));
  EXPECT_TRUE(ClauseLess("ADR-224.12", "ADR-226.1"));
  EXPECT_TRUE(ClauseLess("ADR-224.9", "ADR-224.F1"));
  EXPECT_FALSE(ClauseLess("ADR-224.1", "ADR-224.1"));
}

// Widens the code-span fence around backticks.
TEST(MarkdownCode, SurvivesBackticks) {
  EXPECT_EQ(MarkdownCode("a"), "`a`");
  EXPECT_EQ(MarkdownCode("a`b"), "``a`b``");
  EXPECT_EQ(MarkdownCode("`x"), "`` `x ``");
  EXPECT_EQ(MarkdownCode("a|b", true), "`a\\|b`");
}

// An index with a bad fixture, kept request bodies and a finding at an absent pointer.
json EvidenceIndex() {
  json index = SampleIndex();
  json bad = Result("adr-226/y_broken", "error", "bad fixture: 1 problem, first [json.bom]");
  bad["bad_fixture"] = true;
  bad["diagnostics"] = json::array({{{"line", 1},
                                     {"column", 1},
                                     {"rule", "json.bom"},
                                     {"message", "a UTF-8 byte order mark before the value"}}});
  index["results"].push_back(bad);
  json& failed = index["results"][1];
  failed["sent"] = json::array({{{"request", 1},
                                 {"method", "POST"},
                                 {"path", "/v1beta/models/m:generateContent"},
                                 {"body", "{\"contents\":[]} ``` <b>"}}});
  failed["findings"][0]["absent"] = true;
  failed["findings"][0]["actual"] = nullptr;
  failed["findings"][0]["nearest_pointer"] = "/contents/1/parts/0";
  failed["findings"][0]["nearest_value"] = {{"functionResponse", {{"name", "f"}}}};
  return index;
}

// Shows a bad fixture's diagnostics, the bodies sent and where an absent pointer stops, in
// every derived format.
TEST(DerivedFormats, ShowDiagnosticsBodiesAndNearestParent) {
  const json index = EvidenceIndex();
  const std::string md = Render(WriteMarkdown, index);
  EXPECT_NE(md.find("1:1: a UTF-8 byte order mark before the value [json.bom]"), std::string::npos);
  EXPECT_NE(md.find("request 1: POST /v1beta/models/m:generateContent"), std::string::npos);
  EXPECT_NE(md.find("````json\n{\"contents\":[]} ``` <b>\n````"), std::string::npos) << md;
  EXPECT_NE(md.find("absent; nearest existing /contents/1/parts/0 = "), std::string::npos);
  const std::string html = Render(WriteHtml, index);
  EXPECT_NE(html.find("<pre>{&quot;contents&quot;:[]} ``` &lt;b&gt;</pre>"), std::string::npos);
  EXPECT_NE(html.find("[json.bom]"), std::string::npos);
  const std::string xml = Render(WriteJunit, index);
  EXPECT_NE(xml.find("errors=\"3\""), std::string::npos);
  EXPECT_NE(xml.find("fixtures/adr-226/y_broken.json:1:1: a UTF-8 byte order mark"),
            std::string::npos);
  EXPECT_NE(xml.find("<system-out>request 1: POST"), std::string::npos);
  EXPECT_NE(xml.find("absent; nearest existing /contents/1/parts/0"), std::string::npos);
}

// Removes a previous run's reports and proves the folder writable; refuses a folder it
// cannot create.
TEST(PrepareReportDir, RemovesStaleReports) {
  testing::TempDir dir;
  for (const auto& name : ReportFileNames()) dir.Write(name, "stale");
  dir.Write("keep.txt", "unrelated");
  PrepareReportDir(dir.path());
  for (const auto& name : ReportFileNames()) {
    EXPECT_FALSE(std::filesystem::exists(dir.path() / name)) << name;
  }
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "keep.txt"));
  const auto file = dir.Write("plain", "x");
  EXPECT_THROW(PrepareReportDir(file / "sub"), std::runtime_error);
}

// Replaces each report whole and leaves no temporary file behind.
TEST(WriteAll, ReplacesAtomically) {
  testing::TempDir dir;
  for (const auto& name : ReportFileNames()) dir.Write(name, "old");
  WriteAll(SampleIndex(), dir.path());
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    ++files;
    EXPECT_EQ(entry.path().filename().string().find(".partial"), std::string::npos);
  }
  EXPECT_EQ(files, ReportFileNames().size());
  std::ifstream in(dir.path() / "index.json");
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "{");
}

// A second holder of a report folder is refused at once, naming the folder; the folder is
// free again once the first holder is gone.
TEST(ReportDirLock, SecondHolderIsRefusedUntilTheFirstEnds) {
  testing::TempDir dir;
  const auto folder = dir.path() / "reports";
  {
    ReportDirLock first(folder);  // creates the folder
    EXPECT_TRUE(std::filesystem::is_directory(folder));
    try {
      ReportDirLock second(folder);
      ADD_FAILURE() << "a second lock on one folder was granted";
    } catch (const ReportDirBusy& e) {
      EXPECT_NE(std::string(e.what()).find(folder.generic_string() + ": another gemini-oracle"),
                std::string::npos)
          << e.what();
    }
    ReportDirLock moved(std::move(first));  // still held through the moved-to object
    EXPECT_THROW(ReportDirLock again(folder), ReportDirBusy);
  }
  EXPECT_NO_THROW(ReportDirLock after(folder));
  const auto file = dir.Write("plain", "x");
  EXPECT_THROW(ReportDirLock beneath_a_file(file / "sub"), std::runtime_error);
}

// Lists each file once it is in place, and stops at the first that cannot be written: the
// caller announces exactly what is there.
TEST(WriteAll, ListsOnlyTheFilesWritten) {
  testing::TempDir dir;
  std::vector<std::string> written;
  WriteAll(SampleIndex(), dir.path() / "all", nullptr, &written);
  EXPECT_EQ(written, (std::vector<std::string>{"junit.xml", "summary.md", "summary.html",
                                               "index.json"}));
  EXPECT_EQ(WrittenReports("out", ReportFileNames(), written),
            "out/{index.json,junit.xml,summary.md,summary.html}");
  // A folder where summary.html's temporary file would go: that write fails (even as root).
  dir.Write("some/.summary.html.partial/blocker", "x");
  written.clear();
  EXPECT_THROW(WriteAll(SampleIndex(), dir.path() / "some", nullptr, &written),
               std::runtime_error);
  EXPECT_EQ(written, (std::vector<std::string>{"junit.xml", "summary.md"}));
  EXPECT_EQ(WrittenReports("out", ReportFileNames(), written), "out/{junit.xml,summary.md}");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "some" / "index.json"));
  EXPECT_EQ(WrittenReports("out", ReportFileNames(), {"junit.xml"}), "out/junit.xml");
  EXPECT_EQ(WrittenReports("out", ReportFileNames(), {}), "none written in out");
}

}  // namespace
// Escapes what starts inline markup, `$` included (refusal classes such as Outer$Inner would
// otherwise render as math on GitHub), and turns line breaks into spaces.
TEST(MarkdownEscape, EscapesInlineMarkupAndDollars) {
  EXPECT_EQ(MarkdownEscape("Outer$Inner and A$B|c*d\ne"), "Outer\\$Inner and A\\$B\\|c\\*d e");
  EXPECT_EQ(MarkdownEscape("plain text"), "plain text");
}

}  // namespace gemini_oracle::reports
