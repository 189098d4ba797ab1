#pragma once
// A stateful model (rc::state) of a multi-turn conversation, checked against the reference
// implementation over real HTTP: answers with calls or with text, whole or streamed in drawn
// events cut into HTTP chunks at drawn bytes, closing requests, generic call lists reordered and
// renormalized, results of every shape appended in any order, suspension and resume through
// the stores given.
//
// The model predicts every request from what it scripted, with its own code and the judges'
// kind-exact reading (never the reference's), and asserts only what the ADRs settle: the
// native parts replayed as received, in order, with their signatures (ADR-224.8), a streamed
// turn as one content or divided between contents (ADR-224.F2 is open); one functionResponse
// per call echoing exactly its native id (ADR-226.3), none for an ID-less call (226.4), the
// ID-less ones in call order (WIRE.2); each result's object root (ADR-224.2, .4, .5), nested
// lists kept (224.6), number kinds and nested objects decoded as lists free (open:
// i_integral_float_result_kind, ADR-224.F1); the closing request's tool mode (ADR-226.17);
// after each answer, calls with conversation-unique public ids (226.1) and arguments equal to
// the parts' under ADR-226.8, container kinds free (224.11, §8.3); after a resume, the same
// state (226.18). A failing sequence, the shrunk one last, is kept as a case file that
// replays the same steps in the same order.
#include <httplib.h>
#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "generators/conversation.h"
#include "generators/drawing.h"
#include "oracles/checks/judge_json.h"
#include "oracles/checks/wire_view.h"
#include "oracles/model/normalize_numbers.h"
#include "reference_impl/http_client.h"
#include "reference_impl/provider_error.h"
#include "reference_impl/request_builder.h"
#include "reference_impl/response_parser.h"
#include "reference_impl/store/conversation_state.h"
#include "reference_impl/store/state_store.h"
#include "tests/generators/generated_case.h"

namespace gemini_oracle::testing::conversation_model {

using generators::CallTurn;
using generators::ToolResult;

/// One exchange of the modelled conversation and what the application did after it.
struct Exchange {
  bool user = false;       // a user message precedes the request
  bool closing = false;    // the request disables tools
  CallTurn turn;           // the answer's calls (none: a text answer)
  std::vector<std::size_t> text_event_sizes;  // a text answer streamed; empty: whole
  std::vector<std::size_t> text_cut_permille;
  bool answered = false;   // the results of every call were appended
  // The application's actions, for the case file (the model needs none of them).
  bool normalized = false, reordered = false, suspended = false;

  bool HasCalls() const { return !turn.group_of.empty(); }
  bool Streamed() const {
    return HasCalls() ? !turn.event_sizes.empty() : !text_event_sizes.empty();
  }
};

struct Model {
  std::vector<Exchange> exchanges;
  std::string stores;  // the stores' names, for the kept counterexample's stem ("sqlite")
  bool Pending() const {
    return !exchanges.empty() && exchanges.back().HasCalls() && !exchanges.back().answered;
  }
};

inline std::string UserText(std::size_t exchange) {
  return "Turn " + std::to_string(exchange + 1) + ": go on.";
}

inline Json AnswerPartsOf(const Exchange& e, std::size_t index) {
  if (e.HasCalls()) return generators::AnswerParts(e.turn, index + 1);
  return Json::array({Json{{"text", "Answer " + std::to_string(index + 1) + "."}}});
}

inline Json ScriptedAnswer(const Exchange& e, std::size_t index) {
  if (e.HasCalls()) return generators::TurnAnswer(e.turn, index + 1);
  const Json parts = AnswerPartsOf(e, index);
  return e.text_event_sizes.empty()
             ? generators::WholeAnswer(parts)
             : generators::StreamedAnswer(parts, e.text_event_sizes, e.text_cut_permille);
}

/// The model as a case file (fixtures/case.schema.json): what a failing sequence becomes.
inline Json ModelCase(const Model& m) {
  bool parallel = false, suspended = false, streamed = false, closing = false;
  bool continues_after_stream = false, with_id = false, idless = false, normalized = false;
  Json exchanges = Json::array();
  for (std::size_t i = 0; i < m.exchanges.size(); ++i) {
    const Exchange& e = m.exchanges[i];
    parallel |= e.turn.group_of.size() > 1;
    normalized |= e.normalized;
    for (std::size_t c = 0; c < e.turn.group_of.size(); ++c) {
      (e.turn.NativeId(c).is_null() ? idless : with_id) = true;
    }
    suspended |= e.suspended;
    streamed |= e.Streamed();
    closing |= e.closing;
    continues_after_stream |= e.Streamed() && i + 1 < m.exchanges.size();
    Json x = Json::object();
    if (e.user) x["user"] = UserText(i);
    if (e.closing) x["tool_mode"] = "NONE";
    x["response"] = ScriptedAnswer(e, i);
    Json then = Json::object();
    if (e.normalized) then["normalize_numbers"] = true;
    if (e.reordered) then["call_order"] = e.turn.call_order;
    if (e.suspended) then["suspend"] = true;
    if (e.answered) {
      Json results = Json::array();
      for (const std::size_t call : e.turn.answer_order) {
        results.push_back(e.turn.results[call].CaseResult(call));
      }
      then["results"] = results;
    }
    if (!then.empty()) x["then"] = then;
    exchanges.push_back(x);
  }
  Json c = Json::object();
  c["description"] = "Generated by the conversation state machine: " +
                     std::to_string(m.exchanges.size()) + " exchanges.";
  // The clauses the steps touch, the most specific first; continuing after a streamed answer
  // is ADR-226.B1's alone.
  Json clauses = Json::array();
  if (continues_after_stream) {
    clauses.push_back("ADR-226.B1");
  } else {
    if (suspended) clauses.push_back("ADR-226.18");
    if (closing) clauses.push_back("ADR-226.17");
    if (normalized) clauses.push_back("ADR-226.8");
    if (with_id) clauses.push_back("ADR-226.3");
    if (idless) clauses.push_back("ADR-226.4");
    for (const char* clause : {"ADR-226.1", "ADR-224.1", "ADR-224.2", "ADR-224.8"}) {
      clauses.push_back(clause);
    }
  }
  c["clauses"] = clauses;
  Json features = Json::array({"ids", "numbers", "results", "replay", "signatures"});
  if (parallel) features.push_back("parallel");
  if (closing) features.push_back("closing");
  if (suspended) features.push_back("persistence");
  if (streamed) features.push_back("streaming");
  if (continues_after_stream) features.push_back("stream-capture");
  c["features"] = features;
  c["options"] = generators::ToolOptions(4);
  c["exchanges"] = exchanges;
  c["expect"] = Json{{"outcome", "accept"}, {"requests", exchanges.size()}};
  return c;
}

/// A scripted Gemini server on 127.0.0.1: answers the next request with the answer it was
/// given (whole, or as server-sent events, one HTTP chunk per event) and keeps each request.
class ScriptedServer {
 public:
  ScriptedServer() {
    server_.Post(R"(/v1beta/models/([^/:]+):(generateContent|streamGenerateContent))",
                 [this](const httplib::Request& request, httplib::Response& response) {
                   std::lock_guard<std::mutex> lock(mutex_);
                   bodies_.push_back(request.body);
                   streamed_.push_back(request.matches[2] == "streamGenerateContent");
                   if (answer_.contains("stream")) {
                     // As the capture server serves a stream (INTERPRETING §5.3): "data: ",
                     // the compact event, CRLF CRLF; one chunk per event or cut at split_at.
                     std::string bytes;
                     std::vector<std::size_t> bounds;
                     for (const Json& event : answer_["stream"]["events"]) {
                       bytes += "data: " + DumpJson(event) + "\r\n\r\n";
                       bounds.push_back(bytes.size());
                     }
                     if (answer_["stream"].contains("split_at")) {
                       bounds = answer_["stream"]["split_at"].get<std::vector<std::size_t>>();
                       bounds.push_back(bytes.size());
                     }
                     if (request.get_param_value("alt") != "sse") bad_ = true;
                     auto chunks = std::make_shared<std::vector<std::string>>();
                     std::size_t from = 0;
                     for (const std::size_t to : bounds) {
                       chunks->push_back(bytes.substr(from, to - from));
                       from = to;
                     }
                     response.set_chunked_content_provider(
                         "text/event-stream",
                         [chunks, next = std::size_t{0}](std::size_t,
                                                         httplib::DataSink& sink) mutable {
                           if (next < chunks->size()) {
                             const std::string& c = (*chunks)[next++];
                             sink.write(c.data(), c.size());
                           } else {
                             sink.done();
                           }
                           return true;
                         });
                   } else {
                     response.set_content(DumpJson(answer_["body"]), "application/json");
                   }
                 });
    server_.set_tcp_nodelay(true);
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    client_ = std::make_unique<ref::GeminiHttpClient>(ref::ClientOptions{BaseUrl()});
  }
  ~ScriptedServer() {
    client_.reset();
    server_.stop();
    thread_.join();
  }
  std::string BaseUrl() const { return "http://127.0.0.1:" + std::to_string(port_); }
  /// One keep-alive client for every conversation of a run (an application's own client).
  ref::GeminiHttpClient& Client() { return *client_; }
  void Script(Json answer) {
    std::lock_guard<std::mutex> lock(mutex_);
    answer_ = std::move(answer);
  }
  /// The last request's body and whether it went to :streamGenerateContent.
  std::pair<std::string, bool> Last() {
    std::lock_guard<std::mutex> lock(mutex_);
    return {bodies_.back(), streamed_.back()};
  }
  /// Whether a stream was asked for without alt=sse since the last call.
  bool TakeBadRequest() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(bad_, false);
  }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mutex_;
  Json answer_;
  std::vector<std::string> bodies_;
  std::vector<bool> streamed_;
  bool bad_ = false;
  std::unique_ptr<ref::GeminiHttpClient> client_;
};

/// A store the conversation is suspended into and resumed from.
struct NamedStore {
  std::string name;
  std::string tag;  // lower case, for file names: "sqlite", "mariadb"
  std::function<std::unique_ptr<ref::StateStore>()> open;
  std::shared_ptr<std::size_t> resumes = std::make_shared<std::size_t>(0);  // for the figures
};

/// The system under test: the reference implementation as an application drives it.
struct Sut {
  ScriptedServer& server;
  const std::vector<NamedStore>& stores;
  ref::GeminiHttpClient& client;
  ref::ConversationState state;
  std::vector<std::vector<std::string>> public_ids;  // per exchange: its calls' public ids
  std::size_t transcript_turn = 0;                   // message index of the last answer
  std::string conversation_id;
  std::vector<std::uint64_t> versions;  // per store: the version last written
  /// Negative controls only: breaks each request after it is built; skips the comparison of
  /// the resumed state, so that only the request predictions can see what a store lost.
  std::function<void(Json&)> corrupt_request;
  bool compare_resumed_state = true;

  Sut(ScriptedServer& s, const std::vector<NamedStore>& st, std::string id)
      : server(s), stores(st), client(s.Client()),
        conversation_id(std::move(id)), versions(st.size(), 0) {}
};

/// Fails the property and keeps the model after the failing command as a case file.
[[noreturn]] inline void FailWith(const Model& after, const std::string& what) {
  const auto kept = KeepCounterexample(
      "state_machine", CounterexampleStem('y', "state_machine_" + after.stores), ModelCase(after));
  RC_FAIL(what + "\nkept as " + kept.string());
}

inline bool Same(const Json& a, const Json& b) { return checks::SameJson(a, b); }

/// Whether `object` has the keys "0".."n-1" of `list` with equal values (`same` compares them):
/// the object a list becomes, or the list a numeric-key object becomes when decoded without its
/// kind (ADR-224.F1).
template <typename Compare>
bool ListAsObject(const Json& list, const Json& object, Compare same) {
  if (!list.is_array() || !object.is_object() || list.size() != object.size()) return false;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto it = object.find(std::to_string(i));
    if (it == object.end() || !same(list[i], *it)) return false;
  }
  return true;
}

/// A result value as sent against the one the tool returned (INTERPRETING §8.3): numbers by
/// value whatever their kind (i_integral_float_result_kind), a nested object sent as the list of
/// its index keys (`{}` as `[]`, ADR-224.F1, open), a nested list never sent as an object
/// (ADR-224.6), everything else kind-exact, object members in any order.
inline bool SameResultValue(const Json& sent, const Json& returned, bool nested) {
  if (checks::IsNumeric(sent) && checks::IsNumeric(returned)) {
    return checks::NumbersEqual(sent, returned);
  }
  const auto same = [](const Json& a, const Json& b) { return SameResultValue(a, b, true); };
  if (nested && returned.is_object() && sent.is_array()) return ListAsObject(sent, returned, same);
  if (sent.type() != returned.type()) return false;
  if (sent.is_object()) {
    if (sent.size() != returned.size()) return false;
    for (auto it = returned.begin(); it != returned.end(); ++it) {
      const auto found = sent.find(it.key());
      if (found == sent.end() || !same(*found, *it)) return false;
    }
    return true;
  }
  if (sent.is_array()) {
    if (sent.size() != returned.size()) return false;
    for (std::size_t i = 0; i < sent.size(); ++i) {
      if (!same(sent[i], returned[i])) return false;
    }
    return true;
  }
  return Same(sent, returned);
}

/// Public arguments against the part's (ADR-224.11 with the ADR-226.8 rule; INTERPRETING §8.3:
/// a kind change there is no finding): numbers by value, a list and the object of its index
/// keys alike, at any depth below the root.
inline bool SamePublicArguments(const Json& a, const Json& b, bool nested = false) {
  if (checks::IsNumeric(a) && checks::IsNumeric(b)) return checks::NumbersEqual(a, b);
  const auto same = [](const Json& x, const Json& y) { return SamePublicArguments(x, y, true); };
  if (nested && a.is_array() && b.is_object()) return ListAsObject(a, b, same);
  if (nested && a.is_object() && b.is_array()) return ListAsObject(b, a, same);
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it) {
      const auto found = b.find(it.key());
      if (found == b.end() || !same(*it, *found)) return false;
    }
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!same(a[i], b[i])) return false;
    }
    return true;
  }
  return Same(a, b);
}

/// What the functionResponse of `result` must hold as its response: an object root (ADR-224.2)
/// holding an object result as itself (224.3), a list as its index keys (224.4), and anything
/// else wrapped in an object (224.5; the member name is the implementation's).
inline bool ResponseFits(const Json& response, const ToolResult& result) {
  if (!response.is_object()) return false;
  switch (result.shape) {
    case ToolResult::Shape::kObject: return SameResultValue(response, result.value, false);
    case ToolResult::Shape::kList: {
      Json keyed = Json::object();
      for (std::size_t i = 0; i < result.value.size(); ++i) {
        keyed[std::to_string(i)] = result.value[i];
      }
      return SameResultValue(response, keyed, false);
    }
    case ToolResult::Shape::kScalar:
      return response.size() == 1 && SameResultValue(response.begin().value(), result.value, true);
    case ToolResult::Shape::kInvalidText:
    case ToolResult::Shape::kError:
      return std::any_of(response.begin(), response.end(), [&](const Json& v) {
        return v.is_string() && v.get<std::string>() == result.text;
      });
  }
  return false;
}

/// Checks the request the SUT sent for exchange `index` of `m` (the model before its answer);
/// returns what is wrong ("" when nothing).
inline std::string CheckRequest(const Model& m, std::size_t index, const std::string& body,
                                bool streamed_endpoint) {
  const auto decoded = checks::DecodeJudgeJson(body);
  if (!decoded.value) return "the request is not JSON";
  const Json& request = *decoded.value;
  const Exchange& now = m.exchanges[index];
  if (streamed_endpoint != now.Streamed()) return "the request went to the wrong endpoint";
  const Json mode = request.contains("toolConfig")
                        ? request["toolConfig"].value("functionCallingConfig", Json::object())
                              .value("mode", Json(nullptr))
                        : Json(nullptr);
  if (now.closing != (mode == "NONE")) return "the closing request's tool mode differs";
  if (!request.contains("contents") || !request["contents"].is_array()) return "no contents";
  const Json& contents = request["contents"];
  std::size_t at = 0;
  const auto next = [&]() -> const Json* {
    return at < contents.size() ? &contents[at++] : nullptr;
  };
  for (std::size_t i = 0; i <= index; ++i) {
    const Exchange& e = m.exchanges[i];
    const std::string where = " (exchange " + std::to_string(i + 1) + ")";
    if (e.user) {
      const Json* c = next();
      if (c == nullptr || !Same(*c, Json{{"role", "user"},
                                         {"parts", Json::array({Json{{"text", UserText(i)}}})}})) {
        return "the user message differs" + where;
      }
    }
    if (i == index) break;
    // ADR-224.8: the native parts replayed as received, in order, with their signatures, in
    // one model content; a streamed turn may also be divided between contents at its events'
    // boundaries (INTERPRETING §8.5; ADR-224.F2 is open), never inside an event.
    const Json expected_parts = AnswerPartsOf(e, i);
    std::vector<std::size_t> boundaries;  // part counts where a content may end
    const auto& sizes = e.HasCalls() ? e.turn.event_sizes : e.text_event_sizes;
    std::size_t sum = 0;
    for (const std::size_t size : sizes) boundaries.push_back(sum += size);
    if (boundaries.empty()) boundaries.push_back(expected_parts.size());
    Json replayed = Json::array();
    do {
      if (at >= contents.size() || contents[at].value("role", "") != "model") {
        return "the replayed model content is missing" + where;
      }
      const Json parts = contents[at++].value("parts", Json(nullptr));
      if (!parts.is_array() || parts.empty()) return "a model content without parts" + where;
      for (const Json& part : parts) replayed.push_back(part);
      if (std::find(boundaries.begin(), boundaries.end(), replayed.size()) == boundaries.end()) {
        return "a replayed model content ends inside an event" + where;
      }
    } while (replayed.size() < expected_parts.size());
    if (!Same(replayed, expected_parts)) return "the replayed model content differs" + where;
    if (!e.answered) continue;
    const Json* answers = next();
    if (answers == nullptr || (*answers).value("role", "") != "user") {
      return "no user content of answers" + where;
    }
    const Json& parts = (*answers)["parts"];
    const std::size_t n = e.turn.group_of.size();
    if (!parts.is_array() || parts.size() != n) return "not one answer per call" + where;
    // Each call's answer: by its native id when it has one (ADR-226.3), else by position
    // among the ID-less ones (WIRE.2).
    std::vector<bool> used(n, false);
    std::size_t idless_seen = 0;
    for (std::size_t c = 0; c < n; ++c) {
      const Json id = e.turn.NativeId(c);
      std::optional<std::size_t> found;
      std::size_t idless_index = 0;
      for (std::size_t p = 0; p < n && !found; ++p) {
        const Json& fr = parts[p].value("functionResponse", Json(nullptr));
        if (!fr.is_object()) return "an answer is not a functionResponse" + where;
        if (id.is_null()) {
          if (fr.contains("id")) continue;
          if (idless_index++ == idless_seen) found = p;
        } else if (fr.contains("id") && Same(fr["id"], id)) {
          found = p;
        }
      }
      if (!found || used[*found]) return "a call's answer is missing" + where;
      used[*found] = true;
      if (id.is_null()) ++idless_seen;
      const Json& fr = parts[*found]["functionResponse"];
      const std::size_t g = e.turn.group_of[c];
      if (fr.value("name", "") != generators::ToolName(g)) return "an answer's name differs" + where;
      if (!ResponseFits(fr.value("response", Json(nullptr)), e.turn.results[c])) {
        return "an answer's response differs" + where;
      }
    }
  }
  if (at != contents.size()) return "the request holds more contents than the conversation";
  return "";
}

/// A command that sends the next request: the answer holds calls, or text.
struct Send : rc::state::Command<Model, Sut> {
  Exchange e;
  explicit Send(const Model& m) {
    RC_PRE(!m.Pending());
    // A user message opens the conversation and follows a text answer; after results the
    // request continues without one.
    e.user = m.exchanges.empty() || !m.exchanges.back().HasCalls();
    const bool calls = *rc::gen::weightedElement<int>({{3, 1}, {1, 0}}) == 1;
    if (calls) {
      e.turn = *generators::genCallTurn(false);
      e.turn.user = e.user;
      e.turn.normalize = false;
      e.turn.suspend = false;
      e.turn.call_order.clear();
    } else if (*rc::gen::inRange(0, 4) == 0) {
      e.text_event_sizes = {1};
      e.text_cut_permille = generators::DrawCutPermille();
    }
    // Tools disabled: the answer is text.
    e.closing = !calls && !m.exchanges.empty() && *rc::gen::inRange(0, 3) == 0;
  }
  void apply(Model& m) const override { m.exchanges.push_back(e); }
  void run(const Model& m0, Sut& sut) const override {
    Model after = m0;
    apply(after);
    const std::size_t index = m0.exchanges.size();
    if (e.user) sut.state.transcript.messages.push_back(ref::UserMessage(UserText(index)));
    sut.server.Script(ScriptedAnswer(e, index));
    ref::RequestOptions options;
    options.model = generators::kGeneratedModel;
    options.tools = generators::ToolOptions(4)["tools"];
    if (e.closing) options.tool_mode = "NONE";
    options.streaming = e.Streamed();
    ref::Message turn;
    try {
      Json request = ref::BuildRequest(sut.state.transcript, options);
      if (sut.corrupt_request) sut.corrupt_request(request);
      const Json response = options.streaming
                                ? sut.client.StreamGenerateContent(options.model, request)
                                : sut.client.GenerateContent(options.model, request);
      turn = ref::ParseResponse(response, sut.state.transcript, sut.state.public_id_counter);
    } catch (const ref::ProviderError& error) {
      FailWith(after, std::string("refused: ") + error.code());
    }
    const auto [body, streamed_endpoint] = sut.server.Last();
    if (sut.server.TakeBadRequest()) FailWith(after, "a stream asked for without alt=sse");
    if (const std::string wrong = CheckRequest(after, index, body, streamed_endpoint);
        !wrong.empty()) {
      FailWith(after, wrong);
    }
    // ADR-226.1: public ids synthesized, nonempty and unique across the conversation;
    // ADR-224.11: the arguments as received.
    if (turn.tool_calls.size() != e.turn.group_of.size()) FailWith(after, "calls lost or added");
    std::set<std::string> ids;
    for (const auto& message : sut.state.transcript.messages) {
      for (const auto& call : message.tool_calls) ids.insert(call.id);
    }
    std::vector<std::string> public_ids;
    for (std::size_t c = 0; c < turn.tool_calls.size(); ++c) {
      const auto& call = turn.tool_calls[c];
      if (call.id.empty() || !ids.insert(call.id).second) FailWith(after, "a public id repeats");
      const std::size_t g = e.turn.group_of[c];
      if (call.name != generators::ToolName(g) ||
          !SamePublicArguments(call.arguments, e.turn.args_of_group[g])) {
        FailWith(after, "a parsed call differs from the answer");
      }
      public_ids.push_back(call.id);
    }
    sut.public_ids.push_back(public_ids);
    sut.state.transcript.messages.push_back(std::move(turn));
    sut.transcript_turn = sut.state.transcript.messages.size() - 1;
  }
  void show(std::ostream& os) const override {
    os << "Send(" << (e.HasCalls() ? std::to_string(e.turn.group_of.size()) + " calls" : "text")
       << (e.Streamed() ? ", streamed" : "") << (e.closing ? ", closing" : "") << ")";
  }
};

/// The application appends every result, in a drawn order.
struct AppendResults : rc::state::Command<Model, Sut> {
  explicit AppendResults(const Model& m) { RC_PRE(m.Pending()); }
  void apply(Model& m) const override { m.exchanges.back().answered = true; }
  void run(const Model& m0, Sut& sut) const override {
    const Exchange& e = m0.exchanges.back();
    for (const std::size_t call : e.turn.answer_order) {
      const ToolResult& r = e.turn.results[call];
      sut.state.transcript.messages.push_back(ref::ToolResultMessage(
          sut.public_ids.back()[call], generators::ToolName(e.turn.group_of[call]), r.Content(),
          r.IsError()));
    }
  }
  void show(std::ostream& os) const override { os << "AppendResults"; }
};

/// The application reorders the generic call list of the pending turn (its drawn order).
struct ReorderCalls : rc::state::Command<Model, Sut> {
  std::vector<std::size_t> order;
  explicit ReorderCalls(const Model& m) {
    // RC_PRE decomposes its expression (no short circuit): decide first.
    // The case format applies call_order before suspend (INTERPRETING §5.4): the same order
    // here keeps a kept counterexample replaying the same steps.
    const bool valid = m.Pending() && m.exchanges.back().turn.group_of.size() > 1 &&
                       !m.exchanges.back().reordered && !m.exchanges.back().suspended;
    RC_PRE(valid);
    const std::size_t n = m.exchanges.back().turn.group_of.size();
    const auto keys = *rc::gen::container<std::vector<int>>(n, rc::gen::inRange(0, 1000));
    order.resize(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&keys](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  }
  void apply(Model& m) const override {
    m.exchanges.back().reordered = true;
    m.exchanges.back().turn.call_order = order;
  }
  void run(const Model&, Sut& sut) const override {
    auto& calls = sut.state.transcript.messages[sut.transcript_turn].tool_calls;
    std::vector<ref::ToolCall> reordered;
    for (const std::size_t i : order) {
      const std::string& id = sut.public_ids.back()[i];
      reordered.push_back(*std::find_if(calls.begin(), calls.end(),
                                        [&](const ref::ToolCall& c) { return c.id == id; }));
    }
    calls = std::move(reordered);
  }
  void show(std::ostream& os) const override { os << "ReorderCalls"; }
};

/// The application renormalizes the pending turn's generic arguments (1.0 -> 1).
struct RenormalizeCalls : rc::state::Command<Model, Sut> {
  explicit RenormalizeCalls(const Model& m) {
    const bool valid =
        m.Pending() && !m.exchanges.back().normalized && !m.exchanges.back().suspended &&
        !m.exchanges.back().reordered;  // normalize_numbers comes first (§5.4)
    RC_PRE(valid);
  }
  void apply(Model& m) const override { m.exchanges.back().normalized = true; }
  void run(const Model&, Sut& sut) const override {
    for (auto& call : sut.state.transcript.messages[sut.transcript_turn].tool_calls) {
      call.arguments = model::NormalizeNumbers(call.arguments);
    }
  }
  void show(std::ostream& os) const override { os << "RenormalizeCalls"; }
};

/// The application suspends the conversation into one of the stores and resumes it in a fresh
/// state object: the same state comes back (ADR-226.18).
struct SuspendResume : rc::state::Command<Model, Sut> {
  std::size_t store = 0;
  explicit SuspendResume(const Model& m) {
    // Once per exchange, before its results (where then.suspend runs), or after a text answer.
    const bool valid = !m.exchanges.empty() && !m.exchanges.back().suspended &&
                       (m.Pending() || !m.exchanges.back().HasCalls());
    RC_PRE(valid);
    store = *rc::gen::inRange<std::size_t>(0, 16);  // reduced modulo the stores at run time
  }
  void apply(Model& m) const override { m.exchanges.back().suspended = true; }
  void run(const Model& m0, Sut& sut) const override {
    Model after = m0;
    apply(after);
    const std::size_t s = store % sut.stores.size();
    // What an application stores: the transcript with its pending calls and id counter.
    const std::uint64_t counter = sut.state.public_id_counter;
    sut.state = ref::StateOfTranscript(std::move(sut.state.transcript), counter);
    const Json before = ref::ToJson(sut.state);
    try {
      auto opened = sut.stores[s].open();
      sut.versions[s] = opened->Suspend(sut.conversation_id, sut.state, sut.versions[s]);
      auto fresh = sut.stores[s].open();
      ref::ResumedState resumed = fresh->Resume(sut.conversation_id);
      sut.state = std::move(resumed.state);
      ++*sut.stores[s].resumes;
    } catch (const ref::ProviderError& error) {
      FailWith(after, "the " + sut.stores[s].name + " store refused: " + error.code());
    }
    if (sut.compare_resumed_state && !Same(ref::ToJson(sut.state), before)) {
      FailWith(after, "the " + sut.stores[s].name + " store gave back another state");
    }
  }
  void show(std::ostream& os) const override { os << "SuspendResume(" << store << ")"; }
};

/// The property: a drawn command sequence, the model's predictions checked at every step.
inline void CheckConversationStateMachine(ScriptedServer& server,
                                          const std::vector<NamedStore>& stores,
                                          std::function<void(Json&)> corrupt_request = {},
                                          bool compare_resumed_state = true) {
  // A conversation id no earlier run used, also in a store that outlives this process.
  static std::size_t conversations = 0;
  static const std::string process = std::to_string(::getpid()) + "-" +
      std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
  Sut sut(server, stores, "state-machine-" + process + "-" + std::to_string(++conversations));
  sut.corrupt_request = std::move(corrupt_request);
  sut.compare_resumed_state = compare_resumed_state;
  Model initial;
  for (const auto& store : stores) {
    initial.stores += (initial.stores.empty() ? "" : "_") + store.tag;
  }
  rc::state::check(initial, sut,
                   rc::state::gen::execOneOfWithArgs<Send, Send, AppendResults, AppendResults,
                                                     ReorderCalls, RenormalizeCalls,
                                                     SuspendResume>());
}

}  // namespace gemini_oracle::testing::conversation_model
