#pragma once
// TimestampOracle: the durable part of the coordinator's timestamp oracle
// (DESIGN.md §7, §9).
//
// Write timestamps strictly increase, are >= the wall clock (ms since the
// epoch) when issued, and never go backwards across restarts, even if the
// wall clock does. To avoid an fsync per write, the oracle persists a
// *high-water mark* in the `meta` family: every timestamp it has ever issued
// is below the persisted mark. When a new timestamp would reach the mark, the
// oracle first persists mark = ts + kAllocationWindow (about one persist per
// second of timestamps). On open it starts at the persisted mark, above
// anything issued before the restart.
//
// read_ts is the largest timestamp whose writes are all applied: the
// coordinator calls apply_write(ts) after a write at ts has committed (and
// the shards' uppers passed ts), in timestamp order. read_ts() is one atomic
// load, so a session thread can pick a strict-serializable read time without
// a hop to the coordinator. After open it is the last timestamp that may
// have been issued before the restart (mark - 1); the coordinator's boot
// write (write_ts, advance every shard's upper, apply_write) moves it to now.
//
// Threading: write_ts() and apply_write() are thread-safe (a mutex and an
// atomic max); read_ts() is lock-free from any thread.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>

#include "common/status.hpp"
#include "common/timestamp.hpp"
#include "storage/durable_store.hpp"

namespace tandem::storage {

class TimestampOracle {
 public:
  // Milliseconds since the Unix epoch; replaceable for tests.
  using WallClock = std::function<Timestamp()>;
  static Timestamp system_wall_clock();
  // Testing only (tandemd --unsafe-wall-clock-offset-ms): shifts what
  // system_wall_clock() reads by `ms` for the whole process, so a test can
  // run a server whose wall clock is behind the timestamps it issued before
  // a restart. Set before any oracle is opened.
  static void set_system_wall_clock_offset(int64_t ms);

  static constexpr Timestamp kAllocationWindow = 1000;

  // `durable` must outlive the oracle. Errors: 58030 (read failure), XX001
  // (an undecodable mark).
  static Result<std::unique_ptr<TimestampOracle>> open(DurableStore& durable,
                                                       WallClock clock = system_wall_clock);

  // A new write timestamp: > every timestamp issued before (in this process
  // or any earlier one on the same data directory) and >= the wall clock.
  // Fails (58030) only if persisting a new high-water mark fails; then no
  // timestamp is issued.
  Result<Timestamp> write_ts();
  // Records that the write at `ts` is applied: read_ts() becomes
  // max(read_ts(), ts).
  void apply_write(Timestamp ts);
  Timestamp read_ts() const { return read_ts_.load(std::memory_order_acquire); }

  // How many times the high-water mark was persisted (introspection, tests).
  uint64_t persisted_marks() const;

 private:
  TimestampOracle(DurableStore& durable, WallClock clock) : durable_(durable), clock_(std::move(clock)) {}

  DurableStore& durable_;
  const WallClock clock_;
  mutable std::mutex mutex_;
  Timestamp last_write_ = 0;  // guarded by mutex_
  Timestamp high_water_ = 0;  // guarded by mutex_: persisted, > last_write_
  uint64_t persisted_marks_ = 0;  // guarded by mutex_
  std::atomic<Timestamp> read_ts_{0};
};

}  // namespace tandem::storage
