#include "reference_impl/json.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <unordered_set>
#include <vector>

namespace gemini_oracle {

namespace {

// The offset of the bracket that opens level kMaxJsonDepth + 1, or npos. A scan of the bytes
// instead of a parser callback: it costs one pass without allocating, and nlohmann then never
// builds a tree too deep for the recursive code after it. Brackets inside strings do not count;
// for valid JSON the scan sees exactly the parser's nesting, and invalid JSON fails to parse.
std::size_t TooDeepAt(std::string_view text) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // an escaped quote does not end the string
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '[':
      case '{':
        if (++depth > kMaxJsonDepth) return i;
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
  return std::string_view::npos;
}

}  // namespace

namespace {

void RefuseTooDeep(std::string_view text) {
  if (const std::size_t at = TooDeepAt(text); at != std::string_view::npos) {
    throw Json::parse_error::create(101, at + 1,
                                    "syntax error while parsing value - nesting deeper than " +
                                        std::to_string(kMaxJsonDepth) + " levels",
                                    nullptr);
  }
}

// nlohmann's DOM builder, except that an integer literal a double cannot hold exactly is kept
// as its text. sax_parse dispatches on the static handler type, so hiding number_float is
// enough.
class MarkingDomParser : public nlohmann::detail::json_sax_dom_parser<Json> {
 public:
  using Base = nlohmann::detail::json_sax_dom_parser<Json>;
  explicit MarkingDomParser(Json& result) : Base(result, true) {}

  bool number_float(number_float_t value, const string_t& literal) {
    if (!IsInexactIntegerLiteral(literal)) return Base::number_float(value, literal);
    binary_t text(std::vector<std::uint8_t>(literal.begin(), literal.end()),
                  kInexactIntegerSubtype);
    return Base::binary(text);
  }
};

// Notes any inexact integer literal.
class InexactIntegerFinder : public nlohmann::json_sax<nlohmann::json> {
 public:
  bool found = false;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t& literal) override {
    found = found || IsInexactIntegerLiteral(literal);
    return true;  // on to the end: invalid JSON holds no number that counts
  }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }
};

}  // namespace

Json ParseJson(std::string_view text) {
  RefuseTooDeep(text);
  return Json::parse(text.begin(), text.end());
}

bool IsInexactIntegerLiteral(std::string_view literal) {
  if (literal.empty() || literal.find_first_of(".eE") != std::string_view::npos) return false;
  const std::size_t digits = literal.front() == '-' ? 1 : 0;
  if (digits >= literal.size()) return false;
  for (std::size_t i = digits; i < literal.size(); ++i) {
    if (literal[i] < '0' || literal[i] > '9') return false;
  }
  const std::string text(literal);
  errno = 0;
  if (digits == 0) {
    char* end = nullptr;
    std::strtoull(text.c_str(), &end, 10);
    if (errno == 0) return false;  // a uint64 holds it
  } else {
    char* end = nullptr;
    std::strtoll(text.c_str(), &end, 10);
    if (errno == 0) return false;  // an int64 holds it
  }
  // Beyond 64 bits: exact only when the nearest double prints back as the same integer
  // ("%.0f" prints a double's exact integral value).
  const double nearest = std::strtod(text.c_str(), nullptr);
  if (!std::isfinite(nearest)) return true;
  char printed[400];
  std::snprintf(printed, sizeof printed, "%.0f", nearest);
  return text != printed;
}

bool HasInexactInteger(std::string_view text) {
  InexactIntegerFinder finder;
  return nlohmann::json::sax_parse(text.begin(), text.end(), &finder) && finder.found;
}

Json ParseJsonMarkingInexactIntegers(std::string_view text) {
  RefuseTooDeep(text);
  Json result;
  MarkingDomParser sax(result);
  Json::sax_parse(text.begin(), text.end(), &sax);
  return result;
}

std::optional<std::string> InexactIntegerText(const Json& value) {
  if (!value.is_binary() || !value.get_binary().has_subtype() ||
      value.get_binary().subtype() != kInexactIntegerSubtype) {
    return std::nullopt;
  }
  const auto& bytes = value.get_binary();
  return std::string(bytes.begin(), bytes.end());
}

namespace {

// Tracks the member names of every open object and stops at the first repeat.
class DuplicateKeyFinder : public nlohmann::json_sax<nlohmann::json> {
 public:
  bool found = false;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    open_.emplace_back();
    return true;
  }
  bool key(string_t& name) override {
    // A hash set, so an object of many members stays linear.
    found = !open_.back().insert(std::move(name)).second;
    return !found;
  }
  bool end_object() override {
    open_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  std::vector<std::unordered_set<std::string>> open_;
};

// The SAX interface reports no offsets; an iterator that counts what the parser consumed
// gives the position where it stopped.
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

}  // namespace

std::optional<std::size_t> FindDuplicateKey(std::string_view text) {
  DuplicateKeyFinder finder;
  std::size_t consumed = 0;
  nlohmann::json::sax_parse(CountingIterator(text.data(), &consumed),
                            CountingIterator(text.data() + text.size(), &consumed), &finder);
  if (!finder.found) return std::nullopt;
  return consumed;
}

std::string DumpJson(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

namespace {

bool IsInteger(const Json& v) { return v.is_number_integer(); }  // int64 or uint64

bool IntegersEqual(const Json& a, const Json& b) {
  if (a.is_number_unsigned() && b.is_number_unsigned()) {
    return a.get<std::uint64_t>() == b.get<std::uint64_t>();
  }
  if (!a.is_number_unsigned() && !b.is_number_unsigned()) {
    return a.get<std::int64_t>() == b.get<std::int64_t>();
  }
  const Json& s = a.is_number_unsigned() ? b : a;  // the signed one
  const Json& u = a.is_number_unsigned() ? a : b;
  const std::int64_t sv = s.get<std::int64_t>();
  return sv >= 0 && static_cast<std::uint64_t>(sv) == u.get<std::uint64_t>();
}

}  // namespace

bool KindExactEqual(const Json& a, const Json& b) {
  if (IsInteger(a) && IsInteger(b)) return IntegersEqual(a, b);
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case Json::value_t::object: {
      if (a.size() != b.size()) return false;
      for (auto it = a.begin(); it != a.end(); ++it) {
        auto other = b.find(it.key());
        if (other == b.end() || !KindExactEqual(it.value(), *other)) return false;
      }
      return true;
    }
    case Json::value_t::array: {
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!KindExactEqual(a[i], b[i])) return false;
      }
      return true;
    }
    case Json::value_t::number_float: {
      // Bitwise, so that -0.0 and 0.0 stay apart.
      const double x = a.get<double>();
      const double y = b.get<double>();
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    default:
      return a == b;
  }
}

}  // namespace gemini_oracle
