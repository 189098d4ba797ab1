#include "generators/call_pieces.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <deque>
#include <utility>

#include "generators/case_writing.h"
#include "generators/drawing.h"
#include "generators/json_values.h"

namespace gemini_oracle::generators {
namespace {

// Member names: shorthand ones, and ones a path must spell in brackets (a digit first, a quote,
// a backslash, a control character, `.`, `[`, `$`), non-ASCII ones.
const std::vector<std::string>& Keys() {
  static const std::vector<std::string> keys = {
      "a", "b", "city", "n", "x_y", "Key", "_u", "ü", "0", "12", "it's", "say \"hi\"",
      "Zoë", "a.b", "[0]", "$", "back\\slash", "tab\tkey", ""};
  return keys;
}

// Strings to stream: empty, ASCII, multi-byte (2, 3 and 4 bytes a code point), escapes.
rc::Gen<Json> genPieceString() {
  return rc::gen::map(
      rc::gen::elementOf(std::vector<std::string>{
          "", "a", "Graz", "Käse, Brötchen ☕ für Zoë", "line\nbreak", "emoji 🙂 ok",
          "\"quoted\" \\ slash", "0123456789abcdef", "tab\tend"}),
      [](const std::string& s) { return Json(s); });
}

Json DrawScalar() {
  switch (*Between<int>(0, 6)) {
    case 0:
    case 1: return *genNumber();
    case 2:
    case 3: return *genPieceString();
    case 4: return Json(*rc::gen::arbitrary<bool>());
    default: return Json(nullptr);
  }
}

// A value every path can stream: scalars, objects and lists that are never empty.
Json DrawStreamable(int depth) {
  const int shape = depth <= 0 ? 0 : *Between<int>(0, 4);
  if (shape <= 1) return DrawScalar();
  if (shape == 2) {
    Json object = Json::object();
    const std::size_t n = *Between<std::size_t>(1, 4);
    for (std::size_t i = 0; i < n; ++i) {
      object[*rc::gen::elementOf(Keys())] = DrawStreamable(depth - 1);
    }
    return object;
  }
  Json list = Json::array();
  const std::size_t n = *Between<std::size_t>(1, 5);
  for (std::size_t i = 0; i < n; ++i) list.push_back(DrawStreamable(depth - 1));
  return list;
}

bool HoldsEmptyContainer(const Json& value) {
  if (!value.is_structured()) return false;
  if (value.empty()) return true;
  return std::any_of(value.begin(), value.end(), HoldsEmptyContainer);
}

// One step of a jsonPath.
struct Step {
  bool index = false;
  std::string name;
  std::size_t k = 0;
};

bool ShorthandName(const std::string& name) {
  if (name.empty()) return false;
  const auto first = static_cast<unsigned char>(name[0]);
  if (!(std::isalpha(first) || first == '_' || first >= 0x80)) return false;
  return std::all_of(name.begin(), name.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return std::isalnum(c) || c == '_' || c >= 0x80;
  });
}

// `name` as an RFC 9535 string literal in `quote`s; `unicode`: control characters and
// (sometimes) other ASCII as \uXXXX.
std::string Quote(const std::string& name, char quote, bool unicode) {
  std::string out(1, quote);
  for (const char ch : name) {
    const auto c = static_cast<unsigned char>(ch);
    char buffer[8];
    if (ch == quote || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20) {
      switch (ch) {
        case '\n': out += "\\n"; break;
        case '\t': out += unicode ? "\\u0009" : "\\t"; break;
        default:
          std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
          out += buffer;
      }
    } else if (unicode && c < 0x80 && std::isalpha(c)) {
      std::snprintf(buffer, sizeof buffer, "\\u%04X", c);
      out += buffer;
    } else {
      out += ch;
    }
  }
  out += quote;
  return out;
}

// A drawn spelling of `steps` (INTERPRETING §5.6: member and index steps).
std::string DrawPath(const std::vector<Step>& steps) {
  std::string path = "$";
  for (const Step& step : steps) {
    const std::string blank = DrawChance(10) ? " " : "";
    if (step.index) {
      path += "[" + blank + std::to_string(step.k) + blank + "]";
      continue;
    }
    const int form = *Between<int>(0, 4);
    if (form <= 1 && ShorthandName(step.name)) {
      path += "." + step.name;
    } else {
      path += "[" + blank + Quote(step.name, form == 2 ? '"' : '\'', DrawChance(15)) + blank + "]";
    }
  }
  return path;
}

// Each scalar of `value` at `steps`, in a drawn order: an object's members in any order, a
// list's elements in order (an index names an element or the next one).
void CollectLeaves(const Json& value, std::vector<Step>& steps,
                   std::vector<std::pair<std::vector<Step>, Json>>& leaves) {
  if (value.is_object()) {
    std::vector<std::string> keys;
    for (auto it = value.begin(); it != value.end(); ++it) keys.push_back(it.key());
    for (const std::size_t i : DrawPermutation(keys.size())) {
      steps.push_back(Step{false, keys[i], 0});
      CollectLeaves(value.at(keys[i]), steps, leaves);
      steps.pop_back();
    }
  } else if (value.is_array()) {
    for (std::size_t k = 0; k < value.size(); ++k) {
      steps.push_back(Step{true, "", k});
      CollectLeaves(value[k], steps, leaves);
      steps.pop_back();
    }
  } else {
    leaves.emplace_back(steps, value);
  }
}

// The byte offsets in `s` where a code point starts, and its end.
std::vector<std::size_t> CodePointBoundaries(const std::string& s) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) out.push_back(i);
  }
  out.push_back(s.size());
  return out;
}

// The entries that stream one scalar: a string cut into chunks (each but the last continues;
// the last maybe continues too and a valueless entry ends it), any other value in one entry.
std::deque<Json> EntriesOf(const std::vector<Step>& steps, const Json& value) {
  std::deque<Json> entries;
  const auto entry = [&steps] { return Json{{"jsonPath", DrawPath(steps)}}; };
  if (value.is_string()) {
    const std::string& s = value.get_ref<const std::string&>();
    const auto boundaries = CodePointBoundaries(s);
    const std::size_t chunks = DrawChance(40) ? 1 : *Between<std::size_t>(2, 6);
    std::vector<std::size_t> cuts;
    for (std::size_t i = 1; i < chunks; ++i) cuts.push_back(*rc::gen::elementOf(boundaries));
    std::sort(cuts.begin(), cuts.end());
    cuts.push_back(s.size());
    std::size_t from = 0;
    for (std::size_t i = 0; i < cuts.size(); ++i) {
      Json e = entry();
      e["stringValue"] = s.substr(from, cuts[i] - from);
      from = cuts[i];
      if (i + 1 < cuts.size()) e["willContinue"] = true;
      entries.push_back(std::move(e));
    }
    if (DrawChance(25)) {
      entries.back()["willContinue"] = true;
      Json end = entry();
      if (DrawChance(50)) end["willContinue"] = false;
      entries.push_back(std::move(end));  // sets nothing: ends the value
    }
    return entries;
  }
  Json e = entry();
  if (value.is_number()) {
    e["numberValue"] = value;
  } else if (value.is_boolean()) {
    e["boolValue"] = value;
  } else {
    e["nullValue"] = DrawChance(50) ? Json(nullptr) : Json("NULL_VALUE");
  }
  entries.push_back(std::move(e));
  return entries;
}

}  // namespace

rc::Gen<Json> genPieceArgs() {
  return rc::gen::exec([] {
    Json args = Json::object();
    const std::size_t n = *Between<std::size_t>(0, 6);
    for (std::size_t i = 0; i < n; ++i) {
      const std::string key = *rc::gen::elementOf(Keys());
      args[key] = DrawChance(65) ? DrawStreamable(*Between<int>(0, 5)) : *genJsonValue(3);
    }
    return args;
  });
}

Json DrawPieces(const std::string& name, const Json& id, const Json& args,
                const std::string& signature, std::size_t& entry_count) {
  // The members the opening piece gives whole: every one an entry cannot make, some others.
  Json given = Json::object();
  Json streamed = Json::object();
  for (auto it = args.begin(); it != args.end(); ++it) {
    (HoldsEmptyContainer(it.value()) || DrawChance(20) ? given : streamed)[it.key()] = it.value();
  }
  std::vector<std::pair<std::vector<Step>, Json>> leaves;
  std::vector<Step> steps;
  CollectLeaves(streamed, steps, leaves);

  // The entries in order: each scalar's first entry where its path comes; the rest of a cut
  // string may come later, between other paths' entries.
  std::vector<Json> entries;
  std::vector<std::deque<Json>> pending;
  std::vector<std::size_t> done;  // leaves whose value is complete, to give again
  const auto flush_some = [&] {
    while (!pending.empty() && DrawChance(50)) {
      const std::size_t i = *Between<std::size_t>(0, pending.size());
      entries.push_back(pending[i].front());
      pending[i].pop_front();
      if (pending[i].empty()) pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(i));
    }
  };
  for (std::size_t l = 0; l < leaves.size(); ++l) {
    flush_some();
    std::deque<Json> mine = EntriesOf(leaves[l].first, leaves[l].second);
    entries.push_back(mine.front());
    mine.pop_front();
    if (mine.empty()) {
      done.push_back(l);
    } else {
      pending.push_back(std::move(mine));
    }
  }
  for (auto& rest : pending) {
    for (Json& e : rest) entries.push_back(std::move(e));
  }
  // A value complete and given again the same is accepted (INTERPRETING §5.6).
  if (!done.empty() && DrawChance(15)) {
    const std::size_t l = done[*Between<std::size_t>(0, done.size())];
    Json again = EntriesOf(leaves[l].first, leaves[l].second).front();
    if (leaves[l].second.is_string()) again = Json{{"jsonPath", again["jsonPath"]},
                                                   {"stringValue", leaves[l].second}};
    entries.push_back(std::move(again));
  }
  entry_count = entries.size();

  // The opening piece: name, id, the args given whole, maybe the first entries.
  Json opening = Json::object();
  if (!id.is_null()) opening["id"] = id;
  opening["name"] = name;
  if (!given.empty() || DrawChance(30)) opening["args"] = given;
  std::size_t next = 0;
  if (!entries.empty() && DrawChance(25)) {
    const std::size_t take = *Between<std::size_t>(1, std::min<std::size_t>(entries.size(), 3) + 1);
    opening["partialArgs"] = Json::array();
    for (; next < take; ++next) opening["partialArgs"].push_back(entries[next]);
  }
  Json pieces = Json::array();
  const auto part = [](Json fc, const std::string& sig) {
    Json p = Json{{"functionCall", std::move(fc)}};
    if (!sig.empty()) p["thoughtSignature"] = sig;
    return p;
  };
  // The other entries in pieces of drawn sizes; the call closes with a separate `{}` or with
  // its last piece.
  std::vector<Json> middle;
  while (next < entries.size()) {
    const std::size_t take = *Between<std::size_t>(1, entries.size() - next + 1);
    Json fc = Json::object();
    if (!id.is_null() && DrawChance(25)) fc["id"] = id;  // a later piece may repeat it
    fc["partialArgs"] = Json::array();
    for (std::size_t i = 0; i < take; ++i) fc["partialArgs"].push_back(entries[next++]);
    middle.push_back(std::move(fc));
  }
  const bool whole = middle.empty() && DrawChance(20);  // one piece: a call sent whole
  const bool separate_close = !whole && (middle.empty() || DrawChance(50));
  if (!whole) opening["willContinue"] = true;
  pieces.push_back(part(std::move(opening), signature));
  for (std::size_t i = 0; i < middle.size(); ++i) {
    const bool last = i + 1 == middle.size() && !separate_close;
    if (!last) {
      middle[i]["willContinue"] = true;
    } else if (DrawChance(30)) {
      middle[i]["willContinue"] = false;
    }
    // A later piece signed of its own (INTERPRETING §5.6: replayed where it came).
    pieces.push_back(part(std::move(middle[i]), DrawChance(10) ? SignatureOf(90 + i) : ""));
  }
  if (separate_close) {
    Json fc = Json::object();
    if (DrawChance(20)) fc["willContinue"] = false;
    pieces.push_back(part(std::move(fc), ""));
  }
  return pieces;
}

Json CallPiecesScenario::Parts() const {
  Json parts = Json::array();
  if (text_before) parts.push_back(Json{{"text", "Let me look that up."}});
  for (const PiecedCall& call : calls) {
    for (const Json& piece : call.pieces) parts.push_back(piece);
  }
  return parts;
}

std::vector<std::size_t> CallPiecesScenario::Openings() const {
  std::vector<std::size_t> out;
  std::size_t at = text_before ? 1 : 0;
  for (const PiecedCall& call : calls) {
    out.push_back(at);
    at += call.pieces.size();
  }
  return out;
}

rc::Gen<CallPiecesScenario> genCallPiecesScenario() {
  return rc::gen::exec([] {
    CallPiecesScenario s;
    s.text_before = DrawChance(30);
    const std::size_t n = *Between<std::size_t>(1, 3);
    for (std::size_t c = 0; c < n; ++c) {
      PiecedCall call;
      call.name = ToolName(c);
      call.id = DrawChance(50) ? Json("call_" + std::to_string(c + 1)) : Json(nullptr);
      call.args = *genPieceArgs();
      const std::string signature = DrawChance(50) ? SignatureOf(c + 1) : "";
      call.pieces = DrawPieces(call.name, call.id, call.args, signature, call.entries);
      s.calls.push_back(std::move(call));
    }
    s.event_sizes = DrawEventSizes(s.Parts().size());
    s.cut_permille = DrawCutPermille();
    return s;
  });
}

std::string CallPiecesStem(std::uint64_t seed, std::size_t index) {
  return "y_call_pieces_s" + std::to_string(seed) + "_" + std::to_string(index);
}

Json CallPiecesCase(const CallPiecesScenario& s, std::uint64_t seed, std::size_t index) {
  std::size_t pieces = 0, entries = 0;
  bool ids = false, signatures = false;
  for (const PiecedCall& call : s.calls) {
    pieces += call.pieces.size();
    entries += call.entries;
    ids |= !call.id.is_null();
    for (const Json& piece : call.pieces) signatures |= piece.contains("thoughtSignature");
  }
  Json c = Json::object();
  c["description"] = "Generated: " + std::to_string(s.calls.size()) + " call(s) in " +
                     std::to_string(pieces) + " pieces, " + std::to_string(entries) +
                     " partialArgs entries, read and replayed.";
  c["clauses"] = Json::array({"ADR-226.B1"});
  Json features = Json::array({"streaming", "stream-capture", "replay"});
  if (ids) features.push_back("ids");
  if (signatures) features.push_back("signatures");
  c["features"] = features;
  c["rationale"] =
      "Beyond the ADRs: ADR-226 leaves \"new streamed capture\" separate (ADR-226.B1). Each call "
      "arrives in pieces (INTERPRETING §5.6); it is one call with the assembled arguments, "
      "answered once, and its pieces are replayed verbatim in place.";
  c["source"] = "generator call_pieces " + std::to_string(kCallPiecesVersion) + ", seed " +
                std::to_string(seed) + ", index " + std::to_string(index);
  Json options = ToolOptions(s.calls.size());
  options["tool_config"] =
      Json{{"functionCallingConfig", Json{{"streamFunctionCallArguments", true}}}};
  c["options"] = options;
  Json results = Json::array();
  for (std::size_t call = 0; call < s.calls.size(); ++call) {
    results.push_back(Json{{"call", call}, {"json", Json{{"ok", true}, {"call", call}}}});
  }
  Json first = Json{{"user", "Run the tools."},
                    {"response", StreamedAnswer(s.Parts(), s.event_sizes, s.cut_permille)},
                    {"then", Json{{"results", results}}}};
  Json exchanges = Json::array();
  exchanges.push_back(std::move(first));
  exchanges.push_back(Json{{"response", WholeAnswer(Json::array({Json{{"text", "Done."}}}))}});
  c["exchanges"] = exchanges;
  c["expect"] = Json{{"outcome", "accept"}, {"requests", 2}};
  return c;
}

}  // namespace gemini_oracle::generators
