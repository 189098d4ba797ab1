#pragma once
// A raw loopback TCP client for tests that must control every byte a server receives (bursts,
// trickled headers, bodies cut short), where an HTTP client library would do it for them.

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace gemini_oracle::testing {

/// A socket connected to 127.0.0.1:port, or -1. A positive `wait_seconds` bounds each send and
/// receive, so a server that never answers fails the test instead of hanging it.
inline int ConnectLoopback(int port, int wait_seconds = 0) {
  const int sock = ::socket(AF_INET, SOCK_STREAM, 0);
  if (wait_seconds > 0) {
    timeval wait{wait_seconds, 0};
    ::setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    ::setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &wait, sizeof wait);
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(sock, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(sock);
    return -1;
  }
  return sock;
}

/// Sends every byte; false when the peer closed or an error (a timeout included) came first.
inline bool SendAll(int sock, const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(sock, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace gemini_oracle::testing
