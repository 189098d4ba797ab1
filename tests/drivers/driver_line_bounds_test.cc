// A driver line nested 100,000 deep: refused by the depth-bounded reader as that case's error
// (or, as a hello, the driver's), never a crash of the oracle.
#include <gtest/gtest.h>

#include <string>

#include "oracles/runner/case_loader.h"
#include "oracles/runner/process_driver.h"
#include "tests/source_root.h"
#include "tests/temp_dir.h"

namespace gemini_oracle::runner {
namespace {

using gemini_oracle::testing::SourceRoot;
using gemini_oracle::testing::TempDir;

// $1 "hello": the hello is the deep line, on the reply descriptor (3, which chooses it as the
// channel, so the line is read as a protocol line); else the answer to the first case is.
constexpr const char* kDeepDriver = R"(#!/usr/bin/env bash
deep() { head -c 100000 /dev/zero | tr '\0' '['; head -c 100000 /dev/zero | tr '\0' ']'; echo; }
while IFS= read -r line; do
  case "$line" in
    *'"type":"start"'*)
      if [ "$1" = hello ]; then deep >&3; else
        echo '{"type":"hello","protocol":1,"name":"deep","version":"0","language":"bash","capabilities":[]}'
      fi ;;
    *'"type":"run_case"'*) deep ;;
    *'"type":"stop"'*) exit 0 ;;
  esac
done
)";

TEST(ProcessDriver, ALineNested100000DeepIsThatCasesError) {
  TempDir dir;
  const auto script = dir.Write("deep.sh", kDeepDriver);
  const auto loader = CaseLoader::FromSourceRoot(SourceRoot());
  const auto corpus = CheckCorpus(SourceRoot() / "fixtures" / "adr-224", loader);
  ASSERT_FALSE(corpus.cases.empty());

  ProcessDriver::Options options;
  options.command = "bash " + script.string() + " report";
  ProcessDriver driver(options);
  EXPECT_EQ(driver.Hello().name, "deep");
  const DriverReport report = driver.Run(corpus.cases.front(), "http://127.0.0.1:1");
  ASSERT_TRUE(report.harness_error);
  EXPECT_NE(report.harness_error->find("not JSON"), std::string::npos) << *report.harness_error;

  ProcessDriver::Options hello_options;
  hello_options.command = "bash " + script.string() + " hello";
  ProcessDriver deep_hello(hello_options);
  try {
    deep_hello.Hello();
    ADD_FAILURE() << "a hello nested 100,000 deep was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("breaks the protocol: not JSON"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gemini_oracle::runner
