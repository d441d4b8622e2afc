// ShardRangeIterator: a long scan reads every key of its range once, in
// order, at one snapshot, and does not keep the memtables it started on.
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <rocksdb/db.h>

#include "storage/shard_codec.hpp"
#include "storage/shard_scan.hpp"
#include "storage/test_support.hpp"

namespace tandem::storage {
namespace {

using testing::open_durable;
using testing::ScratchDir;

constexpr size_t kValueBytes = size_t{1} << 20;

void put(DurableStore& durable, uint32_t chunk, char fill) {
  rocksdb::Status s = durable.db()->Put(rocksdb::WriteOptions(), durable.handle(Family::kShards),
                                        shard_data_key(7, 100, kAppendPart, chunk), std::string(kValueBytes, fill));
  REQUIRE(s.ok());
}

uint64_t memtable_bytes(DurableStore& durable) {
  uint64_t bytes = 0;
  // Active, unflushed and flushed-but-pinned memtables alike.
  REQUIRE(durable.db()->GetIntProperty(durable.handle(Family::kShards), "rocksdb.size-all-mem-tables", &bytes));
  return bytes;
}

}  // namespace

TEST_CASE("a long shard scan reads each key once at its snapshot and lets go of the memtables it started on") {
  ScratchDir dir;
  auto durable = open_durable(dir.path(), /*sync=*/false);
  // 48 chunks of 1 MiB, left in memtables.
  constexpr uint32_t kChunks = 48;
  for (uint32_t c = 0; c < kChunks; ++c) put(*durable, c, 'a');
  const uint64_t at_start = memtable_bytes(*durable);
  REQUIRE(at_start >= 16 * kValueBytes);

  ShardRangeIterator it(*durable, shard_data_bound(7, 0), shard_data_bound(7, 200), nullptr);
  std::vector<uint32_t> seen;
  uint64_t most_memtables_late = 0;
  for (; it.valid(); it.next()) {
    auto key = decode_shard_data_key(it.key());
    REQUIRE(key);
    seen.push_back(key->chunk);
    CHECK(it.value() == std::string(kValueBytes, 'a'));  // the snapshot's value, not the overwrite
    // Meanwhile another writer overwrites what was read and adds chunks past
    // the end, and its memtables are flushed every 4 MiB.
    put(*durable, key->chunk, 'b');
    put(*durable, kChunks + key->chunk, 'c');
    if (seen.size() % 2 == 0) REQUIRE(durable->db()->Flush(rocksdb::FlushOptions(), durable->handle(Family::kShards)).ok());
    if (seen.size() > kChunks / 2) most_memtables_late = std::max(most_memtables_late, memtable_bytes(*durable));
  }
  REQUIRE(it.status().is_ok());
  std::vector<uint32_t> expected;
  for (uint32_t c = 0; c < kChunks; ++c) expected.push_back(c);
  CHECK(seen == expected);
  // One iterator for the whole scan would keep the memtables it started on
  // (at_start) to its end; this one re-opens after each flush.
  INFO("memtables at the start " << at_start << ", late in the scan up to " << most_memtables_late);
  CHECK(most_memtables_late < at_start);
}

}  // namespace tandem::storage
