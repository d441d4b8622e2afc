// RocksSpillStore: the SpillStore (common/spill_store.hpp)
// over the DurableStore's `spill` column family.
//
// Keys are be64 spill id | be32 block, so one id's blocks are contiguous and
// erase() is one DeleteRange. Writes skip the WAL and are never synced: the
// family is dropped and recreated at every open (DurableStore::open), since
// indexes re-hydrate from their shards at boot. The family compresses with
// LZ4 and reads through its own RocksDB block cache of kSpillFamilyCacheBytes
// (on top of compute's decoded-block cache), with a small write buffer so the
// memtable adds little to the memory budget's fixed overhead.
//
// Threading: any thread, concurrently (RocksDB is thread-safe).
#pragma once

#include <cstdint>

#include <rocksdb/options.h>

#include "common/spill_store.hpp"
#include "storage/durable_store.hpp"

namespace tandem::storage {

inline constexpr std::uint64_t kSpillFamilyCacheBytes = 8ull << 20;
inline constexpr std::uint64_t kSpillWriteBufferBytes = 8ull << 20;

rocksdb::ColumnFamilyOptions spill_family_options();

class RocksSpillStore final : public SpillStore {
 public:
  // REQUIRES `store` outlives this object.
  explicit RocksSpillStore(DurableStore& store) : store_(store) {}

  Status put_block(std::uint64_t id, std::uint32_t block, std::string_view bytes) override;
  Status get_block(std::uint64_t id, std::uint32_t block, std::string& out) const override;
  Status erase(std::uint64_t id) override;

 private:
  DurableStore& store_;
};

}  // namespace tandem::storage
