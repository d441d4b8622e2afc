// SpilledBatchStorage: a batch's columns written to the SpillStore in blocks
// and read back through the BlockCache.
//
// write() cuts the columns into blocks of whole keys of about kBlockBytes
// each (a key with more data than that is one larger block) and writes each
// block as one SpillStore value, encoded as
//   u64 key_count, val_count, update_count;
//   u64 key_offsets[k+1], key_vals[k+1], val_offsets[v+1], val_updates[v+1];
//   u64 times[u]; i64 diffs[u]; key bytes; val bytes
// with every index local to the block, so a decoded block is a BatchColumns
// pointing into the value's bytes (no copy beyond the read). The store
// compresses (the RocksDB column family uses LZ4). The fences (each block's
// last key) stay resident.
//
// pin_block() looks the block up in the cache; on a miss it reads, decodes
// and caches it. A read error means the process lost its own spill: that is
// a broken invariant, reported and aborted on.
//
// Writer appends columns to a new spill incrementally, so a BatchBuilder
// can emit the finished part of a batch it is still building (the batch is
// then born spilled; builder.hpp) and write() is one append per resident
// block.
//
// Deletion: the destructor erases the spilled blocks and their cache
// entries. It runs when the last holder lets go (the batch's BatchStorage
// and every cursor or merge that took this source), on whichever thread that
// is.
//
// Threading: immutable after write(); any thread may pin concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compute/arrangement/batch_storage.hpp"
#include "compute/arrangement/block_cache.hpp"
#include "compute/arrangement/memory_budget.hpp"
#include "common/spill_store.hpp"

namespace tandem::compute {

class SpilledBatchStorage final : public BlockSource {
 public:
  static constexpr std::uint64_t kBlockBytes = 64 * 1024;

  // Writes `columns` (one block or many) to the budget's store under a new
  // spill id. Returns null if a write failed (what was written is erased
  // again).
  static std::shared_ptr<const SpilledBatchStorage> write(const BlockSource& columns,
                                                          std::shared_ptr<MemoryBudget> budget);

  // Writes blocks of whole keys under one new spill id as they come.
  class Writer {
   public:
    explicit Writer(std::shared_ptr<MemoryBudget> budget);
    // Cuts `columns` (whole keys, all above the keys appended before) into
    // blocks of about kBlockBytes and writes them. False if a write failed:
    // the storage then holds the earlier appends only (finish() is still
    // valid) and no further append may be made.
    bool append(const BatchColumns& columns);
    std::uint64_t spilled_bytes() const { return spilled_->spilled_bytes_; }
    bool empty() const { return spilled_->block_count() == 0; }
    // The storage of every block appended successfully.
    std::shared_ptr<const SpilledBatchStorage> finish() { return std::move(spilled_); }

   private:
    std::shared_ptr<SpilledBatchStorage> spilled_;
  };
  ~SpilledBatchStorage() override;

  std::size_t block_count() const override { return fence_offsets_.size() - 1; }
  std::string_view last_key(std::size_t block) const override {
    return std::string_view(fences_).substr(fence_offsets_[block],
                                            fence_offsets_[block + 1] - fence_offsets_[block]);
  }
  PinnedColumns pin_block(std::size_t block) const override;
  bool block_resident(std::size_t block) const override {
    return cache_.contains(id_, static_cast<std::uint32_t>(block));
  }
  std::uint64_t resident_bytes() const override;
  std::uint64_t spilled_bytes() const override { return spilled_bytes_; }
  bool fully_spilled() const override { return true; }

  // Decodes a block value (exposed for tests). REQUIRES bytes came from
  // encode_block.
  static std::shared_ptr<const DecodedBlock> decode_block(std::string bytes);

 private:
  explicit SpilledBatchStorage(std::shared_ptr<MemoryBudget> budget);

  std::shared_ptr<MemoryBudget> budget_;  // its store, cache and spilled-bytes count
  std::uint64_t id_;
  SpillStore& store_;
  BlockCache& cache_;
  std::string fences_;
  std::vector<std::uint64_t> fence_offsets_{0};
  std::uint64_t spilled_bytes_ = 0;
};

}  // namespace tandem::compute
