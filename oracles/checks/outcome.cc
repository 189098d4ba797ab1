// The case's verdict facts (GUIDE §3.1, §3.5): accepted or refused as the file name says.
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "oracles/checks/judge.h"

namespace gemini_oracle::checks {
namespace {

// Clauses whose behaviour is a refusal; an n_ case's findings cite the first of these it lists.
constexpr std::array<std::string_view, 7> kRefusingClauses = {
    "ADR-226.5", "ADR-226.6", "ADR-226.7", "ADR-226.10", "ADR-226.11", "ADR-226.12", "ADR-226.15"};

std::string CaseClause(const model::Case& c) {
  return c.clauses.empty() ? std::string("ADR-224.12") : c.clauses.front();
}

std::string RefusingClause(const model::Case& c) {
  for (const auto& clause : c.clauses) {
    if (std::find(kRefusingClauses.begin(), kRefusingClauses.end(), clause) !=
        kRefusingClauses.end()) {
      return clause;
    }
  }
  return CaseClause(c);
}

Json RefusalJson(const model::Refusal& refusal) {
  Json out = Json::object();
  out["code"] = refusal.code;
  out["phase"] = refusal.phase;
  out["exchange"] = refusal.exchange;
  return out;
}

std::vector<Finding> JudgeAccept(const CaseRun& run) {
  std::vector<Finding> findings;
  const std::string clause = CaseClause(run.c);
  const std::size_t expected = run.c.expect.requests.value_or(run.c.exchanges.size());
  const std::size_t sent = run.journal.size();
  // ADR-224.12: an accepted case is accepted, every scripted request sent.
  if (run.report.refusal) {
    findings.push_back(MakeFinding(clause, kShouldHaveAccepted, std::nullopt, "",
                                   "refused with " + run.report.refusal->code + " in the " +
                                       run.report.refusal->phase + " phase of exchange " +
                                       std::to_string(run.report.refusal->exchange),
                                   "accept", RefusalJson(*run.report.refusal)));
    return findings;
  }
  if (sent < expected) {
    // A stop of the application (the case's actions do not fit the calls the implementation
    // parsed) says so: the conversation went no further because of the parse.
    const std::string why =
        run.report.stopped ? ": the application stopped at exchange " +
                                 std::to_string(run.report.stopped->exchange) +
                                 ", whose actions do not fit the calls the implementation parsed"
                           : " without a refusal";
    findings.push_back(MakeFinding(clause, kShouldHaveAccepted, std::nullopt, "",
                                   "stopped after " + std::to_string(sent) + " of " +
                                       std::to_string(expected) + " requests" + why,
                                   expected, sent));
  } else if (sent > expected) {
    // A request the case never scripted: a wire fact of its own (ADR-224.12, the journal is
    // the account of the wire), judged under every profile whatever the case's clauses.
    findings.push_back(MakeFinding(
        "ADR-224.12", kWireViolation, expected + 1, "",
        "sent " + std::to_string(sent) + " requests where the case has " + std::to_string(expected),
        expected, sent));
  }
  return findings;
}

std::vector<Finding> JudgeRefuse(const CaseRun& run) {
  std::vector<Finding> findings;
  const std::string clause = RefusingClause(run.c);
  const model::Expect& expect = run.c.expect;
  const std::size_t exchange = expect.exchange.value_or(1);
  Json wanted = Json::object();
  wanted["code"] = expect.error;
  wanted["phase"] = expect.phase;
  wanted["exchange"] = exchange;
  if (!run.report.refusal) {
    findings.push_back(MakeFinding(clause, kShouldHaveRefused, std::nullopt, "",
                                   "no refusal; the case expects " + expect.error + " in the " +
                                       expect.phase + " phase of exchange " +
                                       std::to_string(exchange),
                                   wanted, "accept"));
    return findings;
  }
  const model::Refusal& refusal = *run.report.refusal;
  if (!run.refusal_code_judged) {
    findings.push_back(
        NotJudged(clause,
                  "the refusal's code, reported phase and refused message and part: the "
                  "implementation reports its own error class (no typed-errors capability, no "
                  "--error-map entry for it); judged on the refusal, its exchange and the "
                  "requests sent before it"));
  }
  if (run.refusal_code_judged && refusal.code != expect.error) {
    findings.push_back(MakeFinding(clause, kWrongError, std::nullopt, "",
                                   "refused with " + refusal.code + " instead of " + expect.error,
                                   expect.error, refusal.code));
  }
  if (run.refusal_code_judged && refusal.phase != expect.phase) {
    findings.push_back(
        MakeFinding(clause, kWrongError, std::nullopt, "",
                    "refused in the " + refusal.phase + " phase instead of " + expect.phase,
                    expect.phase, refusal.phase));
  }
  if (refusal.exchange != exchange) {
    findings.push_back(MakeFinding(clause, kWrongError, std::nullopt, "",
                                   "refused at exchange " + std::to_string(refusal.exchange) +
                                       " instead of " + std::to_string(exchange),
                                   exchange, refusal.exchange));
  }
  // The stored state the refusal names, when the case states it (fixtures/INTERPRETING.md
  // §7.2): only for the expected rule, since another code's location says nothing about it.
  if (run.refusal_code_judged && refusal.code == expect.error) {
    const auto judge_index = [&](const std::optional<std::size_t>& wanted_index,
                                 const std::optional<std::size_t>& reported, const char* what) {
      if (!wanted_index) return;
      if (!reported) {
        findings.push_back(NotJudged(clause, std::string("the case names the refused ") + what +
                                                 " " + std::to_string(*wanted_index) +
                                                 ", but the implementation reported no " + what +
                                                 " index"));
        return;
      }
      if (*reported != *wanted_index) {
        findings.push_back(MakeFinding(clause, kWrongError, std::nullopt, "",
                                       std::string("refused naming ") + what + " " +
                                           std::to_string(*reported) + " instead of " +
                                           std::to_string(*wanted_index),
                                       *wanted_index, *reported));
      }
    };
    judge_index(expect.message, refusal.message_index, "message");
    judge_index(expect.part, refusal.part_index, "part");
  }
  // A build refusal of exchange e comes before request e; parse and http ones after it.
  const std::size_t allowed =
      expect.phase == "build" ? (exchange > 0 ? exchange - 1 : 0) : exchange;
  // The journal says which requests went out, whatever the implementation calls its phase: a
  // refusal of exchange e's answer (parse, http) needs request e sent, and one while building
  // request e needs the e-1 before it. Fewer is another refusal than the case's, with or
  // without typed errors (INTERPRETING §15.4). ADR-226: "Malformed or duplicate native IDs in
  // the tool parser ... are refused" (the parser reads an answer, so request e went out) and
  // such state "must fail before contact" (so requests 1..e-1 did).
  if (run.journal.size() < allowed) {
    findings.push_back(MakeFinding(clause, kWrongError, run.journal.size() + 1, "",
                                   "refused after " + std::to_string(run.journal.size()) +
                                       " requests; a refusal in the " + expect.phase +
                                       " phase of exchange " + std::to_string(exchange) +
                                       " comes after " + std::to_string(allowed),
                                   allowed, run.journal.size()));
  }
  if (run.journal.size() > allowed) {
    findings.push_back(MakeFinding(clause, kContactedBeforeRefusal, allowed + 1, "",
                                   "sent " + std::to_string(run.journal.size()) +
                                       " requests; a refusal in the " + expect.phase +
                                       " phase of exchange " + std::to_string(exchange) +
                                       " allows " + std::to_string(allowed),
                                   allowed, run.journal.size()));
  }
  return findings;
}

}  // namespace

std::vector<Finding> JudgeOutcome(const CaseRun& run) {
  switch (run.c.expect.outcome) {
    case model::Expected::kAccept:
      return JudgeAccept(run);
    case model::Expected::kRefuse:
      return JudgeRefuse(run);
    case model::Expected::kImplementationDefined:
      return {};
  }
  return {};
}

}  // namespace gemini_oracle::checks
