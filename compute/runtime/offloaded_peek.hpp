// OffloadedPeek: a fast-path read of a sealed index that walked its inline
// budget on the caller's thread and continues on the offload pool.
// Runtime::walk_if_ready creates it and
// submits the walk; the caller keeps it to learn the answer and to cancel.
//
// While offloaded, the walk owns the snapshots it reads (so every batch it
// walks stays alive) and a since hold at the read's time on each trace it
// reads (TraceHandle), released the moment the walk ends, whether it
// finished, failed or was canceled.
//
// Exactly one answer: kRows, kError, or kCanceled after cancel() (the walk
// notices at its next budget boundary, or before it starts) or when the
// pool shuts down before running it.
//
// Threading: any thread. on_done's callback runs on the thread that
// delivers the answer (a pool thread, or the caller's own when the answer
// is already there); it must only hand off (post to an executor).
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>

#include "compute/protocol/response.hpp"

namespace tandem::compute {

class OffloadedPeek {
 public:
  // Calls `done` once with the answer: now if it is known, else when it is.
  void on_done(std::function<void(PeekResponse)> done) {
    std::unique_lock lock(mutex_);
    if (answer_) {
      PeekResponse answer = std::move(*answer_);
      answer_.reset();
      lock.unlock();
      done(std::move(answer));
      return;
    }
    done_ = std::move(done);
  }
  // Asks the walk to stop: it answers kCanceled at its next budget boundary
  // and releases its holds. Only sets a flag, so any thread may call it.
  void cancel() { canceled_.store(true, std::memory_order_release); }
  bool canceled() const { return canceled_.load(std::memory_order_acquire); }

  // The walk's side: delivers the one answer.
  void finish(PeekResponse answer) {
    std::unique_lock lock(mutex_);
    if (!done_) {
      answer_ = std::move(answer);
      return;
    }
    auto done = std::move(done_);
    done_ = nullptr;
    lock.unlock();
    done(std::move(answer));
  }

 private:
  std::mutex mutex_;
  std::optional<PeekResponse> answer_;       // guarded by mutex_
  std::function<void(PeekResponse)> done_;   // guarded by mutex_
  std::atomic<bool> canceled_{false};
};

// What Runtime::walk_if_ready did with a sealed fast-path read.
struct ReadyPeek {
  std::optional<PeekResponse> response;      // answered on the calling thread
  std::shared_ptr<OffloadedPeek> offloaded;  // or continuing on the offload pool
};

}  // namespace tandem::compute
