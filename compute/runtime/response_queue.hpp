// ResponseQueue: compute's outbox to the controller: a FIFO of responses
// with a condition variable for blocking receivers and an optional waker
// for event loops (see compute/protocol/compute_client.hpp).
// Threading: any thread; the mutex is held only to move one response.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>

#include "compute/protocol/response.hpp"

namespace tandem::compute {

class ResponseQueue {
 public:
  void push(ComputeResponse response) {
    std::function<void()> waker;
    {
      std::lock_guard lock(mutex_);
      queue_.push_back(std::move(response));
      waker = waker_;
    }
    cv_.notify_all();
    if (waker) waker();
  }
  std::optional<ComputeResponse> try_pop() {
    std::lock_guard lock(mutex_);
    return pop_locked();
  }
  std::optional<ComputeResponse> pop(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    cv_.wait_for(lock, timeout, [&] { return !queue_.empty(); });
    return pop_locked();
  }
  void set_waker(std::function<void()> waker) {
    std::lock_guard lock(mutex_);
    waker_ = std::move(waker);
  }

 private:
  std::optional<ComputeResponse> pop_locked() {
    std::optional<ComputeResponse> r;
    if (!queue_.empty()) {
      r.emplace(std::move(queue_.front()));
      queue_.pop_front();
    }
    return r;
  }

  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<ComputeResponse> queue_;
  std::function<void()> waker_;
};

}  // namespace tandem::compute
