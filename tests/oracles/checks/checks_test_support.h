#pragma once
// Literal cases, journals and reports for the judges' positive and negative controls.

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "oracles/capture/journal.h"
#include "oracles/checks/judge.h"
#include "oracles/model/case.h"
#include "oracles/model/driver_report.h"
#include "reference_impl/json.h"

namespace gemini_oracle::checks::testing {

/// A case from literal JSON; `file` decides the verdict prefix (y_, n_, i_).
inline model::Case MakeCase(std::string_view json, std::string file = "y_case.json") {
  const std::string stem = file.substr(0, file.rfind('.'));
  return model::CaseFromJson(ParseJson(json), "checks/" + stem, file);
}

/// A journal holding these raw bodies in arrival order.
inline std::vector<capture::JournalEntry> MakeJournal(std::initializer_list<std::string> bodies) {
  std::vector<capture::JournalEntry> journal;
  for (const auto& body : bodies) {
    capture::JournalEntry entry;
    entry.order = entry.index = journal.size();
    entry.method = "POST";
    entry.path = "/v1beta/models/gemini-2.5-flash:generateContent";
    entry.body = body;
    entry.scripted = true;
    journal.push_back(std::move(entry));
  }
  return journal;
}

/// `text` with the only occurrence of `from` replaced by `to`: the one defect a control plants.
inline std::string Replace(std::string text, std::string_view from, std::string_view to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "control text lacks: " << from;
  if (at == std::string::npos) return text;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << "control text repeats: " << from;
  return text.replace(at, from.size(), to);
}

inline model::ParsedCall Call(std::string id, std::string name, std::string_view arguments) {
  return model::ParsedCall{std::move(id), std::move(name), ParseJson(arguments)};
}

inline model::ExchangeReport Exchange(std::vector<model::ParsedCall> calls = {},
                                       std::string before = "[]", std::string after = "[]") {
  model::ExchangeReport report;
  report.request_built = true;
  report.response_parsed = true;
  report.calls = std::move(calls);
  report.transcript_before_build = std::move(before);
  report.transcript_after_build = std::move(after);
  return report;
}

/// `(clause, pointer)` of every finding, for exact comparisons.
inline std::vector<std::pair<std::string, std::string>> Where(
    const std::vector<Finding>& findings) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& finding : findings) out.emplace_back(finding.clause, finding.pointer);
  return out;
}

using Places = std::vector<std::pair<std::string, std::string>>;

// ---------------------------------------------------------------------------------------------
// The shared good run: two parallel calls with native ids (the first signed, with an integral
// float argument), results listed in reverse (a list and an object), then a closing request.

inline constexpr std::string_view kParallelCase = R"({
  "description": "Two parallel calls with native ids are answered by id, then closed.",
  "clauses": ["ADR-226.3", "ADR-224.4"],
  "options": {"tools": [{"functionDeclarations": [{"name": "lookup"}]}]},
  "exchanges": [
    {"user": "look both up",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"id": "call_A1", "name": "lookup", "args": {"q": "alpha", "n": 1.0}},
        "thoughtSignature": "c2lnLWFscGhh"},
       {"functionCall": {"id": "call_B2", "name": "lookup", "args": {}}}]}}]}},
     "then": {"call_order": "reverse",
              "results": [{"call": 1, "json": [1, [2, 3]]},
                          {"call": 0, "json": {"found": true}}]}},
    {"tool_mode": "NONE",
     "response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "both found"}]}}]}}}
  ],
  "expect": {"outcome": "accept", "requests": 2, "wire": [
    {"request": 2, "pointer": "/contents/2/parts/0/functionResponse/id", "equals": "call_A1"},
    {"request": 2, "pointer": "/contents/2/parts/1/functionResponse/response/1",
     "equals": [2, 3]},
    {"request": 1, "pointer": "/toolConfig", "absent": true}]}
})";

inline const std::string kParallelRequest1 =
    R"({"contents":[{"role":"user","parts":[{"text":"look both up"}]}],)"
    R"("tools":[{"functionDeclarations":[{"name":"lookup"}]}]})";

inline const std::string kParallelRequest2 =
    R"({"contents":[{"role":"user","parts":[{"text":"look both up"}]},)"
    R"({"role":"model","parts":[)"
    R"({"functionCall":{"id":"call_A1","name":"lookup","args":{"q":"alpha","n":1.0}},)"
    R"("thoughtSignature":"c2lnLWFscGhh"},)"
    R"({"functionCall":{"id":"call_B2","name":"lookup","args":{}}}]},)"
    R"({"role":"user","parts":[)"
    R"({"functionResponse":{"id":"call_A1","name":"lookup","response":{"found":true}}},)"
    R"({"functionResponse":{"id":"call_B2","name":"lookup","response":{"0":1,"1":[2,3]}}}]}],)"
    R"("tools":[{"functionDeclarations":[{"name":"lookup"}]}],)"
    R"("toolConfig":{"functionCallingConfig":{"mode":"NONE"}}})";

inline model::DriverReport ParallelReport() {
  model::DriverReport report;
  report.exchanges.push_back(
      Exchange({Call("tc_1", "lookup", R"({"q":"alpha","n":1.0})"), Call("tc_2", "lookup", "{}")},
               R"([{"role":"user","content":"look both up"}])",
               R"([{"role":"user","content":"look both up"}])"));
  report.exchanges.push_back(Exchange());
  return report;
}

// ---------------------------------------------------------------------------------------------
// A second good run: one ID-less call selected by name, answered with plain text.

inline constexpr std::string_view kIdlessCase = R"({
  "description": "An ID-less call is answered without an id.",
  "clauses": ["ADR-226.4"],
  "exchanges": [
    {"user": "weather?",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"name": "weather", "args": {"city": "Paris"}}}]}}]}},
     "then": {"results": [{"call": {"name": "weather"}, "text": "sunny and mild"}]}},
    {"response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "It is sunny."}]}}]}}}
  ],
  "expect": {"outcome": "accept", "requests": 2}
})";

inline const std::string kIdlessRequest1 =
    R"({"contents":[{"role":"user","parts":[{"text":"weather?"}]}]})";

inline const std::string kIdlessRequest2 =
    R"({"contents":[{"role":"user","parts":[{"text":"weather?"}]},)"
    R"({"role":"model","parts":[{"functionCall":{"name":"weather","args":{"city":"Paris"}}}]},)"
    R"({"role":"user","parts":[{"functionResponse":{"name":"weather",)"
    R"("response":{"output":"sunny and mild"}}}]}]})";

inline model::DriverReport IdlessReport() {
  model::DriverReport report;
  report.exchanges.push_back(Exchange({Call("tc_1", "weather", R"({"city":"Paris"})")}));
  report.exchanges.push_back(Exchange());
  return report;
}

// ---------------------------------------------------------------------------------------------
// A third good run: a call the server answered inside its own content (ADR-226.B2) comes before
// the one pending call, which `call: 0` selects (P is the pending calls, INTERPRETING §5.4).

inline constexpr std::string_view kServerAnsweredCase = R"({
  "description": "A server-answered call comes before the pending call.",
  "clauses": ["ADR-226.B2", "ADR-224.11"],
  "exchanges": [
    {"user": "go",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"name": "beep", "args": {}}},
       {"functionResponse": {"name": "beep", "response": {"ok": true}}},
       {"functionCall": {"name": "print", "args": {"text": "hi"}}}]}}]}},
     "then": {"results": [{"call": 0, "json": {"printed": 1}}]}},
    {"response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "done"}]}}]}}}
  ],
  "expect": {"outcome": "accept", "requests": 2}
})";

inline const std::string kServerAnsweredRequest1 =
    R"({"contents":[{"role":"user","parts":[{"text":"go"}]}]})";

inline const std::string kServerAnsweredRequest2 =
    R"({"contents":[{"role":"user","parts":[{"text":"go"}]},)"
    R"({"role":"model","parts":[{"functionCall":{"name":"beep","args":{}}},)"
    R"({"functionResponse":{"name":"beep","response":{"ok":true}}},)"
    R"({"functionCall":{"name":"print","args":{"text":"hi"}}}]},)"
    R"({"role":"user","parts":[{"functionResponse":{"name":"print",)"
    R"("response":{"printed":1}}}]}]})";

inline model::DriverReport ServerAnsweredReport() {
  model::DriverReport report;
  report.exchanges.push_back(Exchange({Call("tc_1", "print", R"({"text":"hi"})")}));
  report.exchanges.push_back(Exchange());
  return report;
}

/// One judge over a good run whose second request is replaced: the usual negative control.
inline std::vector<Finding> JudgeWithSecondRequest(JudgeFn judge, std::string_view case_json,
                                                   const std::string& request1,
                                                   const std::string& request2,
                                                   const model::DriverReport& report) {
  const auto c = MakeCase(case_json);
  const auto journal = MakeJournal({request1, request2});
  return judge({c, journal, report});
}

inline std::vector<Finding> OnParallelRun(JudgeFn judge, const std::string& request2) {
  return JudgeWithSecondRequest(judge, kParallelCase, kParallelRequest1, request2,
                                ParallelReport());
}

inline std::vector<Finding> OnIdlessRun(JudgeFn judge, const std::string& request2) {
  return JudgeWithSecondRequest(judge, kIdlessCase, kIdlessRequest1, request2, IdlessReport());
}


// ---------------------------------------------------------------------------------------------
// A call in pieces (INTERPRETING §5.6): f(id c1) opens, two pieces stream "Par" + "is" into
// $.city, an empty piece closes it; a whole call g(id c2) follows. Two calls: `call: 1` is g,
// and f is selected by its assembled arguments.

inline constexpr std::string_view kPiecesCase = R"({
  "description": "A call whose arguments arrive in pieces is one call.",
  "clauses": ["ADR-226.3", "ADR-224.11"],
  "options": {"tools": [{"functionDeclarations": [{"name": "f"}, {"name": "g"}]}],
              "tool_config": {"functionCallingConfig": {"streamFunctionCallArguments": true}}},
  "exchanges": [
    {"user": "weather?",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [
       {"functionCall": {"name": "f", "id": "c1", "willContinue": true}},
       {"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "Par",
                                          "willContinue": true}], "willContinue": true}},
       {"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "is"}],
                         "willContinue": true}},
       {"functionCall": {}},
       {"functionCall": {"name": "g", "id": "c2", "args": {"x": 1}}}]},
       "finishReason": "STOP"}]}},
     "then": {"results": [{"call": 1, "json": {"ok": true}},
                          {"call": {"name": "f", "args": {"city": "Paris"}},
                           "json": {"temp": 18}}]}},
    {"response": {"body": {"candidates": [{"content": {"role": "model",
       "parts": [{"text": "18 degrees"}]}, "finishReason": "STOP"}]}}}
  ],
  "expect": {"outcome": "accept", "requests": 2}
})";

inline const std::string kPiece0 =
    R"({"functionCall":{"name":"f","id":"c1","willContinue":true}})";
inline const std::string kPiece1 =
    R"({"functionCall":{"partialArgs":[{"jsonPath":"$.city","stringValue":"Par",)"
    R"("willContinue":true}],"willContinue":true}})";
inline const std::string kPiece2 =
    R"({"functionCall":{"partialArgs":[{"jsonPath":"$.city","stringValue":"is"}],)"
    R"("willContinue":true}})";
inline const std::string kPiece3 = R"({"functionCall":{}})";
inline const std::string kWholeG = R"({"functionCall":{"name":"g","id":"c2","args":{"x":1}}})";
inline const std::string kPiecesModelParts =
    kPiece0 + "," + kPiece1 + "," + kPiece2 + "," + kPiece3 + "," + kWholeG;
inline const std::string kAnswerF =
    R"({"functionResponse":{"id":"c1","name":"f","response":{"temp":18}}})";
inline const std::string kAnswerG =
    R"({"functionResponse":{"id":"c2","name":"g","response":{"ok":true}}})";

inline const std::string kPiecesTail =
    R"(],"tools":[{"functionDeclarations":[{"name":"f"},{"name":"g"}]}],)"
    R"("toolConfig":{"functionCallingConfig":{"streamFunctionCallArguments":true}}})";

inline const std::string kPiecesRequest1 =
    R"({"contents":[{"role":"user","parts":[{"text":"weather?"}]})" + kPiecesTail;

/// Request 2 with the model turn's parts and the answers as given.
inline std::string PiecesRequest2(const std::string& model_parts, const std::string& answers) {
  return R"({"contents":[{"role":"user","parts":[{"text":"weather?"}]},)"
         R"({"role":"model","parts":[)" + model_parts + R"(]},)"
         R"({"role":"user","parts":[)" + answers + "]}" + kPiecesTail;
}

inline const std::string kPiecesRequest2 = PiecesRequest2(kPiecesModelParts, kAnswerF + "," + kAnswerG);

/// The implementation's two public calls: f with the assembled arguments, then g.
inline model::DriverReport PiecesReport(std::string_view f_arguments = R"({"city":"Paris"})") {
  model::DriverReport report;
  report.exchanges.push_back(
      Exchange({Call("tc_1", "f", f_arguments), Call("tc_2", "g", R"({"x":1})")}));
  report.exchanges.push_back(Exchange());
  return report;
}

inline std::vector<Finding> OnPiecesRun(JudgeFn judge, const std::string& request2,
                                        const model::DriverReport& report = PiecesReport()) {
  return JudgeWithSecondRequest(judge, kPiecesCase, kPiecesRequest1, request2, report);
}

/// Gating and open findings only: not-judged notes left out.
inline std::vector<Finding> WithoutNotes(std::vector<Finding> findings) {
  std::erase_if(findings, [](const Finding& f) { return ReasonTag(f) == kNotJudged; });
  return findings;
}

}  // namespace gemini_oracle::checks::testing
