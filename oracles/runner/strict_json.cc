#include "oracles/runner/strict_json.h"

#include <algorithm>
#include <iterator>
#include <unordered_set>
#include <vector>

namespace gemini_oracle::runner {
namespace {

// The SAX interface reports no offsets; an iterator that counts what the parser consumed
// tells where an event or an error happened.
class CountingIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator(const char* at, std::size_t* consumed) : at_(at), consumed_(consumed) {}
  const char& operator*() const { return *at_; }
  CountingIterator& operator++() {
    ++at_;
    ++*consumed_;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator copy = *this;
    ++*this;
    return copy;
  }
  bool operator==(const CountingIterator& other) const { return at_ == other.at_; }
  bool operator!=(const CountingIterator& other) const { return at_ != other.at_; }

 private:
  const char* at_;
  std::size_t* consumed_;
};

bool LooksIntegral(std::string_view literal) {
  return literal.find_first_of(".eE") == std::string_view::npos;
}

// nlohmann's message starts with its own position; keep the part after "; " or ": ".
std::string SyntaxDetail(const std::string& what) {
  const auto column = what.find("column ");
  const auto colon = column == std::string::npos ? column : what.find(": ", column);
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

// Builds the document iteratively while enforcing the bounds the header lists.
class Builder : public nlohmann::json_sax<Json> {
 public:
  explicit Builder(const std::size_t* consumed) : consumed_(consumed) {}

  Json root;
  std::optional<StrictJsonError> error;

  bool null() override { return Put(Json(nullptr)); }
  bool boolean(bool value) override { return Put(Json(value)); }
  bool number_integer(number_integer_t value) override { return Put(Json(value)); }
  bool number_unsigned(number_unsigned_t value) override { return Put(Json(value)); }
  bool number_float(number_float_t value, const string_t& literal) override {
    // The lexer falls back to a double for an integer literal that no 64-bit type holds;
    // the value would then differ from what the file says.
    if (LooksIntegral(literal)) {
      return Fail(*consumed_ - std::min(*consumed_, literal.size() + 1), "json.number_range",
                  "an integer beyond the 64-bit range (-2^63 to 2^64-1) cannot be read exactly");
    }
    return Put(Json(value));
  }
  bool string(string_t& value) override { return Put(Json(std::move(value))); }
  bool binary(binary_t&) override { return Fail(Here(), "json.syntax", "binary value"); }

  bool start_object(std::size_t) override {
    if (!Open(Json::object())) return false;
    names_.emplace_back();
    return true;
  }
  bool key(string_t& name) override {
    // A hash set, so an object of many members stays linear to read.
    if (names_.back().size() >= kMaxCaseMembers) {
      return Fail(Here() == 0 ? 0 : Here() - 1, "json.depth",
                  "an object of more than " + std::to_string(kMaxCaseMembers) + " members");
    }
    if (!names_.back().insert(name).second) {
      return Fail(Here() == 0 ? 0 : Here() - 1, "json.duplicate_key",
                  "a member name repeats within one object");
    }
    pending_key_ = std::move(name);
    return true;
  }
  bool end_object() override {
    names_.pop_back();
    open_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override { return Open(Json::array()); }
  bool end_array() override {
    open_.pop_back();
    return true;
  }

  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& e) override {
    // `position` counts the characters read, so the offending one is the last of them.
    const std::size_t offset = position == 0 ? 0 : position - 1;
    if (e.id == 406) {  // out_of_range: the number overflows a double; point at its start
      return Fail(position - std::min(position, last_token.size()), "json.number_range",
                  "a number beyond the range of a double");
    }
    return Fail(offset, "json.syntax", "invalid JSON: " + SyntaxDetail(e.what()));
  }

 private:
  std::size_t Here() const { return *consumed_; }

  bool Fail(std::size_t offset, const char* rule, std::string message) {
    if (!error) error = StrictJsonError{offset, rule, std::move(message)};
    return false;
  }

  // Places a value in the innermost open container, or at the root; returns where it lives.
  Json* Place(Json value) {
    if (open_.empty()) {
      root = std::move(value);
      return &root;
    }
    Json& parent = *open_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.back();
    }
    // The name is new (key() refused repeats), so it is appended without ordered_json's
    // linear search of operator[].
    auto& members = static_cast<Json::object_t::Container&>(parent.get_ref<Json::object_t&>());
    members.emplace_back(std::move(pending_key_), std::move(value));
    return &members.back().second;
  }

  bool Put(Json value) {
    Place(std::move(value));
    return true;
  }

  bool Open(Json container) {
    if (open_.size() >= kMaxCaseDepth) {
      return Fail(Here() == 0 ? 0 : Here() - 1, "json.depth",
                  "nesting deeper than " + std::to_string(kMaxCaseDepth) + " levels");
    }
    open_.push_back(Place(std::move(container)));
    return true;
  }

  const std::size_t* consumed_;
  std::vector<Json*> open_;
  std::vector<std::unordered_set<std::string>> names_;
  std::string pending_key_;
};

}  // namespace

StrictJsonResult ParseStrictJson(std::string_view text) {
  StrictJsonResult result;
  if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF &&
      static_cast<unsigned char>(text[1]) == 0xBB && static_cast<unsigned char>(text[2]) == 0xBF) {
    result.error = StrictJsonError{0, "json.bom", "a UTF-8 byte order mark before the value"};
    return result;
  }
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    result.error = StrictJsonError{nul, "json.syntax", "invalid JSON: a NUL byte"};
    return result;
  }
  std::size_t consumed = 0;
  Builder builder(&consumed);
  bool ok = false;
  try {
    ok = Json::sax_parse(CountingIterator(text.data(), &consumed),
                         CountingIterator(text.data() + text.size(), &consumed), &builder);
  } catch (const std::exception& e) {
    // The SAX parser reports through parse_error(); this is for an allocation failure.
    builder.error =
        StrictJsonError{consumed, "json.syntax", std::string("unreadable: ") + e.what()};
  }
  if (!ok || builder.error) {
    result.error = builder.error.value_or(
        StrictJsonError{consumed == 0 ? 0 : consumed - 1, "json.syntax", "invalid JSON"});
    return result;
  }
  result.value = std::move(builder.root);
  return result;
}

}  // namespace gemini_oracle::runner
