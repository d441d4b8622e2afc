// TracePublication: the meeting point between a trace's owner and its
// readers, shared by Trace and every TraceHandle.
//
// It holds (1) the latest published TraceSnapshot and (2) the readers' since
// holds, a multiset of times. The trace's effective logical compaction
// frontier is the least hold: the owner never compacts past a live reader.
// (3) The compaction the owner has been granted (claim_compaction): a hold
// may be added from any thread at a time not below it (try_acquire_hold),
// which is how a reader with no handle yet (the interactive runtime reading
// a log index) holds a trace without racing its owner.
// A publication may exist before its trace (a placeholder): holds taken on
// it bound the trace that adopts it from the trace's first step.
//
// Threading: every method may be called from any thread. One mutex guards
// both parts and is held only to copy or swap a pointer or to update the
// hold multiset (O(log holds)), never while building a snapshot or reading
// batches, so the owning worker never waits on a reader for long.
#pragma once

#include <cassert>
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include <spdlog/spdlog.h>

#include "compute/arrangement/trace_snapshot.hpp"

namespace tandem::compute {

class TracePublication {
 public:
  explicit TracePublication(std::shared_ptr<const TraceSnapshot> initial)
      : snapshot_(std::move(initial)) {}

  std::shared_ptr<const TraceSnapshot> snapshot() const {
    std::lock_guard lock(mutex_);
    return snapshot_;
  }
  void publish(std::shared_ptr<const TraceSnapshot> snapshot) {
    std::lock_guard lock(mutex_);
    snapshot_.swap(snapshot);
    // The old snapshot (now in `snapshot`) is released after the lock.
  }

  // publish(), checking (in every build) that the since never passes a
  // live hold: a violation is logged as an internal error, and readers,
  // which check since <= their time against the snapshot, refuse to read.
  void publish_checked(std::shared_ptr<const TraceSnapshot> snapshot) {
    std::lock_guard lock(mutex_);
    if (!holds_.empty() && snapshot->since > holds_.begin()->first) {
      spdlog::error("internal error: an arrangement's since {} passed a read hold at {}", snapshot->since,
                    holds_.begin()->first);
    }
    snapshot_.swap(snapshot);
  }

  // REQUIRES at >= the granted compaction (a copy of an existing hold, or a
  // hold on a placeholder no trace has claimed from).
  void acquire_hold(Timestamp at) {
    std::lock_guard lock(mutex_);
    assert(at >= granted_);
    ++holds_[at];
  }
  // Adds a hold at `at` unless the owner may already have compacted past it.
  bool try_acquire_hold(Timestamp at) {
    std::lock_guard lock(mutex_);
    if (at < granted_) return false;
    ++holds_[at];
    return true;
  }
  // Adds a hold at max(at, the granted compaction) and returns where.
  Timestamp acquire_hold_at_least(Timestamp at) {
    std::lock_guard lock(mutex_);
    at = std::max(at, granted_);
    ++holds_[at];
    return at;
  }
  // The owner's side: the least hold (nullopt without holds), recorded as
  // granted so that no later try_acquire_hold lands below it.
  std::optional<Timestamp> claim_compaction() {
    std::lock_guard lock(mutex_);
    if (holds_.empty()) return std::nullopt;
    granted_ = std::max(granted_, holds_.begin()->first);
    return granted_;
  }
  void release_hold(Timestamp at) {
    std::lock_guard lock(mutex_);
    release_locked(at);
  }
  // Moves one hold from `from` to `to` (to >= from) atomically, so the least
  // hold never dips while it moves.
  void move_hold(Timestamp from, Timestamp to) {
    std::lock_guard lock(mutex_);
    ++holds_[to];
    release_locked(from);
  }
  // The least hold, or nullopt when no reader holds the trace.
  std::optional<Timestamp> least_hold() const {
    std::lock_guard lock(mutex_);
    if (holds_.empty()) return std::nullopt;
    return holds_.begin()->first;
  }
  std::size_t hold_count() const {
    std::lock_guard lock(mutex_);
    std::size_t n = 0;
    for (const auto& [at, count] : holds_) n += count;
    return n;
  }

 private:
  void release_locked(Timestamp at) {
    auto it = holds_.find(at);
    assert(it != holds_.end());
    if (--it->second == 0) holds_.erase(it);
  }

  mutable std::mutex mutex_;
  std::shared_ptr<const TraceSnapshot> snapshot_;
  std::map<Timestamp, std::size_t> holds_;
  Timestamp granted_ = kMinTimestamp;
};

}  // namespace tandem::compute
