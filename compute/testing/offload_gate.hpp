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

// A job that holds its pool thread until open() is called.
struct Gate {
  std::mutex m;
  std::condition_variable cv;
  bool is_open = false;
  bool entered = false;
  OffloadPool::Job job() {
    return [this](bool) {
      std::unique_lock lock(m);
      entered = true;
      cv.notify_all();
      cv.wait(lock, [this] { return is_open; });
    };
  }
  void wait_entered() {
    std::unique_lock lock(m);
    cv.wait(lock, [this] { return entered; });
  }
  // Submits the job to `pool` and waits until a pool thread holds it.
  void close(OffloadPool& pool) {
    OffloadPool::Job blocker = job();
    REQUIRE(pool.try_submit(blocker));
    wait_entered();
  }
  void open() {
    std::lock_guard lock(m);
    is_open = true;
    cv.notify_all();
  }
};

inline PeekResponse answer_of(const std::shared_ptr<OffloadedPeek>& ticket) {
  std::promise<PeekResponse> promise;
  auto future = promise.get_future();
  ticket->on_done([&promise](PeekResponse r) { promise.set_value(std::move(r)); });
  REQUIRE(future.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
  return future.get();
}

}  // namespace tandem::compute::testing
