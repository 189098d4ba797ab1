#include "generators/case_writing.h"

#include <algorithm>

#include "oracles/model/case.h"

namespace gemini_oracle::generators {

Json WholeAnswer(Json parts) {
  return Json{{"body", Json{{"candidates", Json::array({Json{
                                              {"content", Json{{"role", "model"},
                                                               {"parts", std::move(parts)}}},
                                              {"finishReason", "STOP"},
                                              {"index", 0}}})},
                            {"modelVersion", kGeneratedModel}}}};
}

Json StreamedAnswer(const Json& parts, const std::vector<std::size_t>& event_sizes,
                    const std::vector<std::size_t>& cut_permille) {
  Json events = Json::array();
  std::size_t next = 0;
  for (std::size_t e = 0; e < event_sizes.size(); ++e) {
    Json event_parts = Json::array();
    for (std::size_t i = 0; i < event_sizes[e] && next < parts.size(); ++i) {
      event_parts.push_back(parts[next++]);
    }
    Json candidate = Json{{"content", Json{{"role", "model"}, {"parts", event_parts}}}};
    if (e + 1 == event_sizes.size()) candidate["finishReason"] = "STOP";
    events.push_back(Json{{"candidates", Json::array({candidate})},
                          {"modelVersion", kGeneratedModel}});
  }
  Json stream = Json{{"events", events}};
  if (!cut_permille.empty()) {
    // The stream's bytes as the capture server serves them (INTERPRETING §5.3).
    model::StreamScript script;
    for (const Json& event : events) script.events.push_back(event);
    const std::size_t length = script.Bytes().size();
    std::vector<std::size_t> offsets;
    for (const std::size_t permille : cut_permille) {
      offsets.push_back(std::clamp<std::size_t>(length * permille / 1000, 1, length - 1));
    }
    std::sort(offsets.begin(), offsets.end());
    offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
    stream["split_at"] = offsets;
  }
  return Json{{"stream", stream}};
}

std::string NativeIdRationale(const std::string& code, const std::string& what) {
  return code == "native_id.duplicate"
             ? "ADR-226: \"Malformed or duplicate native IDs in the tool parser or a correlated "
               "replay turn are refused with an existing typed provider exception.\" " + what
             : "ADR-226: \"a present ID on an accepted named call must be a nonempty string\". " +
                   what;
}

std::string ToolName(std::size_t group) { return "tool_" + std::to_string(group); }

Json ToolOptions(std::size_t count) {
  Json declarations = Json::array();
  for (std::size_t g = 0; g < count; ++g) declarations.push_back(Json{{"name", ToolName(g)}});
  return Json{{"model", kGeneratedModel},
              {"tools", Json::array({Json{{"functionDeclarations", declarations}}})}};
}

std::string SignatureOf(std::size_t turn) {
  // Valid base64 of a distinct text per turn ("generated signature N", padded to a multiple
  // of three bytes so the encoding has no padding characters to get wrong).
  static const char* kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string raw = "generated signature " + std::to_string(turn);
  while (raw.size() % 3 != 0) raw += '.';
  std::string out;
  for (std::size_t i = 0; i < raw.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(raw[i]) << 16) |
                       (static_cast<unsigned char>(raw[i + 1]) << 8) |
                       static_cast<unsigned char>(raw[i + 2]);
    for (int shift = 18; shift >= 0; shift -= 6) out += kAlphabet[(v >> shift) & 63];
  }
  return out;
}

const char* ShapeName(ToolResult::Shape shape) {
  switch (shape) {
    case ToolResult::Shape::kObject: return "object";
    case ToolResult::Shape::kList: return "list";
    case ToolResult::Shape::kScalar: return "scalar";
    case ToolResult::Shape::kInvalidText: return "invalid text";
    case ToolResult::Shape::kError: return "error";
  }
  return "object";
}

Json ToolResult::CaseResult(std::size_t call) const {
  Json r = Json{{"call", call}};
  switch (shape) {
    case Shape::kObject:
    case Shape::kList:
    case Shape::kScalar: r["json"] = value; break;
    case Shape::kInvalidText: r["text"] = text; break;
    case Shape::kError: r["error"] = text; break;
  }
  return r;
}

std::string ToolResult::Content() const {
  switch (shape) {
    case Shape::kObject:
    case Shape::kList:
    case Shape::kScalar: return DumpJson(value);
    case Shape::kInvalidText:
    case Shape::kError: return text;
  }
  return text;
}

}  // namespace gemini_oracle::generators
