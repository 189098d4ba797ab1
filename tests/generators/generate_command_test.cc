// `gemini-oracle generate`: the same seed writes the same bytes, another seed other cases, and
// every file of every family passes `check`.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <sstream>

#include "apps/gemini-oracle/commands.h"
#include "oracles/runner/case_loader.h"
#include "tests/source_root.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::cli {
namespace {

using gemini_oracle::testing::ReadText;
using gemini_oracle::testing::SourceRoot;
using gemini_oracle::testing::TempDir;

constexpr std::size_t kCount = 40;
const char* const kFamilies[] = {"parallel_calls", "conversation", "call_pieces"};

int Generate(std::uint64_t seed, const std::filesystem::path& out, const std::string& family,
             std::string& errors) {
  std::ostringstream stdout_text, stderr_text;
  GenerateArgs args;
  args.seed = seed;
  args.count = kCount;
  args.out = out;
  args.family = family;
  const int code = GenerateCommand(args, stdout_text, stderr_text);
  errors = stderr_text.str();
  return code;
}

TEST(Generate, SameSeedSameBytesOtherSeedOtherCases) {
  TempDir a, b, c;
  std::string errors;
  ASSERT_EQ(Generate(7, a.path(), "all", errors), 0) << errors;
  ASSERT_EQ(Generate(7, b.path(), "all", errors), 0) << errors;
  ASSERT_EQ(Generate(8, c.path(), "all", errors), 0) << errors;
  for (const std::string family : kFamilies) {
    std::size_t files = 0, differ = 0;
    for (const auto& entry : std::filesystem::directory_iterator(a.path() / family)) {
      ++files;
      const auto name = entry.path().filename();
      const std::string text = ReadText(entry.path());
      EXPECT_EQ(text, ReadText(b.path() / family / name)) << name;
      EXPECT_NE(text.find("\"source\": \"generator " + family + " "), std::string::npos);
      EXPECT_NE(text.find(", seed 7, index "), std::string::npos);
      // The case of the same index under seed 8: its exchanges are drawn anew.
      const std::string index = name.string().substr(name.string().rfind('_'));
      for (const auto& other : std::filesystem::directory_iterator(c.path() / family)) {
        const std::string other_name = other.path().filename().string();
        if (other_name.substr(other_name.rfind('_')) != index) continue;
        const auto mine = nlohmann::json::parse(text);
        const auto theirs = nlohmann::json::parse(ReadText(other.path()));
        differ += mine["exchanges"] != theirs["exchanges"] ? 1 : 0;
      }
    }
    EXPECT_EQ(files, kCount) << family;
    EXPECT_GT(differ, kCount * 3 / 4) << family;
  }
  const auto loader = runner::CaseLoader::FromSourceRoot(SourceRoot());
  const runner::CorpusCheck corpus = runner::CheckCorpus(a.path(), loader);
  EXPECT_TRUE(corpus.ok()) << (corpus.diagnostics.empty()
                                   ? std::string()
                                   : runner::FormatDiagnostic(corpus.diagnostics.front()));
  EXPECT_EQ(corpus.cases.size(), std::size(kFamilies) * kCount);
}

TEST(Generate, OneFamilyWritesOnlyItsFolder) {
  TempDir a;
  std::string errors;
  ASSERT_EQ(Generate(3, a.path(), "conversation", errors), 0) << errors;
  EXPECT_TRUE(std::filesystem::exists(a.path() / "conversation"));
  EXPECT_FALSE(std::filesystem::exists(a.path() / "parallel_calls"));
}

// Case i depends on neither the count nor the other families; a second run into the same
// folder leaves no file of the first.
TEST(Generate, CaseIndependentOfCountAndFamiliesStaleFilesRemoved) {
  TempDir few, many, one;
  std::string errors;
  GenerateArgs args;
  std::ostringstream out, err;
  args.seed = 11;
  args.count = 5;
  args.out = few.path();
  ASSERT_EQ(GenerateCommand(args, out, err), 0);
  args.count = 30;
  args.out = many.path();
  ASSERT_EQ(GenerateCommand(args, out, err), 0);
  args.family = "conversation";
  args.out = one.path();
  ASSERT_EQ(GenerateCommand(args, out, err), 0);
  for (const auto& entry : std::filesystem::directory_iterator(few.path() / "conversation")) {
    const auto name = entry.path().filename();
    EXPECT_EQ(ReadText(entry.path()), ReadText(many.path() / "conversation" / name)) << name;
    EXPECT_EQ(ReadText(entry.path()), ReadText(one.path() / "conversation" / name)) << name;
  }
  // Again into `many` with another seed and a smaller count: only the new files remain.
  args.family = "all";
  args.seed = 12;
  args.count = 3;
  args.out = many.path();
  std::ofstream(many.path() / "conversation" / "notes.md") << "kept";
  std::ofstream(many.path() / "conversation" / "y_conversation_special.json") << "{}";
  ASSERT_EQ(GenerateCommand(args, out, err), 0);
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(many.path() / "conversation")) {
    files += entry.path().extension() == ".json" ? 1 : 0;
    EXPECT_EQ(entry.path().filename().string().find("_s11_"), std::string::npos);
  }
  EXPECT_EQ(files, 4u);  // the three new ones and a file of the user's
  EXPECT_TRUE(std::filesystem::exists(many.path() / "conversation" / "notes.md"));
  EXPECT_TRUE(std::filesystem::exists(many.path() / "conversation" / "y_conversation_special.json"));
}

// Refuses a count past kMaxGenerateCount (SIZE_MAX would write without end) and an empty
// folder (the working folder), before writing anything.
TEST(Generate, HugeCountAndEmptyFolderAreUsageErrors) {
  TempDir a;
  std::ostringstream out, err;
  GenerateArgs args;
  args.out = a.path();
  for (const std::size_t count : {kMaxGenerateCount + 1, SIZE_MAX}) {
    args.count = count;
    EXPECT_EQ(GenerateCommand(args, out, err), kExitBadInput) << count;
  }
  EXPECT_NE(err.str().find("--count takes a whole number from 1 to 100000"), std::string::npos);
  EXPECT_TRUE(std::filesystem::is_empty(a.path()));
  args.count = 1;
  args.out.clear();
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(a.path());
  const int code = GenerateCommand(args, out, err);
  std::filesystem::current_path(cwd);
  EXPECT_EQ(code, kExitBadInput);
  EXPECT_TRUE(std::filesystem::is_empty(a.path()));
  EXPECT_NE(err.str().find("--out needs a folder"), std::string::npos);
}

TEST(Generate, UnknownFamilyIsRefusedWithTheFamilies) {
  TempDir a;
  std::string errors;
  EXPECT_EQ(Generate(7, a.path(), "no_such_family", errors), kExitBadInput);
  EXPECT_NE(errors.find("families: all, parallel_calls, conversation, call_pieces"), std::string::npos);
}

}  // namespace
}  // namespace gemini_oracle::cli
