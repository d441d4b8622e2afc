// BatchBuilder: builds a Batch from input that is already sorted and
// consolidated.
//
// Input is pushed in three nested levels: push_key, then for that key one or
// more push_val, then for each val one or more push_update. A key or val that
// receives no update is dropped (so callers that consolidate on the fly, like
// the merger, may open a val whose updates cancel out).
//
// REQUIRES (asserted in debug builds):
//   * keys strictly ascending by memcmp order across push_key calls;
//   * vals strictly ascending within a key;
//   * times strictly ascending within a (key, val), diffs nonzero;
//   * every update time is valid for the description passed to done().
// The builder copies key and val bytes, so the views need only live for the
// duration of the call.
//
// Streaming under a memory budget: while a MemoryBudget with a limit is
// installed, the builder counts its columns' capacity as the budget's
// building bytes (checked each time they grow by a spill block, at a key
// boundary). When
// resident plus building bytes exceed the limit (MemoryBudget::binds), or
// building bytes alone pass half of it (building_crowded), it
// writes the finished keys to the spill as blocks (SpilledBatchStorage::
// Writer) and starts over in memory with empty columns; done() then writes the rest too and the
// batch is born spilled, never admitted resident. So a builder holds at most
// one spill block's worth more than its share of the limit, except that a
// single key is never split (a key with more vals and updates than the limit
// is held whole). If a spill write fails the builder keeps the rest in
// memory and done() returns a batch that is partly spilled
// (partly_spilled_storage.hpp): nothing is lost.
//
// Threading: single-threaded; the finished batch is immutable and shareable.
#pragma once

#include <cassert>
#include <cstdint>
#include <memory>
#include <string_view>

#include "compute/arrangement/batch.hpp"
#include "compute/arrangement/memory_batch_storage.hpp"
#include "compute/arrangement/spilled_batch_storage.hpp"

namespace tandem::compute {

class BatchBuilder {
 public:
  BatchBuilder() = default;
  ~BatchBuilder();
  BatchBuilder(const BatchBuilder&) = delete;
  BatchBuilder& operator=(const BatchBuilder&) = delete;

  // Capacity hints; optional. Under a budget with a limit they are capped
  // at a sixteenth of the limit (the output may stream instead).
  void reserve(std::uint64_t keys, std::uint64_t key_bytes, std::uint64_t vals,
               std::uint64_t val_bytes, std::uint64_t updates);

  void push_key(std::string_view key);
  void push_val(std::string_view val);
  void push_update(Timestamp time, Diff diff) {
    assert(diff != 0);
    columns_.times.push_back(time);
    columns_.diffs.push_back(diff);
  }

  // Convenience for flat input sorted by (key, val, time): compares against
  // the previous key and val to find level changes.
  void push(std::string_view key, std::string_view val, Timestamp time, Diff diff);

  std::uint64_t update_count() const { return updates_ + columns_.times.size(); }
  // Bytes written to the spill so far (0 unless the budget bound).
  std::uint64_t streamed_bytes() const { return writer_ != nullptr ? writer_->spilled_bytes() : 0; }

  // Seals the batch. The builder is left empty and reusable.
  BatchPtr done(Description description);

 private:
  void close_val();
  void close_key();
  std::string_view open_key() const;
  std::string_view open_val() const;
  // Column bytes in use (offset entries, key and val bytes, times and
  // diffs), and held (their capacity: what the budget counts).
  std::uint64_t column_bytes() const;
  std::uint64_t held_bytes() const;
  // At a key boundary: updates the budget's building count and streams the
  // finished keys if the budget binds.
  void check_budget();
  // Writes every (finished) key in columns_ to the spill and clears them.
  void stream_out();
  void release_building();

  MemoryColumns columns_;
  std::shared_ptr<MemoryBudget> budget_;  // taken at the first check
  std::unique_ptr<SpilledBatchStorage::Writer> writer_;
  std::uint64_t building_ = 0;    // bytes counted in budget_'s building
  // Counts of what was streamed out already.
  std::uint64_t keys_ = 0, vals_ = 0, updates_ = 0;
  std::uint64_t next_check_ = SpilledBatchStorage::kBlockBytes;
  bool stream_failed_ = false;
  bool key_open_ = false;
  bool val_open_ = false;
};

}  // namespace tandem::compute
