// TraceHandle: a reader's handle on a trace (differential's TraceAgent).
//
// Hold semantics. Each live handle holds the trace's logical compaction at
// its since(): the trace's owner consolidates times only up to the least
// since over all live handles, so a read through this handle at any
// as_of >= since() is exact. set_logical_compaction(t) advances the hold
// (never moves it back); destroying or release()-ing the handle drops it
// (RAII). Copying a handle creates a second hold at the same since, which is
// always safe because the original already bounds the trace there.
//
// Reading. snapshot() returns the trace's latest published TraceSnapshot:
// batch references plus upper and since. Its since is <= this handle's
// since(), so reads at as_of in [since(), snapshot->upper) are exact. A
// reader that needs as_of >= upper waits for a later snapshot (park, do not
// spin). The snapshot stays valid after the handle is gone.
//
// Threading. A TraceHandle object is used by one thread at a time, but it may
// be moved or copied to any thread, and handles on the same trace may be used
// concurrently from different threads while the owner inserts and merges:
// they touch only the shared TracePublication (briefly locked) and immutable
// batches, never the Spine. Handles are created by Trace::handle() on the
// owner's thread or by copying an existing handle on any thread.
#pragma once

#include <memory>

#include "compute/arrangement/trace_publication.hpp"

namespace tandem::compute {

class TraceHandle {
 public:
  // An empty handle: holds nothing, valid() is false.
  TraceHandle() = default;
  ~TraceHandle() { release(); }

  TraceHandle(const TraceHandle& other) : publication_(other.publication_), since_(other.since_) {
    if (publication_ != nullptr) publication_->acquire_hold(since_);
  }
  TraceHandle(TraceHandle&& other) noexcept
      : publication_(std::move(other.publication_)), since_(other.since_) {}
  TraceHandle& operator=(TraceHandle other) noexcept {
    release();
    publication_ = std::move(other.publication_);
    since_ = other.since_;
    return *this;
  }

  // A reader's hold at `since` on a published trace whose snapshot it has
  // found exact at `since` (a fast-path read continuing off the caller's
  // thread, compute/runtime/offloaded_peek.hpp).
  // The hold lands at `since` or, if the owner was granted more meanwhile,
  // there (the snapshot the reader already has stays exact either way).
  static TraceHandle hold(std::shared_ptr<TracePublication> publication, Timestamp since) {
    TraceHandle handle;
    handle.since_ = publication->acquire_hold_at_least(since);
    handle.publication_ = std::move(publication);
    return handle;
  }

  // A hold at `since` on `publication` from any thread; an empty handle if
  // the owner may have compacted past `since` already.
  static TraceHandle try_acquire(std::shared_ptr<TracePublication> publication, Timestamp since) {
    TraceHandle handle;
    if (publication->try_acquire_hold(since)) {
      handle.publication_ = std::move(publication);
      handle.since_ = since;
    }
    return handle;
  }

  bool valid() const { return publication_ != nullptr; }

  // REQUIRES valid() for the rest.
  Timestamp since() const { return since_; }
  void set_logical_compaction(Timestamp since) {
    if (since <= since_) return;
    publication_->move_hold(since_, since);
    since_ = since;
  }
  std::shared_ptr<const TraceSnapshot> snapshot() const { return publication_->snapshot(); }
  Timestamp upper() const { return snapshot()->upper; }

  // Drops the hold now; the handle becomes empty.
  void release() {
    if (publication_ == nullptr) return;
    publication_->release_hold(since_);
    publication_.reset();
  }

 private:
  friend class Trace;
  // REQUIRES since >= the trace's current logical compaction frontier.
  TraceHandle(std::shared_ptr<TracePublication> publication, Timestamp since)
      : publication_(std::move(publication)), since_(since) {
    publication_->acquire_hold(since_);
  }

  std::shared_ptr<TracePublication> publication_;
  Timestamp since_ = kMinTimestamp;
};

}  // namespace tandem::compute
