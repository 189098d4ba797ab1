#include "reference_impl/call_pieces.h"

#include <map>
#include <memory>
#include <unordered_map>
#include <utility>

#include "reference_impl/fault.h"
#include "reference_impl/provider_error.h"
#include "reference_impl/request_builder.h"
#include "reference_impl/utf8.h"

namespace gemini_oracle::ref {
namespace {

// Positions only: the part and a field of the data model, never what the part holds.
[[noreturn]] void Fail(const char* code, std::size_t part, std::string field) {
  Position where;
  where.part = part;
  where.field = std::move(field);
  throw ProviderError(code, std::move(where));
}

bool HoldsInexactInteger(const Json& value) {
  if (InexactIntegerText(value)) return true;
  if (value.is_structured()) {
    for (const auto& member : value) {
      if (HoldsInexactInteger(member)) return true;
    }
  }
  return false;
}

// One step of a jsonPath: a member name or a list index.
struct Step {
  bool index = false;
  std::string name;
  std::size_t k = 0;
};

// RFC 9535 jsonPath restricted to member and index steps (INTERPRETING §5.6). Anything else
// (wildcards, slices, filters, several selectors, negative indexes, leading zeros,
// descendants, `$` alone) is no path: nullopt.
class PathReader {
 public:
  explicit PathReader(const std::string& text) : s_(text) {}

  std::optional<std::vector<Step>> Read() {
    if (s_.empty() || s_[0] != '$') return std::nullopt;
    i_ = 1;
    std::vector<Step> steps;
    for (;;) {
      // RFC 9535: segments = *(S segment): blank space before a segment, never after the last.
      const std::size_t before = i_;
      SkipBlank();
      if (i_ == s_.size()) {
        if (i_ != before) return std::nullopt;  // `$.city `
        break;
      }
      Step step;
      if (s_[i_] == '.') {
        ++i_;
        if (!Shorthand(step.name)) return std::nullopt;
      } else if (s_[i_] == '[') {
        ++i_;
        SkipBlank();
        if (i_ < s_.size() && (s_[i_] == '\'' || s_[i_] == '"')) {
          if (!Quoted(step.name)) return std::nullopt;
        } else if (!Index(step.k)) {
          return std::nullopt;
        } else {
          step.index = true;
        }
        SkipBlank();
        if (i_ == s_.size() || s_[i_] != ']') return std::nullopt;
        ++i_;
      } else {
        return std::nullopt;
      }
      steps.push_back(std::move(step));
      if (steps.size() > kMaxPartialArgPathSteps) return std::nullopt;
    }
    if (steps.empty()) return std::nullopt;  // `$` alone names the args root, no value
    return steps;
  }

 private:
  static bool Blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }
  static bool Alpha(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }
  static bool Digit(char ch) { return ch >= '0' && ch <= '9'; }
  // name-first: ALPHA / "_" / any non-ASCII code point (the JSON reader made it valid UTF-8).
  static bool NameFirst(char ch) {
    return Alpha(ch) || ch == '_' || static_cast<unsigned char>(ch) >= 0x80;
  }

  void SkipBlank() {
    while (i_ < s_.size() && Blank(s_[i_])) ++i_;
  }

  bool Shorthand(std::string& out) {
    if (i_ == s_.size() || !NameFirst(s_[i_])) return false;  // `..`, `.*`, `.1`, `.`
    while (i_ < s_.size() && (NameFirst(s_[i_]) || Digit(s_[i_]))) out += s_[i_++];
    return true;
  }

  bool Hex4(std::uint32_t& out) {
    if (s_.size() - i_ < 4) return false;
    out = 0;
    for (int n = 0; n < 4; ++n) {
      const char ch = s_[i_++];
      out <<= 4;
      if (Digit(ch)) {
        out |= static_cast<std::uint32_t>(ch - '0');
      } else if (ch >= 'a' && ch <= 'f') {
        out |= static_cast<std::uint32_t>(ch - 'a' + 10);
      } else if (ch >= 'A' && ch <= 'F') {
        out |= static_cast<std::uint32_t>(ch - 'A' + 10);
      } else {
        return false;
      }
    }
    return true;
  }

  // A string literal in single or double quotes with RFC 9535's escapes.
  bool Quoted(std::string& out) {
    const char quote = s_[i_++];
    for (;;) {
      if (i_ == s_.size()) return false;
      const char ch = s_[i_++];
      if (ch == quote) return true;
      if (static_cast<unsigned char>(ch) < 0x20) return false;
      if (ch != '\\') {
        out += ch;
        continue;
      }
      if (i_ == s_.size()) return false;
      const char esc = s_[i_++];
      switch (esc) {
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case '/':
          out += '/';
          break;
        case '\\':
          out += '\\';
          break;
        case '\'':
        case '"':
          if (esc != quote) return false;  // only the enclosing quote is escaped
          out += esc;
          break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!Hex4(cp)) return false;
          if (cp >= 0xDC00 && cp <= 0xDFFF) return false;  // a lone low surrogate
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            std::uint32_t low = 0;
            if (s_.size() - i_ < 2 || s_[i_] != '\\' || s_[i_ + 1] != 'u') return false;
            i_ += 2;
            if (!Hex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(out, cp);
          break;
        }
        default:
          return false;
      }
    }
  }

  // A nonnegative decimal integer without leading zeros, below kMaxPartialArgIndex.
  bool Index(std::size_t& out) {
    if (i_ == s_.size() || !Digit(s_[i_])) return false;  // `-1`, `*`, `?`, `:`
    if (s_[i_] == '0' && i_ + 1 < s_.size() && Digit(s_[i_ + 1])) return false;
    out = 0;
    while (i_ < s_.size() && Digit(s_[i_])) {
      out = out * 10 + static_cast<std::size_t>(s_[i_++] - '0');
      if (out >= kMaxPartialArgIndex) return false;
    }
    return true;
  }

  const std::string& s_;
  std::size_t i_ = 0;
};

// A path as a map key: the same steps however they were spelled (`$.a`, `$['a']`).
std::string KeyOf(const std::vector<Step>& steps) {
  std::string key;
  for (const Step& step : steps) {
    if (step.index) {
      key += "i" + std::to_string(step.k) + ";";
    } else {
      key += "m" + std::to_string(step.name.size()) + ":" + step.name;
    }
  }
  return key;
}

// Where a path was last given a value (or announced one), and whether that value continues.
struct PathState {
  bool continuing = false;
  std::size_t part = 0;
};

// The arguments while they are assembled. An ordered_json object finds a member by a linear
// scan, so setting n members of one object that way takes n² steps (60,000 entries: seconds);
// an object here finds its members through an index, and the tree becomes Json once, when the
// turn has been read, with its members in the order they were first set.
struct Node {
  enum class Kind { kValue, kObject, kList };
  Kind kind = Kind::kValue;
  Json value;  // kValue: a value as given (an entry's, or a whole value from args)
  std::vector<std::pair<std::string, std::unique_ptr<Node>>> members;  // kObject, in order
  std::unordered_map<std::string, std::size_t> index;                  // name -> members[i]
  std::vector<std::unique_ptr<Node>> elements;                         // kList

  Node() = default;
  explicit Node(Json v) : value(std::move(v)) {}

  void Assign(Json v) {
    kind = Kind::kValue;
    value = std::move(v);
    members.clear();
    index.clear();
    elements.clear();
  }
  // Whether a member step may go through: an object (a value that is one is opened up).
  bool Object() {
    if (kind == Kind::kValue && value.is_object()) {
      kind = Kind::kObject;
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (index.emplace(it.key(), members.size()).second) {
          members.emplace_back(it.key(), std::make_unique<Node>(std::move(it.value())));
        }
      }
      value = nullptr;
    }
    return kind == Kind::kObject;
  }
  // Whether an index step may go through: a list (a value that is one is opened up).
  bool List() {
    if (kind == Kind::kValue && value.is_array()) {
      kind = Kind::kList;
      for (Json& element : value) elements.push_back(std::make_unique<Node>(std::move(element)));
      value = nullptr;
    }
    return kind == Kind::kList;
  }
  std::size_t Size() const { return kind == Kind::kObject ? members.size() : elements.size(); }

  // The value as Json: moved out (`take`), or copied to compare with.
  Json Build(bool take) {
    switch (kind) {
      case Kind::kValue:
        return take ? std::move(value) : value;
      case Kind::kObject: {
        Json::object_t object;
        object.reserve(members.size());
        // The base vector's emplace_back: names are already unique, and ordered_map's own
        // emplace would look each one up again, linearly.
        for (auto& [name, member] : members) {
          object.Json::object_t::Container::emplace_back(name, member->Build(take));
        }
        return Json(std::move(object));
      }
      case Kind::kList: {
        Json list = Json::array();
        list.get_ref<Json::array_t&>().reserve(elements.size());
        for (auto& element : elements) list.push_back(element->Build(take));
        return list;
      }
    }
    return Json();
  }
  bool Equals(const Json& other) {
    return kind == Kind::kValue ? KindExactEqual(value, other) : KindExactEqual(Build(false), other);
  }
};

// One call being read.
struct CallState {
  AssembledCall call;
  bool open = false;
  Node args{Json::object()};  // becomes call.args when the turn has been read
  std::map<std::string, PathState> paths;
};

class Reader {
 public:
  explicit Reader(bool carried) : carried_(carried) {}

  std::vector<AssembledCall> Read(const Json& parts) {
    for (std::size_t p = 0; p < parts.size(); ++p) Part(parts[p], p);
    // The turn ends: no call, and no value of any call, may still continue.
    for (const CallState& state : calls_) {
      std::optional<std::size_t> at;
      for (const auto& [key, path] : state.paths) {
        if (path.continuing && (!at || path.part < *at)) at = path.part;
      }
      if (state.open && (!at || state.call.pieces.back() < *at)) {
        Fail("response.call_unfinished", state.call.pieces.back(), "willContinue");
      }
      if (at) Fail("response.call_unfinished", *at, "partialArgs");
    }
    std::vector<AssembledCall> out;
    out.reserve(calls_.size());
    for (CallState& state : calls_) {
      state.call.args = state.args.Build(/*take=*/true);
      out.push_back(std::move(state.call));
    }
    return out;
  }

 private:
  bool Open() const { return !calls_.empty() && calls_.back().open; }

  void Part(const Json& part, std::size_t p) {
    if (!part.is_object()) Fail("response.malformed", p, "parts");
    const auto fc = part.find("functionCall");
    if (fc == part.end()) {
      if (Open()) Fail("response.call_pieces_interleaved", p, "parts");
      return;
    }
    if (!fc->is_object()) Fail("response.function_call_malformed", p, "functionCall");
    // A nameless part while no call is open is an orphan piece, whatever members it holds.
    if (!fc->contains("name") && !Open()) Fail("response.call_piece_orphan", p, "functionCall");
    bool continues = false;
    if (const auto wc = fc->find("willContinue"); wc != fc->end()) {
      if (!wc->is_boolean()) Fail("response.function_call_malformed", p, "willContinue");
      continues = wc->get<bool>();
    }
    const auto name = fc->find("name");
    if (name != fc->end()) {
      if (!name->is_string() || name->get_ref<const std::string&>().empty()) {
        Fail("response.function_call_malformed", p, "name");
      }
      if (Open()) {
        // The open call's own name again is a piece that repeats it; another name is another
        // call begun before the open one closed.
        if (*name == calls_.back().call.name) Fail("response.call_name_repeated", p, "name");
        Fail("response.call_pieces_interleaved", p, "functionCall");
      }
      CallState& state = calls_.emplace_back();
      state.call.pieces.push_back(p);
      state.call.name = name->get<std::string>();
      if (const auto id = fc->find("id"); id != fc->end()) state.call.id = *id;
      if (const auto args = fc->find("args"); args != fc->end()) {
        CheckRoot(*args, p);
        state.args.Assign(*args);
      }
    }
    CallState& state = calls_.back();
    const auto entries = fc->find("partialArgs");
    const auto later_args = name == fc->end() ? fc->find("args") : fc->end();
    if (carried_ && (entries != fc->end() || later_args != fc->end())) RepairRoot(state);
    if (name == fc->end()) {
      state.call.pieces.push_back(p);
      // Under stream.call_name_from_last_piece each piece's members are copied over the call,
      // so its name is the last piece's: none, so empty.
      if (GEMINI_FAULT("stream.call_name_from_last_piece")) {
        state.call.name = fc->value("name", std::string());
      }
      // A later piece may repeat its call's id; another id is malformed. An id only on a
      // later piece is the reference's reading of what §5.6 leaves open: refused, under a
      // code of its own (the id itself may be well formed).
      if (const auto id = fc->find("id"); id != fc->end()) {
        if (!state.call.id) Fail("response.call_piece_id", p, "id");
        if (!KindExactEqual(*id, *state.call.id)) Fail("native_id.malformed", p, "id");
      }
      // A later piece's args set their members like entries that do not continue.
      if (later_args != fc->end()) {
        CheckRoot(*later_args, p);
        const Json args =
            later_args->is_array() ? ListAsNumericKeyObject(*later_args) : *later_args;
        for (auto it = args.begin(); it != args.end(); ++it) {
          Step step;
          step.name = it.key();
          Set(state, {step}, it.value(), false, p, "args");
        }
      }
    }
    if (entries != fc->end()) {
      if (!entries->is_array()) Fail("response.function_call_malformed", p, "partialArgs");
      for (std::size_t e = 0; e < entries->size(); ++e) Entry(state, (*entries)[e], p, e);
    }
    state.open = continues;
  }

  // A piece's args root is an object, or in carried state also a list: degraded state that
  // ADR-224 repairs ("Apply the same rule to Gemini-owned native parts on replay, including
  // already carried turns"). In an answer a list root is malformed.
  void CheckRoot(const Json& args, std::size_t p) const {
    const bool root = args.is_object() || (carried_ && args.is_array());
    if (!root || HoldsInexactInteger(args)) Fail("response.function_call_malformed", p, "args");
  }

  // Before a later piece's args or an entry applies to a carried call whose opening piece gave
  // a list root, the root is read as the numeric-key object the replay sends, as a later
  // piece's own list args is (a whole call's list root stays as given: correlation compares
  // it with its generic list).
  static void RepairRoot(CallState& state) {
    if (state.args.kind == Node::Kind::kValue && state.args.value.is_array()) {
      state.args.Assign(ListAsNumericKeyObject(state.args.value));
    }
  }

  void Entry(CallState& state, const Json& entry, std::size_t p, std::size_t e) {
    const std::string field = "partialArgs[" + std::to_string(e) + "]";
    if (!entry.is_object()) Fail("response.function_call_malformed", p, field);
    bool continues = false;
    if (const auto wc = entry.find("willContinue"); wc != entry.end()) {
      if (!wc->is_boolean()) Fail("response.function_call_malformed", p, field);
      continues = wc->get<bool>();
    }
    const auto path = entry.find("jsonPath");
    if (path != entry.end() && !path->is_string()) {
      Fail("response.function_call_malformed", p, field);  // a shape: jsonPath is a string
    }
    std::optional<Json> value;
    int values = 0;
    for (const char* member : {"stringValue", "numberValue", "boolValue", "nullValue"}) {
      const auto it = entry.find(member);
      if (it == entry.end()) continue;
      ++values;
      const std::string_view kind = member;
      const bool fits = kind == "stringValue"   ? it->is_string()
                        : kind == "numberValue" ? it->is_number()
                        : kind == "boolValue"   ? it->is_boolean()
                                              // protobuf's NullValue: JSON null, or its enum name
                                              : it->is_null() || *it == "NULL_VALUE";
      if (!fits) Fail("response.function_call_malformed", p, field);
      value = kind == "nullValue" ? Json(nullptr) : *it;
    }
    if (values > 1) Fail("response.partial_arg_conflict", p, field);
    if (path == entry.end()) Fail("response.partial_arg_path", p, field);  // no path at all
    const auto steps = PathReader(path->get_ref<const std::string&>()).Read();
    if (!steps) Fail("response.partial_arg_path", p, field);
    if (!value) {
      // Sets nothing: ends a continued value, or announces one that follows.
      // A path that could not be set is refused.
      const Node* slot = Slot(state.args, *steps, false, p, field);
      const std::string key = KeyOf(*steps);
      const auto known = state.paths.find(key);
      if (known != state.paths.end() && known->second.continuing) {
        known->second = PathState{continues, p};
        return;
      }
      // A value there is done (set by an entry, by args, or made on the way to another path):
      // it does not go on.
      if (continues && slot != nullptr) Fail("response.partial_arg_conflict", p, field);
      if (continues) state.paths[key] = PathState{true, p};
      return;
    }
    Set(state, *steps, *value, continues, p, field);
  }

  // The slot `steps` name in `root`: nullptr when it does not exist yet (and `create` is
  // false), after checking that it could be made: every step goes through a value of its own
  // kind (an object for a member, a list for an index) and an index names an element or the
  // next one. With `create`, missing objects and lists on the way are made.
  static Node* Slot(Node& root, const std::vector<Step>& steps, bool create, std::size_t p,
                    const std::string& field) {
    Node* at = &root;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const Step& step = steps[i];
      if (at == nullptr) {
        // Below a missing value every container would be new, so empty.
        if (step.index && step.k != 0) Fail("response.partial_arg_path", p, field);
        continue;
      }
      const bool last = i + 1 == steps.size();
      const auto fresh = [&] {
        auto node = std::make_unique<Node>();
        if (!last) node->kind = steps[i + 1].index ? Node::Kind::kList : Node::Kind::kObject;
        return node;
      };
      if (step.index) {
        if (!at->List() || step.k > at->Size()) Fail("response.partial_arg_path", p, field);
        if (step.k == at->Size()) {
          if (!create) {
            at = nullptr;
            continue;
          }
          at->elements.push_back(fresh());
        }
        at = at->elements[step.k].get();
      } else {
        if (!at->Object()) Fail("response.partial_arg_path", p, field);
        auto it = at->index.find(step.name);
        if (it == at->index.end()) {
          if (!create) {
            at = nullptr;
            continue;
          }
          it = at->index.emplace(step.name, at->members.size()).first;
          at->members.emplace_back(step.name, fresh());
        }
        at = at->members[it->second].second.get();
      }
    }
    return at;
  }

  void Set(CallState& state, const std::vector<Step>& steps, const Json& value, bool continues,
           std::size_t p, const std::string& field) {
    const std::string key = KeyOf(steps);
    const auto known = state.paths.find(key);
    Node* slot = Slot(state.args, steps, false, p, field);
    if (slot == nullptr) {
      Slot(state.args, steps, true, p, field)->Assign(value);
      state.paths[key] = PathState{continues, p};
      return;
    }
    if (known != state.paths.end() && known->second.continuing) {
      if (slot->value.is_string() && value.is_string()) {
        if (GEMINI_FAULT("stream.continued_value_replaced")) {
          slot->value = value;  // each piece taken as the whole value, not its next characters
        } else {
          slot->value.get_ref<std::string&>() += value.get_ref<const std::string&>();
        }
      } else if (!slot->Equals(value)) {
        Fail("response.partial_arg_conflict", p, field);  // continued with another kind
      }
      known->second = PathState{continues, p};
      return;
    }
    // Set once (by an entry, by args, or made on the way to another path): the same value
    // again is accepted, another is a conflict, and a value done does not continue.
    if (!slot->Equals(value) || continues) {
      if (GEMINI_FAULT("stream.conflicting_piece_overwrites")) {
        slot->Assign(value);  // the later piece wins
        state.paths[key] = PathState{continues, p};
        return;
      }
      Fail("response.partial_arg_conflict", p, field);
    }
    if (known == state.paths.end()) state.paths[key] = PathState{false, p};
  }

  bool carried_;
  std::vector<CallState> calls_;
};

}  // namespace

std::vector<AssembledCall> ReadFunctionCalls(const Json& parts, bool carried) {
  if (!parts.is_array()) return {};
  return Reader(carried).Read(parts);
}

}  // namespace gemini_oracle::ref
