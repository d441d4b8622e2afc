// Batcher: accumulates unsorted updates and seals them into batches.
//
// push() buffers (key, val, time, diff) in any order. seal(upper) takes the
// buffered updates with time < upper, sorts them by (key, val, time),
// consolidates them (sums diffs of equal (key, val, time), drops zeros) and
// builds a batch with Description{lower, upper, since}, where lower is the
// previous seal's upper (or the constructor's lower). Updates at times >=
// upper stay buffered for a later seal.
//
// REQUIRES: pushed times are >= lower() (the current lower); upper passed to
// seal is >= lower(). A seal with since > time advances those times to since
// before consolidating.
//
// Performance: updates are kept as fixed-size index records over one byte
// arena (no per-update allocation). Sorting is an MSD radix sort on 16 bytes
// of (key, val) prefix held as two integers in each record, finished by
// comparison sorts of small or tied ranges; it touches the arena only when
// those prefixes tie (keys longer than 16 bytes sharing them, or equal keys
// of up to 8 bytes whose vals share 8 bytes, or equal longer keys). Input
// already in order is detected in one pass.
//
// Bounded memory: while a MemoryBudget with a limit is installed, buffered
// updates are cut into a sorted *run* whenever they exceed a share of the
// limit (run_bytes(): an eighth, at least a spill block), or an eighth of
// that while the budget's building bytes exceed half the limit (several
// arrangements being built at once: MemoryBudget::building_crowded), when
// the buffer's capacity is freed too. A run is a batch
// built like a sealed one (so it is admitted to the budget, or born spilled
// when the budget binds) but private to the batcher: its description is the
// empty interval [lower, lower) and it holds buffered times of any value.
// Runs are merged like a binary counter (a run at least half the size of the
// one before it is merged into it, block by block: merger.hpp), so there are
// O(log n) of them and each update is merged O(log n) times. seal() merges
// the runs with the rest of the buffer into one batch; when buffered times
// at or after `upper` were cut into runs, the merged result is split and
// those go back to the buffer. So hydrating an input much larger than the
// budget (every update at one time, nothing sealed until the end) holds
// about one run in memory, not the input. The buffer's capacity (and the
// sort's scratch while it runs) is counted as the budget's building bytes
// (memory_budget.hpp), so it is inside the limit, not on top of it; a seal
// that leaves nothing buffered frees it.
//
// Threading: single-threaded (owned by the arrange operator's worker).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compute/arrangement/batch.hpp"
#include "compute/arrangement/memory_budget.hpp"

namespace tandem::compute {

class Batcher {
 public:
  explicit Batcher(Timestamp lower = kMinTimestamp) : lower_(lower) {}

  void push(std::string_view key, std::string_view val, Timestamp time, Diff diff);
  // Capacity for `updates` more pushes of `bytes` key and val bytes in all
  // (under a budget, at most a run's worth).
  void reserve(std::size_t updates, std::size_t bytes);

  BatchPtr seal(Timestamp upper, Timestamp since = kMinTimestamp);

  Timestamp lower() const { return lower_; }
  // Buffered updates (including those cut into runs, before consolidation).
  std::uint64_t buffered() const { return records_.size() + run_updates_; }
  // Sorted runs waiting for the next seal.
  std::size_t run_count() const { return runs_.size(); }
  // Bytes held: the buffer's capacity and the runs, resident and spilled.
  std::uint64_t held_bytes() const {
    std::uint64_t bytes = records_.capacity() * sizeof(Record) + arena_.capacity();
    for (const BatchPtr& run : runs_) bytes += run->memory_bytes() + run->spilled_bytes();
    return bytes;
  }
  // Least buffered time, or kMaxTimestamp if nothing is buffered.
  Timestamp least_buffered_time() const;
  // Bytes of buffer at which a run is cut; 0 without a limited budget.
  static std::uint64_t run_bytes();

  // A buffered update: bytes [offset, offset + key_len) are the key and the
  // val follows. p0 is the key's bytes [0, 8) and p1 the key's bytes [8, 16)
  // if the key is longer than 8 bytes, else the val's bytes [0, 8); each
  // big-endian and zero-padded, so integer order on them agrees with memcmp
  // order up to that length.
  struct Record {
    std::uint64_t p0;
    std::uint64_t p1;
    std::uint64_t offset;
    std::uint32_t key_len;
    std::uint32_t val_len;
    Timestamp time;
    Diff diff;
  };

 private:
  static bool crowded();  // see "Bounded memory" above
  std::uint64_t buffer_bytes() const { return records_.size() * sizeof(Record) + arena_.size(); }
  // Sorts and consolidates the records [begin, end) and builds them as one
  // batch with `description`.
  BatchPtr build(std::vector<Record>::iterator begin, std::vector<Record>::iterator end,
                 Description description) const;
  // Moves every buffered record into a new run and merges runs as needed.
  void cut_run();
  // Merges every run into one (null if there are none).
  BatchPtr merge_runs(Timestamp since);

  std::string arena_;
  std::vector<Record> records_;
  Timestamp lower_;
  std::vector<BatchPtr> runs_;  // oldest first
  std::uint64_t run_updates_ = 0;
  Timestamp runs_least_time_ = kMaxTimestamp;
  Timestamp runs_greatest_time_ = kMinTimestamp;
  std::uint64_t next_check_ = 0;  // buffer_bytes() at which to look at the budget
  // The capacity of records_ and arena_, counted in the budget.
  BuildingCount held_;
  void count_held() { held_.set(records_.capacity() * sizeof(Record) + arena_.capacity()); }
};

}  // namespace tandem::compute
