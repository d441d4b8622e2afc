#include "tests/support/raw_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>

#include "frontend/pgwire/frontend_encoder.hpp"

namespace tandem::testing {

RawClient::RawClient(int port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    throw std::runtime_error("connect failed");
  }
  int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

RawClient::~RawClient() {
  if (fd_ >= 0) ::close(fd_);
}

void RawClient::send(const std::string& bytes) {
  size_t off = 0;
  while (off < bytes.size()) {
    ssize_t n = ::send(fd_, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
    if (n <= 0) return;  // the server may have closed; reads will tell
    off += static_cast<size_t>(n);
  }
}

bool RawClient::fill(size_t n, int timeout_ms) {
  while (buffer_.size() < n) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return false;
    char chunk[65536];
    ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
    if (got <= 0) return false;
    buffer_.append(chunk, static_cast<size_t>(got));
  }
  return true;
}

std::optional<BackendFrame> RawClient::read(int timeout_ms) {
  if (!fill(5, timeout_ms)) return std::nullopt;
  uint32_t len_be;
  std::memcpy(&len_be, buffer_.data() + 1, 4);
  size_t len = ntohl(len_be);
  if (!fill(1 + len, timeout_ms)) return std::nullopt;
  BackendFrame f{buffer_[0], buffer_.substr(5, len - 4)};
  buffer_.erase(0, 1 + len);
  return f;
}

std::optional<char> RawClient::read_byte(int timeout_ms) {
  if (!fill(1, timeout_ms)) return std::nullopt;
  char c = buffer_[0];
  buffer_.erase(0, 1);
  return c;
}

std::vector<BackendFrame> RawClient::read_until_ready(int timeout_ms) {
  std::vector<BackendFrame> frames;
  while (auto f = read(timeout_ms)) {
    frames.push_back(*f);
    if (f->type == 'Z') break;
  }
  return frames;
}

std::vector<BackendFrame> RawClient::startup(const std::string& user) {
  std::string out;
  pgwire::FrontendWriter w(out);
  std::pair<std::string_view, std::string_view> params[] = {{"user", user}, {"database", "materialize"}};
  w.startup_message(params);
  send(out);
  return read_until_ready();
}

bool RawClient::closed(int timeout_ms) {
  for (;;) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return false;
    char chunk[4096];
    ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
    if (got <= 0) return true;
  }
}

std::string error_field(const BackendFrame& frame, char code) {
  size_t i = 0;
  while (i < frame.body.size() && frame.body[i] != '\0') {
    char c = frame.body[i++];
    size_t end = frame.body.find('\0', i);
    if (end == std::string::npos) break;
    if (c == code) return frame.body.substr(i, end - i);
    i = end + 1;
  }
  return "";
}

}  // namespace tandem::testing
