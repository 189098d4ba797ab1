// The gate on the real corpus: the reference implementation passes every case, and the same
// gate fails when the wire is broken on purpose (its negative controls).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "oracles/runner/case_loader.h"
#include "oracles/runner/reference_driver.h"
#include "oracles/runner/suite_runner.h"
#include "reports/index.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::runner {
namespace {

using gemini_oracle::testing::SourceRoot;

class Gate : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    loader_ = new CaseLoader(CaseLoader::FromSourceRoot(SourceRoot()));
    corpus_ = new CorpusCheck(CheckCorpus(SourceRoot() / "fixtures", *loader_));
  }
  static void TearDownTestSuite() {
    delete corpus_;
    delete loader_;
  }

  static nlohmann::json RunWith(ReferenceDriver::RequestHook hook) {
    SuiteOptions options;
    options.jobs = 2;
    options.seed = 11;
    return RunSuite(
        corpus_->cases, loader_->registry(),
        [hook] { return std::make_unique<ReferenceDriver>(hook); }, options);
  }

  // The clauses cited by gating findings of failed cases.
 public:
  static std::set<std::string> FailedClauses(const nlohmann::json& results) {
    std::set<std::string> clauses;
    for (const auto& r : results) {
      if (r["verdict"] != "fail") continue;
      for (const auto& f : r["findings"]) {
        if (f["gating"].get<bool>()) clauses.insert(f["clause"].get<std::string>());
      }
    }
    return clauses;
  }

  static CaseLoader* loader_;
  static CorpusCheck* corpus_;
};

CaseLoader* Gate::loader_ = nullptr;
CorpusCheck* Gate::corpus_ = nullptr;

// Loads the whole corpus without a single diagnostic.
TEST_F(Gate, CorpusIsValid) {
  for (const auto& d : corpus_->diagnostics) ADD_FAILURE() << FormatDiagnostic(d);
  EXPECT_GE(corpus_->cases.size(), 80u);
}

// Passes every gating case with the reference implementation (positive control).
TEST_F(Gate, ReferenceImplementationPassesTheCorpus) {
  const nlohmann::json results = RunWith({});
  ASSERT_EQ(results.size(), corpus_->cases.size());
  std::size_t passed = 0;
  for (const auto& r : results) {
    if (r["verdict"] == "pass") ++passed;
    EXPECT_FALSE(reports::Gates(r)) << r.dump(2);
  }
  EXPECT_GE(passed, 70u);
}

// Walks every functionResponse / functionCall of a request body.
template <typename F>
void ForEachPart(Json& request, const char* member, F&& f) {
  if (!request.contains("contents")) return;
  for (auto& content : request["contents"]) {
    if (!content.contains("parts")) continue;
    for (auto& part : content["parts"]) {
      if (part.contains(member)) f(part[member], part);
    }
  }
}

struct Fault {
  const char* name;
  const char* clause;
  ReferenceDriver::RequestHook hook;
};

// Names the fault in test listings instead of dumping its bytes.
void PrintTo(const Fault& fault, std::ostream* os) { *os << fault.name; }

class GateCatches : public Gate, public ::testing::WithParamInterface<Fault> {};

// Fails the gate, citing the right clause, when the wire is broken in one known way.
TEST_P(GateCatches, BrokenWire) {
  const nlohmann::json results = RunWith(GetParam().hook);
  const auto clauses = FailedClauses(results);
  EXPECT_TRUE(clauses.count(GetParam().clause))
      << GetParam().name << " was not caught under " << GetParam().clause << "; caught under "
      << ::testing::PrintToString(clauses);
}

INSTANTIATE_TEST_SUITE_P(
    NegativeControls, GateCatches,
    ::testing::Values(
        Fault{"DropsResponseIds", "ADR-226.3",
              [](Json& r) {
                ForEachPart(r, "functionResponse", [](Json& fr, Json&) { fr.erase("id"); });
              }},
        Fault{"InventsResponseIds", "ADR-226.4",
              [](Json& r) {
                ForEachPart(r, "functionResponse", [](Json& fr, Json&) {
                  if (!fr.contains("id")) fr["id"] = "made-up-1";
                });
              }},
        Fault{"SwapsResponseIds", "ADR-226.3",
              [](Json& r) {
                for (auto& content : r["contents"]) {
                  auto& parts = content["parts"];
                  if (parts.size() >= 2 && parts[0].contains("functionResponse") &&
                      parts[1].contains("functionResponse") &&
                      parts[0]["functionResponse"].contains("id") &&
                      parts[1]["functionResponse"].contains("id")) {
                    std::swap(parts[0]["functionResponse"]["id"],
                              parts[1]["functionResponse"]["id"]);
                  }
                }
              }},
        Fault{"CopiesANativeIdOntoIdlessCalls", "ADR-226.4",
              [](Json& r) {
                std::string seen;
                ForEachPart(r, "functionCall", [&](Json& fc, Json&) {
                  if (fc.contains("id") && seen.empty()) seen = fc["id"].get<std::string>();
                });
                if (seen.empty()) return;
                ForEachPart(r, "functionCall", [&](Json& fc, Json&) {
                  if (!fc.contains("id")) fc["id"] = seen;
                });
              }},
        Fault{"EmptyArgsAsList", "ADR-224.1",
              [](Json& r) {
                ForEachPart(r, "functionCall", [](Json& fc, Json&) {
                  if (fc.contains("args") && fc["args"].empty()) fc["args"] = Json::array();
                });
              }},
        Fault{"NumericKeyResponseAsList", "ADR-224.2",
              [](Json& r) {
                ForEachPart(r, "functionResponse", [](Json& fr, Json&) {
                  Json& resp = fr["response"];
                  if (resp.is_object() && (resp.empty() || resp.contains("0"))) {
                    Json list = Json::array();
                    for (auto& [k, v] : resp.items()) list.push_back(v);
                    resp = list;
                  }
                });
              }},
        Fault{"DropsThoughtSignatures", "ADR-224.8",
              [](Json& r) {
                for (auto& content : r["contents"]) {
                  for (auto& part : content["parts"]) part.erase("thoughtSignature");
                }
              }},
        Fault{"SplitsResultsOverContents", "ADR-226.20",
              [](Json& r) {
                Json contents = Json::array();
                for (auto& content : r["contents"]) {
                  const auto& parts = content["parts"];
                  if (parts.size() > 1 && parts[0].contains("functionResponse")) {
                    for (const auto& part : parts) {
                      contents.push_back(Json{{"role", "user"}, {"parts", Json::array({part})}});
                    }
                  } else {
                    contents.push_back(content);
                  }
                }
                r["contents"] = contents;
              }},
        Fault{"NestedListsBecomeObjects", "ADR-224.6",
              [](Json& r) {
                ForEachPart(r, "functionResponse", [](Json& fr, Json&) {
                  for (auto& [k, v] : fr["response"].items()) {
                    if (v.is_array()) {
                      Json obj = Json::object();
                      for (std::size_t i = 0; i < v.size(); ++i) obj[std::to_string(i)] = v[i];
                      v = obj;
                    }
                  }
                });
              }}),
    [](const ::testing::TestParamInfo<Fault>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace gemini_oracle::runner

namespace gemini_oracle::runner {
namespace {

// Replays integral floats as integers (1.0 -> 1): an open finding (ADR-224.F1) that gates
// only under --strict.
void RenormalizeReplayedArgs(Json& request) {
  for (auto& content : request["contents"]) {
    for (auto& part : content["parts"]) {
      if (part.contains("functionCall") && part["functionCall"].contains("args")) {
        part["functionCall"]["args"] = NormalizeNumbers(part["functionCall"]["args"]);
      }
    }
  }
}

// Reports an open finding without failing, and fails on it with --strict.
TEST_F(Gate, StrictMakesOpenFindingsGate) {
  SuiteOptions options;
  options.jobs = 2;
  const auto run = [&](bool strict) {
    options.strict = strict;
    return RunSuite(
        corpus_->cases, loader_->registry(),
        [] { return std::make_unique<ReferenceDriver>(RenormalizeReplayedArgs); }, options);
  };
  std::size_t open_findings = 0;
  for (const auto& r : run(false)) {
    EXPECT_FALSE(reports::Gates(r)) << r.dump(2);
    for (const auto& f : r["findings"]) open_findings += f["clause"] == "ADR-224.F1" ? 1 : 0;
  }
  EXPECT_GT(open_findings, 0u);
  EXPECT_TRUE(FailedClauses(run(true)).count("ADR-224.F1"));
}

// Stops scheduling after the first gating result and reports the rest as not run.
TEST_F(Gate, FailFastStopsEarly) {
  SuiteOptions options;
  options.fail_fast = true;
  const auto results = RunSuite(
      corpus_->cases, loader_->registry(),
      [] {
        return std::make_unique<ReferenceDriver>([](Json& r) { r["contents"] = Json::array(); });
      },
      options);
  std::size_t failed = 0, not_run = 0;
  for (const auto& r : results) {
    failed += r["verdict"] == "fail" ? 1 : 0;
    not_run += r["reason"] == "not run: failure limit reached" ? 1 : 0;
  }
  EXPECT_EQ(failed, 1u);
  EXPECT_GT(not_run, 100u);
}

// Gives exactly the same verdicts and findings at 64 jobs, run after run, as at one job
// (timings aside): more connections than any fixed server pool must change nothing.
TEST_F(Gate, VerdictsDoNotDependOnJobs) {
  const auto verdicts = [](unsigned jobs, std::uint64_t seed) {
    SuiteOptions options;
    options.jobs = jobs;
    options.seed = seed;
    nlohmann::json results = RunSuite(
        corpus_->cases, loader_->registry(), [] { return std::make_unique<ReferenceDriver>(); },
        options);
    for (auto& r : results) r.erase("duration_ms");
    return results;
  };
  const nlohmann::json one_job = verdicts(1, 5);
  for (std::uint64_t round = 0; round < 4; ++round) {
    const nlohmann::json many = verdicts(64, round);
    ASSERT_EQ(many.size(), one_job.size());
    for (std::size_t i = 0; i < many.size(); ++i) {
      EXPECT_EQ(many[i], one_job[i]) << "round " << round << ": " << many[i].dump(2);
    }
  }
}

}  // namespace
}  // namespace gemini_oracle::runner
