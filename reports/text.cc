#include "reports/text.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>

#include "reference_impl/utf8.h"

namespace gemini_oracle::reports {
namespace {

// Decodes one code point at `i`; returns U+FFFD and advances one byte on malformed input.
std::uint32_t NextCodePoint(std::string_view text, std::size_t& i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  int length = 0;
  std::uint32_t cp = 0;
  if (lead < 0x80) {
    ++i;
    return lead;
  } else if ((lead & 0xE0) == 0xC0) {
    length = 2;
    cp = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    cp = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    cp = lead & 0x07;
  } else {
    ++i;
    return 0xFFFD;
  }
  if (i + static_cast<std::size_t>(length) > text.size()) {
    ++i;
    return 0xFFFD;
  }
  for (int k = 1; k < length; ++k) {
    const auto byte = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
    if ((byte & 0xC0) != 0x80) {
      ++i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (byte & 0x3F);
  }
  // Overlong forms, surrogates and out-of-range values are not UTF-8.
  static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;
    return 0xFFFD;
  }
  i += static_cast<std::size_t>(length);
  return cp;
}

bool Forbidden(std::uint32_t cp) {
  return (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0x7F || cp == 0xFFFE ||
         cp == 0xFFFF;
}

}  // namespace

std::string SanitizeText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::uint32_t cp = NextCodePoint(text, i);
    if (Forbidden(cp)) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04X", static_cast<unsigned>(cp));
      out += buffer;
    } else {
      AppendUtf8(out, cp);
    }
  }
  return out;
}

namespace {

// XML and HTML escape the same five characters; XML attributes also keep tab and line breaks,
// which HTML text does not need.
std::string MarkupEscape(std::string_view text, bool xml) {
  std::string out;
  for (const char c : SanitizeText(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += xml ? "&apos;" : "&#39;";
        break;
      case '\t':
        out += xml ? "&#9;" : "\t";
        break;
      case '\n':
        out += xml ? "&#10;" : "\n";
        break;
      case '\r':
        out += xml ? "&#13;" : "\r";
        break;
      default:
        out += c;
        break;
    }
  }
  return out;
}

}  // namespace

std::string XmlEscape(std::string_view text) { return MarkupEscape(text, /*xml=*/true); }

std::string HtmlEscape(std::string_view text) { return MarkupEscape(text, /*xml=*/false); }

std::string MarkdownEscape(std::string_view text) {
  // Only what can start inline markup; a line-start "#" or "-" cannot occur mid-cell.
  static constexpr std::string_view kSpecial = "\\`*_[]<>|&~$";  // $: GitHub math
  std::string out;
  for (const char c : SanitizeText(text)) {
    if (c == '\n' || c == '\r' || c == '\t') {
      out += ' ';
    } else {
      if (kSpecial.find(c) != std::string_view::npos) out += '\\';
      out += c;
    }
  }
  return out;
}

std::string MarkdownCode(std::string_view text, bool in_table) {
  std::string body;
  for (const char c : SanitizeText(text)) {
    if (c == '\n' || c == '\r' || c == '\t') {
      body += ' ';
    } else {
      if (in_table && c == '|') body += '\\';
      body += c;
    }
  }
  std::size_t longest = 0;
  std::size_t run = 0;
  for (const char c : body) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  // A space keeps a leading or trailing backtick from joining the fence.
  const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string Decimal3(double value) {
  if (!(value >= 0)) value = 0;  // also NaN
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.3f", value);
  return buffer;
}

std::string Seconds(double milliseconds) { return Decimal3(milliseconds / 1000.0); }

bool ClauseLess(const std::string& a, const std::string& b) {
  std::size_t i = 0;
  std::size_t j = 0;
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      std::size_t ei = i;
      std::size_t ej = j;
      while (ei < a.size() && digit(a[ei])) ++ei;
      while (ej < b.size() && digit(b[ej])) ++ej;
      const std::string na = a.substr(i, ei - i);
      const std::string nb = b.substr(j, ej - j);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ei;
      j = ej;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  if ((a.size() - i) != (b.size() - j)) return (a.size() - i) < (b.size() - j);
  return a < b;
}

std::string StringField(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return {};
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return {};
  if (it->is_string()) return it->get<std::string>();
  return it->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

double NumberField(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return 0;
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : 0;
}

std::vector<std::string> StringList(const nlohmann::json& object, const char* key) {
  std::vector<std::string> out;
  if (!object.is_object()) return out;
  const auto it = object.find(key);
  if (it == object.end() || !it->is_array()) return out;
  for (const auto& item : *it) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

std::string FolderOf(const std::string& id) {
  const auto slash = id.find('/');
  return slash == std::string::npos ? "(root)" : id.substr(0, slash);
}

std::string FindingLine(const nlohmann::json& finding) {
  std::string line = StringField(finding, "clause");
  if (line.empty()) line = "(no clause)";
  if (const std::string level = StringField(finding, "level"); !level.empty()) {
    line += " (" + level + ")";
  }
  if (finding.is_object() && finding.contains("request")) {
    line += " request " + StringField(finding, "request");
  }
  if (const std::string pointer = StringField(finding, "pointer"); !pointer.empty()) {
    line += " at " + pointer;
  }
  line += ": " + StringField(finding, "message");
  const auto dump = [](const nlohmann::json& value) {
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  if (finding.is_object() && finding.contains("expected")) {
    line += "; expected " + dump(finding["expected"]);
  }
  if (finding.is_object() && finding.contains("actual")) {
    line += "; actual " + dump(finding["actual"]);
  }
  if (const std::string absent = AbsentText(finding); !absent.empty()) line += " (" + absent + ")";
  return line;
}

std::string AbsentText(const nlohmann::json& finding) {
  if (!finding.is_object()) return {};
  const auto absent = finding.find("absent");
  if (absent == finding.end() || !absent->is_boolean() || !absent->get<bool>()) return {};
  const auto it = finding.find("nearest_value");
  std::string pointer = StringField(finding, "nearest_pointer");
  return "absent; nearest existing " + (pointer.empty() ? std::string("(root)") : pointer) + " = " +
         (it == finding.end() ? std::string("?")
                              : it->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::vector<std::string> DiagnosticLines(const nlohmann::json& result) {
  std::vector<std::string> lines;
  const auto it = result.is_object() ? result.find("diagnostics") : result.end();
  if (!result.is_object() || it == result.end() || !it->is_array()) return lines;
  for (const auto& d : *it) {
    // `file` only where one result gathers several entries of one id.
    const std::string file = StringField(d, "file");
    lines.push_back((file.empty() ? "" : file + ":") + StringField(d, "line") + ":" +
                    StringField(d, "column") + ": " + StringField(d, "message") + " [" +
                    StringField(d, "rule") + "]");
  }
  return lines;
}

std::vector<std::pair<std::string, std::string>> SentRequests(const nlohmann::json& result) {
  std::vector<std::pair<std::string, std::string>> sent;
  const auto it = result.is_object() ? result.find("sent") : result.end();
  if (!result.is_object() || it == result.end() || !it->is_array()) return sent;
  for (const auto& request : *it) {
    std::string label = "request " + StringField(request, "request") + ": " +
                        StringField(request, "method") + " " + StringField(request, "path");
    if (const std::string query = StringField(request, "query"); !query.empty()) {
      label += "?" + query;
    }
    const auto truncated = request.find("truncated");
    if (truncated != request.end() && truncated->is_boolean() && truncated->get<bool>()) {
      label += " (cut short; " + StringField(request, "bytes") + " bytes were sent)";
    }
    sent.emplace_back(std::move(label), StringField(request, "body"));
  }
  return sent;
}

std::string MarkdownFence(std::string_view text, std::string_view info) {
  std::size_t longest = 0;
  std::size_t run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
  std::string block = fence + std::string(info) + "\n" + SanitizeText(text);
  if (block.back() != '\n') block += "\n";
  return block + fence + "\n";
}

}  // namespace gemini_oracle::reports
