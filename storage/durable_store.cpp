#include "storage/durable_store.hpp"

#include "storage/rocks_spill_store.hpp"
#include "storage/wal_file_system.hpp"

#include <atomic>
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

}  // namespace

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
  if (!s.ok()) return io_error("could not open data directory \"" + options.path + "\"", s);
  // handles[0] is the default family, which tandem does not use.
  store->db_->DestroyColumnFamilyHandle(handles[0]);
  for (int i = 0; i < kFamilyCount; ++i) store->handles_[i] = handles[i + 1];
  TANDEM_RETURN_IF_ERROR(store->discard_spill());

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
  if (!s.ok()) return io_error("read failed", s);
  return std::optional<std::string>(std::move(value));
}

}  // namespace tandem::storage
