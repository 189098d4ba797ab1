#include "oracles/checks/judge_json.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <unordered_set>
#include <vector>

namespace gemini_oracle::checks {
namespace {

// "-"? digits without leading zeros; "0" for any zero.
std::string Canonical(std::string_view text) {
  bool negative = !text.empty() && text.front() == '-';
  if (negative || (!text.empty() && text.front() == '+')) text.remove_prefix(1);
  while (text.size() > 1 && text.front() == '0') text.remove_prefix(1);
  if (text.empty() || text == "0") return "0";
  return (negative ? "-" : "") + std::string(text);
}

// The exact decimal expansion of a finite integral double, by integer arithmetic on its
// mantissa and binary exponent (no reliance on the C library's printf).
std::string IntegralDoubleText(double d) {
  const bool negative = std::signbit(d);
  int exponent = 0;
  const double fraction = std::frexp(std::fabs(d), &exponent);  // |d| = fraction * 2^exponent
  if (fraction == 0.0) return "0";
  auto mantissa = static_cast<std::uint64_t>(std::ldexp(fraction, 53));  // exact: 53 bits
  int shift = exponent - 53;
  if (shift < 0) {
    mantissa >>= -shift;  // only zero bits leave: d is integral
    shift = 0;
  }
  // Base 10^9 limbs, least significant first.
  constexpr std::uint64_t kBase = 1000000000;
  std::vector<std::uint64_t> limbs;
  for (std::uint64_t m = mantissa; m != 0; m /= kBase) limbs.push_back(m % kBase);
  for (int i = 0; i < shift; ++i) {
    std::uint64_t carry = 0;
    for (auto& limb : limbs) {
      const std::uint64_t v = limb * 2 + carry;
      limb = v % kBase;
      carry = v / kBase;
    }
    if (carry != 0) limbs.push_back(carry);
  }
  std::string out = std::to_string(limbs.back());
  for (std::size_t i = limbs.size() - 1; i-- > 0;) {
    const std::string part = std::to_string(limbs[i]);
    out += std::string(9 - part.size(), '0') + part;
  }
  return negative ? "-" + out : out;
}

bool IntegerLiteral(std::string_view literal) {
  return !literal.empty() && literal.find_first_of(".eE") == std::string_view::npos;
}

// Builds the tree from SAX events, like nlohmann's own DOM reader, but with a depth bound,
// big integers and repeated member names noticed.
class Builder : public nlohmann::json_sax<Json> {
 public:
  explicit Builder(RepeatedMember keep) : keep_(keep) {}
  JudgeDecoded result;
  Json root;

  bool null() override { return Scalar(Json(nullptr)); }
  bool boolean(bool value) override { return Scalar(Json(value)); }
  bool number_integer(number_integer_t value) override { return Scalar(Json(value)); }
  bool number_unsigned(number_unsigned_t value) override { return Scalar(Json(value)); }
  bool number_float(number_float_t value, const string_t& literal) override {
    // nlohmann's lexer falls back to a double when an integer literal overflows 64 bits; the
    // literal is still at hand, so keep it exactly.
    if (IntegerLiteral(literal)) return Scalar(MakeBigInteger(literal));
    return Scalar(Json(value));
  }
  bool string(string_t& value) override { return Scalar(Json(std::move(value))); }
  bool binary(binary_t& value) override {
    return Scalar(Json::binary(std::vector<std::uint8_t>(value.begin(), value.end())));
  }
  bool start_object(std::size_t) override { return Open(Json::object()); }
  bool key(string_t& name) override {
    const bool repeated = !keys_.back().insert(name).second;
    result.repeated_member = result.repeated_member || repeated;
    if (repeated && keep_ == RepeatedMember::kFirst) {
      pending_ = &discarded_.emplace_back();  // read, then dropped (addresses stay valid)
    } else {
      pending_ = &(*open_.back())[name];
    }
    return true;
  }
  bool end_object() override { return Close(); }
  bool start_array(std::size_t) override { return Open(Json::array()); }
  bool end_array() override { return Close(); }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& error) override {
    result.error =
        error.id == 406 ? JudgeDecoded::Error::kNumberRange : JudgeDecoded::Error::kSyntax;
    result.byte = position;
    return false;
  }

  std::size_t consumed = 0;  // bytes read so far (the counting iterator advances it)

 private:
  bool Scalar(Json value) { return Insert(std::move(value)) != nullptr; }
  Json* Insert(Json value) {
    if (open_.empty()) {
      root = std::move(value);
      return &root;
    }
    Json& top = *open_.back();
    if (top.is_array()) {
      top.push_back(std::move(value));
      return &top.back();
    }
    *pending_ = std::move(value);
    return pending_;
  }
  bool Open(Json container) {
    if (open_.size() + 1 > kJudgeMaxDepth) {
      result.error = JudgeDecoded::Error::kTooDeep;
      result.byte = consumed;
      return false;
    }
    const bool object = container.is_object();
    open_.push_back(Insert(std::move(container)));
    if (object) keys_.emplace_back();
    return true;
  }
  bool Close() {
    if (open_.back()->is_object()) keys_.pop_back();
    open_.pop_back();
    return true;
  }

  std::vector<Json*> open_;
  std::vector<std::unordered_set<std::string>> keys_;
  Json* pending_ = nullptr;
  RepeatedMember keep_;
  std::deque<Json> discarded_;
};

// Counts what the parser consumed, for the position of a depth refusal.
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

Json MakeBigInteger(std::string_view digits) {
  const std::string text = Canonical(digits);
  return Json::binary(std::vector<std::uint8_t>(text.begin(), text.end()), kBigIntegerSubtype);
}

bool IsBigInteger(const Json& value) {
  if (!value.is_binary()) return false;
  const auto& bytes = value.get_binary();
  return bytes.has_subtype() && bytes.subtype() == kBigIntegerSubtype;
}

std::string BigIntegerText(const Json& value) {
  if (!IsBigInteger(value)) return "";
  const auto& bytes = value.get_binary();
  return std::string(bytes.begin(), bytes.end());
}

bool IsNumeric(const Json& value) { return value.is_number() || IsBigInteger(value); }

std::optional<std::string> ExactIntegerText(const Json& value) {
  if (value.is_number_unsigned()) return std::to_string(value.get<std::uint64_t>());
  if (value.is_number_integer()) return std::to_string(value.get<std::int64_t>());
  if (IsBigInteger(value)) return Canonical(BigIntegerText(value));
  if (value.is_number_float()) {
    const double d = value.get<double>();
    if (!std::isfinite(d) || std::trunc(d) != d) return std::nullopt;
    return IntegralDoubleText(d) == "-0" ? "0" : IntegralDoubleText(d);
  }
  return std::nullopt;
}

bool SameJson(const Json& a, const Json& b) {
  const bool a_integer = a.is_number_integer();
  const bool b_integer = b.is_number_integer();
  if (a_integer && b_integer) {
    // int64 against uint64: equal when both are non-negative and the magnitudes agree.
    const bool a_negative = a.is_number_unsigned() ? false : a.get<std::int64_t>() < 0;
    const bool b_negative = b.is_number_unsigned() ? false : b.get<std::int64_t>() < 0;
    if (a_negative || b_negative) {
      return a_negative && b_negative && a.get<std::int64_t>() == b.get<std::int64_t>();
    }
    return a.get<std::uint64_t>() == b.get<std::uint64_t>();
  }
  if (a_integer || b_integer || a.type() != b.type()) return false;
  switch (a.type()) {
    case Json::value_t::object: {
      if (a.size() != b.size()) return false;
      for (auto it = a.begin(); it != a.end(); ++it) {
        const auto other = b.find(it.key());
        if (other == b.end() || !SameJson(it.value(), *other)) return false;
      }
      return true;
    }
    case Json::value_t::array: {
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!SameJson(a[i], b[i])) return false;
      }
      return true;
    }
    case Json::value_t::number_float: {
      const double x = a.get<double>();
      const double y = b.get<double>();
      return x == y && std::signbit(x) == std::signbit(y);
    }
    case Json::value_t::binary:
      return a.get_binary() == b.get_binary() &&
             a.get_binary().has_subtype() == b.get_binary().has_subtype() &&
             (!a.get_binary().has_subtype() ||
              a.get_binary().subtype() == b.get_binary().subtype());
    default:
      return a == b;  // string, boolean, null
  }
}

bool NumbersEqual(const Json& a, const Json& b) {
  if (!IsNumeric(a) || !IsNumeric(b)) return false;
  // Two doubles: their values are exact binary fractions, so == compares exact values
  // (-0.0 == 0.0; NaN equals nothing).
  if (a.is_number_float() && b.is_number_float()) return a.get<double>() == b.get<double>();
  // Otherwise at least one side is an integer: equal only to the same integer, written out
  // exactly (a fractional double is no integer).
  const auto x = ExactIntegerText(a);
  const auto y = ExactIntegerText(b);
  return x && y && *x == *y;
}

JudgeDecoded DecodeJudgeJson(std::string_view text, RepeatedMember keep) {
  Builder builder(keep);
  const bool complete =
      Json::sax_parse(CountingIterator(text.data(), &builder.consumed),
                      CountingIterator(text.data() + text.size(), &builder.consumed), &builder);
  JudgeDecoded out = std::move(builder.result);
  if (complete && out.error == JudgeDecoded::Error::kNone) {
    out.value = std::move(builder.root);
  } else if (out.error == JudgeDecoded::Error::kNone) {
    out.error = JudgeDecoded::Error::kSyntax;  // defensive: a stop without a reason
    out.byte = builder.consumed;
  }
  return out;
}

Json Readable(const Json& value) {
  if (IsBigInteger(value)) return BigIntegerText(value) + " (big integer)";
  if (value.is_binary()) {
    return "(binary value, " + std::to_string(value.get_binary().size()) + " bytes)";
  }
  if (value.is_object()) {
    Json out = Json::object();
    for (auto it = value.begin(); it != value.end(); ++it) out[it.key()] = Readable(it.value());
    return out;
  }
  if (value.is_array()) {
    Json out = Json::array();
    for (const auto& item : value) out.push_back(Readable(item));
    return out;
  }
  return value;
}

}  // namespace gemini_oracle::checks
