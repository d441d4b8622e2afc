#pragma once
// ServerOptions: what tandemd's command line configures (see tandemd --help).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

namespace tandem::frontend {

struct ServerOptions {
  std::string listen_host = "127.0.0.1";
  uint16_t listen_port = 6875;  // Materialize's port; 0 picks a free one
  // The HTTP listener (frontend/http: /api/sql, the WebSocket API, health
  // and metrics); off when !http_enabled.
  bool http_enabled = true;
  std::string http_listen_host = "127.0.0.1";
  uint16_t http_listen_port = 6876;  // 0 picks a free one
  // Given on the command line: failing to listen is then fatal; with the
  // default address a port in use (another tandemd, a test harness running
  // several) only turns the HTTP API off, with a warning.
  bool http_explicit = false;
  std::string data_dir = "./data";
  std::string log_level = "info";
  size_t max_connections = 1000;  // authenticated sessions
  // Connections not yet authenticated (no startup packet yet, or in the
  // middle of authentication) are counted apart, so that clients that stall
  // there cannot take the sessions' places.
  size_t max_startup_connections = 100;
  // Startup and authentication must finish within this (PostgreSQL's
  // authentication_timeout); the connection is closed otherwise.
  std::chrono::milliseconds auth_timeout{60'000};
  // A failed password is answered after this delay (PostgreSQL's
  // auth_delay), which slows down guessing.
  std::chrono::milliseconds auth_failure_delay{500};
  std::string password_file;  // empty: trust authentication
  size_t max_message_size = size_t{64} << 20;
  // Threads running connections; 0 = twice the hardware threads, at least 4.
  unsigned io_threads = 0;
  bool sync_writes = true;
};

}  // namespace tandem::frontend
