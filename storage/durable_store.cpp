#include "storage/durable_store.hpp"

#include "storage/rocks_spill_store.hpp"
#include "storage/wal_file_system.hpp"
#include "storage/wal_registry.hpp"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <filesystem>
#include <vector>

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/listener.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/write_buffer_manager.h>

namespace tandem::storage {
namespace {

constexpr const char* kFamilyNames[kFamilyCount] = {"shards", "catalog", "meta", "stash", "spill"};
constexpr const char* kFormatKey = "format_version";
constexpr const char* kFormatVersion = "1";

Status io_error(const std::string& what, const rocksdb::Status& s) {
  return Status::error(sqlstate::kIoError, what + ": " + s.ToString());
}

// RocksDB's info log (the LOG file), keeping what WAL replay reports about
// damaged records ("<file>: dropping N bytes; Corruption: ...") so that
// open can name the file.
class WalReplayLogger : public rocksdb::Logger {
 public:
  explicit WalReplayLogger(std::shared_ptr<rocksdb::Logger> target)
      : rocksdb::Logger(target->GetInfoLogLevel()), target_(std::move(target)) {}
  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override { Logv(rocksdb::InfoLogLevel::INFO_LEVEL, format, ap); }
  void Logv(const rocksdb::InfoLogLevel level, const char* format, va_list ap) override {
    va_list copy;
    va_copy(copy, ap);
    if (level >= rocksdb::InfoLogLevel::WARN_LEVEL) {
      char line[1024];
      std::vsnprintf(line, sizeof line, format, copy);
      std::string_view text(line);
      if (text.find(".log: dropping") != std::string_view::npos) {
        std::lock_guard lock(mutex_);
        dropped_.emplace_back(text);
      }
    }
    va_end(copy);
    target_->Logv(level, format, ap);
  }
  rocksdb::Status Close() override { return target_->Close(); }
  void Flush() override { target_->Flush(); }
  std::vector<std::string> dropped() const {
    std::lock_guard lock(mutex_);
    return dropped_;
  }

 private:
  std::shared_ptr<rocksdb::Logger> target_;
  mutable std::mutex mutex_;
  std::vector<std::string> dropped_;
};

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += (out.empty() ? "" : "; ") + l;
  return out;
}

}  // namespace

Status read_error(const std::string& what, const rocksdb::Status& s) {
  if (s.IsCorruption()) return Status::error(sqlstate::kDataCorrupted, what + ": " + s.ToString());
  return Status::error(sqlstate::kIoError, what + ": " + s.ToString());
}

constexpr std::size_t kMemtableBytes = 64 << 20;
constexpr std::size_t kBlockCacheBytes = 8 << 20;

// Counts each family's completed memtable flushes (called on RocksDB's
// flush threads).
class DurableStore::FlushCounter : public rocksdb::EventListener {
 public:
  void OnFlushCompleted(rocksdb::DB*, const rocksdb::FlushJobInfo& info) override {
    for (int i = 0; i < kFamilyCount; ++i) {
      if (info.cf_name == kFamilyNames[i]) counts_[i].fetch_add(1, std::memory_order_release);
    }
  }
  uint64_t count(Family family) const { return counts_[static_cast<int>(family)].load(std::memory_order_acquire); }

 private:
  std::atomic<uint64_t> counts_[kFamilyCount] = {};
};

Result<std::unique_ptr<DurableStore>> DurableStore::open(const DurableStoreOptions& options) {
  std::error_code ec;
  std::filesystem::create_directories(options.path, ec);
  if (ec) {
    return Status::error(sqlstate::kIoError,
                         "could not create data directory \"" + options.path + "\": " + ec.message());
  }
  std::unique_ptr<DurableStore> store(new DurableStore());
  store->env_ = new_wal_preallocating_env(options.sync_writes);
  rocksdb::DBOptions db_options;
  db_options.env = store->env_.get();
  db_options.create_if_missing = true;
  db_options.create_missing_column_families = true;
  db_options.max_background_jobs = 2;
  db_options.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  db_options.keep_log_file_num = 2;
  // A damaged WAL record stops the open (absolute consistency) unless the
  // operator asked to drop the damaged tail (point-in-time recovery: replay
  // stops before the first bad record). Closed, synced WALs are also
  // checked against the sizes the MANIFEST recorded; the live one against
  // TANDEM_WALS (wal_registry.hpp).
  db_options.wal_recovery_mode = options.recover_torn_wal ? rocksdb::WALRecoveryMode::kPointInTimeRecovery
                                                          : rocksdb::WALRecoveryMode::kAbsoluteConsistency;
  db_options.track_and_verify_wals_in_manifest = true;
  db_options.paranoid_checks = true;
  std::shared_ptr<rocksdb::Logger> rocks_log;
  if (rocksdb::Status ls = rocksdb::CreateLoggerFromOptions(options.path, db_options, &rocks_log); !ls.ok()) {
    return io_error("could not create RocksDB's log in \"" + options.path + "\"", ls);
  }
  auto replay_log = std::make_shared<WalReplayLogger>(rocks_log);
  db_options.info_log = replay_log;
  if (std::vector<std::string> missing = missing_wals(options.path); !missing.empty()) {
    const std::string what = "write-ahead log file(s) " + joined(missing) + " missing from \"" + options.path +
                             "\" (they held acknowledged writes not yet flushed)";
    if (!options.recover_torn_wal) {
      return Status::error(sqlstate::kDataCorrupted, what)
          .with_hint("restore the file(s), or start with --recover-torn-wal to open without their writes");
    }
    store->recovery_report_.push_back(what + ": opened without them");
    for (const std::string& name : missing) {
      TANDEM_RETURN_IF_ERROR(record_wal_deleted((std::filesystem::path(options.path) / name).string()));
    }
  }
  store->flush_counter_ = std::make_shared<FlushCounter>();
  db_options.listeners.push_back(store->flush_counter_);
  // Every family's memtables together stay within kMemtableBytes (a bulk
  // load flushes sooner instead of holding two 64 MiB memtables per family):
  // part of the fixed overhead above the arrangement budget (issue 9).
  db_options.write_buffer_manager = std::make_shared<rocksdb::WriteBufferManager>(kMemtableBytes);

  // One block cache for the durable families (RocksDB would give each its
  // own 8 MiB): part of the fixed overhead too. The spill family has its own.
  rocksdb::BlockBasedTableOptions table;
  table.block_cache = rocksdb::NewLRUCache(kBlockCacheBytes);
  rocksdb::ColumnFamilyOptions family_options;
  family_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  // The write buffer manager only asks for flushes; it does not bound a
  // family's own memtables (RocksDB's default: two of 64 MiB), nor those an
  // open iterator pins after their flush. A shard's history rewrite stages
  // its whole output through the shards family while its cursors pin the
  // memtables they started on, and that held 150 MiB of memtables during a
  // hydration under a 128 MB budget (bench/HISTORY.md, "What holds memory
  // above the budget"). Memtables of a quarter of the manager's size bound
  // a family to two unflushed ones (RocksDB stalls its writes until a flush
  // frees one) plus what iterators pin.
  family_options.write_buffer_size = kMemtableBytes / 4;
  family_options.max_write_buffer_number = 2;
  // Levels 0 and 1 uncompressed: a bulk load's memtable flushes and their
  // first compaction are copies, not Snappy on the two cores a COPY's
  // session shares with them; deeper levels, where a large table's data
  // settles, keep Snappy.
  family_options.compression_per_level = {rocksdb::kNoCompression, rocksdb::kNoCompression,
                                          rocksdb::kSnappyCompression};
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  families.emplace_back(rocksdb::kDefaultColumnFamilyName, family_options);
  for (const char* name : kFamilyNames) families.emplace_back(name, family_options);
  // The stash holds results being read by a client: small memtables (its
  // memory stays bounded, 24 MiB, however large a result is; three of 8 MiB
  // let a 100 MB result be written with no flush stall: 4 MiB x 2 made it
  // 18% slower, bench/HISTORY.md), no compression (each block is written
  // once and read once, soon).
  rocksdb::ColumnFamilyOptions& stash = families[1 + static_cast<int>(Family::kStash)].options;
  stash.write_buffer_size = 8 << 20;
  stash.max_write_buffer_number = 3;
  stash.compression = rocksdb::kNoCompression;
  stash.compression_per_level.clear();  // else it overrides `compression`
  families[1 + static_cast<int>(Family::kSpill)].options = spill_family_options();

  store->options_ = options;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::Status s = rocksdb::DB::Open(db_options, options.path, families, &handles, &store->db_);
  std::vector<std::string> dropped = replay_log->dropped();
  if (!s.ok() && !dropped.empty()) {
    return Status::error(sqlstate::kDataCorrupted, "the write-ahead log in \"" + options.path +
                                                       "\" is damaged: " + joined(dropped))
        .with_hint("start with --recover-torn-wal to drop the log from the first damaged record on "
                   "(the writes in it are lost)");
  }
  if (!s.ok()) return read_error("could not open data directory \"" + options.path + "\"", s);
  for (const std::string& d : dropped) store->recovery_report_.push_back("write-ahead log damaged, replay stopped: " + d);
  // handles[0] is the default family, which tandem does not use.
  store->db_->DestroyColumnFamilyHandle(handles[0]);
  for (int i = 0; i < kFamilyCount; ++i) store->handles_[i] = handles[i + 1];
  TANDEM_RETURN_IF_ERROR(store->discard_spill());
  TANDEM_RETURN_IF_ERROR(store->remove_range_tombstones());

  TANDEM_ASSIGN_OR_RETURN(auto format, store->get(Family::kMeta, kFormatKey));
  if (!format) {
    TANDEM_RETURN_IF_ERROR(store->put(Family::kMeta, kFormatKey, kFormatVersion));
  } else if (*format != kFormatVersion) {
    return Status::error(sqlstate::kIoError, "data directory \"" + options.path +
                                                 "\" has unsupported format version " + *format);
  }
  return store;
}

DurableStore::~DurableStore() { (void)close(); }

Status DurableStore::close() {
  if (db_ == nullptr) return Status::ok();
  rocksdb::FlushOptions flush;
  flush.wait = true;
  std::vector<rocksdb::ColumnFamilyHandle*> handles(handles_, handles_ + kFamilyCount);
  rocksdb::Status fs = db_->Flush(flush, handles);
  for (auto*& h : handles_) {
    db_->DestroyColumnFamilyHandle(h);
    h = nullptr;
  }
  rocksdb::Status cs = db_->Close();
  delete db_;
  db_ = nullptr;
  if (!fs.ok()) return io_error("flush failed", fs);
  if (!cs.ok()) return io_error("close failed", cs);
  // Every family is flushed: no WAL holds a write the next open needs.
  TANDEM_RETURN_IF_ERROR(clear_wal_list(options_.path));
  return Status::ok();
}

rocksdb::ColumnFamilyHandle* DurableStore::handle(Family family) const {
  return handles_[static_cast<int>(family)];
}

uint64_t DurableStore::flushes(Family family) const { return flush_counter_->count(family); }

Status DurableStore::put(Family family, std::string_view key, std::string_view value) {
  rocksdb::WriteOptions wo;
  wo.sync = options_.sync_writes;
  rocksdb::Status s = db_->Put(wo, handle(family), rocksdb::Slice(key.data(), key.size()),
                               rocksdb::Slice(value.data(), value.size()));
  if (!s.ok()) return io_error("write failed", s);
  return Status::ok();
}

Result<std::optional<std::string>> DurableStore::get(Family family, std::string_view key) const {
  std::string value;
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), handle(family),
                               rocksdb::Slice(key.data(), key.size()), &value);
  if (s.IsNotFound()) return std::optional<std::string>();
  if (!s.ok()) return read_error("reading key " + rocksdb::Slice(key.data(), key.size()).ToString(true), s);
  return std::optional<std::string>(std::move(value));
}

}  // namespace tandem::storage
