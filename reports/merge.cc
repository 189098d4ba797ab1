#include "reports/merge.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "reports/index.h"

namespace gemini_oracle::reports {
namespace {

using nlohmann::json;

struct ShardOf {
  std::size_t index = 1;
  std::size_t count = 1;
};

// "i/n" with 1 <= i <= n, as run --shard writes it.
std::optional<ShardOf> ParseShard(const json& value) {
  if (!value.is_string()) return std::nullopt;
  const std::string text = value.get<std::string>();
  const auto slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  ShardOf shard;
  const auto number = [](std::string_view digits, std::size_t& out) {
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) {
      return false;
    }
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
    return error == std::errc() && end == digits.data() + digits.size();
  };
  const std::string_view view(text);
  if (!number(view.substr(0, slash), shard.index) || !number(view.substr(slash + 1), shard.count) ||
      shard.index < 1 || shard.index > shard.count) {
    return std::nullopt;
  }
  return shard;
}

json Member(const json& object, const std::string& key) {
  const auto it = object.find(key);
  return it == object.end() ? json() : *it;
}

std::string Shown(const json& value) {
  return value.is_null() ? "absent"
                         : value.dump(-1, ' ', false, json::error_handler_t::replace);
}

// "1-2,4": runs of consecutive shards folded.
std::string Ranges(const std::vector<std::size_t>& shards) {
  std::string text;
  for (std::size_t i = 0; i < shards.size();) {
    std::size_t j = i;
    while (j + 1 < shards.size() && shards[j + 1] == shards[j] + 1) ++j;
    text += (text.empty() ? "" : ",") + std::to_string(shards[i]);
    if (j > i) text += "-" + std::to_string(shards[j]);
    i = j + 1;
  }
  return text;
}

[[noreturn]] void Conflict(const LoadedReport& a, const LoadedReport& b, const std::string& what) {
  throw BadReport(a.file + " and " + b.file + " " + what);
}

// The first clause whose level differs, for a message that says where to look.
std::string LevelDifference(const json& a, const json& b) {
  std::set<std::string> keys;
  if (a.is_object()) for (const auto& [key, value] : a.items()) keys.insert(key);
  if (b.is_object()) for (const auto& [key, value] : b.items()) keys.insert(key);
  for (const auto& key : keys) {
    const json va = a.is_object() ? Member(a, key) : json();
    const json vb = b.is_object() ? Member(b, key) : json();
    if (va != vb) return key + ": " + Shown(va) + " vs " + Shown(vb);
  }
  return Shown(a) + " vs " + Shown(b);
}

}  // namespace

MergedReport MergeShards(const std::vector<LoadedReport>& reports) {
  MergedReport merged;
  if (reports.empty()) return merged;
  std::vector<json> contexts;
  std::vector<ShardOf> shards;
  for (const auto& report : reports) {
    CheckIndexShape(report.index, report.file);
    // The merged index is written in this tool's schema; an older shard's members may mean
    // something else.
    if (Member(report.index, "json_schema_version") != json(kJsonSchemaVersion)) {
      throw BadReport(report.file + ": json_schema_version " +
                      Shown(Member(report.index, "json_schema_version")) +
                      ": merge joins version " + std::to_string(kJsonSchemaVersion) +
                      " reports only");
    }
    // A shard whose counts no longer match its own results was cut or edited after its run:
    // which of the two is the run's account cannot be told.
    const json summary = Member(report.index, "summary");
    if (!summary.is_object()) {
      throw BadReport(report.file + ": no summary object (every report index holds one)");
    }
    const json counted = SummarizeResults(report.index.at("results"));
    for (const auto& key : SummaryKeys()) {
      if (Member(summary, key) != counted.at(key)) {
        throw BadReport(report.file + ": summary." + key + " is " + Shown(Member(summary, key)) +
                        " but its results count " + counted.at(key).dump() +
                        "; the report was changed after its run");
      }
    }
    contexts.push_back(Member(report.index, "context"));
    if (!contexts.back().is_object()) contexts.back() = json::object();
    const auto shard = ParseShard(Member(contexts.back(), "shard"));
    if (!shard) {
      throw BadReport(report.file + ": context.shard " + Shown(Member(contexts.back(), "shard")) +
                      " is not i/n (the shard of one run --shard i/n)");
    }
    shards.push_back(*shard);
  }
  // A whole run holds every case: merged with anything, each of its cases would come twice.
  for (std::size_t r = 0; r < reports.size() && reports.size() > 1; ++r) {
    if (shards[r].count == 1) {
      const LoadedReport& other = reports[r == 0 ? 1 : 0];
      throw BadReport(reports[r].file + " is a whole run (context.shard \"1/1\"), not a shard: "
                      "it cannot be merged with " + other.file);
    }
  }
  for (std::size_t r = 1; r < reports.size(); ++r) {
    for (const char* key : kShardInvariantMembers) {
      const json a = Member(contexts[0], key);
      const json b = Member(contexts[r], key);
      if (a != b) {
        // Shards started without --seed (each from its own clock) can never be merged.
        const std::string hint = std::string(key) == "seed"
                                     ? "; run every shard with the same --seed"
                                     : std::string();
        Conflict(reports[0], reports[r],
                 "differ in context." + std::string(key) + " (" + Shown(a) + " vs " + Shown(b) +
                     ")" + hint);
      }
    }
    if (shards[r].count != shards[0].count) {
      Conflict(reports[0], reports[r],
               "differ in the shard count n of context.shard (" + Shown(Member(contexts[0], "shard")) +
                   " vs " + Shown(Member(contexts[r], "shard")) + ")");
    }
    const json levels_a = Member(contexts[0], "clause_levels");
    const json levels_b = Member(contexts[r], "clause_levels");
    if (levels_a != levels_b) {
      Conflict(reports[0], reports[r],
               "differ in context.clause_levels (" + LevelDifference(levels_a, levels_b) + ")");
    }
  }
  std::map<std::size_t, std::size_t> by_shard;  // shard index -> report
  for (std::size_t r = 0; r < reports.size(); ++r) {
    const auto [it, fresh] = by_shard.emplace(shards[r].index, r);
    if (!fresh) {
      Conflict(reports[it->second], reports[r],
               "are both shard " + std::to_string(shards[r].index) + "/" +
                   std::to_string(shards[r].count));
    }
  }
  std::map<std::string, std::size_t> owner;  // case id -> report
  for (std::size_t r = 0; r < reports.size(); ++r) {
    for (const auto& result : reports[r].index.at("results")) {
      const std::string id = result.value("id", std::string());
      const auto [it, fresh] = owner.emplace(id, r);
      if (!fresh) {
        if (it->second == r) throw BadReport(reports[r].file + " holds case " + id + " twice");
        Conflict(reports[it->second], reports[r], "both hold case " + id);
      }
    }
  }

  merged.shard_count = shards[0].count;
  for (const auto& [index, r] : by_shard) merged.shards.push_back(index);
  for (std::size_t i = 1; i <= merged.shard_count; ++i) {
    if (by_shard.count(i) == 0) merged.missing.push_back(i);
  }

  // Every member all shards agree on, except those describing one shard's own execution.
  static const std::set<std::string> kOwnPerShard = {"shard", "shards", "missing_shards", "jobs",
                                                     "started_at", "bad_fixtures"};
  json context = json::object();
  for (const auto& item : contexts[0].items()) {
    // Named, not a structured binding: clang 14 (the fuzz build) cannot capture one.
    const std::string& key = item.key();
    const json& value = item.value();
    if (kOwnPerShard.count(key) != 0) continue;
    const bool common = std::all_of(contexts.begin(), contexts.end(), [&](const json& c) {
      const auto it = c.find(key);
      return it != c.end() && *it == value;
    });
    if (common) context[key] = value;
  }
  std::optional<std::string> earliest;
  std::optional<std::int64_t> bad_fixtures;
  for (const auto& c : contexts) {
    if (const auto it = c.find("started_at"); it != c.end() && it->is_string()) {
      // ISO-8601 UTC times in one format order as text.
      if (!earliest || it->get<std::string>() < *earliest) earliest = it->get<std::string>();
    }
    if (const auto it = c.find("bad_fixtures"); it != c.end() && it->is_number_integer()) {
      bad_fixtures = bad_fixtures.value_or(0) + it->get<std::int64_t>();
    }
  }
  if (earliest) context["started_at"] = *earliest;
  if (bad_fixtures) context["bad_fixtures"] = *bad_fixtures;
  context["shard"] = Ranges(merged.shards) + "/" + std::to_string(merged.shard_count);
  context["shards"] = merged.shards;
  if (!merged.missing.empty()) context["missing_shards"] = merged.missing;

  json results = json::array();
  for (const auto& [index, r] : by_shard) {
    for (const auto& result : reports[r].index.at("results")) results.push_back(result);
  }
  std::stable_sort(results.begin(), results.end(), [](const json& a, const json& b) {
    return a["id"].get<std::string>() < b["id"].get<std::string>();
  });
  merged.index = BuildIndex(std::move(context), std::move(results));
  return merged;
}

}  // namespace gemini_oracle::reports
