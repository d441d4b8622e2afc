// RocksDB's memory, per column family, as RocksDB itself reports it: what
// the memory budget (compute/arrangement/memory_budget.hpp) does not count
// and the fixed overhead above it must cover (bench/HISTORY.md).
//
// memtables: rocksdb.size-all-mem-tables (active, unflushed immutable and
// those still pinned by readers); table_readers: rocksdb.estimate-table-readers-mem (index
// and filter blocks held by open SST files outside any block cache);
// block_cache / pinned: the family's block cache usage and the part of it
// pinned by readers (a cache shared by several families is reported once
// per family); sst_bytes: the live SST files' size on disk.
//
// Threading: any thread, once the store is open.
#pragma once

#include <cstdint>
#include <string>

#include "storage/durable_store.hpp"

namespace tandem::storage {

struct FamilyMemory {
  std::uint64_t memtables = 0;
  std::uint64_t table_readers = 0;
  std::uint64_t block_cache = 0;
  std::uint64_t block_cache_pinned = 0;
  std::uint64_t sst_bytes = 0;
};

struct StoreMemory {
  FamilyMemory families[kFamilyCount];
  // The write buffer manager's count over all families (its cap is
  // kMemtableBytes).
  std::uint64_t write_buffer_manager = 0;
};

StoreMemory memory_usage(const DurableStore& store);

// One line per family with a non-zero figure, in MiB, for logs.
std::string describe(const StoreMemory& memory);

}  // namespace tandem::storage
