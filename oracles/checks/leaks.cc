// ADR-226.19: a refusal never exposes native content (arguments, IDs, signatures, text).
#include <array>
#include <set>
#include <string_view>

#include "oracles/checks/judge.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {
namespace {

// Cases citing ADR-226.19 plant this text in native ids, arguments, signatures or text.
constexpr std::string_view kCorpusSentinel = "SENTINEL-d41d8";

// Shorter strings match ordinary words of any message.
constexpr std::size_t kMinSentinelLength = 4;

// Field and role names a message may legitimately mention even when a case reuses them as data.
constexpr std::array<std::string_view, 18> kStructuralWords = {"args",
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
                                                               "gemini"};

struct Sentinel {
  std::string value;
  std::string kind;    // "native id", "argument", "thought signature", "text"
  std::string source;  // "exchange 2", "transcript message 1"
};

void Add(std::vector<Sentinel>& out, const Json& value, const char* kind,
         const std::string& source) {
  std::vector<std::string> strings;
  detail::CollectStrings(value, strings);
  for (auto& s : strings) out.push_back({std::move(s), kind, source});
}

void FromNativeParts(const Json& parts, const std::string& source, std::vector<Sentinel>& out) {
  if (!parts.is_array()) return;
  for (const auto& part : parts) {
    if (const Json* fc = detail::Member(part, "functionCall")) {
      if (const Json* id = detail::Member(*fc, "id")) Add(out, *id, "native id", source);
      if (const Json* args = detail::Member(*fc, "args")) Add(out, *args, "argument", source);
    }
    if (const Json* signature = detail::Member(part, "thoughtSignature")) {
      Add(out, *signature, "thought signature", source);
    }
    if (const Json* text = detail::Member(part, "text")) Add(out, *text, "text", source);
  }
}

std::vector<Sentinel> Sentinels(const model::Case& c) {
  std::vector<Sentinel> out;
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
            Add(out, *args, "argument", source);
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
            Add(out, *id, "native id", source);
          }
        }
      }
    }
  }
  return out;
}

bool WordChar(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
         ch == '_';
}

// An occurrence counts unless it is only a piece of a longer identifier: "call_b" is not
// exposed by the field name "tool_call_bindings".
bool Exposes(const std::string& message, const std::string& value) {
  for (auto at = message.find(value); at != std::string::npos; at = message.find(value, at + 1)) {
    const std::size_t end = at + value.size();
    const bool glued_before = at > 0 && WordChar(value.front()) && WordChar(message[at - 1]);
    const bool glued_after =
        end < message.size() && WordChar(value.back()) && WordChar(message[end]);
    if (!glued_before && !glued_after) return true;
  }
  return false;
}

bool Ignored(const std::string& value, const std::string& code) {
  if (value.size() < kMinSentinelLength) return true;
  for (const auto word : kStructuralWords) {
    if (value == word) return true;
  }
  return code.find(value) != std::string::npos;  // the code names no content
}

}  // namespace

std::vector<Finding> JudgeLeaks(const CaseRun& run) {
  std::vector<Finding> findings;
  if (!run.report.refusal) return findings;
  const model::Refusal& refusal = *run.report.refusal;
  std::set<std::string> reported;
  // INTERPRETING.md §7.2: the corpus sentinel never appears in any refusal text.
  if (refusal.message.find(kCorpusSentinel) != std::string::npos) {
    reported.insert(std::string(kCorpusSentinel));
    findings.push_back(MakeFinding("ADR-226.19", kWireViolation, std::nullopt, "",
                                   "the refusal message exposes the corpus sentinel",
                                   "no native content", "sentinel"));
  }
  for (const auto& sentinel : Sentinels(run.c)) {
    if (Ignored(sentinel.value, refusal.code)) continue;
    if (!Exposes(refusal.message, sentinel.value)) continue;
    if (!reported.insert(sentinel.value).second) continue;
    if (sentinel.value.find(kCorpusSentinel) != std::string::npos &&
        reported.count(std::string(kCorpusSentinel)) != 0) {
      continue;  // already reported as the corpus sentinel
    }
    // The finding names the kind and where it came from, never the content itself.
    findings.push_back(MakeFinding(
        "ADR-226.19", kWireViolation, std::nullopt, "",
        "the refusal message exposes a native " + sentinel.kind + " from " + sentinel.source,
        "no native content", sentinel.kind));
  }
  return findings;
}

}  // namespace gemini_oracle::checks
