#pragma once
// ShardListener: the live tail of a table shard (made by ShardStore::listen).
//
// Contract: the concatenation of the batches returned by next()/try_next()
// covers the times (as_of, ∞) without gaps or overlaps, in time order: batch
// k+1's lower is batch k's upper, and the first lower is as_of + 1. A batch
// is returned as soon as the shard's upper passes the listener's position,
// even with no updates (progress only), so a consumer always knows how far
// the shard is sealed. Together with snapshot(as_of) this gives every update
// of the shard exactly once.
//
// Hold: while a listener lives, the shard's since stays <= as_of(), the last
// time it has delivered, so what it still has to read is never compacted.
// Destroying the listener releases the hold.
//
// Waiting never polls: next() sleeps on a condition variable that the
// committer signals after each commit that advances the shard's upper. A
// consumer that cannot spare a thread installs a wakeup hook instead and
// calls try_next() when woken.
//
// Threading: next()/try_next()/set_wakeup() are called by one consumer
// thread at a time; cancel() from any thread. A next() blocked while the
// store is destroyed returns 57P01 (the store's destructor waits for it).
// After the store is gone the listener is inert: its calls return 57P01 and
// its destructor does nothing; but no call may *start* concurrently with the
// store's destruction.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <optional>

#include "common/status.hpp"
#include "common/timestamp.hpp"
#include "storage/shard_types.hpp"

namespace tandem::storage {

class ShardStore;

class ShardListener {
 public:
  using Clock = std::chrono::steady_clock;

  ~ShardListener();
  ShardListener(const ShardListener&) = delete;
  ShardListener& operator=(const ShardListener&) = delete;

  // Blocks until the shard's upper passes as_of() + 1, then returns the
  // updates in [as_of() + 1, upper). Errors: 57014 after cancel(), 42704 if
  // the shard was dropped, 57P01 when the store shuts down, 58030/XX001 on a
  // read failure (the position is then unchanged; retrying is allowed).
  Result<ListenBatch> next();
  // As next(), but gives up at `deadline`, returning an empty optional.
  Result<std::optional<ListenBatch>> next_until(Clock::time_point deadline);
  // Never blocks on the shard: an empty optional when nothing is sealed
  // beyond as_of() + 1 yet.
  Result<std::optional<ListenBatch>> try_next();

  // Wakes a blocked next(); it and every later call return 57014.
  void cancel();
  // `hook` runs (on the committer thread, with the store's mutex held) each
  // time the shard's upper advances past as_of() + 1, and on drop, cancel and
  // shutdown. It must be quick, non-blocking, and must not call into the
  // store or this listener: push to your own queue and signal your own
  // thread, which then calls try_next(). Replaces any previous hook.
  void set_wakeup(std::function<void()> hook);

  ShardId shard() const { return shard_; }
  // Every update at times <= as_of() has been delivered (or was before the
  // listener's start).
  Timestamp as_of() const;

 private:
  friend class ShardStore;
  ShardListener(ShardStore& store, ShardId shard, uint64_t incarnation, Timestamp as_of);

  enum class Wait { kBlock, kDeadline, kNone };
  Result<std::optional<ListenBatch>> next_impl(Wait wait, Clock::time_point deadline);
  // REQUIRES store mutex held. Runs the hook and wakes a blocked next().
  void notify_locked();

  ShardStore& store_;
  const ShardId shard_;
  const uint64_t incarnation_;
  // The fields below are guarded by the store's mutex.
  Timestamp as_of_;
  bool cancelled_ = false;
  bool detached_ = false;  // the shard was dropped or the store shut down
  // Set (under the store mutex) by the store's destructor; read without it,
  // since once set the store may be gone.
  std::atomic<bool> orphaned_{false};
  std::condition_variable cv_;
  std::function<void()> wakeup_;
};

}  // namespace tandem::storage
