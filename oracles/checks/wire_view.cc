#include "oracles/checks/wire_view.h"
#include "oracles/model/call_pieces.h"

#include "oracles/checks/judge_json.h"

#include <algorithm>
#include <functional>

#include "oracles/checks/answers.h"
#include "oracles/checks/finding.h"
#include "oracles/model/server_answered.h"

namespace gemini_oracle::checks::detail {
namespace {

// The turn's candidate: the first of a whole response; in a streamed event, the one whose
// `index` is 0, an absent index counting as the candidate's position (INTERPRETING §5.3).
const Json* TurnCandidate(const Json& candidates, bool event) {
  if (!event) return &candidates[0];
  for (std::size_t p = 0; p < candidates.size(); ++p) {
    const Json* index = Member(candidates[p], "index");
    const bool zero = index != nullptr && index->is_number_integer()
                          ? index->get<std::int64_t>() == 0
                          : p == 0;
    if (zero) return &candidates[p];
  }
  return nullptr;
}

void AppendCandidateParts(const Json& response, Json& out, bool event) {
  const Json* candidates = Member(response, "candidates");
  if (candidates == nullptr || !candidates->is_array() || candidates->empty()) return;
  const Json* candidate = TurnCandidate(*candidates, event);
  if (candidate == nullptr) return;
  const Json* content = Member(*candidate, "content");
  if (content == nullptr) return;
  const Json* parts = Member(*content, "parts");
  if (parts == nullptr || !parts->is_array()) return;
  for (const auto& part : *parts) out.push_back(part);
}

bool IsModelContent(const Json& content) {
  const Json* role = Member(content, "role");
  return role != nullptr && role->is_string() && *role == "model";
}

// INTERPRETING §8.5: Google's SDKs keep a streamed answer as one model content per event, and
// Gemini accepts such requests, so a run of consecutive model contents is one model turn when
// the request has exactly as many runs as the conversation has turns; it is then read as one
// content (the first content's members, every content's parts in order). Otherwise nothing is
// grouped and the replay judge counts the contents as they are.
void GroupModelTurns(DecodedRequest& decoded, std::size_t turns) {
  if (!decoded.body || turns == 0) return;
  const Json* contents = Contents(decoded.body);
  if (contents == nullptr) return;
  std::vector<std::pair<std::size_t, std::size_t>> runs;  // first and last content of each
  for (std::size_t i = 0; i < contents->size(); ++i) {
    if (!IsModelContent((*contents)[i])) continue;
    if (!runs.empty() && runs.back().second + 1 == i) {
      runs.back().second = i;
    } else {
      runs.emplace_back(i, i);
    }
  }
  if (runs.size() != turns) return;
  bool split = false;
  for (const auto& [first, last] : runs) {
    if (first == last) continue;
    split = true;
    for (std::size_t i = first; i <= last; ++i) {
      const Json* parts = Member((*contents)[i], "parts");
      if (parts == nullptr || !parts->is_array()) return;  // not a list of parts to join
    }
  }
  if (!split) return;
  Json grouped = Json::array();
  std::size_t turn = 0;
  for (std::size_t i = 0; i < contents->size();) {
    if (turn < runs.size() && runs[turn].first == i) {
      const auto [first, last] = runs[turn];
      if (last > first) {
        SplitTurn record{turn, grouped.size(), first, {}};
        Json one = (*contents)[first];
        Json parts = Json::array();
        for (std::size_t k = first; k <= last; ++k) {
          const Json& sent = (*contents)[k]["parts"];
          record.part_counts.push_back(sent.size());
          for (const Json& part : sent) parts.push_back(part);
        }
        one["parts"] = std::move(parts);
        grouped.push_back(std::move(one));
        decoded.split_turns.push_back(std::move(record));
      } else {
        grouped.push_back((*contents)[first]);
      }
      i = last + 1;
      ++turn;
      continue;
    }
    grouped.push_back((*contents)[i]);
    ++i;
  }
  (*decoded.body)["contents"] = std::move(grouped);
}

}  // namespace

bool ArgumentsEqual(const Json& a, const Json& b) {
  // ADR-226.8: "Treat integer/float pairs as the same numeric value only when their conversion
  // is exact and reversible; preserve strict separation from strings, booleans and other
  // scalar kinds." Exact values, so a big integer is compared by its literal.
  if (IsNumeric(a) && IsNumeric(b)) return NumbersEqual(a, b);
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case Json::value_t::object: {
      if (a.size() != b.size()) return false;
      for (auto it = a.begin(); it != a.end(); ++it) {
        const auto other = b.find(it.key());
        if (other == b.end() || !ArgumentsEqual(it.value(), *other)) return false;
      }
      return true;
    }
    case Json::value_t::array: {
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!ArgumentsEqual(a[i], b[i])) return false;
      }
      return true;
    }
    case Json::value_t::string:
    case Json::value_t::boolean:
      return a == b;
    case Json::value_t::null:
      return true;
    default:
      return false;  // other binary values are no arguments
  }
}

std::optional<Json> DecodeToolContent(std::string_view text) {
  JudgeDecoded decoded = DecodeJudgeJson(text);
  // A member named twice has no one value (RFC 8259 §4: names "SHOULD be unique"; decoders
  // keep the first or the last): the payload stays text, whose "current scalar/invalid result
  // fallback" preserves it; the results judge also takes either reading (INTERPRETING §8.4.1).
  if (decoded.repeated_member) return std::nullopt;
  return std::move(decoded.value);
}

Json NumericKeyObject(const Json& list) {
  Json object = Json::object();
  for (std::size_t i = 0; i < list.size(); ++i) object[std::to_string(i)] = list[i];
  return object;
}

const Json* Member(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::vector<DecodedRequest> DecodeJournal(const std::vector<capture::JournalEntry>& journal,
                                          const model::Case* c) {
  std::vector<DecodedRequest> out;
  out.reserve(journal.size());
  for (const auto& entry : journal) {
    DecodedRequest decoded;
    JudgeDecoded read = DecodeJudgeJson(entry.body);
    decoded.repeated_member = read.repeated_member;
    switch (read.error) {
      case JudgeDecoded::Error::kNone:
        decoded.body = std::move(read.value);
        break;
      case JudgeDecoded::Error::kSyntax:
        decoded.error = "not JSON (parse error at byte " + std::to_string(read.byte) + ")";
        break;
      case JudgeDecoded::Error::kTooDeep:
        decoded.error = "not decodable (nested deeper than " + std::to_string(kJudgeMaxDepth) +
                        " levels, at byte " + std::to_string(read.byte) + ")";
        break;
      case JudgeDecoded::Error::kNumberRange:
        // No reader holds such a number as sent (1e400).
        decoded.error = "not decodable (a number beyond the range of a double)";
        break;
    }
    if (c != nullptr) GroupModelTurns(decoded, TurnsInRequest(*c, out.size() + 1));
    out.push_back(std::move(decoded));
  }
  return out;
}

std::string SentPointer(const DecodedRequest& request, const std::string& pointer) {
  static const std::string kPrefix = "/contents/";
  if (request.split_turns.empty() || !pointer.starts_with(kPrefix)) return pointer;
  const auto number = [&pointer](std::size_t from, std::size_t& end) -> std::optional<std::size_t> {
    end = from;
    while (end < pointer.size() && end - from < 9 && pointer[end] >= '0' && pointer[end] <= '9') {
      ++end;
    }
    if (end == from || (end < pointer.size() && pointer[end] != '/')) return std::nullopt;
    return static_cast<std::size_t>(std::stoul(pointer.substr(from, end - from)));
  };
  std::size_t end = 0;
  const auto content = number(kPrefix.size(), end);
  if (!content) return pointer;
  const std::string rest = pointer.substr(end);
  std::size_t shift = 0;
  for (const SplitTurn& split : request.split_turns) {
    if (split.content < *content) {
      shift += split.part_counts.size() - 1;
      continue;
    }
    if (split.content > *content) break;
    static const std::string kParts = "/parts/";
    std::size_t part_end = 0;
    const auto part =
        rest.starts_with(kParts) ? number(end + kParts.size(), part_end) : std::nullopt;
    if (!part) return kPrefix + std::to_string(split.sent_first) + rest;
    std::size_t k = 0;
    std::size_t before = 0;
    while (k + 1 < split.part_counts.size() && *part >= before + split.part_counts[k]) {
      before += split.part_counts[k];
      ++k;
    }
    return kPrefix + std::to_string(split.sent_first + k) + kParts +
           std::to_string(*part - before) + pointer.substr(part_end);
  }
  return kPrefix + std::to_string(*content + shift) + rest;
}


const std::vector<DecodedRequest>& DecodedJournal(const CaseRun& run,
                                                  std::vector<DecodedRequest>& storage) {
  if (run.decoded != nullptr) return *run.decoded;
  storage = DecodeJournal(run.journal, &run.c);
  return storage;
}

const Json* Contents(const std::optional<Json>& body) {
  if (!body) return nullptr;
  const Json* contents = Member(*body, "contents");
  return contents != nullptr && contents->is_array() ? contents : nullptr;
}

Json ScriptedBody(const model::Exchange& exchange) {
  const model::ScriptedResponse& response = exchange.response;
  if (!response.raw_body || response.stream) return response.body;
  // Served byte for byte: what the server sent, read as the judges read any JSON.
  JudgeDecoded decoded = DecodeJudgeJson(*response.raw_body);
  // A member named twice has no one value (the server's answer could be read either way), as
  // `check`'s raw_body rule says: no parts are read from it.
  if (!decoded.value || !decoded.value->is_object() || decoded.repeated_member) return Json();
  return std::move(*decoded.value);
}

Json ScriptedParts(const model::Exchange& exchange) {
  Json parts = Json::array();
  const Json body = ScriptedBody(exchange);
  if (body.is_array()) {
    for (const auto& chunk : body) AppendCandidateParts(chunk, parts, /*event=*/true);
  } else {
    AppendCandidateParts(body, parts, /*event=*/false);
  }
  return parts;
}

std::vector<std::size_t> ScriptedEventEnds(const model::Exchange& exchange) {
  std::vector<std::size_t> ends;
  const Json& body = exchange.response.body;
  if (!exchange.response.stream || !body.is_array()) return ends;
  Json parts = Json::array();
  for (const auto& event : body) {
    const std::size_t before = parts.size();
    AppendCandidateParts(event, parts, /*event=*/true);
    if (parts.size() > before) ends.push_back(parts.size());
  }
  return ends;
}

std::vector<std::size_t> FunctionCallPositions(const Json& parts) {
  return model::CallPositions(parts);
}

Json CallAt(const Json& parts, std::size_t position) { return model::CallAt(parts, position); }

std::vector<std::size_t> PendingCallPositions(const Json& parts) {
  return model::PendingCallPositions(parts);
}

const Json* CallsView::CallAt(std::size_t position) const {
  const model::PieceCall* call = model::CallOpenedAt(turn, position);
  return call != nullptr ? &call->call : nullptr;
}

std::size_t CallsView::IndexOf(std::size_t position) const {
  const auto it = std::lower_bound(all.begin(), all.end(), position);
  return it != all.end() && *it == position ? static_cast<std::size_t>(it - all.begin())
                                            : all.size();
}

CallsView ReadCalls(const Json& parts) {
  CallsView view;
  view.turn = model::GroupCalls(parts);
  view.all = model::CallPositions(view.turn);
  view.pending = model::PendingCallPositions(parts, view.turn);
  return view;
}

bool ResponseParsed(const CaseRun& run, std::size_t exchange) {
  const auto& reported = run.report.exchanges;
  if (exchange < reported.size() && reported[exchange].response_parsed) return true;
  if (run.report.harness_error) return false;
  if (run.report.refusal) return run.report.refusal->exchange > exchange + 1;
  return exchange < run.journal.size();
}

std::vector<const Json*> InitialAssistants(const model::Case& c) {
  std::vector<const Json*> out;
  if (!c.transcript.is_array()) return out;
  for (const auto& message : c.transcript) {
    const Json* role = Member(message, "role");
    if (role != nullptr && role->is_string() && *role == "assistant") out.push_back(&message);
  }
  return out;
}

const Json* CapsuleNativeParts(const Json& message) {
  const Json* state = Member(message, "provider_state");
  if (state == nullptr) return nullptr;
  const Json* capsule = Member(*state, "gemini");
  if (capsule == nullptr) return nullptr;
  const Json* parts = Member(*capsule, "native_parts");
  return parts != nullptr && parts->is_array() ? parts : nullptr;
}

std::vector<std::size_t> ModelContentPositions(const Json& contents) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < contents.size(); ++i) {
    const Json* role = Member(contents[i], "role");
    if (role != nullptr && role->is_string() && *role == "model") out.push_back(i);
  }
  return out;
}

std::optional<std::size_t> ResolveSelector(const model::CallSelector& selector,
                                           const Json& scripted_parts) {
  return ResolveSelector(selector, ReadCalls(scripted_parts));
}

std::optional<std::size_t> ResolveSelector(const model::CallSelector& selector,
                                           const CallsView& calls) {
  // Selectors pick among the pending calls (ADR-226.B2: a call the server answered inside its
  // content is no public call); the result indexes every functionCall part, as turns do.
  const std::vector<std::size_t>& pending = calls.pending;
  if (const auto* index = std::get_if<std::size_t>(&selector)) {
    if (*index < pending.size()) return calls.IndexOf(pending[*index]);
    return std::nullopt;
  }
  const auto& named = std::get<model::NamedCall>(selector);
  std::optional<std::size_t> found;
  for (const std::size_t position : pending) {
    const Json* fc = calls.CallAt(position);  // a call in pieces: its assembled args
    if (fc == nullptr) continue;
    const Json* name = Member(*fc, "name");
    if (name == nullptr || !name->is_string() || *name != named.name) continue;
    if (named.args) {
      const Json* args = Member(*fc, "args");
      const Json empty = Json::object();
      if (!ArgumentsEqual(args != nullptr ? *args : empty, *named.args)) continue;
    }
    if (found) return std::nullopt;  // ambiguous
    found = calls.IndexOf(position);
  }
  return found;
}

void CollectStrings(const Json& value, std::vector<std::string>& out) {
  if (value.is_string()) {
    out.push_back(value.get<std::string>());
  } else if (value.is_object() || value.is_array()) {
    for (const auto& item : value) CollectStrings(item, out);
  }
}

std::optional<std::string> FirstDifference(const Json& expected, const Json& actual,
                                           const std::string& pointer) {
  if (SameJson(expected, actual)) return std::nullopt;
  if (expected.is_object() && actual.is_object()) {
    for (auto it = expected.begin(); it != expected.end(); ++it) {
      const auto other = actual.find(it.key());
      if (other == actual.end()) return PointerAppend(pointer, it.key());
      if (auto diff = FirstDifference(it.value(), *other, PointerAppend(pointer, it.key()))) {
        return diff;
      }
    }
    for (auto it = actual.begin(); it != actual.end(); ++it) {
      if (expected.find(it.key()) == expected.end()) return PointerAppend(pointer, it.key());
    }
    return pointer;
  }
  if (expected.is_array() && actual.is_array() && expected.size() == actual.size()) {
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (auto diff = FirstDifference(expected[i], actual[i], PointerAppend(pointer, i))) {
        return diff;
      }
    }
  }
  return pointer;
}

std::optional<std::string> ListTurnedObject(const Json& expected, const Json& actual,
                                            const std::string& pointer) {
  if (expected.is_array() && actual.is_object()) return pointer;
  if (expected.is_object() && actual.is_object()) {
    for (auto it = expected.begin(); it != expected.end(); ++it) {
      const auto other = actual.find(it.key());
      if (other == actual.end()) continue;
      if (auto at = ListTurnedObject(it.value(), *other, PointerAppend(pointer, it.key()))) {
        return at;
      }
    }
  }
  if (expected.is_array() && actual.is_array()) {
    for (std::size_t i = 0; i < expected.size() && i < actual.size(); ++i) {
      if (auto at = ListTurnedObject(expected[i], actual[i], PointerAppend(pointer, i))) {
        return at;
      }
    }
  }
  return std::nullopt;
}

namespace {

// Keys "0".."n-1" in order.
bool NumericKeyed(const Json& object) {
  std::size_t i = 0;
  for (auto it = object.begin(); it != object.end(); ++it, ++i) {
    if (it.key() != std::to_string(i)) return false;
  }
  return true;
}

void CollectDrifts(const Json& expected, const Json& actual, const std::string& pointer,
                   std::vector<DriftAt>& out) {
  if (SameJson(expected, actual)) return;
  if (IsNumeric(expected) && IsNumeric(actual)) {
    out.push_back(
        {ArgumentsEqual(expected, actual) ? Drift::kNumericKind : Drift::kOther, pointer});
    return;
  }
  if (expected.is_object() && actual.is_object()) {
    for (auto it = expected.begin(); it != expected.end(); ++it) {
      const auto other = actual.find(it.key());
      if (other == actual.end()) {
        out.push_back({Drift::kOther, PointerAppend(pointer, it.key())});
      } else {
        CollectDrifts(it.value(), *other, PointerAppend(pointer, it.key()), out);
      }
    }
    for (auto it = actual.begin(); it != actual.end(); ++it) {
      if (expected.find(it.key()) == expected.end()) {
        out.push_back({Drift::kOther, PointerAppend(pointer, it.key())});
      }
    }
    return;
  }
  if (expected.is_array() && actual.is_array()) {
    if (expected.size() != actual.size()) {
      out.push_back({Drift::kOther, pointer});
      return;
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
      CollectDrifts(expected[i], actual[i], PointerAppend(pointer, i), out);
    }
    return;
  }
  // A kind change between list and object counts only when the members survive it.
  const bool list_to_object = expected.is_array() && actual.is_object();
  const bool object_to_list = expected.is_object() && actual.is_array();
  if (list_to_object || object_to_list) {
    const Json& object = list_to_object ? actual : expected;
    const Json& list = list_to_object ? expected : actual;
    bool same = object.size() == list.size() && NumericKeyed(object);
    std::vector<DriftAt> inner;
    std::size_t i = 0;
    for (auto it = object.begin(); same && it != object.end(); ++it, ++i) {
      CollectDrifts(list_to_object ? list[i] : it.value(), list_to_object ? it.value() : list[i],
                    PointerAppend(pointer, i), inner);
    }
    if (same) {
      out.push_back(
          {list_to_object ? Drift::kListBecameObject : Drift::kObjectBecameList, pointer});
      out.insert(out.end(), inner.begin(), inner.end());
      return;
    }
  }
  out.push_back({Drift::kOther, pointer});
}

}  // namespace

std::vector<DriftAt> Drifts(const Json& expected, const Json& actual, const std::string& pointer) {
  std::vector<DriftAt> out;
  CollectDrifts(expected, actual, pointer, out);
  return out;
}

std::optional<DriftAt> WorstDrift(const std::vector<DriftAt>& drifts) {
  for (const Drift rank :
       {Drift::kOther, Drift::kListBecameObject, Drift::kNumericKind, Drift::kObjectBecameList}) {
    for (const auto& d : drifts) {
      if (d.drift == rank) return d;
    }
  }
  return std::nullopt;
}

std::vector<DriftAt> Without(std::vector<DriftAt> drifts, Drift drift) {
  std::erase_if(drifts, [drift](const DriftAt& d) { return d.drift == drift; });
  return drifts;
}

bool StandsFor(const Json& native_args, const Json& public_args) {
  const Json native = native_args.is_array() ? NumericKeyObject(native_args) : native_args;
  const Json given = public_args.is_array() ? NumericKeyObject(public_args) : public_args;
  for (const DriftAt& d : Drifts(native, given, "")) {
    if (d.drift != Drift::kNumericKind && d.drift != Drift::kObjectBecameList) return false;
  }
  return true;
}

namespace {

// How well a reported call is a part: 0 kind-exactly its arguments, 1 equal under ADR-226.8,
// 2 drifted only as StandsFor allows, 3 not that part (another name, other arguments).
int Tier(const Json& fc_object, const model::ParsedCall& call) {
  const Json* fc = fc_object.is_object() ? &fc_object : nullptr;
  const Json* name = fc != nullptr ? Member(*fc, "name") : nullptr;
  if (name == nullptr || !name->is_string() || *name != call.name) return 3;
  const Json* args = Member(*fc, "args");
  const Json native = args == nullptr ? Json::object()
                      : args->is_array() ? NumericKeyObject(*args)
                                         : *args;
  const Json given =
      call.arguments.is_array() ? NumericKeyObject(call.arguments) : call.arguments;
  if (SameJson(native, given)) return 0;
  if (ArgumentsEqual(native, given)) return 1;
  return StandsFor(native, given) ? 2 : 3;
}

}  // namespace

std::vector<std::size_t> MatchReportedCalls(const Json& parts,
                                            const std::vector<std::size_t>& positions,
                                            const std::vector<model::ParsedCall>& calls) {
  const std::size_t none = positions.size();
  // Each call's parts, best tier first, then in part order.
  // Each position's call as one functionCall (a call in pieces with its assembled args).
  const std::vector<Json> called = model::CallsAt(parts, positions);  // the turn read once
  std::vector<std::vector<std::size_t>> options(calls.size());
  for (std::size_t i = 0; i < calls.size(); ++i) {
    for (int tier = 0; tier < 3; ++tier) {
      for (std::size_t j = 0; j < positions.size(); ++j) {
        if (Tier(called[j], calls[i]) == tier) options[i].push_back(j);
      }
    }
  }
  // A maximum matching (augmenting paths, calls in parse order, each trying its best parts
  // first): one lost or altered call never leaves another call without the part it is.
  std::vector<std::size_t> owner(positions.size(), calls.size());
  std::vector<bool> visited;
  std::function<bool(std::size_t)> place = [&](std::size_t i) {
    for (const std::size_t j : options[i]) {
      if (visited[j]) continue;
      visited[j] = true;
      if (owner[j] == calls.size() || place(owner[j])) {
        owner[j] = i;
        return true;
      }
    }
    return false;
  };
  for (std::size_t i = 0; i < calls.size(); ++i) {
    visited.assign(positions.size(), false);
    place(i);
  }
  std::vector<std::size_t> match(calls.size(), none);
  for (std::size_t j = 0; j < positions.size(); ++j) {
    if (owner[j] != calls.size()) match[owner[j]] = j;
  }
  // Calls the implementation handed over alike (same name, kind-exactly the same arguments)
  // are told apart by their order alone: they take their parts in parse order.
  std::vector<bool> done(calls.size(), false);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (done[i]) continue;
    std::vector<std::size_t> alike;
    for (std::size_t k = i; k < calls.size(); ++k) {
      if (calls[k].name == calls[i].name && SameJson(calls[k].arguments, calls[i].arguments)) {
        alike.push_back(k);
        done[k] = true;
      }
    }
    std::vector<std::size_t> taken;
    for (const std::size_t k : alike) {
      if (match[k] != none) taken.push_back(match[k]);
    }
    std::sort(taken.begin(), taken.end());
    std::size_t next = 0;
    for (const std::size_t k : alike) {
      if (match[k] != none) match[k] = taken[next++];
    }
  }
  return match;
}

}  // namespace gemini_oracle::checks::detail
