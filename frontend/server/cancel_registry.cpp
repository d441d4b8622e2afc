#include "frontend/server/cancel_registry.hpp"

#include <algorithm>
#include <random>

namespace tandem::frontend {

void CancelToken::begin_statement(Clock::time_point deadline) {
  deadline_.store(deadline, std::memory_order_release);
  reason_.store(Reason::kNone, std::memory_order_release);
}

void CancelToken::cancel(Reason reason) {
  std::function<void()> waker;
  {
    std::lock_guard lock(mu_);
    reason_.store(reason, std::memory_order_release);
    waker = waker_;
  }
  cv_.notify_all();
  if (waker) waker();
}

void CancelToken::set_waker(std::function<void()> waker) {
  std::function<void()> on_wait;
  {
    std::lock_guard lock(mu_);
    if (waker && on_wait_) on_wait = on_wait_;
    waker_ = std::move(waker);
  }
  if (on_wait) on_wait();
}

void CancelToken::set_on_wait(std::function<void()> on_wait) {
  std::lock_guard lock(mu_);
  on_wait_ = std::move(on_wait);
}

Status CancelToken::check() const {
  Reason reason = reason_.load(std::memory_order_acquire);
  if (reason == Reason::kNone && Clock::now() >= deadline_.load(std::memory_order_acquire)) {
    reason = Reason::kStatementTimeout;
  }
  switch (reason) {
    case Reason::kNone:
      return Status::ok();
    case Reason::kUserRequest:
      return Status::error(sqlstate::kQueryCanceled, "canceling statement due to user request");
    case Reason::kStatementTimeout:
      return Status::error(sqlstate::kQueryCanceled, "canceling statement due to statement timeout");
    case Reason::kShutdown:
      return Status::error(sqlstate::kAdminShutdown, "terminating connection due to administrator command");
    case Reason::kClientGone:
      return Status::error(sqlstate::kConnectionException, "connection to client lost");
  }
  return Status::ok();
}

Status CancelToken::sleep_for(std::chrono::duration<double> seconds) {
  // Clamp so that absurd durations (pg_sleep(1e300)) cannot overflow the clock.
  double secs = seconds.count() >= 0 ? std::min(seconds.count(), 1e8) : 0.0;  // NaN and negatives: 0
  auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(secs));
  deadline = std::min(deadline, deadline_.load(std::memory_order_acquire));
  std::unique_lock lock(mu_);
  cv_.wait_until(lock, deadline, [&] { return reason_.load() != Reason::kNone; });
  return check();
}

CancelRegistry::Key CancelRegistry::add(std::shared_ptr<CancelToken> token) {
  static thread_local std::mt19937 rng(std::random_device{}());
  std::lock_guard lock(mu_);
  int32_t pid;
  do {
    pid = next_pid_++;
    if (next_pid_ <= 0) next_pid_ = 1000;
  } while (entries_.count(pid) != 0);
  int32_t secret = static_cast<int32_t>(rng());
  entries_[pid] = Entry{secret, std::move(token)};
  return Key{pid, secret};
}

void CancelRegistry::remove(int32_t process_id) {
  std::lock_guard lock(mu_);
  entries_.erase(process_id);
}

bool CancelRegistry::cancel(Key key) {
  std::shared_ptr<CancelToken> token;
  {
    std::lock_guard lock(mu_);
    auto it = entries_.find(key.process_id);
    if (it == entries_.end() || it->second.secret_key != key.secret_key) return false;
    token = it->second.token;
  }
  token->cancel(CancelToken::Reason::kUserRequest);
  return true;
}

void CancelRegistry::cancel_all(CancelToken::Reason reason) {
  std::lock_guard lock(mu_);
  for (auto& [pid, entry] : entries_) entry.token->cancel(reason);
}

size_t CancelRegistry::size() const {
  std::lock_guard lock(mu_);
  return entries_.size();
}

}  // namespace tandem::frontend
