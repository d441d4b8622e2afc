#pragma once
// Reading a shard's stored history (internal to the storage layer): a bounded
// scan over the `shards` family and the consolidation rules shared by
// snapshot, listen and compaction. Threading: stateless; safe from any
// thread while the DurableStore is open.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <rocksdb/slice.h>

#include "common/status.hpp"
#include "common/timestamp.hpp"
#include "storage/durable_store.hpp"
#include "storage/shard_codec.hpp"
#include "storage/shard_types.hpp"

namespace rocksdb {
class Iterator;
class Snapshot;
}  // namespace rocksdb

namespace tandem::storage {

// The shard's base_time (storage/shard_codec.hpp) as of `snapshot` (null:
// the latest state); the largest time when the shard has no metadata there.
// Errors: 58030, XX001.
Result<Timestamp> stored_base_time(const DurableStore& durable, ShardId shard, const rocksdb::Snapshot* snapshot);

// Calls `visit(key, value)` for every stored key of `shard` with lower <=
// time < upper, in key order, whatever its part; a non-ok Status from
// `visit` ends the scan and is returned. A committed staged append's
// reference (kStagedRefPart) is resolved: its stage's chunks are visited
// in its place as kAppendPart chunks at the reference's time, after
// `on_staged(stage)` (when given) is called. Staged times are never
// reached (upper is clamped below kStagedTimeBit). The value view is valid
// only during the call. Errors: 58030 on a RocksDB failure, XX001 on a
// malformed key or reference.
Status scan_shard_keys(const DurableStore& durable, ShardId shard, Timestamp lower, Timestamp upper,
                       const rocksdb::Snapshot* snapshot,
                       const std::function<Status(const DataKey&, std::string_view)>& visit,
                       const std::function<void(uint64_t)>& on_staged = nullptr);
// Calls `visit(chunk, value)` for every chunk of a stage (pending or
// committed), in chunk order. Errors as scan_shard_keys.
Status scan_stage_chunks(const DurableStore& durable, ShardId shard, uint64_t stage,
                         const rocksdb::Snapshot* snapshot,
                         const std::function<Status(uint32_t, std::string_view)>& visit);

// Calls `visit(time, row, diff)` for every stored update of `shard` with
// lower <= time < upper, in key order (time ascending), that a reader sees:
// appends, and the base at times <= base_time (never compaction's runs or
// the chunks of a rewrite not yet committed). `snapshot` may be null (read
// the latest state); base_time must be read at the same snapshot. The row
// view is valid only during the call. Errors: 58030 on a RocksDB failure,
// XX001 on an undecodable batch or key.
Status scan_shard(const DurableStore& durable, ShardId shard, Timestamp lower, Timestamp upper,
                  const rocksdb::Snapshot* snapshot, Timestamp base_time,
                  const std::function<void(Timestamp, std::string_view, Diff)>& visit);
// scan_shard at a snapshot, reading base_time from it first.
Status scan_visible(const DurableStore& durable, ShardId shard, Timestamp lower, Timestamp upper,
                    const rocksdb::Snapshot* snapshot,
                    const std::function<void(Timestamp, std::string_view, Diff)>& visit);

// A forward iterator over [begin, end) of the shards family for a long
// scan. A RocksDB iterator keeps every memtable current at its creation
// alive for its whole life, flushed or not, so one that reads a large shard
// while a bulk write or a history rewrite (whose merges read and write the
// family at once) fills and flushes memtables would keep each of them: the
// family held 65-183 MiB of memtables during a full-size hydration
// (bench/HISTORY.md). This one re-opens at the next key once a
// flush of the family has completed since it opened, reading at one
// snapshot throughout (the caller's, or its own when given none), so it
// keeps no flushed memtable past its next step. It does not fill the block
// cache.
// Threading: one thread at a time.
class ShardRangeIterator {
 public:
  ShardRangeIterator(const DurableStore& durable, std::string begin, std::string end,
                     const rocksdb::Snapshot* snapshot);
  ~ShardRangeIterator();
  ShardRangeIterator(const ShardRangeIterator&) = delete;
  ShardRangeIterator& operator=(const ShardRangeIterator&) = delete;

  // Values of this size or more are detached by detach() with its default.
  static constexpr size_t kDetachedValueBytes = size_t{64} << 10;

  // At the first key; then each next() moves on. key() and value() stay
  // valid until the next call to next().
  bool valid() const;
  void next();
  std::string_view key() const;
  std::string_view value() const;
  // Ok, or the RocksDB error that ended the scan, naming the shard and the
  // key range: XX001 for a corrupt block, 58030 otherwise.
  Status status() const;
  // For a caller about to spend a while on the current entry (a hydration
  // feeding compute at its pace, a merge going through a chunk, a nested
  // scan of a stage): when the value has `min_value_bytes` or more, copies
  // the entry and lets go of the RocksDB iterator, so the memtables flushed
  // meanwhile are not kept; next() re-opens after the key. key() and value()
  // then read the copy.
  void detach(size_t min_value_bytes = kDetachedValueBytes);

 private:
  void open(bool resuming);

  const DurableStore& durable_;
  const std::string begin_;
  const std::string end_;
  const rocksdb::Slice lower_;  // the bounds the iterator's options point to
  const rocksdb::Slice upper_;
  const rocksdb::Snapshot* own_snapshot_ = nullptr;
  const rocksdb::Snapshot* snapshot_;
  std::unique_ptr<rocksdb::Iterator> it_;
  uint64_t flushes_at_open_ = 0;
  bool detached_ = false;
  std::string resume_;  // the last key read, where a re-opened iterator resumes
  std::string detached_value_;
};

// Sorts by row, sums the diffs of equal rows and drops zero sums.
void consolidate_rows(std::vector<std::pair<std::string, Diff>>* rows);
// Sorts by (time, row), sums the diffs of equal (time, row) and drops zero
// sums.
void consolidate_updates(std::vector<Update>* updates);

}  // namespace tandem::storage
