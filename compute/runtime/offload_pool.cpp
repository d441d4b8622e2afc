#include "compute/runtime/offload_pool.hpp"

#include <algorithm>
#include <string>

#include "compute/runtime/thread_class.hpp"

namespace tandem::compute {

OffloadPool::OffloadPool(Options options) : capacity_(options.capacity) {
  const std::size_t n = std::max<std::size_t>(1, options.threads);
  threads_.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    threads_.emplace_back([this, i] {
      configure_current_thread("offload-" + std::to_string(i), ThreadClass::Normal);
      run();
    });
  }
}

OffloadPool::~OffloadPool() {
  std::deque<Job> left;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (std::thread& t : threads_) t.join();
  // The workers leave once the queue is empty or the pool stops; whatever
  // they did not start is abandoned here, each job still run exactly once.
  {
    std::lock_guard lock(mutex_);
    left.swap(queue_);
  }
  for (Job& job : left) job(true);
}

bool OffloadPool::try_submit(Job& job) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || queue_.size() >= capacity_) return false;
    queue_.push_back(std::move(job));
  }
  cv_.notify_one();
  return true;
}

std::size_t OffloadPool::queued() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

std::size_t OffloadPool::running() const {
  std::lock_guard lock(mutex_);
  return running_;
}

void OffloadPool::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    Job job = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    lock.unlock();
    job(false);
    job = nullptr;  // its captures (snapshots, holds) go before the next wait
    lock.lock();
    --running_;
  }
}

}  // namespace tandem::compute
