#pragma once
// An implementation in any language, behind its driver process: the oracle starts the driver
// command and speaks the driver protocol (driver_protocol.h) over its standard input and
// output, or, for a driver whose libraries log to standard output, over the descriptor
// protocol::kReplyFd it inherits (its hello there chooses it; its standard output then goes
// to the oracle's standard error, for people). A crash, a hang or a garbled line is that case's `error` (the runner's time limit
// makes a hang a `timeout` first); the driver is then started again for the next case.

#include <poll.h>
#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "oracles/runner/driver.h"
#include "oracles/runner/driver_protocol.h"

namespace gemini_oracle::runner {

class ProcessDriver final : public Driver {
 public:
  struct Options {
    std::string command;  // run by /bin/sh -c
    std::chrono::milliseconds start_timeout{10000};  // for its hello
    std::chrono::milliseconds reply_timeout{60000};  // for each case's answer
    /// What the driver can do, when known before it starts (a probe's hello): lets
    /// Persists() answer before this driver's first case.
    std::optional<std::set<std::string>> capabilities;
  };

  explicit ProcessDriver(Options options);
  ~ProcessDriver() override;
  ProcessDriver(const ProcessDriver&) = delete;
  ProcessDriver& operator=(const ProcessDriver&) = delete;

  /// Starts the driver (when it is not running) and returns its hello. Throws
  /// std::runtime_error when it does not start or does not greet as the protocol says.
  const protocol::Hello& Hello();

  std::string Name() const override;
  DriverReport Run(const Case& c, const std::string& base_url) override;
  bool Persists(const Case& c) const override;
  DriverReport RunInMemory(const Case& c, const std::string& base_url) override;
  void Cancel() override;

  /// How many times the driver process was started (1 when it never failed).
  std::size_t Starts() const { return starts_; }

 private:
  DriverReport Ask(const Case& c, const std::string& base_url, bool keep_in_memory);
  void Start();
  void Stop(bool gracefully);
  /// Whether the driver process has ended (reaps it then).
  bool Ended();
  /// Writes one line before the deadline, reading the driver's output meanwhile so that
  /// neither side blocks on a full pipe.
  bool WriteLine(const std::string& line, std::chrono::steady_clock::time_point deadline);
  /// The next line, or nullopt at end of output or past the deadline (`timed_out` says which).
  std::optional<std::string> ReadLine(std::chrono::steady_clock::time_point deadline,
                                      bool& timed_out);
  /// Reads what is ready on the driver's standard output and reply descriptor; false when the
  /// protocol's channel ended.
  bool Pump(const pollfd* ready);
  /// A whole protocol line already read, choosing the channel at the first one.
  std::optional<std::string> TakeLine();

  enum class Channel { kUnknown, kStdout, kReplyFd };

  Options options_;
  std::optional<protocol::Hello> hello_;
  pid_t pid_ = -1;
  int to_driver_ = -1;
  int from_driver_ = -1;
  int replies_ = -1;  // the read end of the driver's protocol::kReplyFd
  Channel channel_ = Channel::kUnknown;
  std::string buffer_;        // the protocol channel's bytes not yet taken
  std::string stdout_bytes_;  // standard output before the channel is known
  std::string reply_bytes_;   // the reply descriptor's bytes before the channel is known
  bool stdout_ended_ = false, replies_ended_ = false;
  std::size_t seq_ = 0;
  std::size_t starts_ = 0;
  std::mutex pid_mutex_;  // Cancel() comes from the watchdog thread
  bool in_flight_ = false;  // a case is being asked (under pid_mutex_): only then Cancel() kills
  std::atomic<bool> cancelled_{false};
};

}  // namespace gemini_oracle::runner
