#pragma once
// A MariaDB "server" for tests that need one to stop answering: it listens on a loopback port,
// greets, lets the client log in and then answers nothing, as a server stopped or paused
// mid-run would. No database server needed.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gemini_oracle::testing {

// A MariaDB server's first packet (protocol 10).
inline std::string Greeting() {
  std::string payload;
  payload += '\x0a';
  payload += std::string("5.5.5-10.11.6-MariaDB") + '\0';
  payload += std::string("\x01\x00\x00\x00", 4);  // connection id
  payload += "abcdefgh";                          // scramble, first part
  payload += '\0';
  payload += std::string("\xfe\xf7", 2);  // capabilities, low: protocol 41, secure connection
  payload += '\x21';                      // utf8_general_ci
  payload += std::string("\x02\x00", 2);  // status: autocommit
  payload += std::string("\x08\x00", 2);  // capabilities, high: plugin auth
  payload += '\x15';                      // scramble length, 21
  payload += std::string(10, '\0');       // reserved
  payload += std::string("ijklmnopqrst") + '\0';  // scramble, second part
  payload += std::string("mysql_native_password") + '\0';
  std::string packet;
  packet += static_cast<char>(payload.size() & 0xff);
  packet += static_cast<char>((payload.size() >> 8) & 0xff);
  packet += '\0';
  packet += '\0';  // sequence 0
  return packet + payload;
}

// Listens on a loopback port; on each connection sends a server's greeting, takes the login
// and accepts it, then reads the client's statements and answers none of them.
class BlackHole {
 public:
  BlackHole() {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(listener_, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
        ::listen(listener_, 16) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      ADD_FAILURE() << "cannot listen on loopback";
      return;
    }
    port_ = ntohs(address.sin_port);
    acceptor_ = std::thread([this] {
      for (;;) {
        const int fd = ::accept(listener_, nullptr, nullptr);
        if (fd < 0) return;  // shut down
        std::lock_guard lock(mu_);
        connections_.push_back(fd);
        handlers_.emplace_back([fd] { Serve(fd); });
      }
    });
  }
  ~BlackHole() {
    ::shutdown(listener_, SHUT_RDWR);
    if (acceptor_.joinable()) acceptor_.join();
    ::close(listener_);
    for (const int fd : connections_) ::shutdown(fd, SHUT_RDWR);
    for (auto& handler : handlers_) handler.join();
    for (const int fd : connections_) ::close(fd);
  }
  std::string Url() const {
    return "mariadb://gemini_oracle@127.0.0.1:" + std::to_string(port_) + "/gemini_oracle_test";
  }

 private:
  static void Serve(int fd) {
    const std::string greeting = Greeting();
    if (::write(fd, greeting.data(), greeting.size()) < 0) return;
    char buffer[4096];
    if (::read(fd, buffer, sizeof buffer) <= 0) return;  // the login
    // OK (sequence 2): logged in. Then silence.
    static constexpr char kOk[] = {7, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0};
    if (::write(fd, kOk, sizeof kOk) < 0) return;
    while (::read(fd, buffer, sizeof buffer) > 0) {
    }
  }

  int listener_ = -1;
  int port_ = 0;
  std::thread acceptor_;
  std::mutex mu_;
  std::vector<int> connections_;
  std::vector<std::thread> handlers_;
};

}  // namespace gemini_oracle::testing
