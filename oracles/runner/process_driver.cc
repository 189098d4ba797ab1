#include "oracles/runner/process_driver.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "oracles/runner/descendants.h"

extern char** environ;

namespace gemini_oracle::runner {
namespace {

// A driver line longer than this is garbled (a report of the largest case is far smaller).
constexpr std::size_t kMaxLine = std::size_t{64} << 20;

// Whether a line is a hello: the one line on standard output that chooses it as the protocol's
// channel (a log such as Node's `{ a: 1 }` does not).
bool IsHello(std::string_view line) {
  try {
    const Json message = ParseJson(std::string(line));
    return message.is_object() && message.contains("type") && message["type"] == "hello";
  } catch (const std::exception&) {
    return false;
  }
}

std::string Seconds(std::chrono::milliseconds d) {
  return std::to_string(d.count() / 1000) + "." + std::to_string(d.count() % 1000 / 100) + " s";
}

}  // namespace

ProcessDriver::ProcessDriver(Options options) : options_(std::move(options)) {
  // A driver that dies makes our next write fail with EPIPE instead of killing the oracle
  // (the HTTP code of the oracle ignores SIGPIPE as well).
  ::signal(SIGPIPE, SIG_IGN);
}

ProcessDriver::~ProcessDriver() { Stop(true); }

void ProcessDriver::Start() {
  int in[2], out[2], reply[2];
  if (::pipe2(in, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("cannot make pipes: ") + std::strerror(errno));
  }
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ::close(in[0]);
    ::close(in[1]);
    throw std::runtime_error(std::string("cannot make pipes: ") + std::strerror(errno));
  }
  if (::pipe2(reply, O_CLOEXEC) != 0) {
    for (const int fd : {in[0], in[1], out[0], out[1]}) ::close(fd);
    throw std::runtime_error(std::string("cannot make pipes: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, reply[1], protocol::kReplyFd);
  // Nothing else of the oracle's (its HTTP sockets, another driver's pipes) reaches the driver.
  posix_spawn_file_actions_addclosefrom_np(&actions, protocol::kReplyFd + 1);
  const std::string command = options_.command;
  char* argv[] = {const_cast<char*>("/bin/sh"), const_cast<char*>("-c"),
                  const_cast<char*>(command.c_str()), nullptr};
  // Its own process group, so that ending it ends what it started too; registered, so that
  // the oracle's own end ends it whatever the way out (descendants.h). No signal blocked: the
  // oracle blocks its stop signals for the thread that takes them.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attributes, 0);
  sigset_t no_signals;
  sigemptyset(&no_signals);
  posix_spawnattr_setsigmask(&attributes, &no_signals);
  pid_t pid = -1;
  const int spawned = descendants::StartGroup(
      [&](pid_t& started) {
        return ::posix_spawn(&started, "/bin/sh", &actions, &attributes, argv, environ);
      },
      pid);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(in[0]);
  ::close(out[1]);
  ::close(reply[1]);
  if (spawned != 0) {
    ::close(in[1]);
    ::close(out[0]);
    ::close(reply[0]);
    throw std::runtime_error(std::string("cannot start the driver: ") + std::strerror(spawned));
  }
  {
    std::lock_guard<std::mutex> lock(pid_mutex_);
    pid_ = pid;
  }
  to_driver_ = in[1];
  from_driver_ = out[0];
  replies_ = reply[0];
  ::fcntl(to_driver_, F_SETFL, ::fcntl(to_driver_, F_GETFL) | O_NONBLOCK);
  buffer_.clear();
  stdout_bytes_.clear();
  reply_bytes_.clear();
  channel_ = Channel::kUnknown;
  stdout_ended_ = replies_ended_ = false;
  cancelled_ = false;
  ++starts_;
  // start -> hello
  if (!WriteLine(DumpJson(protocol::StartMessage()),
                 std::chrono::steady_clock::now() + options_.start_timeout)) {
    Stop(false);
    throw std::runtime_error("the driver closed its input before `start`");
  }
  bool timed_out = false;
  const auto line =
      ReadLine(std::chrono::steady_clock::now() + options_.start_timeout, timed_out);
  if (!line) {
    Stop(false);
    throw std::runtime_error(timed_out ? "the driver did not answer `start` within " +
                                             Seconds(options_.start_timeout)
                                       : "the driver ended before answering `start`");
  }
  try {
    hello_ = protocol::ParseHello(ParseJson(*line));
  } catch (const std::exception& e) {
    Stop(false);
    throw std::runtime_error(std::string("the driver's answer to `start` breaks the protocol: ") +
                             (dynamic_cast<const std::invalid_argument*>(&e) ? e.what()
                                                                               : "not JSON"));
  }
}

void ProcessDriver::Stop(bool gracefully) {
  pid_t pid;
  {
    std::lock_guard<std::mutex> lock(pid_mutex_);
    pid = pid_;
    pid_ = -1;
  }
  if (pid <= 0) return;
  if (gracefully && to_driver_ >= 0) {
    WriteLine(DumpJson(protocol::StopMessage()),
              std::chrono::steady_clock::now() + std::chrono::milliseconds(500));
  }
  if (to_driver_ >= 0) ::close(to_driver_);
  to_driver_ = -1;
  // A graceful driver ends on `stop` or at the end of its input; give it a moment. Whatever it
  // started is ended with it (its process group), while its pid is not yet reaped.
  siginfo_t info{};
  bool ended = false;
  for (int i = 0; gracefully && i < 50 && !ended; ++i) {
    info.si_pid = 0;
    ended = ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
            info.si_pid == pid;
    if (!ended) ::usleep(10000);
  }
  ::kill(-pid, SIGKILL);
  descendants::ForgetGroup(pid);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (from_driver_ >= 0) ::close(from_driver_);
  from_driver_ = -1;
  if (replies_ >= 0) ::close(replies_);
  replies_ = -1;
  buffer_.clear();
}

bool ProcessDriver::Ended() {
  std::lock_guard<std::mutex> lock(pid_mutex_);
  if (pid_ <= 0) return true;
  siginfo_t info{};
  return ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == pid_;
}

bool ProcessDriver::WriteLine(const std::string& line,
                              std::chrono::steady_clock::time_point deadline) {
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 || cancelled_) return false;
    pollfd fds[3] = {{to_driver_, POLLOUT, 0},
                     {stdout_ended_ ? -1 : from_driver_, POLLIN, 0},
                     {replies_ended_ ? -1 : replies_, POLLIN, 0}};
    const int ready = ::poll(fds, 3, static_cast<int>(std::min<long long>(left.count(), 200)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    Pump(fds + 1);  // keep its output flowing: it may write while we do
    if (buffer_.size() > kMaxLine) return false;
    if (fds[0].revents & (POLLERR | POLLHUP)) return false;
    if (!(fds[0].revents & POLLOUT)) continue;
    const ssize_t n = ::write(to_driver_, text.data() + done, text.size() - done);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

bool ProcessDriver::Pump(const pollfd* ready) {
  // ready[0]: standard output, ready[1]: the reply descriptor.
  const int fds[2] = {from_driver_, replies_};
  bool* ended[2] = {&stdout_ended_, &replies_ended_};
  std::string* early[2] = {&stdout_bytes_, &reply_bytes_};
  const Channel own[2] = {Channel::kStdout, Channel::kReplyFd};
  for (int k = 0; k < 2; ++k) {
    if (*ended[k] || !(ready[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    char chunk[65536];
    const ssize_t n = ::read(fds[k], chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) {
      *ended[k] = true;
      continue;
    }
    const std::string_view bytes(chunk, static_cast<std::size_t>(n));
    if (channel_ == Channel::kUnknown) {
      early[k]->append(bytes);
    } else if (channel_ == own[k]) {
      buffer_.append(bytes);
    } else if (k == 0) {
      // Standard output of a driver speaking on its reply descriptor: logs, for people.
      [[maybe_unused]] const ssize_t w = ::write(STDERR_FILENO, bytes.data(), bytes.size());
    }
  }
  if (channel_ == Channel::kReplyFd) return !replies_ended_;
  if (channel_ == Channel::kStdout) return !stdout_ended_;
  return !(stdout_ended_ && replies_ended_);
}

std::optional<std::string> ProcessDriver::TakeLine() {
  if (channel_ == Channel::kUnknown) {
    // The first line on the reply descriptor chooses it, whatever standard output held before
    // (logs, for people). On standard output, the first line that looks like JSON chooses it;
    // lines before it are logs.
    if (reply_bytes_.find('\n') != std::string::npos) {
      channel_ = Channel::kReplyFd;
      buffer_ = std::move(reply_bytes_);
      [[maybe_unused]] const ssize_t w =
          ::write(STDERR_FILENO, stdout_bytes_.data(), stdout_bytes_.size());
      stdout_bytes_.clear();
    } else {
      for (std::size_t end; (end = stdout_bytes_.find('\n')) != std::string::npos;) {
        if (IsHello(std::string_view(stdout_bytes_).substr(0, end))) {
          channel_ = Channel::kStdout;
          buffer_ = std::move(stdout_bytes_);
          stdout_bytes_.clear();
          break;
        }
        [[maybe_unused]] const ssize_t w = ::write(STDERR_FILENO, stdout_bytes_.data(), end + 1);
        stdout_bytes_.erase(0, end + 1);
      }
      if (channel_ == Channel::kUnknown) return std::nullopt;
    }
    reply_bytes_.clear();
  }
  for (std::size_t end; (end = buffer_.find('\n')) != std::string::npos;) {
    std::string line = buffer_.substr(0, end);
    buffer_.erase(0, end + 1);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) return line;  // blank lines are nothing
  }
  return std::nullopt;
}

std::optional<std::string> ProcessDriver::ReadLine(std::chrono::steady_clock::time_point deadline,
                                                   bool& timed_out) {
  timed_out = false;
  for (;;) {
    if (auto line = TakeLine()) return line;
    if (buffer_.size() > kMaxLine || stdout_bytes_.size() > kMaxLine ||
        reply_bytes_.size() > kMaxLine) {
      return std::nullopt;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 || cancelled_) {
      timed_out = true;
      return std::nullopt;
    }
    pollfd fds[2] = {{stdout_ended_ ? -1 : from_driver_, POLLIN, 0},
                     {replies_ended_ ? -1 : replies_, POLLIN, 0}};
    const int ready = ::poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 200)));
    if (ready < 0 && errno == EINTR) continue;
    if (!Pump(fds)) {  // the protocol's channel ended: what it held is all there is
      if (auto line = TakeLine()) return line;
      return std::nullopt;
    }
  }
}

const protocol::Hello& ProcessDriver::Hello() {
  if (!hello_ || pid_ <= 0) Start();
  return *hello_;
}

std::string ProcessDriver::Name() const { return hello_ ? hello_->name : options_.command; }

bool ProcessDriver::Persists(const Case& c) const {
  const std::set<std::string>* capabilities =
      hello_ ? &hello_->capabilities
             : (options_.capabilities ? &*options_.capabilities : nullptr);
  return c.Suspends() && capabilities != nullptr &&
         capabilities->count(protocol::kPersistence) > 0;
}

DriverReport ProcessDriver::Run(const Case& c, const std::string& base_url) {
  return Ask(c, base_url, false);
}

DriverReport ProcessDriver::RunInMemory(const Case& c, const std::string& base_url) {
  return Ask(c, base_url, true);
}

void ProcessDriver::Cancel() {
  std::lock_guard<std::mutex> lock(pid_mutex_);
  if (!in_flight_) return;  // between cases (the case is being judged): nothing to end
  cancelled_ = true;
  if (pid_ > 0) ::kill(-pid_, SIGKILL);  // Ask() stops waiting and starts it again later
}

DriverReport ProcessDriver::Ask(const Case& c, const std::string& base_url, bool keep_in_memory) {
  DriverReport report;
  // A driver that ended between cases (or left output after its last answer) is started
  // afresh, quietly: the new case is not to blame. What it wrote since is read first.
  if (pid_ > 0) {
    pollfd fds[2] = {{stdout_ended_ ? -1 : from_driver_, POLLIN, 0},
                     {replies_ended_ ? -1 : replies_, POLLIN, 0}};
    if (::poll(fds, 2, 0) > 0) Pump(fds);
  }
  if (pid_ > 0 && (Ended() || !buffer_.empty())) Stop(false);
  {
    std::lock_guard<std::mutex> lock(pid_mutex_);
    in_flight_ = true;
    cancelled_ = false;
  }
  struct Landed {
    ProcessDriver* self;
    ~Landed() {
      std::lock_guard<std::mutex> lock(self->pid_mutex_);
      self->in_flight_ = false;
    }
  } landed{this};
  try {
    Hello();
  } catch (const std::exception& e) {
    report.harness_error = std::string("driver: ") + e.what();
    return report;
  }
  const std::size_t seq = ++seq_;
  const auto deadline = std::chrono::steady_clock::now() + options_.reply_timeout;
  bool timed_out = false;
  std::optional<std::string> line;
  if (WriteLine(DumpJson(protocol::RunCaseMessage(c, base_url, seq, keep_in_memory)), deadline)) {
    line = ReadLine(deadline, timed_out);
  } else {
    timed_out = std::chrono::steady_clock::now() >= deadline;
  }
  if (!line) {
    report.harness_error =
        cancelled_  ? std::string("driver: cancelled at the case time limit; restarted")
        : timed_out ? "driver: no answer within " + Seconds(options_.reply_timeout) + "; restarted"
        : buffer_.size() > kMaxLine ? std::string("driver: a line over 64 MiB; restarted")
                                    : std::string("driver: it ended while running the case; restarted");
    Stop(false);
    return report;
  }
  Json message;
  try {
    message = ParseJson(*line);
  } catch (const std::exception&) {
    report.harness_error = "driver: a line that is not JSON; restarted";
    Stop(false);
    return report;
  }
  const protocol::Reply reply = protocol::ParseReply(message, seq, c);
  if (const auto* garbled = std::get_if<protocol::Garbled>(&reply)) {
    report.harness_error = "driver: " + garbled->why + "; restarted";
    Stop(false);
  } else if (const auto* skipped = std::get_if<protocol::Skipped>(&reply)) {
    report.skipped = skipped->reason;
  } else if (const auto* errored = std::get_if<protocol::Errored>(&reply)) {
    report.harness_error = "driver errored: " + errored->context;
  } else {
    report = std::get<DriverReport>(reply);
  }
  return report;
}

}  // namespace gemini_oracle::runner
