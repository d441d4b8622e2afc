// Batch: an immutable, sorted, consolidated set of updates over a time
// interval.
//
// A batch holds updates (key, val, time, diff) for exactly the times its
// Description covers (see description.hpp), sorted by (key, val, time) in
// unsigned-byte order of key and val, with no zero diff and no duplicate
// (key, val, time). Columns live behind BatchStorage (in memory, or spilled
// to RocksDB under memory pressure); read them with a BatchCursor
// (cursor.hpp) or a merge, never by assuming a storage form.
//
// Ownership and threading: batches are created by BatchBuilder and are shared
// as std::shared_ptr<const Batch>. After construction nothing in a Batch
// changes, so any thread holding a reference may read it; the atomic refcount
// is what lets a batch built by a maintenance worker be read by another
// thread, and the last holder frees it wherever it drops the pointer.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>

#include "compute/arrangement/batch_storage.hpp"
#include "compute/arrangement/description.hpp"

namespace tandem::compute {

class Batch;
using BatchPtr = std::shared_ptr<const Batch>;

class Batch {
 public:
  // `storage` must satisfy the BatchColumns layout contract for the updates
  // in `description`. Counts are cached so that sizing a batch never pins it.
  Batch(Description description, std::shared_ptr<const BatchStorage> storage,
        std::uint64_t key_count, std::uint64_t val_count, std::uint64_t update_count)
      : description_(description),
        storage_(std::move(storage)),
        key_count_(key_count),
        val_count_(val_count),
        update_count_(update_count) {}

  // A batch with no updates that only advances time from lower to upper.
  static BatchPtr empty(Description description);

  // The same columns under a different description. Used when a merge can
  // reuse one input unchanged (the other input was empty and no time needs
  // advancing). REQUIRES the columns are valid for `description`.
  BatchPtr with_description(Description description) const {
    return std::make_shared<const Batch>(description, storage_, key_count_, val_count_,
                                         update_count_);
  }

  const Description& description() const { return description_; }
  Timestamp lower() const { return description_.lower; }
  Timestamp upper() const { return description_.upper; }
  Timestamp since() const { return description_.since; }

  std::uint64_t key_count() const { return key_count_; }
  std::uint64_t val_count() const { return val_count_; }
  // Number of (key, val, time, diff) records: the batch's size for merging.
  std::uint64_t update_count() const { return update_count_; }
  bool is_empty() const { return update_count_ == 0; }

  // Memory bytes the batch keeps resident (columns plus this header).
  std::uint64_t memory_bytes() const { return sizeof(*this) + storage_->resident_bytes(); }
  // Bytes of its columns written to the spill (0 while resident).
  std::uint64_t spilled_bytes() const { return storage_->spilled_bytes(); }

  // The columns' current block layout; hold it for the whole walk.
  std::shared_ptr<const BlockSource> source() const { return storage_->source(); }
  const std::shared_ptr<const BatchStorage>& storage() const { return storage_; }

 private:
  Description description_;
  std::shared_ptr<const BatchStorage> storage_;
  std::uint64_t key_count_;
  std::uint64_t val_count_;
  std::uint64_t update_count_;
};

}  // namespace tandem::compute
