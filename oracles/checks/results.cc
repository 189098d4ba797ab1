// ADR-224.2-224.6, 226.3, 226.4, 226.20: the results appended after exchange k, as request k+1
// sends them. Each result's functionResponse is found by its payload (payloads are pairwise
// distinct within an exchange), then its root shape, name and ID echo are judged.
#include "oracles/checks/judge.h"
#include "oracles/checks/wire_view.h"

namespace gemini_oracle::checks {
namespace {

struct ResponseRef {
  std::size_t content = 0;
  std::size_t part = 0;
  const Json* fr = nullptr;
  std::string pointer;  // of the functionResponse object
};

bool IsNumericKeyObjectOf(const Json& response, const Json& list) {
  if (!response.is_object() || response.size() != list.size()) return false;
  std::size_t i = 0;
  for (auto it = response.begin(); it != response.end(); ++it, ++i) {
    if (it.key() != std::to_string(i)) return false;
    if (!KindExactEqual(it.value(), list[i])) return false;
  }
  return true;
}

// ADR-224.5: a scalar, text or error payload is wrapped in an object of exactly one member
// (the member name is implementation-defined).
bool WrapsExactly(const Json& response, const Json& value) {
  return response.is_object() && response.size() == 1 && KindExactEqual(*response.begin(), value);
}

bool JsonPayloadMatches(const Json& payload, const Json& response) {
  if (!response.is_object()) return false;
  if (payload.is_object()) return KindExactEqual(response, payload);       // ADR-224.2/3
  if (payload.is_array()) return IsNumericKeyObjectOf(response, payload);  // ADR-224.4/6
  return WrapsExactly(response, payload);                                  // ADR-224.5
}

bool Matches(const runner::Result& result, const Json& response) {
  if (!response.is_object()) return false;
  switch (result.kind) {
    case runner::Result::Kind::kJson:
      return JsonPayloadMatches(result.value, response);
    case runner::Result::Kind::kText:  // corpus text payloads are never valid JSON texts
    case runner::Result::Kind::kError:
      return WrapsExactly(response, result.value);
  }
  return false;
}

bool IsScalarResult(const runner::Result& result) {
  return result.kind != runner::Result::Kind::kJson ||
         (!result.value.is_object() && !result.value.is_array());
}

// Why `fr` fails to carry `result`: the most specific clause and pointer.
Finding Diagnose(const runner::Result& result, std::size_t index, std::size_t exchange,
                 std::size_t request, const ResponseRef& ref) {
  const std::string label =
      "result " + std::to_string(index) + " of exchange " + std::to_string(exchange);
  const Json* response = detail::Member(*ref.fr, "response");
  const std::string at = ref.pointer + "/response";
  const bool list = result.kind == runner::Result::Kind::kJson && result.value.is_array();
  Json expected = result.value;
  if (list) {
    Json object = Json::object();
    for (std::size_t i = 0; i < result.value.size(); ++i) {
      object[std::to_string(i)] = result.value[i];
    }
    expected = std::move(object);
  }
  if (response == nullptr || !response->is_object()) {
    // ADR-224.4 for a list result sent as a list; ADR-224.2 otherwise.
    return MakeFinding(list ? "ADR-224.4" : "ADR-224.2", kWireViolation, request,
                       response == nullptr ? ref.pointer : at,
                       "the functionResponse for " + label + " has no object response",
                       list ? expected : Json("object"),
                       response == nullptr ? Json("absent") : *response);
  }
  if (IsScalarResult(result)) {
    // ADR-224.5: a scalar, text or error result is wrapped in an object holding it.
    return MakeFinding("ADR-224.5", kWireViolation, request, at,
                       "the functionResponse for " + label + " does not wrap the result value",
                       result.value, *response);
  }
  if (list) {
    // ADR-224.4: keys "0".."n-1", in order.
    bool keys_ok = response->size() == expected.size();
    std::size_t i = 0;
    for (auto it = response->begin(); keys_ok && it != response->end(); ++it, ++i) {
      keys_ok = it.key() == std::to_string(i);
    }
    if (!keys_ok) {
      return MakeFinding("ADR-224.4", kWireViolation, request, at,
                         "the list result " + label + " is not keyed by its indices in order",
                         expected, *response);
    }
  }
  // ADR-224.6: a nested list stays a list.
  if (auto where = detail::ListTurnedObject(expected, *response, at)) {
    return MakeFinding("ADR-224.6", kWireViolation, request, *where,
                       "a list nested in " + label + " became an object", expected, *response);
  }
  // ADR-224.3: members are preserved (nothing dropped, renamed or re-typed).
  const std::string where = detail::FirstDifference(expected, *response, at).value_or(at);
  return MakeFinding("ADR-224.3", kWireViolation, request, where,
                     "the functionResponse for " + label + " changes the result's members",
                     expected, *response);
}

const char* KindOfFinding(const runner::Result& result) {
  if (result.kind == runner::Result::Kind::kJson && result.value.is_array()) return "ADR-224.4";
  if (IsScalarResult(result)) return "ADR-224.5";
  return "ADR-224.3";
}

}  // namespace

std::vector<Finding> JudgeResults(const CaseRun& run) {
  std::vector<Finding> findings;
  std::vector<detail::DecodedRequest> storage;
  const auto& decoded = detail::DecodedJournal(run, storage);
  const std::size_t initial_turns = detail::InitialAssistants(run.c).size();
  for (std::size_t k = 1; k <= run.c.exchanges.size(); ++k) {
    const runner::Exchange& exchange = run.c.exchanges[k - 1];
    const auto& results = exchange.then.results;
    if (results.empty() || decoded.size() < k + 1) continue;
    const std::size_t request = k + 1;
    const Json* contents = detail::Contents(decoded[k].body);
    if (contents == nullptr) continue;
    // The model content replaying turn k anchors its answers; a missing one is the replay
    // judge's finding.
    const auto models = detail::ModelContentPositions(*contents);
    const std::size_t turn = initial_turns + (k - 1);
    if (turn >= models.size()) continue;
    const std::size_t model_at = models[turn];
    const std::size_t segment_end = turn + 1 < models.size() ? models[turn + 1] : contents->size();

    std::vector<ResponseRef> responses;
    std::vector<std::size_t> answering_contents;
    for (std::size_t c = model_at + 1; c < segment_end; ++c) {
      const Json* parts = detail::Member((*contents)[c], "parts");
      if (parts == nullptr || !parts->is_array()) continue;
      bool any = false;
      for (std::size_t p = 0; p < parts->size(); ++p) {
        const Json* fr = detail::Member((*parts)[p], "functionResponse");
        if (fr == nullptr || !fr->is_object()) continue;
        any = true;
        responses.push_back({c, p, fr,
                             "/contents/" + std::to_string(c) + "/parts/" + std::to_string(p) +
                                 "/functionResponse"});
      }
      if (any) answering_contents.push_back(c);
    }

    const std::string label = "exchange " + std::to_string(k);
    // ADR-226.20: all answers of one call turn travel in one user content, one per call.
    if (answering_contents.size() > 1) {
      findings.push_back(MakeFinding("ADR-226.20", kWireViolation, request,
                                     "/contents/" + std::to_string(answering_contents[1]),
                                     "the results of " + label + " are split over " +
                                         std::to_string(answering_contents.size()) +
                                         " contents instead of one",
                                     1, answering_contents.size()));
    }
    if (!answering_contents.empty()) {
      const std::size_t a = answering_contents.front();
      if (a != model_at + 1) {
        findings.push_back(MakeFinding(
            "ADR-226.20", kWireViolation, request, "/contents/" + std::to_string(model_at + 1),
            "the results of " + label + " do not follow the model content they answer",
            model_at + 1, a));
      }
      const Json* role = detail::Member((*contents)[a], "role");
      if (role == nullptr || !role->is_string() || *role != "user") {
        findings.push_back(MakeFinding("ADR-226.20", kWireViolation, request,
                                       "/contents/" + std::to_string(a) + "/role",
                                       "the results of " + label + " are not in a user content",
                                       "user", role == nullptr ? Json("absent") : *role));
      }
      std::size_t answered = 0;
      for (const auto& ref : responses) answered += ref.content == a ? 1 : 0;
      const Json* model_parts = detail::Member((*contents)[model_at], "parts");
      const std::size_t calls =
          model_parts == nullptr ? 0 : detail::FunctionCallPositions(*model_parts).size();
      if (answered != calls) {
        findings.push_back(MakeFinding(
            "ADR-226.20", kWireViolation, request, "/contents/" + std::to_string(a) + "/parts",
            "the answering content of " + label + " holds " + std::to_string(answered) +
                " functionResponse parts for " + std::to_string(calls) + " functionCall parts",
            calls, answered));
      }
    }

    // Identify each result's functionResponse by its payload.
    std::vector<bool> claimed(responses.size(), false);
    std::vector<std::optional<std::size_t>> match(results.size());
    for (std::size_t r = 0; r < results.size(); ++r) {
      for (std::size_t f = 0; f < responses.size(); ++f) {
        if (claimed[f]) continue;
        const Json* response = detail::Member(*responses[f].fr, "response");
        if (response != nullptr && Matches(results[r], *response)) {
          claimed[f] = true;
          match[r] = f;
          break;
        }
      }
    }

    const Json scripted = detail::ScriptedParts(exchange);
    const auto call_positions = detail::FunctionCallPositions(scripted);
    for (std::size_t r = 0; r < results.size(); ++r) {
      const runner::Result& result = results[r];
      const auto selected = detail::ResolveSelector(result.call, scripted);
      const Json* native =
          selected ? &scripted[call_positions[*selected]]["functionCall"] : nullptr;
      const Json* native_name = native == nullptr ? nullptr : detail::Member(*native, "name");
      if (!match[r]) {
        // Diagnose against the first unclaimed functionResponse, preferring the call's name.
        std::optional<std::size_t> candidate;
        for (std::size_t f = 0; f < responses.size() && !candidate; ++f) {
          const Json* name = detail::Member(*responses[f].fr, "name");
          if (!claimed[f] && native_name != nullptr && name != nullptr && *name == *native_name) {
            candidate = f;
          }
        }
        for (std::size_t f = 0; f < responses.size() && !candidate; ++f) {
          if (!claimed[f]) candidate = f;
        }
        if (candidate) {
          claimed[*candidate] = true;
          findings.push_back(Diagnose(result, r, k, request, responses[*candidate]));
        } else {
          findings.push_back(MakeFinding(
              KindOfFinding(result), kWireViolation, request,
              "/contents/" + std::to_string(answering_contents.empty()
                                                ? model_at + 1
                                                : answering_contents.front()),
              "no functionResponse carries result " + std::to_string(r) + " of " + label,
              result.value, nullptr));
        }
        continue;
      }
      if (native == nullptr) continue;  // the selector picks no single call: nothing to echo
      const ResponseRef& ref = responses[*match[r]];
      const std::string what =
          "the functionResponse for result " + std::to_string(r) + " of " + label;
      // ADR-226.3: the answer names the call it answers.
      const Json* name = detail::Member(*ref.fr, "name");
      if (native_name != nullptr && (name == nullptr || !KindExactEqual(*name, *native_name))) {
        findings.push_back(MakeFinding("ADR-226.3", kWireViolation, request, ref.pointer + "/name",
                                       what + " names another function than its call", *native_name,
                                       name == nullptr ? Json("absent") : *name));
      }
      const Json* native_id = detail::Member(*native, "id");
      const Json* echoed = detail::Member(*ref.fr, "id");
      if (native_id != nullptr) {
        // ADR-226.3: echo exactly the native ID bound to this result's call.
        if (echoed == nullptr || !KindExactEqual(*echoed, *native_id)) {
          findings.push_back(MakeFinding(
              "ADR-226.3", kWireViolation, request,
              echoed == nullptr ? ref.pointer : ref.pointer + "/id",
              what + (echoed == nullptr ? " omits the native id of its call"
                                        : " carries another id than its call's native id"),
              *native_id, echoed == nullptr ? Json("absent") : *echoed));
        }
      } else if (echoed != nullptr) {
        // ADR-226.4: an absent native ID stays absent.
        findings.push_back(MakeFinding("ADR-226.4", kWireViolation, request, ref.pointer + "/id",
                                       what + " carries an id although its call had none", "absent",
                                       *echoed));
      }
    }
  }
  return findings;
}

}  // namespace gemini_oracle::checks
