// DurableStore's checks: removing older versions' range tombstones at open,
// and `tandemd --verify`.

#include "storage/durable_store.hpp"
#include "storage/wal_registry.hpp"

#include <memory>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/table_properties.h>

namespace tandem::storage {
namespace {

constexpr Family kDurableFamilies[] = {Family::kShards, Family::kCatalog, Family::kMeta};

}  // namespace

Status DurableStore::remove_range_tombstones() {
  for (Family family : kDurableFamilies) {
    rocksdb::ColumnFamilyHandle* cf = handle(family);
    // What WAL replay put in the memtable counts too: flush it first.
    rocksdb::FlushOptions flush;
    flush.wait = true;
    rocksdb::Status s = db_->Flush(flush, cf);
    if (!s.ok()) return read_error("flushing at open", s);
    rocksdb::TablePropertiesCollection tables;
    s = db_->GetPropertiesOfAllTables(cf, &tables);
    if (!s.ok()) return read_error("reading table properties at open", s);
    uint64_t tombstones = 0;
    for (const auto& [file, props] : tables) tombstones += props->num_range_deletions;
    if (tombstones == 0) continue;
    // Compacted to the last level, where a tombstone with nothing below it
    // (and no snapshot open) is dropped.
    rocksdb::CompactRangeOptions compact;
    compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    s = db_->CompactRange(compact, cf, nullptr, nullptr);
    if (!s.ok()) return read_error("compacting away range tombstones", s);
    recovery_report_.push_back("removed " + std::to_string(tombstones) + " range tombstone(s) of the " +
                               cf->GetName() + " family written by an older version");
  }
  return Status::ok();
}

VerifyReport DurableStore::verify(const std::string& path) {
  VerifyReport report;
  for (const std::string& wal : missing_wals(path)) {
    report.damage.push_back("write-ahead log file " + wal + " is missing (it held acknowledged writes)");
  }
  rocksdb::DBOptions options;
  options.wal_recovery_mode = rocksdb::WALRecoveryMode::kAbsoluteConsistency;
  options.paranoid_checks = true;
  std::vector<std::string> names;
  rocksdb::Status s = rocksdb::DB::ListColumnFamilies(options, path, &names);
  if (!s.ok()) {
    report.damage.push_back("cannot list the column families: " + s.ToString());
    return report;
  }
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  for (const std::string& n : names) families.emplace_back(n, rocksdb::ColumnFamilyOptions());
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  s = rocksdb::DB::OpenForReadOnly(options, path, families, &handles, &raw);
  if (!s.ok()) {
    report.damage.push_back("does not open: " + s.ToString());
    return report;
  }
  std::unique_ptr<rocksdb::DB> db(raw);
  // Every block of every SST file, read directly (no iterator merging).
  s = db->VerifyChecksum();
  if (!s.ok()) report.damage.push_back("SST checksum verification failed: " + s.ToString());
  for (rocksdb::ColumnFamilyHandle* h : handles) {
    const std::string& name = h->GetName();
    if (name != "shards" && name != "catalog" && name != "meta") continue;
    rocksdb::ReadOptions ro;
    ro.fill_cache = false;
    ro.verify_checksums = true;
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro, h));
    std::string last;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      ++report.keys;
      last.assign(it->key().data(), it->key().size());
    }
    if (!it->status().ok()) {
      report.damage.push_back("scanning the " + name + " family after key " + rocksdb::Slice(last).ToString(true) +
                              ": " + it->status().ToString());
    }
  }
  for (rocksdb::ColumnFamilyHandle* h : handles) db->DestroyColumnFamilyHandle(h);
  (void)db->Close();
  return report;
}

}  // namespace tandem::storage
