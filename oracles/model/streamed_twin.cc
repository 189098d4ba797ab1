#include "oracles/model/streamed_twin.h"
#include "oracles/model/json_member.h"

#include <algorithm>
#include <set>
#include <string>

namespace gemini_oracle::model {
namespace {

bool AnyPartWith(const Json& parts, const char* member) {
  return std::any_of(parts.begin(), parts.end(),
                     [member](const Json& part) { return Member(part, member) != nullptr; });
}

// The parts of a plain answer's one candidate, or nullptr when the answer is no such answer.
const Json* CandidateParts(const ScriptedResponse& response) {
  if (response.status != 200 || response.raw_body || response.stream) return nullptr;
  const Json& body = response.body;
  if (!body.is_object() || Member(body, "error") != nullptr) return nullptr;
  const Json* candidates = Member(body, "candidates");
  if (candidates == nullptr || !candidates->is_array() || candidates->size() != 1) return nullptr;
  const Json& candidate = (*candidates)[0];
  // A stream whose candidate never finishes is an unfinished stream (ADR-226.B3).
  if (Member(candidate, "finishReason") == nullptr) return nullptr;
  const Json* index = Member(candidate, "index");
  if (index != nullptr && !(index->is_number_integer() && index->get<std::int64_t>() == 0)) {
    return nullptr;
  }
  const Json* content = Member(candidate, "content");
  if (content == nullptr || !content->is_object()) return nullptr;
  const Json* parts = Member(*content, "parts");
  if (parts == nullptr || !parts->is_array() || parts->empty()) return nullptr;
  if (!std::all_of(parts->begin(), parts->end(), [](const Json& p) { return p.is_object(); })) {
    return nullptr;
  }
  return parts;
}

// Offsets that cut each event inside its `data:` line, inside the first UTF-8 sequence of the
// event and between the CR and the LF that end its `data:` line: where a reader that assumes
// whole lines or whole characters per chunk breaks.
std::vector<std::size_t> SplitPoints(const StreamScript& stream) {
  const std::string bytes = stream.Bytes();
  const std::vector<std::size_t> ends = stream.EventEnds();
  std::set<std::size_t> points;
  std::size_t begin = 0;
  for (const std::size_t end : ends) {
    points.insert(begin + 9);  // inside "data: {\"c"
    for (std::size_t i = begin; i < end; ++i) {
      if ((static_cast<unsigned char>(bytes[i]) & 0xC0) == 0xC0) {
        points.insert(i + 1);  // after a UTF-8 lead byte
        break;
      }
    }
    points.insert(end - 3);  // between the CR and the LF that end the data line
    begin = end;
  }
  std::vector<std::size_t> out;
  for (const std::size_t p : points) {
    if (p > 0 && p < bytes.size()) out.push_back(p);
  }
  return out;
}

Case Twin(const std::shared_ptr<const Case>& original, TwinKind kind, const char* suffix) {
  Case twin = *original;
  twin.id += suffix;
  twin.twin = TwinOrigin{original, kind};
  if (!twin.HasFeature("streaming")) twin.features.push_back("streaming");
  return twin;
}

void Stream(Exchange& exchange, StreamScript stream) {
  exchange.response.body = StreamEventObjects(stream.events);
  exchange.response.stream = std::move(stream);
}

}  // namespace

std::optional<StreamScript> StreamedAnswer(const ScriptedResponse& response) {
  const Json* parts = CandidateParts(response);
  if (parts == nullptr) return std::nullopt;
  const Json& body = response.body;
  const Json& candidate = body["candidates"][0];
  StreamScript stream;
  for (std::size_t p = 0; p < parts->size(); ++p) {
    const bool last = p + 1 == parts->size();
    Json content = candidate["content"];
    content["parts"] = Json::array({(*parts)[p]});
    Json streamed_candidate = last ? candidate : Json::object();
    streamed_candidate["content"] = std::move(content);
    if (!last && Member(candidate, "index") != nullptr) streamed_candidate["index"] = 0;
    Json event = last ? body : Json::object();
    if (!last) {
      for (const char* member : {"usageMetadata", "modelVersion", "responseId"}) {
        if (const Json* value = Member(body, member)) event[member] = *value;
      }
    }
    event["candidates"] = Json::array({std::move(streamed_candidate)});
    stream.events.push_back(std::move(event));
  }
  stream.split_at = SplitPoints(stream);
  return stream;
}

std::vector<Case> StreamedTwins(const std::shared_ptr<const Case>& original) {
  std::vector<Case> twins;
  const Case& c = *original;
  if (c.twin || c.exchanges.empty()) return twins;
  for (const Exchange& ex : c.exchanges) {
    if (ex.response.stream) return twins;  // a case that streams is its own streaming case
  }
  const std::size_t n = c.exchanges.size();
  std::size_t initial_turns = 0;
  if (c.transcript.is_array()) {
    for (const Json& message : c.transcript) {
      const Json* role = Member(message, "role");
      if (role != nullptr && role->is_string() && *role == "assistant") ++initial_turns;
    }
  }

  // ADR-224.7, 226.17: the last request streams and carries every earlier turn. Its answer is
  // no call, so nothing is captured from a stream (ADR-226 leaves that separate).
  const Exchange& last = c.exchanges.back();
  const Json* last_parts = CandidateParts(last.response);
  const bool refused_earlier_or_there =
      c.expect.outcome == Expected::kRefuse &&
      (!c.expect.exchange || *c.expect.exchange < n ||
       (*c.expect.exchange == n && c.expect.phase != "build"));
  if (last_parts != nullptr && !AnyPartWith(*last_parts, "functionCall") &&
      !AnyPartWith(*last_parts, "functionResponse") && initial_turns + n - 1 > 0 &&
      !refused_earlier_or_there) {
    Case twin = Twin(original, TwinKind::kStreamingRequest, ".streaming-request");
    // Served one chunk per event: how the answer's bytes are cut is the reading of a stream,
    // which this twin does not judge (ADR-226.B1).
    StreamScript stream = *StreamedAnswer(last.response);
    stream.split_at.clear();
    Stream(twin.exchanges.back(), std::move(stream));
    for (const char* clause : {"ADR-224.7", "ADR-226.17"}) {
      if (std::find(twin.clauses.begin(), twin.clauses.end(), clause) == twin.clauses.end()) {
        twin.clauses.push_back(clause);
      }
    }
    twins.push_back(std::move(twin));
  }

  // ADR-226.B1: every answer streamed, the state captured from the streams. An answer holding
  // a call in pieces (INTERPRETING §5.6) is streamed like any other: one part per event is one
  // piece per event, as Vertex AI streams a call's arguments, and folding the events gives
  // back the answer exactly (§5.5), so its twin is derived; the pieces are read as one call
  // either way ("whatever events or contents carried them"). Its `.streaming-request` twin is
  // never derived: that answer holds functionCall parts (§5.5).
  Case every = Twin(original, TwinKind::kEveryAnswer, ".streamed");
  bool streamed = false;
  for (Exchange& ex : every.exchanges) {
    if (auto stream = StreamedAnswer(ex.response)) {
      Stream(ex, std::move(*stream));
      streamed = true;
    }
  }
  if (streamed) {
    every.clauses = {"ADR-226.B1"};
    every.features.push_back("stream-capture");
    twins.push_back(std::move(every));
  }
  return twins;
}

std::vector<Case> WithStreamedTwins(const std::vector<Case>& cases) {
  std::vector<Case> out = cases;
  for (const Case& c : cases) {
    auto twins = StreamedTwins(std::make_shared<const Case>(c));
    for (Case& twin : twins) out.push_back(std::move(twin));
  }
  return out;
}

}  // namespace gemini_oracle::model
