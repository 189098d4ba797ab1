// The reference implementation as a driver process (fixtures/INTERPRETING.md §15): reads the
// oracle's JSON lines on standard input, runs each case with the same in-process driver
// `gemini-oracle run --impl builtin` uses, and answers on standard output. It must give exactly
// the in-process verdicts (tests/drivers/reference_driver_process_test.cc).
#include <iostream>
#include <string>

#include "oracles/runner/driver_protocol.h"
#include "oracles/runner/reference_driver.h"

namespace protocol = gemini_oracle::runner::protocol;
using gemini_oracle::Json;

namespace {

void Answer(const Json& message) { std::cout << gemini_oracle::DumpJson(message) << std::endl; }

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  gemini_oracle::runner::ReferenceDriver driver;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    Json message;
    try {
      message = gemini_oracle::ParseJson(line);
    } catch (const std::exception&) {
      std::cerr << "reference driver: a line that is not JSON\n";
      return 2;
    }
    if (!message.is_object() || !message.contains("type") || !message["type"].is_string()) {
      std::cerr << "reference driver: a message without a type\n";
      return 2;
    }
    const std::string type = message["type"].get<std::string>();
    if (type == "start") {
      Answer(Json{{"type", "hello"},
                  {"name", "gemini-oracle-reference"},
                  {"version", GEMINI_ORACLE_VERSION},
                  {"language", "C++"},
                  {"protocol", protocol::kVersion},
                  {"capabilities",
                   Json::array({protocol::kCarriedState, protocol::kPersistence,
                                protocol::kApprovals, protocol::kStreaming,
                                protocol::kStreamCapture, protocol::kSnapshots,
                                protocol::kTypedErrors})}});
    } else if (type == "run_case") {
      const Json seq = message.contains("seq") ? message["seq"] : Json(0);
      try {
        const auto c = protocol::CaseOfRunMessage(message);
        const std::string base_url = message.value("base_url", "");
        const auto report = message.value("keep_in_memory", false)
                                ? driver.RunInMemory(c, base_url)
                                : driver.Run(c, base_url);
        if (report.harness_error) {
          Answer(Json{{"type", "errored"}, {"seq", seq}, {"context", *report.harness_error}});
        } else {
          Answer(protocol::ReportMessage(report, seq));
        }
      } catch (const std::exception& e) {
        Answer(Json{{"type", "errored"}, {"seq", seq}, {"context", e.what()}});
      }
    } else if (type == "stop") {
      return 0;
    }
  }
  return 0;
}
