// Test support for the offload pool (*_test.cpp only): a Gate job that
// holds a pool thread until opened, and answer_of(), which waits for an
// OffloadedPeek's answer.
#pragma once

#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>

#include "compute/runtime/offload_pool.hpp"
#include "compute/runtime/offloaded_peek.hpp"

namespace tandem::compute::testing {

// A job that holds its pool thread until open() is called. The job shares
// the gate's state, so a gate may go out of scope right after open(), while
// the pool thread is still on its way out of the job.
class Gate {
 public:
  OffloadPool::Job job() {
    return [state = state_](bool) {
      std::unique_lock lock(state->m);
      state->entered = true;
      state->cv.notify_all();
      state->cv.wait(lock, [&] { return state->is_open; });
    };
  }
  void wait_entered() {
    std::unique_lock lock(state_->m);
    state_->cv.wait(lock, [this] { return state_->entered; });
  }
  // Submits the job to `pool` and waits until a pool thread holds it.
  void close(OffloadPool& pool) {
    OffloadPool::Job blocker = job();
    REQUIRE(pool.try_submit(blocker));
    wait_entered();
  }
  void open() {
    std::lock_guard lock(state_->m);
    state_->is_open = true;
    state_->cv.notify_all();
  }

 private:
  struct State {
    std::mutex m;
    std::condition_variable cv;
    bool is_open = false;
    bool entered = false;
  };
  std::shared_ptr<State> state_ = std::make_shared<State>();
};

inline PeekResponse answer_of(const std::shared_ptr<OffloadedPeek>& ticket) {
  std::promise<PeekResponse> promise;
  auto future = promise.get_future();
  ticket->on_done([&promise](PeekResponse r) { promise.set_value(std::move(r)); });
  REQUIRE(future.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
  return future.get();
}

}  // namespace tandem::compute::testing
