// `gemini-oracle generate`: generated scenarios written as ordinary case files, byte-identical
// for the same seed, each named by its family, seed and index, its `source` naming them too, so
// that any implementation can run them (`gemini-oracle run --fixtures DIR`).
#include <fstream>
#include <iostream>

#include "apps/gemini-oracle/commands.h"
#include "generators/parallel_calls.h"

namespace gemini_oracle::cli {
namespace {

// The size RapidCheck draws at: large enough for every edge, small enough for a readable case.
constexpr int kSize = 30;

// Case i of the set is drawn from its own stream, so it does not depend on the count.
rc::Random StreamOf(std::uint64_t seed, std::size_t index) {
  return rc::Random(rc::Random::Key{seed, static_cast<std::uint64_t>(index), 0x67656e, 0});
}

}  // namespace

int GenerateCommand(const GenerateArgs& args, std::ostream& out, std::ostream& err) {
  const std::string name = "gemini-oracle generate: ";
  if (args.family != "parallel_calls") {
    err << name << "unknown --family '" << args.family << "'; families: parallel_calls\n";
    return kExitBadInput;
  }
  const std::filesystem::path folder = args.out / args.family;
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) {
    err << name << "cannot create " << folder.string() << ": " << ec.message() << "\n";
    return kExitBadInput;
  }
  const auto gen = generators::genParallelCallsScenario();
  for (std::size_t i = 0; i < args.count; ++i) {
    const auto scenario = gen(StreamOf(args.seed, i), kSize).value();
    const std::filesystem::path file =
        folder / (generators::ParallelCallsStem(scenario, args.seed, i) + ".json");
    std::ofstream stream(file, std::ios::binary | std::ios::trunc);
    stream << generators::ParallelCallsCase(scenario, args.seed, i).dump(2) << "\n";
    if (!stream) {
      err << name << "cannot write " << file.string() << "\n";
      return kExitBadInput;
    }
  }
  out << name << args.count << " " << args.family << " cases, seed " << args.seed << ", in "
      << folder.string() << "\n";
  return 0;
}

}  // namespace gemini_oracle::cli
