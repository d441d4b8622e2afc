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
#include <vector>

#include "common/status.hpp"

namespace rocksdb {
class DB;
class Status;
class Env;
class ColumnFamilyHandle;
}  // namespace rocksdb

namespace tandem::storage {

// A failed RocksDB read as a Status: XX001 (data_corrupted) when RocksDB
// found corruption (a checksum mismatch, a malformed block), 58030
// otherwise; `what` says what was read (a shard, a key range).
Status read_error(const std::string& what, const rocksdb::Status& s);

enum class Family { kShards, kCatalog, kMeta, kStash, kSpill };
inline constexpr int kFamilyCount = 5;

struct DurableStoreOptions {
  std::string path;
  // fsync the WAL before a write is acknowledged (the default). Relaxed
  // durability may lose the last writes on power failure: documented unsafe.
  bool sync_writes = true;
  // Open even though the write-ahead log is damaged (a torn or corrupt
  // record: replay stops before it and drops the rest) or a WAL file is
  // missing. Without it such a directory does not open (XX001), naming the
  // file and the problem. What was dropped is in recovery_report().
  bool recover_torn_wal = false;
};

// What `tandemd --verify` found: `damage` is empty for a clean directory.
struct VerifyReport {
  std::vector<std::string> damage;
  uint64_t keys = 0;  // keys read in the durable families
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

  // Opens `path` read-only (nothing is written, the WAL is replayed in
  // memory) and checks it: every SST block's checksum and a full scan of
  // the durable families (shards, catalog, meta) with status checks. A
  // directory that does not open reports why as its damage.
  static VerifyReport verify(const std::string& path);

  // What opening with recover_torn_wal dropped (the damaged WAL files and
  // the bytes dropped from each), and the range tombstones of an older
  // format removed at open; one line each, for the log.
  const std::vector<std::string>& recovery_report() const { return recovery_report_; }

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
  // Compacts away range tombstones in the durable families (written by
  // older versions; see storage/key_delete.hpp).
  Status remove_range_tombstones();
  DurableStoreOptions options_;
  std::vector<std::string> recovery_report_;
  // The file system under db_ (storage/wal_file_system.hpp); outlives it.
  std::unique_ptr<rocksdb::Env> env_;
  std::shared_ptr<FlushCounter> flush_counter_;  // a listener of db_
  rocksdb::DB* db_ = nullptr;
  rocksdb::ColumnFamilyHandle* handles_[kFamilyCount] = {};
};

}  // namespace tandem::storage
