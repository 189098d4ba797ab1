#pragma once
// Text helpers shared by the report writers: escaping, number formatting, clause ordering.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gemini_oracle::reports {

/// Valid UTF-8 with every code point XML 1.0 forbids (C0 controls except tab, LF, CR;
/// U+FFFE, U+FFFF) shown as a visible "\uXXXX" and invalid bytes as U+FFFD.
std::string SanitizeText(std::string_view text);

/// Escapes for XML character data and attribute values (both quote kinds, and tab/LF/CR as
/// character references so attribute normalisation keeps them).
std::string XmlEscape(std::string_view text);

/// Escapes for HTML text and attribute values.
std::string HtmlEscape(std::string_view text);

/// Escapes Markdown punctuation and folds line breaks, for running text and table cells.
std::string MarkdownEscape(std::string_view text);

/// A Markdown code span that survives backticks in the text; `in_table` also escapes "|",
/// which would otherwise end a table cell even inside a code span.
std::string MarkdownCode(std::string_view text, bool in_table = false);

/// A number with three decimals ("1.250"), locale-independent; negatives and NaN become 0.
std::string Decimal3(double value);

/// Milliseconds as seconds with three decimals ("0.001").
std::string Seconds(double milliseconds);

/// "ADR-224.2" before "ADR-224.10": numeric runs compare as numbers.
bool ClauseLess(const std::string& a, const std::string& b);

/// Field access that tolerates missing members and wrong kinds (a report never throws
/// because a harness wrote a partial result).
std::string StringField(const nlohmann::json& object, const char* key);
double NumberField(const nlohmann::json& object, const char* key);
std::vector<std::string> StringList(const nlohmann::json& object, const char* key);

/// The id's top folder ("adr-226"), or "(root)" for an id without one.
std::string FolderOf(const std::string& id);

/// One finding on one line: "ADR-224.1 (must) request 2 at /p: message; expected 1,
/// actual 1.0", plus where the request stops when the pointer is absent from it.
std::string FindingLine(const nlohmann::json& finding);

/// For a finding whose pointer the request lacks: "absent; nearest existing /a/b = {...}".
/// Empty otherwise.
std::string AbsentText(const nlohmann::json& finding);

/// A bad fixture's diagnostics, one "line:column: message [rule]" each.
std::vector<std::string> DiagnosticLines(const nlohmann::json& result);

/// The request bodies a result keeps (`sent`): a label ("request 1: POST /v1beta/...") and
/// the raw body, in journal order.
std::vector<std::pair<std::string, std::string>> SentRequests(const nlohmann::json& result);

/// A fenced Markdown code block that no backtick run in `text` can close early.
std::string MarkdownFence(std::string_view text, std::string_view info = "");

}  // namespace gemini_oracle::reports
