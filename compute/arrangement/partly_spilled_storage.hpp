// PartlySpilledStorage: a batch whose leading keys a BatchBuilder streamed
// to the spill and whose remaining keys stayed in memory because a spill
// write failed (builder.hpp). Blocks are the spilled ones, then the
// resident tail as one more block; readers see one ascending BlockSource
// (batch_storage.hpp). It is not fully_spilled(): the MemoryBudget may still
// pick it, and spilling it rewrites every block under a new id.
//
// Threading: immutable; any thread may pin concurrently.
#pragma once

#include <memory>
#include <utility>

#include "compute/arrangement/batch_storage.hpp"
#include "compute/arrangement/memory_batch_storage.hpp"

namespace tandem::compute {

class PartlySpilledStorage final : public BlockSource {
 public:
  // REQUIRES every key of `tail` is above every key of `spilled`, and both
  // have keys.
  PartlySpilledStorage(std::shared_ptr<const BlockSource> spilled,
                       std::shared_ptr<const MemoryBatchStorage> tail)
      : spilled_(std::move(spilled)), tail_(std::move(tail)), head_blocks_(spilled_->block_count()) {}

  std::size_t block_count() const override { return head_blocks_ + 1; }
  std::string_view last_key(std::size_t block) const override {
    return block < head_blocks_ ? spilled_->last_key(block) : tail_->last_key(0);
  }
  PinnedColumns pin_block(std::size_t block) const override {
    return block < head_blocks_ ? spilled_->pin_block(block) : tail_->pin_block(0);
  }
  bool block_resident(std::size_t block) const override {
    return block < head_blocks_ ? spilled_->block_resident(block) : true;
  }
  std::uint64_t resident_bytes() const override {
    return sizeof(*this) + spilled_->resident_bytes() + tail_->resident_bytes();
  }
  std::uint64_t spilled_bytes() const override { return spilled_->spilled_bytes(); }

 private:
  std::shared_ptr<const BlockSource> spilled_;
  std::shared_ptr<const MemoryBatchStorage> tail_;
  std::size_t head_blocks_;
};

}  // namespace tandem::compute
