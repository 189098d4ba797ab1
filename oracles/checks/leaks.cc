// ADR-226.19: a refusal never exposes native content ("validation must not expose native
// content"): arguments, IDs, signatures, text. An implementation can expose content without
// quoting it byte for byte, so the message is normalized before matching (case folded, \u
// escapes decoded, whitespace and separators removed) and every native string is also looked
// for hex- and base64-encoded and cut short; numbers and member names of arguments count too.
#include <array>
#include <cctype>
#include <set>
#include <string_view>

#include "oracles/checks/judge.h"
#include "oracles/checks/judge_json.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {
namespace {

// Cases citing ADR-226.19 plant this text in native ids, arguments, signatures or text.
constexpr std::string_view kCorpusSentinel = "SENTINEL-d41d8";

// Shorter strings match ordinary words of any message.
constexpr std::size_t kMinStringLength = 4;
// Shorter member names are ordinary words ("city", "query").
constexpr std::size_t kMinMemberNameLength = 6;
// Numbers with fewer significant digits (1, 2024, 1000000) are too common to mean anything.
constexpr std::size_t kMinSignificantDigits = 6;
// A match this long (normalized) counts even inside a longer word; a shorter one only alone.
constexpr std::size_t kStandaloneLength = 8;
// A native string this long (normalized) also counts when cut short to kStandaloneLength.
constexpr std::size_t kMinCutLength = 12;

// Field and role names a message may legitimately mention even when a case reuses them as data.
constexpr std::array<std::string_view, 28> kStructuralWords = {"args",
                                                               "name",
                                                               "text",
                                                               "functionCall",
                                                               "functionResponse",
                                                               "thoughtSignature",
                                                               "native_parts",
                                                               "tool_call_bindings",
                                                               "tool_calls",
                                                               "tool_call_id",
                                                               "native_id",
                                                               "owner",
                                                               "response",
                                                               "model",
                                                               "user",
                                                               "parts",
                                                               "contents",
                                                               "gemini",
                                                               "arguments",
                                                               "content",
                                                               "provider_state",
                                                               "candidates",
                                                               "assistant",
                                                               "thought",
                                                               "signature",
                                                               "binding",
                                                               "bindings",
                                                               "transcript"};

struct Native {
  std::string value;   // the content as text (a string, a number's decimal text, a member name)
  std::string kind;    // "native id", "argument", "argument number", ... ; "corpus sentinel"
  std::string source;  // "exchange 2", "transcript message 1"; "" for the corpus sentinel
  bool number = false;
};

bool WordChar(char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '_'; }

// Lower-case ASCII letters and digits and every non-ASCII byte; everything else (whitespace,
// punctuation, separators) is dropped. `origin` maps each kept byte to its index in `text`.
std::string Normalize(std::string_view text, std::vector<std::size_t>* origin = nullptr) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto ch = static_cast<unsigned char>(text[i]);
    if (ch >= 0x80 || std::isalnum(ch) != 0) {
      out.push_back(static_cast<char>(std::tolower(ch)));
      if (origin != nullptr) origin->push_back(i);
    }
  }
  return out;
}

void AppendUtf8(std::uint32_t code, std::string& out) {
  if (code < 0x80) {
    out.push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (code >> 6)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else if (code < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (code >> 12)));
    out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (code >> 18)));
    out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  }
}

std::optional<std::uint32_t> Hex4(std::string_view text, std::size_t at) {
  if (at + 6 > text.size() || text[at] != '\\' || (text[at + 1] != 'u' && text[at + 1] != 'U')) {
    return std::nullopt;
  }
  std::uint32_t code = 0;
  for (std::size_t i = at + 2; i < at + 6; ++i) {
    const auto ch = static_cast<unsigned char>(text[i]);
    if (std::isxdigit(ch) == 0) return std::nullopt;
    code = code * 16 + static_cast<std::uint32_t>(
                           std::isdigit(ch) != 0 ? ch - '0' : std::tolower(ch) - 'a' + 10);
  }
  return code;
}

// The message with its \uXXXX escapes (surrogate pairs included) decoded.
std::string DecodeEscapes(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (auto code = Hex4(text, i)) {
      if (*code >= 0xD800 && *code < 0xDC00) {
        if (auto low = Hex4(text, i + 6); low && *low >= 0xDC00 && *low < 0xE000) {
          AppendUtf8(0x10000 + ((*code - 0xD800) << 10) + (*low - 0xDC00), out);
          i += 12;
          continue;
        }
      } else if (*code < 0xDC00 || *code >= 0xE000) {
        AppendUtf8(*code, out);
        i += 6;
        continue;
      }
    }
    out.push_back(text[i++]);
  }
  return out;
}

std::string HexOf(std::string_view text) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    out.push_back(kDigits[byte >> 4]);
    out.push_back(kDigits[byte & 0xF]);
  }
  return out;
}

// Standard base64, padded. Normalizing it also gives the url-safe and unpadded forms: they
// differ only in '+', '/', '-', '_' and '=', which normalization drops.
std::string Base64Of(std::string_view text) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 3 <= text.size(); i += 3) {
    const std::uint32_t v = (static_cast<unsigned char>(text[i]) << 16) |
                            (static_cast<unsigned char>(text[i + 1]) << 8) |
                            static_cast<unsigned char>(text[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out.push_back(kAlphabet[(v >> s) & 0x3F]);
  }
  if (const std::size_t rest = text.size() - i; rest > 0) {
    std::uint32_t v = static_cast<unsigned char>(text[i]) << 16;
    if (rest == 2) v |= static_cast<unsigned char>(text[i + 1]) << 8;
    out.push_back(kAlphabet[(v >> 18) & 0x3F]);
    out.push_back(kAlphabet[(v >> 12) & 0x3F]);
    out.push_back(rest == 2 ? kAlphabet[(v >> 6) & 0x3F] : '=');
    out.push_back('=');
  }
  return out;
}

// Significant digits of a number's decimal text: no sign, point, exponent, leading or
// trailing zeros (123456 -> 6, 1000000 -> 1, 0.000123 -> 3).
std::size_t SignificantDigits(std::string_view text) {
  text = text.substr(0, text.find_first_of("eE"));
  std::string digits;
  for (const char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) digits.push_back(c);
  }
  const auto first = digits.find_first_not_of('0');
  if (first == std::string::npos) return 0;
  const auto last = digits.find_last_not_of('0');
  return last - first + 1;
}

void AddStrings(std::vector<Native>& out, const Json& value, const char* kind,
                const std::string& source) {
  std::vector<std::string> strings;
  detail::CollectStrings(value, strings);
  for (auto& s : strings) out.push_back({std::move(s), kind, source});
}

// Argument content: string values, numbers of many significant digits and member names, at
// any depth. Booleans and null are never looked for (too common to mean anything).
void AddArguments(std::vector<Native>& out, const Json& value, const std::string& source) {
  if (value.is_string()) {
    out.push_back({value.get<std::string>(), "argument", source});
  } else if (IsNumeric(value)) {
    std::vector<std::string> forms;
    if (IsBigInteger(value)) {
      forms.push_back(BigIntegerText(value));
    } else {
      forms.push_back(DumpJson(value));
      // An integral float is often printed as the integer (2718281828.0 as 2718281828).
      if (auto integer = ExactIntegerText(value); integer && value.is_number_float()) {
        forms.push_back(*integer);
      }
    }
    for (auto& form : forms) {
      if (SignificantDigits(form) >= kMinSignificantDigits) {
        out.push_back({std::move(form), "argument number", source, true});
      }
    }
  } else if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (it.key().size() >= kMinMemberNameLength) {
        out.push_back({it.key(), "argument member name", source});
      }
      AddArguments(out, it.value(), source);
    }
  } else if (value.is_array()) {
    for (const auto& item : value) AddArguments(out, item, source);
  }
}

void FromNativeParts(const Json& parts, const std::string& source, std::vector<Native>& out) {
  if (!parts.is_array()) return;
  for (const auto& part : parts) {
    if (const Json* fc = detail::Member(part, "functionCall")) {
      if (const Json* id = detail::Member(*fc, "id")) AddStrings(out, *id, "native id", source);
      if (const Json* args = detail::Member(*fc, "args")) AddArguments(out, *args, source);
    }
    if (const Json* signature = detail::Member(part, "thoughtSignature")) {
      AddStrings(out, *signature, "thought signature", source);
    }
    if (const Json* text = detail::Member(part, "text")) AddStrings(out, *text, "text", source);
  }
}

std::vector<Native> Natives(const model::Case& c) {
  // The corpus sentinel first: a native value holding it is reported as the sentinel.
  std::vector<Native> out = {{std::string(kCorpusSentinel), "corpus sentinel", ""}};
  for (std::size_t k = 0; k < c.exchanges.size(); ++k) {
    FromNativeParts(detail::ScriptedParts(c.exchanges[k]), "exchange " + std::to_string(k + 1),
                    out);
  }
  if (c.transcript.is_array()) {
    for (std::size_t m = 0; m < c.transcript.size(); ++m) {
      const Json& message = c.transcript[m];
      const std::string source = "transcript message " + std::to_string(m);
      if (const Json* parts = detail::CapsuleNativeParts(message)) {
        FromNativeParts(*parts, source, out);
      }
      if (const Json* calls = detail::Member(message, "tool_calls"); calls && calls->is_array()) {
        for (const auto& call : *calls) {
          if (const Json* args = detail::Member(call, "arguments")) {
            AddArguments(out, *args, source);
          }
        }
      }
      const Json* state = detail::Member(message, "provider_state");
      const Json* capsule = state == nullptr ? nullptr : detail::Member(*state, "gemini");
      const Json* bindings =
          capsule == nullptr ? nullptr : detail::Member(*capsule, "tool_call_bindings");
      if (bindings != nullptr && bindings->is_array()) {
        for (const auto& binding : *bindings) {
          if (const Json* id = detail::Member(binding, "native_id")) {
            AddStrings(out, *id, "native id", source);
          }
        }
      }
    }
  }
  return out;
}

// The refusal message, read the ways an implementation might disguise content.
struct Message {
  std::string raw;
  std::string decoded;  // \u escapes decoded
  std::string normalized;
  std::vector<std::size_t> origin;  // normalized index -> decoded index
  std::string normalized_code;
};

// Whether `needle` (normalized) occurs in the message; a short needle only where it is not a
// piece of a longer identifier ("call_b" is not exposed by the field name "tool_call_bindings").
bool Occurs(const Message& m, const std::string& needle, bool standalone) {
  if (needle.empty()) return false;
  for (auto at = m.normalized.find(needle); at != std::string::npos;
       at = m.normalized.find(needle, at + 1)) {
    if (!standalone) return true;
    const std::size_t first = m.origin[at];
    const std::size_t last = m.origin[at + needle.size() - 1];
    const bool glued_before = first > 0 && WordChar(m.decoded[first - 1]);
    const bool glued_after = last + 1 < m.decoded.size() && WordChar(m.decoded[last + 1]);
    if (!glued_before && !glued_after) return true;
  }
  return false;
}

bool Ignored(const Native& native, const std::string& normalized, const Message& m) {
  if (normalized.empty()) return true;
  if (native.kind == "corpus sentinel" || native.number) return false;
  if (native.value.size() < kMinStringLength) return true;
  for (const auto word : kStructuralWords) {
    if (normalized == Normalize(word)) return true;
  }
  return m.normalized_code.find(normalized) != std::string::npos;  // the code names no content
}

// How the message exposes `native`, or nullopt.
std::optional<std::string> Exposure(const Native& native, const Message& m) {
  const std::string plain = Normalize(native.value);
  if (Ignored(native, plain, m)) return std::nullopt;
  const auto standalone = [&native](const std::string& form) {
    return native.number || form.size() < kStandaloneLength;
  };
  if (Occurs(m, plain, standalone(plain))) {
    return m.raw.find(native.value) != std::string::npos
               ? "as written"
               : "with case, spacing, separators or escapes changed";
  }
  if (native.number) return std::nullopt;  // encodings of a number are not meaningful
  if (const std::string hex = HexOf(native.value); Occurs(m, hex, standalone(hex))) {
    return "hex-encoded";
  }
  if (const std::string b64 = Normalize(Base64Of(native.value)); Occurs(m, b64, standalone(b64))) {
    return "base64-encoded";
  }
  if (plain.size() >= kMinCutLength && Occurs(m, plain.substr(0, kStandaloneLength), false)) {
    return "cut short";
  }
  return std::nullopt;
}

}  // namespace

std::vector<Finding> JudgeLeaks(const CaseRun& run) {
  std::vector<Finding> findings;
  if (!run.report.refusal) return findings;
  const model::Refusal& refusal = *run.report.refusal;
  Message m;
  m.raw = refusal.message;
  m.decoded = DecodeEscapes(refusal.message);
  m.normalized = Normalize(m.decoded, &m.origin);
  m.normalized_code = Normalize(refusal.code);

  std::set<std::string> reported;
  bool sentinel_reported = false;
  for (const auto& native : Natives(run.c)) {
    if (reported.count(native.value) != 0) continue;
    if (sentinel_reported && native.value.find(kCorpusSentinel) != std::string::npos) {
      continue;  // already reported as the corpus sentinel
    }
    const auto how = Exposure(native, m);
    if (!how) continue;
    reported.insert(native.value);
    // The finding names the kind, where it came from and how it showed, never the content.
    if (native.kind == "corpus sentinel") {
      // INTERPRETING.md §7.2: the corpus sentinel never appears in any refusal text.
      sentinel_reported = true;
      findings.push_back(MakeFinding("ADR-226.19", kWireViolation, std::nullopt, "",
                                     "the refusal message exposes the corpus sentinel, " + *how,
                                     "no native content", "sentinel"));
      continue;
    }
    findings.push_back(MakeFinding("ADR-226.19", kWireViolation, std::nullopt, "",
                                   "the refusal message exposes native content (" + native.kind +
                                       ") from " + native.source + ", " + *how,
                                   "no native content", native.kind));
  }
  return findings;
}

}  // namespace gemini_oracle::checks
