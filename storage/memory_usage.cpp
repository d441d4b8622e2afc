#include "storage/memory_usage.hpp"

#include <rocksdb/db.h>
#include <rocksdb/write_buffer_manager.h>

namespace tandem::storage {
namespace {

constexpr const char* kFamilyLabels[kFamilyCount] = {"shards", "catalog", "meta", "stash", "spill"};

std::uint64_t property(const DurableStore& store, Family family, const std::string& name) {
  std::uint64_t value = 0;
  if (!store.db()->GetIntProperty(store.handle(family), name, &value)) return 0;
  return value;
}

}  // namespace

StoreMemory memory_usage(const DurableStore& store) {
  using P = rocksdb::DB::Properties;
  StoreMemory out;
  for (int i = 0; i < kFamilyCount; ++i) {
    const auto family = static_cast<Family>(i);
    FamilyMemory& m = out.families[i];
    m.memtables = property(store, family, P::kSizeAllMemTables);
    m.table_readers = property(store, family, P::kEstimateTableReadersMem);
    m.block_cache = property(store, family, P::kBlockCacheUsage);
    m.block_cache_pinned = property(store, family, P::kBlockCachePinnedUsage);
    m.sst_bytes = property(store, family, P::kLiveSstFilesSize);
  }
  const auto& manager = store.db()->GetDBOptions().write_buffer_manager;
  if (manager) out.write_buffer_manager = manager->memory_usage();
  return out;
}

std::string describe(const StoreMemory& memory) {
  auto mib = [](std::uint64_t bytes) { return std::to_string((bytes + (1 << 19)) >> 20); };
  std::string out = "rocksdb write buffers " + mib(memory.write_buffer_manager) + " MiB";
  for (int i = 0; i < kFamilyCount; ++i) {
    const FamilyMemory& m = memory.families[i];
    if (m.memtables + m.table_readers + m.block_cache + m.sst_bytes == 0) continue;
    out += std::string("; ") + kFamilyLabels[i] + ": memtables " + mib(m.memtables) + " MiB, table readers " +
           mib(m.table_readers) + " MiB, block cache " + mib(m.block_cache) + " MiB (pinned " +
           mib(m.block_cache_pinned) + "), sst " + mib(m.sst_bytes) + " MiB";
  }
  return out;
}

}  // namespace tandem::storage
