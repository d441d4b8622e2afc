#pragma once
// Server: tandemd's network front end. One io_context per I/O thread; each
// accepted connection is pinned to one of them round-robin and served by a
// coroutine on that thread, so a ready statement is read, executed and
// answered on the thread that owns its socket, with no hand-off (DESIGN §9).
// Statements that may wait (pg_sleep, later parked peeks) move to the
// blocking pool and back.
//
// A second listener serves HTTP (frontend/http) on the same threads, its
// connections pinned the same way.
//
// Lifecycle: start() binds and listens (errors are returned, e.g. port in
// use); run() blocks until stop() has drained every connection. stop() is
// safe from any thread (signal handlers post it): it closes the listener,
// cancels running statements, and closes every connection with FATAL 57P01.
//
// Threading: start/run on the main thread; stop from anywhere.

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <vector>

#include "common/status.hpp"
#include "frontend/server/cancel_registry.hpp"
#include "frontend/server/server_options.hpp"

namespace tandem::frontend {

class Adapter;

class Server {
 public:
  Server(ServerOptions options, Adapter& adapter);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  Status start();
  void run();
  void stop();

  // The bound ports (useful with port 0); http_port() is 0 when HTTP is off.
  uint16_t port() const { return bound_port_; }
  uint16_t http_port() const { return bound_http_port_; }
  const ServerOptions& options() const { return options_; }

 private:
  struct Impl;
  ServerOptions options_;
  std::unique_ptr<Impl> impl_;
  uint16_t bound_port_ = 0;
  uint16_t bound_http_port_ = 0;
};

}  // namespace tandem::frontend
