// Any bytes as an index.json given to `merge` or `compare`: the reader returns an index or
// refuses it with BadReport naming the file, and an index it accepts goes through what the two
// commands do with it (merging with another shard of the same run, comparing, every writer)
// without a crash; a merge it allows holds every case once, sorted, its summary recounted.

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "reports/compare.h"
#include "reports/html.h"
#include "reports/index.h"
#include "reports/junit.h"
#include "reports/markdown.h"
#include "reports/merge.h"
#include "reports/report_file.h"

namespace {

using gemini_oracle::reports::BadReport;
using gemini_oracle::reports::LoadedReport;
using nlohmann::json;
namespace reports = gemini_oracle::reports;

constexpr const char* kFile = "shard/index.json";

// The rest of the run the input claims to be a shard of: its other shard ("1/2" <-> "2/2"),
// holding the same results under other ids, so that the merge gets past its run checks.
LoadedReport OtherShard(const LoadedReport& report) {
  LoadedReport other{"other/index.json", report.index};
  json& context = other.index["context"];
  if (!context.is_object()) context = json::object();
  const auto shard = context.find("shard");
  context["shard"] = shard != context.end() && *shard == "2/2" ? "1/2" : "2/2";
  for (json& result : other.index["results"]) result["id"] = result["id"].get<std::string>() + "~";
  other.index["summary"] = reports::SummarizeResults(other.index["results"]);
  return other;
}

void Write(const json& index) {
  std::ostringstream out;
  reports::WriteIndexTo(index, out);
  reports::WriteJunit(index, out);
  reports::WriteMarkdown(index, out);
  reports::WriteHtml(index, out);
}

void Merge(const std::vector<LoadedReport>& shards) {
  reports::MergedReport merged;
  try {
    merged = reports::MergeShards(shards);
  } catch (const BadReport& e) {
    if (std::string_view(e.what()).find(": ") == std::string_view::npos) __builtin_trap();
    return;
  }
  const json& results = merged.index.at("results");
  for (std::size_t i = 1; i < results.size(); ++i) {
    if (!(results[i - 1]["id"].get<std::string>() < results[i]["id"].get<std::string>())) {
      __builtin_trap();  // sorted, and no case twice
    }
  }
  if (merged.index.at("summary").at("total") != results.size()) __builtin_trap();
  Write(merged.index);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  LoadedReport report{kFile, {}};
  try {
    // As LoadReport reads a file's bytes (the same two steps, without the file system).
    report.index = reports::ParseReportText(text, report.file);
    reports::CheckIndexShape(report.index, report.file);
  } catch (const BadReport& e) {
    if (std::string_view(e.what()).rfind(std::string(kFile) + ": ", 0) != 0) __builtin_trap();
    return 0;
  }
  Merge({report});
  const LoadedReport other = OtherShard(report);
  Merge({report, other});

  const json comparison = reports::BuildComparison({report, other, report});
  std::ostringstream out;
  reports::WriteComparisonMarkdown(comparison, out);
  reports::WriteComparisonHtml(comparison, out);
  reports::WriteIndexTo(comparison, out);
  Write(report.index);
  return 0;
}
