// OffloadPool: the offload pool, a small fixed set of
// threads that run fast-path index walks too long to finish inline on a
// session's thread (compute/runtime/offloaded_peek.hpp), so one skewed key
// never stalls the lookups queued behind it on that thread.
//
// Bounded: at most `capacity` jobs wait; try_submit() refuses one beyond
// that (the caller then does the work itself, as with offload off), so a
// burst of long walks cannot queue without limit. Jobs run in submission
// order, each to its end on one pool thread; a job bounds its own work
// between checks for cancellation (STYLE #6).
//
// Shutdown: the destructor stops taking jobs, lets running ones finish and
// runs each job still queued with `abandoned` true, so a job always runs
// exactly once and can answer its waiter.
//
// Threading: try_submit() and the accessors from any thread. The workers
// sleep on a condition variable until a job arrives or the pool stops.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tandem::compute {

class OffloadPool {
 public:
  // `abandoned`: the pool is shutting down and the job did not start.
  using Job = std::function<void(bool abandoned)>;

  struct Options {
    std::size_t threads = 2;
    std::size_t capacity = 256;  // queued jobs, not counting running ones
  };
  explicit OffloadPool(Options options);
  OffloadPool() : OffloadPool(Options{}) {}
  ~OffloadPool();
  OffloadPool(const OffloadPool&) = delete;
  OffloadPool& operator=(const OffloadPool&) = delete;

  // Queues `job`; false (and `job` untouched) when `capacity` jobs already
  // wait or the pool is stopping.
  bool try_submit(Job& job);

  std::size_t threads() const { return threads_.size(); }
  std::size_t queued() const;
  std::size_t running() const;

 private:
  void run();

  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Job> queue_;  // guarded by mutex_
  std::size_t running_ = 0;  // guarded by mutex_
  bool stopping_ = false;    // guarded by mutex_
  std::vector<std::thread> threads_;
};

}  // namespace tandem::compute
