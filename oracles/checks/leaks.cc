// ADR-226.19: a refusal never exposes native content ("validation must not expose native
// content"): every string of a native part (ids, arguments, signatures, text, code, results,
// unknown members), numbers of many digits and distinctive member names. A verdict that fails
// a correct refusal is as wrong as one that passes a leak, so only distinctive strings are
// needles (ordinary words a case reuses as data are not), and a match made only of ordinary
// words of the message is no exposure. An implementation can expose content without quoting it
// byte for byte, so the message is also read normalized (case folded, \u escapes decoded,
// whitespace and separators removed), its base64 and hex runs are decoded, each needle is
// looked for hex- and base64-encoded, and a long needle also cut at the front or the back.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "oracles/checks/judge.h"
#include "oracles/checks/judge_json.h"
#include "oracles/checks/wire_view.h"
#include "oracles/model/call_pieces.h"

namespace gemini_oracle::checks {
namespace {

// Cases citing ADR-226.19 plant this text in native ids, arguments, signatures or text.
constexpr std::string_view kCorpusSentinel = "SENTINEL-d41d8";

// A native string is a needle only when it is distinctive: this long, or kMinShortLength long
// with a digit or a separator among its letters. Anything shorter would match ordinary words.
constexpr std::size_t kDistinctiveLength = 8;
constexpr std::size_t kMinShortLength = 5;
// A string that is not distinctive but no ordinary word either ("ab12") counts only as written.
constexpr std::size_t kMinWrittenLength = 4;
// Numbers with fewer significant digits (1, 2024, 1000000) are too common to mean anything.
constexpr std::size_t kMinSignificantDigits = 6;
// A match this long (normalized) counts even inside a longer word; a shorter one only alone.
constexpr std::size_t kStandaloneLength = 8;
// A native string this long (normalized) also counts when cut at the front or the back, to
// kCutLength characters when the cut holds a digit, else to kLetterCutLength.
constexpr std::size_t kMinCutSource = 12;
constexpr std::size_t kCutLength = 8;
constexpr std::size_t kLetterCutLength = 10;
// Runs of the message this long are decoded as base64 (any alphabet) and hex and searched.
constexpr std::size_t kMinBase64Run = 12;
constexpr std::size_t kMinHexRun = 16;
// Digit-only words of a message this short are positions and counts ("part 3", "HTTP 404").
constexpr std::size_t kMaxPositionDigits = 3;

// Ordinary words: field and role names of the wire, the capsule and the transcript, the words
// of the error catalogue, Gemini part members and enum values. A case may reuse them as data
// (an argument "message", an id "function-call-1") and a correct refusal still names them, so
// they are never needles, never cuts, and a match made only of them is no exposure. Compared
// normalized (case folded, separators dropped). Any purely alphabetic word shorter than
// kDistinctiveLength is ordinary too (see OrdinaryWord).
constexpr std::string_view kOrdinaryWords[] = {
    // wire, capsule and transcript
    "args",
    "name",
    "text",
    "id",
    "ids",
    "functionCall",
    "functionResponse",
    "thoughtSignature",
    "thought",
    "executableCode",
    "codeExecutionResult",
    "inlineData",
    "fileData",
    "mimeType",
    "fileUri",
    "videoMetadata",
    "partMetadata",
    "willContinue",
    "scheduling",
    "displayName",
    "partialArgs",
    "mediaResolution",
    "finishReason",
    "usageMetadata",
    "safetyRatings",
    "language",
    "outcome",
    "output",
    "code",
    "native_parts",
    "native_part",
    "tool_call_bindings",
    "tool_calls",
    "tool_call_id",
    "native_id",
    "owner",
    "response",
    "responses",
    "request",
    "requests",
    "model",
    "user",
    "role",
    "part",
    "parts",
    "content",
    "contents",
    "gemini",
    "arguments",
    "argument",
    "provider_state",
    "provider",
    "candidates",
    "candidate",
    "assistant",
    "signature",
    "signatures",
    "binding",
    "bindings",
    "transcript",
    "message",
    "messages",
    "result",
    "results",
    "call",
    "calls",
    "turn",
    "turns",
    "tool",
    "tools",
    "native",
    "function",
    "capsule",
    "field",
    "fields",
    "position",
    "positions",
    "exchange",
    "public",
    "generateContent",
    "generateContentResponse",
    "systemInstruction",
    "toolConfig",
    "generationConfig",
    "functionCallingConfig",
    "functionDeclarations",
    "is_error",
    "error",
    "errors",
    "http",
    "json",
    "adr",
    "null",
    "true",
    "false",
    "object",
    "array",
    "string",
    "number",
    "integer",
    "boolean",
    "list",
    // enum values of Gemini parts and Google error statuses
    "PYTHON",
    "LANGUAGE_UNSPECIFIED",
    "OUTCOME_OK",
    "OUTCOME_FAILED",
    "OUTCOME_DEADLINE_EXCEEDED",
    "OUTCOME_UNSPECIFIED",
    "STOP",
    "MAX_TOKENS",
    "SAFETY",
    "INVALID_ARGUMENT",
    "FAILED_PRECONDITION",
    "RESOURCE_EXHAUSTED",
    "PERMISSION_DENIED",
    "UNAUTHENTICATED",
    "NOT_FOUND",
    "INTERNAL",
    "UNAVAILABLE",
    "DEADLINE_EXCEEDED",
    "CANCELLED",
    // words of the error catalogue and its codes
    "malformed",
    "function_call_malformed",
    "duplicate",
    "duplicate_tool_call_id",
    "orphan_result",
    "duplicate_result",
    "missing_result",
    "owner_mismatch",
    "mismatch",
    "mismatches",
    "mismatching",
    "native_id_malformed",
    "native_id_duplicate",
    "calls_mismatch",
    "call_mismatch",
    "unexpected",
    "not_one_to_one",
    "unknown_call",
    "unknown_native_id",
    "incomplete",
    "public_id_reused",
    "legacy",
    "ambiguous",
    "unmatched",
    "transport",
    "status",
    "nonempty",
    "identical",
    "parallel",
    "identifies",
    "carried",
    "replayed",
    "replay",
    "replaying",
    "answered",
    "unanswered",
    "received",
    "delivered",
    "diagnostics",
    "timeout",
    "decoded",
    "generic",
    "matches",
    "nothing",
    "another",
    "without",
    "within",
    "before",
    "anything",
    "present",
    "missing",
    "unknown",
    "orphan",
    "reused",
    "correlation",
    "refused",
    "refusal",
    "repeats",
    "repeated",
    "invalid",
    "expected",
    "position",
    "sentence",
    "less",
    // the codes and words of a call in pieces (INTERPRETING §5.6) and its PartialArg members
    "call_piece_orphan",
    "call_pieces_interleaved",
    "call_name_repeated",
    "partial_arg_path",
    "partial_arg_conflict",
    "call_unfinished",
    "call_piece_id",
    "piece",
    "pieces",
    "interleaved",
    "unfinished",
    "jsonPath",
    "stringValue",
    "numberValue",
    "boolValue",
    "nullValue",
    "NULL_VALUE",
    // words of the streaming codes' sentences
    "answer",
    "arrived",
    "complete",
    "discarded",
    "ended",
    "event",
    "inside",
    "partial",
    "stream",
    "streamed",
    "mid-stream",
};

struct Native {
  std::string value;   // the content as text (a string, a number's decimal text, a member name)
  std::string kind;    // "native id", "argument", "argument number", ... ; "corpus sentinel"
  std::string source;  // "exchange 2", "transcript message 1"; "" for the corpus sentinel
  bool number = false;
};

bool WordChar(char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '_'; }
bool Digit(char ch) { return std::isdigit(static_cast<unsigned char>(ch)) != 0; }
bool Alpha(char ch) { return std::isalpha(static_cast<unsigned char>(ch)) != 0; }

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

bool ListedWord(std::string_view word) {
  static const std::set<std::string> listed = [] {
    std::set<std::string> out;
    for (const auto w : kOrdinaryWords) out.insert(Normalize(w));
    return out;
  }();
  return listed.count(Normalize(word)) != 0;
}

// One word of a message or of a native string: listed, or purely alphabetic and short (either
// case: "Paris", "Error") but not a lone letter (content spelled out letter by letter), or a
// short position ("3"). A word without letters or digits too.
bool OrdinaryWord(std::string_view word) {
  if (Normalize(word).empty() || ListedWord(word) || word == "a" || word == "A") return true;
  const bool alpha = std::all_of(word.begin(), word.end(), Alpha);
  if (alpha && word.size() > 1 && word.size() < kDistinctiveLength) return true;
  const bool digits = std::all_of(word.begin(), word.end(), Digit);
  return digits && word.size() <= kMaxPositionDigits;
}

// The alphanumeric words of `text` ("function-call-7" -> function, call, 7).
std::vector<std::string_view> AlnumWords(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (std::isalnum(static_cast<unsigned char>(text[i])) == 0 &&
        static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) != 0 ||
                               static_cast<unsigned char>(text[j]) >= 0x80)) {
      ++j;
    }
    out.push_back(text.substr(i, j - i));
    i = j;
  }
  return out;
}

// A clause name ("ADR-226.8"): the oracle's own vocabulary, which refusals cite.
bool ClauseName(std::string_view s) {
  if (s.size() < 5 || (s.substr(0, 4) != "ADR-" && s.substr(0, 4) != "adr-")) return false;
  return std::all_of(s.begin() + 4, s.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '.';
  });
}

// A native string that is an ordinary word, a clause name, or made only of listed words
// ("tool message", "function_call", "ID-less", "call's"): a correct refusal may say it.
bool OrdinaryString(std::string_view s) {
  if (OrdinaryWord(s) || ClauseName(s)) return true;
  if (s.size() > 2 && (s.substr(s.size() - 2) == "'s" || s.substr(s.size() - 2) == "'S")) {
    s.remove_suffix(2);
  }
  const auto words = AlnumWords(s);
  return !words.empty() && std::all_of(words.begin(), words.end(), ListedWord);
}

// ADR-226.19 needles: long enough, or short with a digit or separator, and not ordinary.
bool Distinctive(std::string_view s) {
  if (OrdinaryString(s) || Normalize(s).size() < kMinShortLength) return false;
  if (s.size() >= kDistinctiveLength) return true;
  if (s.size() < kMinShortLength) return false;
  const bool digit = std::any_of(s.begin(), s.end(), Digit);
  const bool separator = std::any_of(s.begin(), s.end(), [](char ch) {
    const auto u = static_cast<unsigned char>(ch);
    return u < 0x80 && std::isalnum(u) == 0;
  });
  return digit || separator;
}

// A cut of a native string is distinctive on its own: a digit, or long; never ordinary.
bool DistinctiveCut(const std::string& cut) {
  const bool digit = std::any_of(cut.begin(), cut.end(), Digit);
  return (digit || cut.size() >= kLetterCutLength) && !OrdinaryString(cut);
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

// Argument content: string values, numbers of many significant digits and distinctive member
// names, at any depth. Booleans and null are never looked for (too common to mean anything).
void AddNumber(std::vector<Native>& out, const Json& value, const char* kind,
               const std::string& source) {
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
      out.push_back({std::move(form), kind, source, true});
    }
  }
}

// Every string, number and distinctive member name inside `value`, of kind `kind` (numbers
// `number_kind`, member names `name_kind`).
void AddContent(std::vector<Native>& out, const Json& value, const char* kind,
                const char* number_kind, const char* name_kind, const std::string& source) {
  if (value.is_string()) {
    out.push_back({value.get<std::string>(), kind, source});
  } else if (IsNumeric(value)) {
    AddNumber(out, value, number_kind, source);
  } else if (value.is_object()) {
    // Member names are not looked for: argument keys are the tool's declared parameters,
    // public in `tools` and in the generic arguments, and a message may name them.
    (void)name_kind;
    for (auto it = value.begin(); it != value.end(); ++it) {
      AddContent(out, it.value(), kind, number_kind, name_kind, source);
    }
  } else if (value.is_array()) {
    for (const auto& item : value) AddContent(out, item, kind, number_kind, name_kind, source);
  }
}

void AddArguments(std::vector<Native>& out, const Json& value, const std::string& source) {
  AddContent(out, value, "argument", "argument number", "argument member name", source);
}

void AddOther(std::vector<Native>& out, const Json& value, const std::string& source) {
  AddContent(out, value, "native part content", "native part number", "native part member name",
             source);
}

// Everything a native part holds (ADR-226.19 names no exception): functionCall ids and
// arguments, signatures, text, code and its results, functionResponse payloads, unknown
// members. Only the tool names of functionCall and functionResponse are left out: the generic
// transcript carries them in public, and a refusal may name the tool.
void FromNativeParts(const Json& parts, const std::string& source, std::vector<Native>& out) {
  if (!parts.is_array()) return;
  for (const auto& part : parts) {
    if (!part.is_object()) {
      AddOther(out, part, source);
      continue;
    }
    for (auto it = part.begin(); it != part.end(); ++it) {
      const std::string& key = it.key();
      const Json& member = it.value();
      if ((key == "functionCall" || key == "functionResponse") && member.is_object()) {
        for (auto in = member.begin(); in != member.end(); ++in) {
          if (in.key() == "name" && in.value().is_string()) continue;  // the tool's name
          if (in.key() == "id") {
            AddContent(out, in.value(), "native id", "native id", "native id", source);
          } else if (in.key() == "args") {
            AddArguments(out, in.value(), source);
          } else {
            AddOther(out, in.value(), source);
          }
        }
      } else if (key == "thoughtSignature") {
        AddContent(out, member, "thought signature", "thought signature", "thought signature",
                   source);
      } else if (key == "text") {
        AddContent(out, member, "text", "text", "text", source);
      } else {
        AddOther(out, member, source);
      }
    }
  }
}

// Native parts the model contents of a scripted response hold: of every candidate (only the
// first is parsed, but nothing an implementation received may leak), a parts member that is
// no list included.
void FromResponseBody(const Json& body, const std::string& source, std::vector<Native>& out) {
  const auto from_chunk = [&](const Json& chunk) {
    const Json* candidates = detail::Member(chunk, "candidates");
    if (candidates == nullptr || !candidates->is_array()) return;
    for (const auto& candidate : *candidates) {
      const Json* content = detail::Member(candidate, "content");
      const Json* parts = content == nullptr ? nullptr : detail::Member(*content, "parts");
      if (parts != nullptr && parts->is_array()) {
        FromNativeParts(*parts, source, out);
      } else if (parts != nullptr) {
        AddOther(out, *parts, source);
      }
    }
  };
  if (body.is_array()) {
    for (const auto& chunk : body) from_chunk(chunk);
  } else {
    from_chunk(body);
  }
}

// The arguments of every call of a turn as the judges read them (INTERPRETING §5.6): a value
// streamed over several entries or pieces ("Inns" then "bruck") is content only once
// assembled, and its pieces alone may be too short to look for.
void FromAssembledCalls(const Json& parts, const std::string& source, std::vector<Native>& out) {
  for (const model::PieceCall& call : model::GroupCalls(parts).calls) {
    if (const Json* args = detail::Member(call.call, "args")) AddArguments(out, *args, source);
  }
}

std::vector<Native> Natives(const model::Case& c) {
  // The corpus sentinel first: a native value holding it is reported as the sentinel.
  std::vector<Native> out = {{std::string(kCorpusSentinel), "corpus sentinel", ""}};
  for (std::size_t k = 0; k < c.exchanges.size(); ++k) {
    const std::string source = "exchange " + std::to_string(k + 1);
    FromResponseBody(detail::ScriptedBody(c.exchanges[k]), source, out);
    FromAssembledCalls(detail::ScriptedParts(c.exchanges[k]), source, out);
  }
  if (c.transcript.is_array()) {
    for (std::size_t m = 0; m < c.transcript.size(); ++m) {
      const Json& message = c.transcript[m];
      const std::string source = "transcript message " + std::to_string(m);
      if (const Json* parts = detail::CapsuleNativeParts(message)) {
        FromNativeParts(*parts, source, out);
        FromAssembledCalls(*parts, source, out);
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
            AddContent(out, *id, "native id", "native id", "native id", source);
          }
        }
      }
    }
  }
  return out;
}

// A text read the ways an implementation might disguise content: the message itself, or bytes
// decoded from one of its base64 or hex runs.
struct View {
  std::string decoded;              // \u escapes decoded (or the decoded run)
  std::string normalized;           // Normalize(decoded)
  std::vector<std::size_t> origin;  // normalized index -> decoded index
  std::vector<int> word;            // decoded index -> word number, -1 between words
  std::vector<bool> ordinary_word;  // word number -> whether it is an ordinary word
  std::string form;                 // how content found here showed: "" for the message
};

// Characters that end a word of a message (a word keeps '_', '-', '.', '/', '+').
bool WordBreak(char ch) {
  const auto u = static_cast<unsigned char>(ch);
  if (u >= 0x80) return false;
  return std::isspace(u) != 0 ||
         std::string_view(",;:()[]{}<>\"'`=!?*|\\&@$^~").find(ch) != std::string_view::npos;
}

// Whether a word of a message is ordinary once its edge punctuation is gone: as a native
// string would be ("ADR-226.5", "function_call", "call's"), or dotted ordinary words
// ("native_id.duplicate", "part.3").
bool OrdinaryMessageWord(std::string_view word) {
  while (!word.empty() && !WordChar(word.front()) &&
         static_cast<unsigned char>(word.front()) < 0x80) {
    word.remove_prefix(1);
  }
  while (!word.empty() && !WordChar(word.back()) &&
         static_cast<unsigned char>(word.back()) < 0x80) {
    word.remove_suffix(1);
  }
  if (OrdinaryString(word)) return true;
  if (word.find('.') == std::string_view::npos) return false;
  for (std::size_t at = 0; at <= word.size();) {
    const auto dot = std::min(word.find('.', at), word.size());
    if (!OrdinaryWord(word.substr(at, dot - at))) return false;
    at = dot + 1;
  }
  return true;
}

View MakeView(std::string decoded, std::string form) {
  View v;
  v.decoded = std::move(decoded);
  v.form = std::move(form);
  v.normalized = Normalize(v.decoded, &v.origin);
  v.word.assign(v.decoded.size(), -1);
  for (std::size_t i = 0; i < v.decoded.size();) {
    if (WordBreak(v.decoded[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < v.decoded.size() && !WordBreak(v.decoded[j])) ++j;
    const int number = static_cast<int>(v.ordinary_word.size());
    for (std::size_t k = i; k < j; ++k) v.word[k] = number;
    v.ordinary_word.push_back(OrdinaryMessageWord(std::string_view(v.decoded).substr(i, j - i)));
    i = j;
  }
  return v;
}

int Base64Value(char ch) {
  if (ch >= 'A' && ch <= 'Z') return ch - 'A';
  if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
  if (ch >= '0' && ch <= '9') return ch - '0' + 52;
  if (ch == '+' || ch == '-') return 62;
  if (ch == '/' || ch == '_') return 63;
  return -1;
}

int HexValue(char ch) {
  const auto u = static_cast<unsigned char>(ch);
  if (std::isxdigit(u) == 0) return -1;
  return std::isdigit(u) != 0 ? u - '0' : std::tolower(u) - 'a' + 10;
}

// Content inside a larger encoded text does not show as the encoding of the content alone, so
// every long base64 run (standard or url-safe, at each of the four alignments a run glued to a
// word may have) and every long hex run (at both alignments) of the message is decoded.
std::vector<View> DecodedRuns(const std::string& text) {
  std::vector<View> out;
  for (std::size_t i = 0; i < text.size();) {
    if (Base64Value(text[i]) < 0) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && Base64Value(text[j]) >= 0) ++j;
    const std::string_view run = std::string_view(text).substr(i, j - i);
    if (run.size() >= kMinBase64Run) {
      for (std::size_t shift = 0; shift < 4; ++shift) {
        std::string bytes;
        std::uint32_t bits = 0;
        int count = 0;
        for (std::size_t k = shift; k < run.size(); ++k) {
          bits = (bits << 6) | static_cast<std::uint32_t>(Base64Value(run[k]));
          count += 6;
          if (count >= 8) {
            count -= 8;
            bytes.push_back(static_cast<char>((bits >> count) & 0xFF));
          }
        }
        out.push_back(MakeView(std::move(bytes), "base64-encoded"));
      }
    }
    i = j;
  }
  for (std::size_t i = 0; i < text.size();) {
    if (HexValue(text[i]) < 0) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && HexValue(text[j]) >= 0) ++j;
    if (j - i >= kMinHexRun) {
      for (std::size_t shift = 0; shift < 2; ++shift) {
        std::string bytes;
        for (std::size_t k = i + shift; k + 1 < j; k += 2) {
          bytes.push_back(static_cast<char>(HexValue(text[k]) * 16 + HexValue(text[k + 1])));
        }
        out.push_back(MakeView(std::move(bytes), "hex-encoded"));
      }
    }
    i = j;
  }
  return out;
}

// Whether `needle` (normalized) occurs in `v`. A short needle counts only where it is not a
// piece of a longer identifier ("call_b" is not exposed by the field name
// "tool_call_bindings"); a number only whole (4815162342 is not in 94815162342); any other
// needle only where it covers some word that is not ordinary (the cut "functionca" is not
// exposed by the word "functionCall", nor "call1" by "call 1").
bool Occurs(const View& v, const std::string& needle, bool standalone, bool number) {
  if (needle.empty()) return false;
  for (auto at = v.normalized.find(needle); at != std::string::npos;
       at = v.normalized.find(needle, at + 1)) {
    const std::size_t first = v.origin[at];
    const std::size_t last = v.origin[at + needle.size() - 1];
    const std::string& d = v.decoded;
    if (number) {
      // Not part of a longer number: no digit next to it, nor across one group separator or
      // decimal point ("4,815,162,342" is whole, "14,815,162,342" and "4815162342.5" are not).
      const auto digit_at = [&d](std::size_t i) { return i < d.size() && Digit(d[i]); };
      const auto group = [](char ch) { return ch == ',' || ch == '.' || ch == '_' || ch == '\''; };
      const bool before = first > 0 && (digit_at(first - 1) ||
                                        (first > 1 && group(d[first - 1]) && digit_at(first - 2)));
      const bool after =
          digit_at(last + 1) || (last + 1 < d.size() && group(d[last + 1]) && digit_at(last + 2));
      if (!before && !after) return true;
      continue;
    }
    if (standalone) {
      const bool glued_before = first > 0 && WordChar(d[first - 1]);
      const bool glued_after = last + 1 < d.size() && WordChar(d[last + 1]);
      if (glued_before || glued_after) continue;
    }
    for (std::size_t i = first; i <= last; ++i) {
      if (v.word[i] >= 0 && !v.ordinary_word[static_cast<std::size_t>(v.word[i])]) return true;
    }
  }
  return false;
}

// Whether `value` occurs byte for byte in `text`, a short one not glued to a longer word.
bool Written(const std::string& text, const std::string& value, bool standalone) {
  for (auto at = text.find(value); at != std::string::npos; at = text.find(value, at + 1)) {
    if (!standalone) return true;
    const bool glued_before = at > 0 && WordChar(text[at - 1]) && WordChar(value.front());
    const std::size_t end = at + value.size();
    const bool glued_after = end < text.size() && WordChar(text[end]) && WordChar(value.back());
    if (!glued_before && !glued_after) return true;
  }
  return false;
}

// The refusal message: as sent, escapes decoded, and its decoded base64 and hex runs.
struct Message {
  std::string raw;
  View main;
  std::vector<View> runs;
  std::string normalized_code;
};

// The front and back cuts of a long native string (normalized) that are distinctive.
std::vector<std::string> Cuts(const std::string& plain) {
  std::vector<std::string> out;
  if (plain.size() < kMinCutSource) return out;
  const auto add = [&](bool front) {
    for (const std::size_t length : {kCutLength, kLetterCutLength}) {
      const std::string cut = front ? plain.substr(0, length) : plain.substr(plain.size() - length);
      if (DistinctiveCut(cut)) {
        out.push_back(cut);
        return;
      }
    }
  };
  add(true);
  add(false);
  return out;
}

// How the message exposes `native`, or nullopt.
std::optional<std::string> Exposure(const Native& native, const Message& m) {
  const std::string plain = Normalize(native.value);
  if (plain.empty()) return std::nullopt;
  // A string of digits reads like a number: it counts only whole, and only when long.
  const bool digits =
      !native.value.empty() && std::all_of(native.value.begin(), native.value.end(), Digit);
  if (digits && !native.number && SignificantDigits(native.value) < kMinSignificantDigits) {
    return std::nullopt;
  }
  if (native.number || digits) {
    if (Occurs(m.main, plain, true, true)) {
      return m.raw.find(native.value) != std::string::npos
                 ? "as written"
                 : "with case, spacing, separators or escapes changed";
    }
    for (const auto& run : m.runs) {
      if (Occurs(run, plain, true, true)) return run.form;
    }
    return std::nullopt;  // hex or base64 of a number's text alone is not meaningful
  }
  const bool sentinel = native.kind == "corpus sentinel";
  if (!sentinel && m.normalized_code.find(plain) != std::string::npos) {
    return std::nullopt;  // the code names no content
  }
  // A native id of two or three characters ("c1") is too short to find in running text, but
  // quoted exactly it is the id: 'c1', "c1" or `c1`.
  if (native.kind == "native id" && native.value.size() >= 2 && native.value.size() <= 3) {
    for (const char quote : {'\'', '"', '`'}) {
      if (m.main.decoded.find(quote + native.value + quote) != std::string::npos ||
          m.raw.find(quote + native.value + quote) != std::string::npos) {
        return std::string("as written, quoted");
      }
    }
    return std::nullopt;
  }
  const bool distinctive = sentinel || Distinctive(native.value);
  if (!distinctive) {
    // Neither distinctive nor ordinary ("ab12"): only the string as written counts.
    if (native.value.size() < kMinWrittenLength || OrdinaryString(native.value)) {
      return std::nullopt;
    }
    if (Written(m.main.decoded, native.value, true)) return "as written";
    return std::nullopt;
  }
  const bool standalone = plain.size() < kStandaloneLength;
  if (Written(m.main.decoded, native.value, standalone)) {
    return m.raw.find(native.value) != std::string::npos ? "as written" : "with escapes changed";
  }
  if (Occurs(m.main, plain, standalone, false)) {
    return "with case, spacing, separators or escapes changed";
  }
  const auto encoded = [&](const std::string& form) {
    return Occurs(m.main, form, form.size() < kStandaloneLength, false);
  };
  if (encoded(HexOf(native.value))) return "hex-encoded";
  if (encoded(Normalize(Base64Of(native.value)))) return "base64-encoded";
  for (const auto& run : m.runs) {
    if (Occurs(run, plain, standalone, false)) return run.form;
  }
  for (const auto& cut : Cuts(plain)) {
    if (Occurs(m.main, cut, false, false)) return "cut short";
    for (const auto& run : m.runs) {
      if (Occurs(run, cut, false, false)) return run.form + ", cut short";
    }
  }
  return std::nullopt;
}

// ADR-226: "validation must not expose native content" holds whatever state was captured, from
// a stream or not: a leak keeps its level in a streamed-capture case.
Finding LeakFinding(Finding f) {
  f.premise_free = true;
  return f;
}

}  // namespace

std::vector<Finding> JudgeLeaks(const CaseRun& run) {
  std::vector<Finding> findings;
  if (!run.report.refusal) return findings;
  const model::Refusal& refusal = *run.report.refusal;
  Message m;
  m.raw = refusal.message;
  m.main = MakeView(DecodeEscapes(refusal.message), "");
  m.runs = DecodedRuns(m.main.decoded);
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
      findings.push_back(LeakFinding(MakeFinding(
          "ADR-226.19", kWireViolation, std::nullopt, "",
          "the refusal message exposes the corpus sentinel, " + *how, "no native content",
          "sentinel")));
      continue;
    }
    findings.push_back(LeakFinding(MakeFinding("ADR-226.19", kWireViolation, std::nullopt, "",
                                               "the refusal message exposes native content (" +
                                                   native.kind + ") from " + native.source +
                                                   ", " + *how,
                                               "no native content", native.kind)));
  }
  return findings;
}

}  // namespace gemini_oracle::checks
