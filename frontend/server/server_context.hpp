#pragma once
// ServerContext: what every connection shares with the server. Internal to
// frontend/server and frontend/protocol (it pulls in Asio).

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>

#include <boost/asio/thread_pool.hpp>

#include "frontend/pgwire/password_file.hpp"
#include "frontend/server/cancel_registry.hpp"
#include "frontend/server/server_metrics.hpp"
#include "frontend/server/server_options.hpp"

namespace tandem::frontend {

class Adapter;

// The completion handler of a connection's coroutine: an exception that
// ended it is a bug, not a client's doing; it is logged, the server goes on.
void log_connection_exception(std::exception_ptr e);

// A client connection of any listener, as the server sees it at shutdown.
class ClientConnection {
 public:
  virtual ~ClientConnection() = default;
  // Ends the connection (server shutdown); callable from any thread.
  virtual void shutdown() = 0;
};

// Counts authenticated connections, for --max-connections and for shutdown,
// which waits (without polling) until every connection has closed; and,
// apart, connections still in startup or authentication.
class ConnectionCounter {
 public:
  bool try_add_startup(size_t limit) {
    std::lock_guard lock(mu_);
    if (startup_count_ >= limit) return false;
    ++startup_count_;
    return true;
  }
  void remove_startup() {
    std::lock_guard lock(mu_);
    --startup_count_;
  }
  // Returns false (and counts nothing) when `limit` connections exist.
  bool try_add(size_t limit) {
    std::lock_guard lock(mu_);
    if (count_ >= limit) return false;
    ++count_;
    return true;
  }
  size_t count() {
    std::lock_guard lock(mu_);
    return count_;
  }
  void remove() {
    {
      std::lock_guard lock(mu_);
      --count_;
    }
    cv_.notify_all();
  }
  // Waits until no connection is left or the deadline passes.
  void wait_for_zero(std::chrono::steady_clock::time_point deadline) {
    std::unique_lock lock(mu_);
    cv_.wait_until(lock, deadline, [&] { return count_ == 0; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  size_t count_ = 0;
  size_t startup_count_ = 0;
};

struct ServerContext {
  const ServerOptions& options;
  Adapter& adapter;
  CancelRegistry& cancels;
  // Runs statements that may wait (pg_sleep, parked reads) off the I/O
  // threads, so an I/O thread never sleeps on behalf of one session.
  boost::asio::thread_pool& blocking_pool;
  // nullptr: trust authentication.
  const pgwire::PasswordFile* passwords;
  ConnectionCounter& connections;
  std::atomic<bool>& shutting_down;
  ServerMetrics& metrics;
};

}  // namespace tandem::frontend
