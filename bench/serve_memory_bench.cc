// What one request can make `gemini-oracle serve` hold: starts the server, sends the largest
// bodies it accepts and bodies it refuses, and prints the growth of its peak and current
// resident memory after each (VmHWM, VmRSS). With --slow N it also opens N connections that
// never finish a request, closes them, and prints the server's thread count as idle workers
// retire.
//
//   build/bin/serve_memory_bench [--binary PATH] [--slow N]

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

// A field of /proc/PID/status in KiB (VmHWM, VmRSS) or its count (Threads).
long Status(pid_t pid, const std::string& field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0)
      return std::strtol(line.c_str() + field.size() + 1, nullptr, 10);
  }
  return -1;
}

int Connect(int port) {
  const int sock = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(sock, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(sock);
    return -1;
  }
  timeval wait{60, 0};
  ::setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  return sock;
}

bool SendAll(int sock, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::send(sock, data, size, MSG_NOSIGNAL);
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// Sends `body` to `path` (as one sized body, or in chunks of 64 KiB) and returns the answer's
// status line and error rule.
std::string Request(int port, const std::string& path, const std::string& body, bool chunked) {
  const int sock = Connect(port);
  if (sock < 0) return "cannot connect";
  std::string head =
      "POST " + path + " HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n";
  head += chunked ? std::string("Transfer-Encoding: chunked\r\n")
                  : "Content-Length: " + std::to_string(body.size()) + "\r\n";
  head += "Connection: close\r\n\r\n";
  bool ok = SendAll(sock, head.data(), head.size());
  if (!chunked) {
    ok = ok && SendAll(sock, body.data(), body.size());
  } else {
    for (std::size_t at = 0; ok && at < body.size(); at += 64 * 1024) {
      const std::size_t size = std::min<std::size_t>(64 * 1024, body.size() - at);
      char size_line[32];
      std::snprintf(size_line, sizeof size_line, "%zx\r\n", size);
      ok = SendAll(sock, size_line, std::strlen(size_line)) &&
           SendAll(sock, body.data() + at, size) && SendAll(sock, "\r\n", 2);
    }
    ok = ok && SendAll(sock, "0\r\n\r\n", 5);
  }
  std::string answer;
  char buffer[4096];
  ssize_t n;
  while ((n = ::recv(sock, buffer, sizeof buffer, 0)) > 0)
    answer.append(buffer, static_cast<std::size_t>(n));
  ::close(sock);
  const auto end = answer.find("\r\n");
  std::string status = answer.substr(0, end == std::string::npos ? 40 : end);
  for (const char* key : {"\"error\": ", "\"rule\": "}) {
    const auto at = answer.find(key);
    if (at != std::string::npos)
      status += " " + answer.substr(at + std::strlen(key),
                                    answer.find_first_of(",\n}", at) - at - std::strlen(key));
  }
  return status.empty() ? "no answer" : status;
}

}  // namespace

int main(int argc, char** argv) {
  std::string binary = GEMINI_ORACLE_BINARY;
  long slow = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--binary") binary = argv[i + 1];
    if (flag == "--slow") slow = std::strtol(argv[i + 1], nullptr, 10);
  }
  // Room for --slow connections on both ends; the server inherits the limit.
  rlimit files{};
  ::getrlimit(RLIMIT_NOFILE, &files);
  files.rlim_cur = files.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &files);

  const auto work =
      std::filesystem::temp_directory_path() / ("serve-memory-bench-" + std::to_string(::getpid()));
  std::filesystem::create_directories(work);
  const std::string log = (work / "serve.out").string();
  const std::string reports = (work / "reports").string();
  std::vector<std::string> args = {binary,
                                   "--source-root",
                                   GEMINI_ORACLE_DEFAULT_SOURCE_DIR,
                                   "serve",
                                   "--report-dir",
                                   reports,
                                   "--port",
                                   "0"};
  std::vector<char*> argv_spawn;
  for (auto& arg : args) argv_spawn.push_back(arg.data());
  argv_spawn.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = -1;
  if (posix_spawn(&pid, binary.c_str(), &actions, nullptr, argv_spawn.data(), environ) != 0) {
    std::cerr << "cannot start " << binary << "\n";
    return 2;
  }
  int port = 0;
  for (int tries = 0; tries < 400 && port == 0; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ifstream in(log);
    std::stringstream text;
    text << in.rdbuf();
    const auto at = text.str().find("127.0.0.1:");
    if (at != std::string::npos) port = std::atoi(text.str().c_str() + at + 10);
  }
  if (port == 0) {
    std::cerr << "serve did not start\n";
    ::kill(pid, SIGKILL);
    return 2;
  }
  // A run, so the report route parses (a seq nobody waits for is refused after parsing).
  std::cout << "create run: " << Request(port, "/runs", "{}", false) << "\n";

  // Each request's peak: the kernel's high-water mark is reset before it (clear_refs 5), so
  // "peak+" is how far above the resident memory before the request it went.
  std::printf("%-50s %-42s %10s %10s\n", "request", "answer", "peak+ KiB", "kept KiB");
  std::printf("%-50s %-42s %10ld\n", "(resident after start and one run)", "",
              Status(pid, "VmRSS"));
  const auto measure = [&](const char* what, const std::string& path, const std::string& body,
                           bool chunked) {
    std::ofstream(std::string("/proc/") + std::to_string(pid) + "/clear_refs") << "5";
    const long before = Status(pid, "VmRSS");
    const std::string answer = Request(port, path, body, chunked);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the worker has let go
    std::printf("%-50s %-42s %10ld %10ld\n", what, answer.substr(0, 42).c_str(),
                Status(pid, "VmHWM") - before, Status(pid, "VmRSS") - before);
  };
  constexpr std::size_t kLimit = 4u << 20;         // serve::kMaxBodyBytes
  constexpr std::size_t kCreateLimit = 64u << 10;  // serve::kMaxCreateBodyBytes
  const std::string sixty(60u << 20, '[');
  // The most values a body holds: one empty array per 3 bytes, all parsed.
  const auto arrays = [](std::size_t bytes) {
    std::string many = "[";
    while (many.size() + 4 < bytes) many += "[],";
    return many + "[]]";
  };
  measure("POST /runs 60 MB of [ (Content-Length)", "/runs", sixty, false);
  measure("POST /runs 60 MB of [ (chunked)", "/runs", sixty, true);
  measure("POST /runs 64 KiB [[],...] (largest it parses)", "/runs", arrays(kCreateLimit), false);
  measure("POST /runs 100 KiB [[],...]", "/runs", arrays(100u << 10), false);
  measure("POST /runs/1/reports/N 4 MiB of [", "/runs/1/reports/999999", sixty.substr(0, kLimit),
          false);
  measure("POST /runs/1/reports/N 4 MiB [[],...] (parsed)", "/runs/1/reports/999999",
          arrays(kLimit), false);
  measure("the same again", "/runs/1/reports/999999", arrays(kLimit), false);
  measure("POST /runs/1/reports/N 60 MB of [", "/runs/1/reports/999999", sixty, false);

  if (slow > 0) {
    std::printf("\nthreads at start: %ld\n", Status(pid, "Threads"));
    std::vector<int> socks;
    for (long i = 0; i < slow; ++i) {
      const int sock = Connect(port);
      if (sock < 0) break;
      SendAll(sock, "GET /runs/1 HTTP/1.1\r\n", 22);
      socks.push_back(sock);
    }
    std::this_thread::sleep_for(std::chrono::seconds(2));
    std::printf("threads with %zu slow connections open: %ld\n", socks.size(),
                Status(pid, "Threads"));
    for (const int sock : socks) ::close(sock);
    const auto closed = Clock::now();
    for (int second = 0; second <= 45; second += 5) {
      std::this_thread::sleep_for(closed + std::chrono::seconds(second) - Clock::now());
      std::printf("threads %2d s after closing them: %ld\n", second, Status(pid, "Threads"));
    }
  }
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  std::filesystem::remove_all(work);
  return 0;
}
