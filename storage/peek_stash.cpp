#include "storage/peek_stash.hpp"

#include <rocksdb/db.h>

#include "storage/durable_store.hpp"
#include "storage/shard_codec.hpp"

namespace tandem::storage {
namespace {

std::string block_key(uint64_t id, uint64_t block) {
  std::string key(16, '\0');
  for (int i = 0; i < 8; ++i) {
    key[i] = static_cast<char>(id >> (56 - 8 * i));
    key[8 + i] = static_cast<char>(block >> (56 - 8 * i));
  }
  return key;
}

Status stash_error(const std::string& what, const rocksdb::Status& s) {
  return Status::error(sqlstate::kIoError, "peek stash " + what + ": " + s.ToString());
}

rocksdb::WriteOptions stash_write_options() {
  rocksdb::WriteOptions wo;
  wo.disableWAL = true;  // nothing in the stash outlives the process
  wo.sync = false;
  return wo;
}

// Every key of the stash: 16-byte keys all sort below 17 0xff bytes.
const std::string kStashEnd(17, '\xff');

}  // namespace

Result<uint64_t> PeekStash::count_blocks(DurableStore& store) {
  rocksdb::ReadOptions ro;
  ro.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it(store.db()->NewIterator(ro, store.handle(Family::kStash)));
  uint64_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
  if (!it->status().ok()) return stash_error("read failed", it->status());
  return n;
}

Result<std::shared_ptr<PeekStash>> PeekStash::open(DurableStore& store) {
  TANDEM_ASSIGN_OR_RETURN(uint64_t left, count_blocks(store));
  if (left > 0) {
    rocksdb::DB* db = store.db();
    rocksdb::ColumnFamilyHandle* cf = store.handle(Family::kStash);
    rocksdb::Status s = db->DeleteRange(stash_write_options(), cf, rocksdb::Slice(), kStashEnd);
    if (!s.ok()) return stash_error("discard failed", s);
    // Reclaim the disk now rather than at some later compaction.
    rocksdb::CompactRangeOptions compact;
    compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    s = db->CompactRange(compact, cf, nullptr, nullptr);
    if (!s.ok()) return stash_error("discard failed", s);
  }
  std::shared_ptr<PeekStash> stash(new PeekStash(store));
  stash->discarded_ = static_cast<int64_t>(left);
  return stash;
}

std::unique_ptr<StashedRows> PeekStash::begin() {
  live_.fetch_add(1);
  created_.fetch_add(1);
  return std::unique_ptr<StashedRows>(new StashedRows(shared_from_this(), next_id_.fetch_add(1)));
}

PeekStash::Stats PeekStash::stats() const { return Stats{live_.load(), live_bytes_.load(), created_.load(), discarded_}; }

StashedRows::~StashedRows() {
  if (blocks_ > 0) {
    DurableStore& store = stash_->store_;
    // A failed deletion leaves blocks the next process discards.
    (void)store.db()->DeleteRange(stash_write_options(), store.handle(Family::kStash), block_key(id_, 0),
                                  block_key(id_ + 1, 0));
  }
  stash_->live_bytes_.fetch_sub(bytes_);
  stash_->live_.fetch_sub(1);
}

Status StashedRows::append(const Row& row) {
  append_batch_entry(&block_, row.bytes(), 1);
  ++rows_;
  bytes_ += static_cast<int64_t>(row.size());
  stash_->live_bytes_.fetch_add(static_cast<int64_t>(row.size()));
  if (block_.size() >= PeekStash::kBlockBytes) return write_block();
  return Status::ok();
}

Status StashedRows::seal() {
  if (sealed_) return Status::ok();
  if (!block_.empty()) TANDEM_RETURN_IF_ERROR(write_block());
  sealed_ = true;
  std::string().swap(block_);
  return Status::ok();
}

Status StashedRows::write_block() {
  DurableStore& store = stash_->store_;
  rocksdb::Status s =
      store.db()->Put(stash_write_options(), store.handle(Family::kStash), block_key(id_, blocks_), block_);
  if (!s.ok()) return stash_error("write failed", s);
  ++blocks_;
  block_.clear();
  return Status::ok();
}

Status StashedRows::load_block() {
  DurableStore& store = stash_->store_;
  rocksdb::ReadOptions ro;
  ro.fill_cache = false;  // each block is read once
  rocksdb::Status s = store.db()->Get(ro, store.handle(Family::kStash), block_key(id_, next_block_), &block_);
  if (!s.ok()) return stash_error("read failed", s);
  ++next_block_;
  loaded_.clear();
  loaded_pos_ = 0;
  BatchReader reader(block_);
  std::string_view row;
  Diff diff = 0;
  while (reader.next(&row, &diff)) loaded_.emplace_back(std::string(row));
  if (reader.corrupt() || loaded_.empty()) {
    return Status::error(sqlstate::kDataCorrupted, "peek stash block " + std::to_string(next_block_ - 1) +
                                                       " of stash " + std::to_string(id_) + " is corrupt");
  }
  block_.clear();
  return Status::ok();
}

Result<std::vector<Row>> StashedRows::read(std::size_t max_rows) {
  if (loaded_pos_ == loaded_.size()) {
    if (next_block_ == blocks_) return std::vector<Row>{};
    TANDEM_RETURN_IF_ERROR(load_block());
  }
  std::size_t left = loaded_.size() - loaded_pos_;
  std::size_t n = max_rows == 0 ? left : std::min(max_rows, left);
  std::vector<Row> out(std::make_move_iterator(loaded_.begin() + static_cast<std::ptrdiff_t>(loaded_pos_)),
                       std::make_move_iterator(loaded_.begin() + static_cast<std::ptrdiff_t>(loaded_pos_ + n)));
  loaded_pos_ += n;
  return out;
}

}  // namespace tandem::storage
