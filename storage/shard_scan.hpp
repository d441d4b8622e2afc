#pragma once
// Reading a shard's stored history (internal to the storage layer): a bounded
// scan over the `shards` family and the consolidation rules shared by
// snapshot, listen and compaction. Threading: stateless; safe from any
// thread while the DurableStore is open.

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.hpp"
#include "common/timestamp.hpp"
#include "storage/durable_store.hpp"
#include "storage/shard_codec.hpp"
#include "storage/shard_types.hpp"

namespace rocksdb {
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

// Sorts by row, sums the diffs of equal rows and drops zero sums.
void consolidate_rows(std::vector<std::pair<std::string, Diff>>* rows);
// Sorts by (time, row), sums the diffs of equal (time, row) and drops zero
// sums.
void consolidate_updates(std::vector<Update>* updates);

}  // namespace tandem::storage
