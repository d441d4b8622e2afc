#pragma once
// CancelRegistry: maps a backend's (process id, secret key), sent to the
// client in BackendKeyData, to that session's CancelToken, so a
// CancelRequest arriving on another connection can interrupt the running
// statement. A wrong key does nothing (PostgreSQL gives no feedback either).
//
// CancelToken: the interruption point of one session's running statement.
// Anything that waits on behalf of a statement (pg_sleep, a parked peek)
// waits through the token, so cancel() wakes it at once; nothing polls.
//
// Threading: all methods are thread-safe. Tokens are shared between the
// session that owns them and the registry.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "common/status.hpp"

namespace tandem::frontend {

class CancelToken {
 public:
  enum class Reason : uint8_t { kNone, kUserRequest, kStatementTimeout, kShutdown, kClientGone };

  using Clock = std::chrono::steady_clock;
  // Starts a new statement: clears any earlier cancellation and sets the
  // statement_timeout deadline (Clock::time_point::max() for none).
  void begin_statement(Clock::time_point deadline = Clock::time_point::max());
  // Requests cancellation of the running statement (if any) and wakes it.
  void cancel(Reason reason);
  // The cancellation error for the current statement, OK if none (a passed
  // deadline counts as a statement timeout).
  Status check() const;
  // Sleeps for `seconds` or until cancelled; returns the cancellation error.
  Status sleep_for(std::chrono::duration<double> seconds);
  // A statement that waits elsewhere (a peek in compute) installs a waker
  // that cancel() calls (on the canceling thread; it must only hand off,
  // e.g. post to an executor); cleared when the wait ends.
  void set_waker(std::function<void()> waker);
  void clear_waker() { set_waker(nullptr); }
  // Called (on the thread installing the waker, no lock held) each time a
  // statement starts such a wait: the session's connection then watches
  // for its client going away, which cancels the statement (kClientGone).
  // It must only hand off.
  void set_on_wait(std::function<void()> on_wait);
  Clock::time_point deadline() const { return deadline_.load(std::memory_order_acquire); }

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<Reason> reason_{Reason::kNone};
  std::atomic<Clock::time_point> deadline_{Clock::time_point::max()};
  std::function<void()> waker_;    // guarded by mu_
  std::function<void()> on_wait_;  // guarded by mu_
};

class CancelRegistry {
 public:
  struct Key {
    int32_t process_id;
    int32_t secret_key;
  };
  // Registers a session; its key is unique among live sessions.
  Key add(std::shared_ptr<CancelToken> token);
  void remove(int32_t process_id);
  // Cancels the session with this key, if the secret matches.
  bool cancel(Key key);
  // Cancels every session (shutdown).
  void cancel_all(CancelToken::Reason reason);
  size_t size() const;

 private:
  struct Entry {
    int32_t secret_key;
    std::shared_ptr<CancelToken> token;
  };
  mutable std::mutex mu_;
  int32_t next_pid_ = 1000;
  std::unordered_map<int32_t, Entry> entries_;
};

}  // namespace tandem::frontend
