// Any bytes as a line a driver writes (INTERPRETING §15), read as the process driver reads
// it: JSON, then a hello or the answer to run_case number 1 of a real case. A hello is accepted
// or refused with std::invalid_argument; an answer is a report, skipped, errored or garbled and
// never throws; the driver's free texts stay short and free of control characters; a report
// written back as a line reads back the same; a refusal is placed within what was sent.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

#include "oracles/runner/case_loader.h"
#include "oracles/runner/driver_protocol.h"
#include "reference_impl/json.h"

namespace {

using gemini_oracle::DumpJson;
using gemini_oracle::Json;
using gemini_oracle::ParseJson;
namespace runner = gemini_oracle::runner;
namespace protocol = gemini_oracle::runner::protocol;

// A case with parallel calls, results and carried state: the texts its native content is cut
// from, and the exchanges a refusal may be placed at.
const runner::Case& TheCase() {
  static const runner::Case c = [] {
    const std::filesystem::path root(GEMINI_ORACLE_FUZZ_SOURCE_DIR);
    const auto loader = runner::CaseLoader::FromSourceRoot(root);
    auto loaded = loader.Load(
        root / "fixtures" / "adr-226" / "y_identical_parallel_calls_results_reversed.json",
        root / "fixtures");
    if (!loaded.value) __builtin_trap();  // the fixture moved: name another
    return *loaded.value;
  }();
  return c;
}

// At most `limit` bytes and the "…" (3 bytes) that marks a cut, no control character.
bool Safe(const std::string& text, std::size_t limit) {
  if (text.size() > limit + 3) return false;
  for (const unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  Json message;
  try {
    message = ParseJson(line);  // as ProcessDriver reads each line
  } catch (const std::exception&) {
    return 0;
  }
  try {
    const protocol::Hello hello = protocol::ParseHello(message);
    if (hello.name.empty() || !Safe(hello.name, 128) || !Safe(hello.version, 160) ||
        !Safe(hello.language, 64)) {
      __builtin_trap();
    }
  } catch (const std::invalid_argument&) {
  }

  const runner::Case& c = TheCase();
  const protocol::Reply reply = protocol::ParseReply(message, 1, c);
  if (const auto* skipped = std::get_if<protocol::Skipped>(&reply)) {
    if (!Safe(skipped->reason, 200)) __builtin_trap();
  } else if (const auto* errored = std::get_if<protocol::Errored>(&reply)) {
    if (!Safe(errored->context, 200)) __builtin_trap();
  } else if (const auto* report = std::get_if<runner::DriverReport>(&reply)) {
    // What the reference process driver writes for this report reads back as the same report.
    const Json written = protocol::ReportMessage(*report, 1);
    const protocol::Reply again = protocol::ParseReply(ParseJson(DumpJson(written)), 1, c);
    const auto* same = std::get_if<runner::DriverReport>(&again);
    if (same == nullptr || DumpJson(protocol::ReportMessage(*same, 1)) != DumpJson(written)) {
      __builtin_trap();
    }
    for (std::size_t sent = 0; sent <= c.exchanges.size() + 1; ++sent) {
      runner::DriverReport placed = *report;
      protocol::PlaceRefusal(c, sent, placed);
    }
  }
  return 0;
}
