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
#include "storage/shard_types.hpp"

namespace rocksdb {
class Snapshot;
}  // namespace rocksdb

namespace tandem::storage {

// Calls `visit(time, row, diff)` for every stored update of `shard` with
// lower <= time < upper, in key order (time ascending). `snapshot` may be
// null (read the latest state). The row view is valid only during the call.
// Errors: 58030 on a RocksDB failure, XX001 on an undecodable batch.
Status scan_shard(const DurableStore& durable, ShardId shard, Timestamp lower, Timestamp upper,
                  const rocksdb::Snapshot* snapshot,
                  const std::function<void(Timestamp, std::string_view, Diff)>& visit);

// Sorts by row, sums the diffs of equal rows and drops zero sums.
void consolidate_rows(std::vector<std::pair<std::string, Diff>>* rows);
// Sorts by (time, row), sums the diffs of equal (time, row) and drops zero
// sums.
void consolidate_updates(std::vector<Update>* updates);

}  // namespace tandem::storage
