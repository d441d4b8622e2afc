#pragma once
// DurableStore: the one RocksDB database under --data-dir that holds all of
// tandem's durable state, split into column families:
//   shards  — table shards (append-only update logs keyed by (shard, time))
//   catalog — one entry per catalog item (its create_sql), replayed at boot
//   meta    — small metadata: format version, timestamp-oracle high-water mark
//   stash   — peek results too large to hold in memory while a client reads
//             them (peek_stash.hpp): written without the WAL, never synced,
//             small memtables; nothing in it outlives its statement.
//   spill   — arrangement batches spilled under memory pressure
//             (rocks_spill_store.hpp); not durable: dropped and recreated at
//             every open, LZ4-compressed, with its own small block cache.
// Threading: open/close on the
// main thread; RocksDB itself is thread-safe for reads and writes once open.

#include <memory>
#include <optional>
#include <string_view>
#include <string>

#include "common/status.hpp"

namespace rocksdb {
class DB;
class Env;
class ColumnFamilyHandle;
}  // namespace rocksdb

namespace tandem::storage {

enum class Family { kShards, kCatalog, kMeta, kStash, kSpill };
inline constexpr int kFamilyCount = 5;

struct DurableStoreOptions {
  std::string path;
  // fsync the WAL before a write is acknowledged (the default). Relaxed
  // durability may lose the last writes on power failure: documented unsafe.
  bool sync_writes = true;
};

class DurableStore {
 public:
  // Opens (creating if missing) the database and its column families.
  // Fails with 58030 if the directory cannot be created or is locked by
  // another tandemd.
  static Result<std::unique_ptr<DurableStore>> open(const DurableStoreOptions& options);
  ~DurableStore();
  DurableStore(const DurableStore&) = delete;
  DurableStore& operator=(const DurableStore&) = delete;

  // Flushes memtables and closes the database. Idempotent.
  Status close();

  Status put(Family family, std::string_view key, std::string_view value);
  // Returns kNotFound as an empty optional.
  Result<std::optional<std::string>> get(Family family, std::string_view key) const;

  rocksdb::DB* db() const { return db_; }
  rocksdb::ColumnFamilyHandle* handle(Family family) const;
  const DurableStoreOptions& options() const { return options_; }
  // Memtable flushes of `family` completed since open. An iterator opened
  // before the latest one keeps the flushed memtable alive
  // (ShardRangeIterator re-opens when this moves).
  uint64_t flushes(Family family) const;

 private:
  class FlushCounter;
  DurableStore() = default;
  // Drops and recreates the spill family (rocks_spill_store.cpp).
  Status discard_spill();
  DurableStoreOptions options_;
  // The file system under db_ (storage/wal_file_system.hpp); outlives it.
  std::unique_ptr<rocksdb::Env> env_;
  std::shared_ptr<FlushCounter> flush_counter_;  // a listener of db_
  rocksdb::DB* db_ = nullptr;
  rocksdb::ColumnFamilyHandle* handles_[kFamilyCount] = {};
};

}  // namespace tandem::storage
