// `gemini-oracle generate`: generated scenarios written as ordinary case files, byte-identical
// for the same seed, each named by its family, seed and index, its `source` naming them too, so
// that any implementation can run them (`gemini-oracle run --fixtures DIR`).
#include <fstream>
#include <regex>
#include <vector>
#include <functional>
#include <iostream>

#include "apps/gemini-oracle/commands.h"
#include "generators/call_pieces.h"
#include "generators/conversation.h"
#include "generators/parallel_calls.h"

namespace gemini_oracle::cli {
namespace {

// The size RapidCheck draws at: large enough for every edge, small enough for a readable case.
constexpr int kSize = 30;

// Case i of a family is drawn from its own stream, so it depends on neither the count nor the
// other families.
rc::Random StreamOf(std::uint64_t seed, std::size_t index, std::uint64_t family) {
  return rc::Random(rc::Random::Key{seed, static_cast<std::uint64_t>(index), 0x67656e, family});
}

struct Written {
  std::string stem;
  Json file;
};

struct Family {
  const char* name;
  std::function<Written(const rc::Random&, std::uint64_t seed, std::size_t index)> draw;
};

const std::vector<Family>& Families() {
  static const std::vector<Family> families = {
      {"parallel_calls",
       [](const rc::Random& random, std::uint64_t seed, std::size_t index) {
         const auto s = generators::genParallelCallsScenario()(random, kSize).value();
         return Written{generators::ParallelCallsStem(s, seed, index),
                        generators::ParallelCallsCase(s, seed, index)};
       }},
      {"conversation",
       [](const rc::Random& random, std::uint64_t seed, std::size_t index) {
         const auto s = generators::genConversationScenario()(random, kSize).value();
         return Written{generators::ConversationStem(s, seed, index),
                        generators::ConversationCase(s, seed, index)};
       }},
      // Listed last: a family's index keys its random stream, so the families before it draw
      // the same cases as before it was added.
      {"call_pieces",
       [](const rc::Random& random, std::uint64_t seed, std::size_t index) {
         const auto s = generators::genCallPiecesScenario()(random, kSize).value();
         return Written{generators::CallPiecesStem(seed, index),
                        generators::CallPiecesCase(s, seed, index)};
       }},
  };
  return families;
}

std::string FamilyNames() {
  std::string names;
  for (const auto& f : Families()) names += (names.empty() ? "" : ", ") + std::string(f.name);
  return names;
}

}  // namespace

int GenerateCommand(const GenerateArgs& args, std::ostream& out, std::ostream& err) {
  const std::string name = "gemini-oracle generate: ";
  // An empty folder would mean the working folder, and a count past the limit (CLI11 saturates
  // a huge number to SIZE_MAX) would write until the disk is full.
  if (args.out.empty()) {
    err << name << "--out needs a folder (an empty path is refused)\n";
    return kExitBadInput;
  }
  if (args.count < 1 || args.count > kMaxGenerateCount) {
    err << name << "--count takes a whole number from 1 to " << kMaxGenerateCount << "\n";
    return kExitBadInput;
  }
  std::vector<std::size_t> chosen;
  for (std::size_t f = 0; f < Families().size(); ++f) {
    if (args.family == "all" || args.family == Families()[f].name) chosen.push_back(f);
  }
  if (chosen.empty()) {
    err << name << "unknown --family '" << args.family << "'; families: all, " << FamilyNames()
        << "\n";
    return kExitBadInput;
  }
  for (const std::size_t f : chosen) {
    const Family& family = Families()[f];
    const std::filesystem::path folder = args.out / family.name;
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec) {
      err << name << "cannot create " << folder.string() << ": " << ec.message() << "\n";
      return kExitHarness;
    }
    // Files this family wrote before (another seed or a larger count) would otherwise run
    // with the new set. Only names this command writes are removed: <y|n>_<family>_s<S>_<i>.
    const std::regex written("[yn]_" + std::string(family.name) + "_s[0-9]+_[0-9]+\\.json");
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
      if (!entry.is_regular_file() ||
          !std::regex_match(entry.path().filename().string(), written)) {
        continue;
      }
      if (!std::filesystem::remove(entry.path(), ec) || ec) {
        err << name << "cannot remove the earlier " << entry.path().string() << "\n";
        return kExitHarness;
      }
    }
    if (ec) {
      err << name << "cannot read " << folder.string() << ": " << ec.message() << "\n";
      return kExitHarness;
    }
    // One thread: RapidCheck's generators are not thread-safe, and creating the files (what
    // dominates on a disk) does not go faster from several threads into one folder.
    for (std::size_t i = 0; i < args.count; ++i) {
      const Written written = family.draw(StreamOf(args.seed, i, f), args.seed, i);
      const std::filesystem::path file = folder / (written.stem + ".json");
      std::ofstream stream(file, std::ios::binary | std::ios::trunc);
      stream << written.file.dump(2) << "\n";
      if (!stream) {
        err << name << "cannot write " << file.string() << "\n";
        return kExitHarness;
      }
    }
    out << name << args.count << " " << family.name << " cases, seed " << args.seed << ", in "
        << folder.string() << "\n";
  }
  return 0;
}

}  // namespace gemini_oracle::cli
