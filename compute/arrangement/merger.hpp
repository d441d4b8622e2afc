// Merger: fueled merge of two adjacent batches into one.
//
// Given older and newer with older.upper == newer.lower, produces a batch
// with Description{older.lower, newer.upper, max(since, older.since,
// newer.since)} holding both inputs' updates, each time t advanced to
// max(t, since) and then consolidated (logical compaction made physical:
// updates that coincide after advancing are summed, zero sums dropped).
//
// The work is split into steps so a spine can spread a big merge over many
// inserts (STYLE #6): work(fuel) processes about `fuel` input updates and
// subtracts what it did from fuel. It stops at a (key, val) boundary, so it
// may overshoot by the updates of one (key, val); fuel can go negative.
// Once done(), finish() returns the result (exactly once).
//
// Streaming: each input is read block by block through its BlockSource
// (batch_storage.hpp), one pinned block per input at a time, so merging
// spilled batches pages them in through the block cache and never loads a
// whole input. The output streams too: when the MemoryBudget binds, the
// builder writes finished keys to the spill as the merge goes (builder.hpp),
// so the result is born spilled and never held whole.
//
// Threading: single-threaded (the spine's owner). The inputs are immutable
// and may be read by other threads meanwhile; the merger holds them, so they
// stay valid until it is destroyed.
#pragma once

#include <cstdint>
#include <vector>

#include "compute/arrangement/batch.hpp"
#include "compute/arrangement/builder.hpp"

namespace tandem::compute {

class Merger {
 public:
  Merger(BatchPtr older, BatchPtr newer, Timestamp since);

  void work(std::int64_t& fuel);
  bool done() const { return done_; }
  BatchPtr finish();

  // Input updates processed so far, and the total to process.
  std::uint64_t progress() const { return processed_; }
  std::uint64_t total() const { return older_->update_count() + newer_->update_count(); }

  const BatchPtr& older() const { return older_; }
  const BatchPtr& newer() const { return newer_; }

 private:
  // Emits the current val of side a and/or b (either may be null), advancing
  // and consolidating their times. Returns the input updates consumed.
  std::uint64_t merge_val(const BatchColumns* a, std::uint64_t va, const BatchColumns* b,
                          std::uint64_t vb);

  // One input's block walk: its source and the pinned current block.
  struct Input {
    std::shared_ptr<const BlockSource> source;
    std::size_t block = 0;
    PinnedColumns pinned;
    void open(const Batch& batch) {
      source = batch.source();
      pinned = source->pin_block(0);
    }
    // Moves to the next block if there is one; returns whether it did.
    bool next_block() {
      if (block + 1 >= source->block_count()) return false;
      pinned = source->pin_block(++block);
      return true;
    }
  };

  BatchPtr older_;
  BatchPtr newer_;
  Description description_;
  Input in_a_;
  Input in_b_;
  BatchBuilder builder_;
  BatchPtr result_;

  // Position: current key and val on each side, within its current block. A
  // side is exhausted when its key index reaches its last block's key_count.
  std::uint64_t ka_ = 0, va_ = 0, kb_ = 0, vb_ = 0;
  // Key comparison of the current keys, valid while key_cmp_valid_.
  int key_cmp_ = 0;
  bool key_cmp_valid_ = false;
  // Whether the current key on each side has been pushed into the builder.
  bool key_a_open_ = false, key_b_open_ = false;
  Timestamp since_ = kMinTimestamp;  // times <= since_ are stored at since_
  std::uint64_t processed_ = 0;
  bool done_ = false;
};

// Merges two adjacent batches at once (unfueled: for callers that run to
// completion anyway, like a batcher's runs or an input's history).
BatchPtr merge_now(BatchPtr older, BatchPtr newer, Timestamp since);

// Appends `batch` (adjacent to the last one) to a list kept like a binary
// counter: while the newest batch is at least half the size of the one
// before it, the two are merged (merge_now, since kMinTimestamp). The list
// stays O(log n) long and each update is merged O(log n) times.
void append_merging(std::vector<BatchPtr>& batches, BatchPtr batch);

}  // namespace tandem::compute
