// BatchStorage: where a batch's columns live, and how they move.
//
// A batch's columns are read through a BlockSource: the columns cut into
// *blocks*, each a self-contained BatchColumns (batch_columns.hpp) over a
// contiguous run of whole keys, with local indices. Blocks ascend: every key
// of block i is below every key of block i+1. The last key of each block is
// kept resident (the fence), so a reader can find the block that holds a key
// without paging anything in. In memory a batch is one block
// (memory_batch_storage.hpp); spilled, it is many blocks read back through a
// block cache (spilled_batch_storage.hpp).
//
// BatchStorage holds the batch's current BlockSource and swaps it from the
// resident form to the spilled form when the MemoryBudget (memory_budget.hpp)
// picks the batch. A reader takes source() once (a cursor, a merge) and keeps
// that shared_ptr for its whole walk: a source never changes, so the walk sees
// one consistent layout even if the batch is spilled meanwhile, and memory a
// reader still uses is freed only when it lets go. Spilled data is deleted
// when the last holder of the spilled source drops it.
//
// Threading: source(), resident_bytes(), spilled_bytes() and last_use() may
// be called from any thread concurrently; spill() is called by the
// MemoryBudget for one storage at a time (it removes a victim from its
// registry before spilling it).
#pragma once

#include <atomic>
#include <mutex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "compute/arrangement/batch_columns.hpp"

namespace tandem::compute {

class MemoryBudget;

class BlockSource {
 public:
  virtual ~BlockSource() = default;

  // At least one block; a batch without updates is one empty block.
  virtual std::size_t block_count() const = 0;
  // The last key of block i (resident; no paging). REQUIRES the block has keys.
  virtual std::string_view last_key(std::size_t block) const = 0;
  // Makes block i readable and returns a view valid while the returned
  // PinnedColumns (its `pin`) and this source are alive. May page data in.
  virtual PinnedColumns pin_block(std::size_t block) const = 0;
  // Bytes of memory this source holds (for a spilled one, its fences only).
  virtual std::uint64_t resident_bytes() const = 0;
  // Bytes written to the spill (0 for a resident source).
  virtual std::uint64_t spilled_bytes() const { return 0; }
  // Whether pin_block(block) is served from memory now, without reading the
  // spill (true for a resident source; for a spilled one, whether the block
  // cache holds it). Counts no cache hit or miss; the answer may change
  // right after (spill_probe.hpp).
  virtual bool block_resident(std::size_t /*block*/) const { return true; }
  // Whether every block lives in the spill (only fences are resident).
  virtual bool fully_spilled() const { return false; }
};

class BatchStorage {
 public:
  // `budget` (may be null: never spilled) accounts for the resident bytes
  // from construction until the storage is spilled or destroyed. A source
  // that is fully_spilled() (a batch born spilled) starts out spilled; its
  // spilled bytes were counted by whoever wrote it.
  BatchStorage(std::shared_ptr<const BlockSource> resident, std::shared_ptr<MemoryBudget> budget);
  ~BatchStorage();
  BatchStorage(const BatchStorage&) = delete;
  BatchStorage& operator=(const BatchStorage&) = delete;

  // The current source; marks the storage as used now (for coldest-first).
  std::shared_ptr<const BlockSource> source() const;

  std::uint64_t resident_bytes() const;
  std::uint64_t spilled_bytes() const;
  bool spilled() const { return spilled_.load(std::memory_order_acquire); }
  // The budget's tick at the last source() call: lower is colder.
  std::uint64_t last_use() const { return last_use_.load(std::memory_order_relaxed); }

  // Writes the columns to the budget's spill store and swaps in the spilled
  // source. Returns the resident bytes released, 0 if it stayed resident (a
  // write error, no budget, nothing to spill, already spilled).
  std::uint64_t spill() const;

 private:
  // A mutex, not std::atomic<std::shared_ptr>: libstdc++ 12's lock bit in
  // the latter is invisible to ThreadSanitizer (a reported race on every
  // spill). Held only to copy or swap the pointer.
  mutable std::mutex source_mutex_;
  mutable std::shared_ptr<const BlockSource> source_;
  mutable std::atomic<std::uint64_t> last_use_{0};
  mutable std::atomic<bool> spilled_{false};
  std::shared_ptr<MemoryBudget> budget_;
  std::uint64_t admitted_bytes_ = 0;
};

}  // namespace tandem::compute
