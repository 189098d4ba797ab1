#pragma once
// A CLI command run in process, with its exit status and what it wrote.

#include <sstream>
#include <string>

namespace gemini_oracle::testing {

struct Captured {
  int status;
  std::string out;
  std::string err;
};

/// Runs `command(args, out, err)` (a cli::*Command) and keeps what it wrote.
template <typename Command, typename Args>
Captured Capture(Command command, const Args& args) {
  std::ostringstream out, err;
  const int status = command(args, out, err);
  return {status, out.str(), err.str()};
}

}  // namespace gemini_oracle::testing
