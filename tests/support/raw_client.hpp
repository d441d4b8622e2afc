#pragma once
// RawClient: a blocking loopback socket speaking raw protocol bytes, for
// tests that need what libpq does not expose (row limits, malformed
// messages, protocol versions). Messages are built with
// pgwire::FrontendWriter; replies are read as (type, body) frames.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tandem::testing {

struct BackendFrame {
  char type = 0;
  std::string body;
};

class RawClient {
 public:
  explicit RawClient(int port);
  ~RawClient();
  RawClient(const RawClient&) = delete;
  RawClient& operator=(const RawClient&) = delete;

  void send(const std::string& bytes);
  // Next frame, or nullopt when the server closed the connection (or after
  // `timeout_ms` without data).
  std::optional<BackendFrame> read(int timeout_ms = 5000);
  // A single byte (the answer to SSLRequest).
  std::optional<char> read_byte(int timeout_ms = 5000);
  // Reads frames up to and including the next ReadyForQuery ('Z').
  std::vector<BackendFrame> read_until_ready(int timeout_ms = 5000);
  // Sends a v3 StartupMessage for `user` and reads up to ReadyForQuery.
  std::vector<BackendFrame> startup(const std::string& user = "materialize");
  // True when the server has closed the connection.
  bool closed(int timeout_ms = 2000);

 private:
  bool fill(size_t n, int timeout_ms);
  int fd_ = -1;
  std::string buffer_;
};

// The value of field `code` ('C' SQLSTATE, 'M' message, 'S' severity...) in an
// ErrorResponse/NoticeResponse body, or "".
std::string error_field(const BackendFrame& frame, char code);

}  // namespace tandem::testing
