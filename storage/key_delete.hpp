#pragma once
// Deleting a key range of a durable family (shards, catalog, meta) with
// point deletes, never DeleteRange. RocksDB 7.8's merging iterator can drop
// a child iterator's error (a corrupt block) when a range tombstone makes it
// re-seek, and then ends the scan with an OK status after skipping the
// block's keys: a reader would see fewer rows and no error (fixed upstream
// in 8.5.2/8.6.3). With no range tombstones in a family that path is never
// taken, so a corrupt block always surfaces as an iterator error
// (storage/README.md, "Corruption"). Threading: any thread while the store
// is open.

#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"

namespace rocksdb {
class Snapshot;
}  // namespace rocksdb

namespace tandem::storage {

class DurableStore;

// Appends to `keys` every key of the shards family in [begin, end) as of
// `snapshot` (null: the latest state), for point deletes. Values are read
// and dropped one at a time; only keys are kept (one per stored chunk of
// about 256 KiB, or per small append). Errors: 58030, XX001 on a corrupt
// block (the list is then incomplete and must not be used).
Status collect_shard_keys(const DurableStore& durable, std::string_view begin, std::string_view end,
                          const rocksdb::Snapshot* snapshot, std::vector<std::string>* keys);

}  // namespace tandem::storage
