#include "storage/rocks_spill_store.hpp"

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/table.h>

namespace tandem::storage {

namespace {

std::string spill_key(std::uint64_t id, std::uint32_t block) {
  std::string key(12, '\0');
  for (int i = 0; i < 8; ++i) key[i] = static_cast<char>(id >> (56 - 8 * i));
  for (int i = 0; i < 4; ++i) key[8 + i] = static_cast<char>(block >> (24 - 8 * i));
  return key;
}

Status spill_error(const char* what, const rocksdb::Status& s) {
  return Status::error(sqlstate::kIoError, std::string("spill ") + what + " failed: " + s.ToString());
}

rocksdb::WriteOptions unlogged() {
  rocksdb::WriteOptions wo;
  wo.disableWAL = true;
  wo.sync = false;
  return wo;
}

}  // namespace

rocksdb::ColumnFamilyOptions spill_family_options() {
  rocksdb::ColumnFamilyOptions options;
  options.compression = rocksdb::kLZ4Compression;
  options.write_buffer_size = kSpillWriteBufferBytes;
  options.max_write_buffer_number = 2;
  rocksdb::BlockBasedTableOptions table;
  table.block_cache = rocksdb::NewLRUCache(kSpillFamilyCacheBytes);
  table.block_size = 16 * 1024;
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return options;
}

Status DurableStore::discard_spill() {
  const int index = static_cast<int>(Family::kSpill);
  rocksdb::Status s = db_->DropColumnFamily(handles_[index]);
  if (s.ok()) s = db_->DestroyColumnFamilyHandle(handles_[index]);
  handles_[index] = nullptr;
  if (s.ok()) s = db_->CreateColumnFamily(spill_family_options(), "spill", &handles_[index]);
  if (!s.ok()) return spill_error("discard at boot", s);
  return Status::ok();
}

Status RocksSpillStore::put_block(std::uint64_t id, std::uint32_t block, std::string_view bytes) {
  const std::string key = spill_key(id, block);
  rocksdb::Status s = store_.db()->Put(unlogged(), store_.handle(Family::kSpill), key,
                                       rocksdb::Slice(bytes.data(), bytes.size()));
  if (!s.ok()) return spill_error("write", s);
  return Status::ok();
}

Status RocksSpillStore::get_block(std::uint64_t id, std::uint32_t block, std::string& out) const {
  rocksdb::ReadOptions ro;
  ro.verify_checksums = false;
  rocksdb::Status s = store_.db()->Get(ro, store_.handle(Family::kSpill), spill_key(id, block), &out);
  if (!s.ok()) return spill_error("read", s);
  return Status::ok();
}

Status RocksSpillStore::erase(std::uint64_t id) {
  rocksdb::Status s = store_.db()->DeleteRange(unlogged(), store_.handle(Family::kSpill),
                                               spill_key(id, 0), spill_key(id + 1, 0));
  if (!s.ok()) return spill_error("delete", s);
  return Status::ok();
}

}  // namespace tandem::storage
