// ShardStore's staged appends (see "Staged appends" in
// storage/shard_store.hpp): a pending marker, chunks written before the
// append's time is chosen, and the small commit that makes them the
// updates at that time, or the abort that deletes them.
#include <algorithm>
#include <memory>

#include <rocksdb/db.h>
#include <rocksdb/iterator.h>
#include <rocksdb/options.h>
#include <rocksdb/write_batch.h>

#include "storage/key_delete.hpp"
#include "storage/shard_codec.hpp"
#include "storage/shard_request.hpp"
#include "storage/shard_scan.hpp"
#include "storage/shard_store.hpp"

namespace tandem::storage {
namespace {

Status write_unsynced(const DurableStore& durable, rocksdb::WriteBatch& batch, std::string_view what) {
  rocksdb::WriteOptions options;  // not synced: the commit's fsync covers it
  rocksdb::Status s = durable.db()->Write(options, &batch);
  if (!s.ok()) return Status::error(sqlstate::kIoError, std::string(what) + " failed: " + s.ToString());
  return Status::ok();
}

Status unknown_stage(ShardId shard, uint64_t stage) {
  return Status::error(sqlstate::kUndefinedObject,
                       "no pending stage " + std::to_string(stage) + " of shard " + std::to_string(shard));
}

}  // namespace

StageBuffer::StageBuffer() : batch_(std::make_unique<rocksdb::WriteBatch>()) {}

StageBuffer::~StageBuffer() = default;

Result<uint64_t> ShardStore::begin_staged(ShardId shard) {
  uint64_t stage = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const ShardState* state = live_shard(shard);
    if (state == nullptr) return no_shard(shard);
    stage = next_stage_++;
    staging_[{shard, stage}] = Stage{state->incarnation, 0, 0};
  }
  // The marker precedes every chunk in the WAL, so a crash that keeps a
  // chunk keeps the marker that gets it deleted at the next open.
  rocksdb::WriteBatch batch;
  batch.Put(durable_.handle(Family::kMeta), staged_marker_key(shard, stage), rocksdb::Slice());
  Status written = write_unsynced(durable_, batch, "staging an append");
  if (!written.is_ok()) {
    std::lock_guard<std::mutex> lock(mutex_);
    staging_.erase({shard, stage});
    return written;
  }
  return stage;
}

Status ShardStore::stage(ShardId shard, uint64_t stage, std::string_view encoded, StageBuffer& buffer) {
  uint32_t chunk = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = staging_.find({shard, stage});
    if (it == staging_.end()) return unknown_stage(shard, stage);
    chunk = it->second.chunks;
  }
  rocksdb::WriteBatch& batch = *buffer.batch_;
  batch.Clear();  // keeps its capacity
  rocksdb::ColumnFamilyHandle* data = durable_.handle(Family::kShards);
  uint32_t written = 0;
  for (std::string_view piece : split_batch(encoded)) {
    batch.Put(data, shard_data_key(shard, kStagedTimeBit | stage, kStagedPart, chunk + written++),
              rocksdb::Slice(piece.data(), piece.size()));
  }
  TANDEM_RETURN_IF_ERROR(write_unsynced(durable_, batch, "staging an append"));
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = staging_.find({shard, stage});
  if (it == staging_.end()) return unknown_stage(shard, stage);  // aborted meanwhile: its owner's race
  it->second.chunks += written;
  it->second.bytes += encoded.size();
  return Status::ok();
}

Status ShardStore::abort_staged(ShardId shard, uint64_t stage) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (staging_.erase({shard, stage}) == 0) return Status::ok();
  }
  rocksdb::WriteBatch batch;
  auto [begin, end] = staged_range(shard, stage);
  std::vector<std::string> keys;
  TANDEM_RETURN_IF_ERROR(collect_shard_keys(durable_, begin, end, nullptr, &keys));
  for (const std::string& key : keys) batch.Delete(durable_.handle(Family::kShards), key);
  batch.Delete(durable_.handle(Family::kMeta), staged_marker_key(shard, stage));
  return write_unsynced(durable_, batch, "deleting a staged append");
}

Status ShardStore::scan_staged(ShardId shard, uint64_t stage,
                               const std::function<void(std::string_view, Diff)>& visit) const {
  const rocksdb::Snapshot* snapshot = durable_.db()->GetSnapshot();
  Status s = scan_stage_chunks(durable_, shard, stage, snapshot, [&](uint32_t, std::string_view value) {
    BatchReader reader(value);
    std::string_view row;
    Diff diff = 0;
    while (reader.next(&row, &diff)) visit(row, diff);
    if (reader.corrupt()) return Status::error(sqlstate::kDataCorrupted, "undecodable staged chunk");
    return Status::ok();
  });
  durable_.db()->ReleaseSnapshot(snapshot);
  return s;
}

size_t ShardStore::pending_stages() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return staging_.size();
}

Status ShardStore::validate_staged(const ShardAppend& a, const PendingShard& p) const {
  auto it = staging_.find({a.shard, a.staged});
  if (it == staging_.end() || it->second.incarnation != p.incarnation) return unknown_stage(a.shard, a.staged);
  if (!a.updates.empty() || !a.encoded.empty() || a.encoded_time < a.expected_upper ||
      a.encoded_time >= a.new_upper) {
    return Status::error(sqlstate::kInternalError,
                         "staged append to shard " + std::to_string(a.shard) + " at " +
                             std::to_string(a.encoded_time) + " outside its bounds or beside other updates");
  }
  return Status::ok();
}

void ShardStore::write_staged_commit(const ShardAppend& a, rocksdb::WriteBatch* batch) {
  batch->Put(durable_.handle(Family::kShards), shard_data_key(a.shard, a.encoded_time, kStagedRefPart, 0),
             encode_staged_ref(a.staged));
  batch->Delete(durable_.handle(Family::kMeta), staged_marker_key(a.shard, a.staged));
}

uint64_t ShardStore::settle_staged(const ShardAppend& a) {
  auto it = staging_.find({a.shard, a.staged});
  if (it == staging_.end()) return 0;
  uint64_t bytes = it->second.bytes;
  staging_.erase(it);
  return bytes;
}

Status ShardStore::clear_pending_stages() {
  rocksdb::WriteBatch batch;
  std::string begin(kStagedMarkerPrefix);
  std::string end = begin;
  end.back() = static_cast<char>(end.back() + 1);
  rocksdb::Slice end_slice(end);
  rocksdb::ReadOptions options;
  options.iterate_upper_bound = &end_slice;
  std::unique_ptr<rocksdb::Iterator> it(durable_.db()->NewIterator(options, durable_.handle(Family::kMeta)));
  size_t cleared = 0;
  for (it->Seek(begin); it->Valid(); it->Next()) {
    auto marker = decode_staged_marker_key(std::string_view(it->key().data(), it->key().size()));
    if (!marker) return Status::error(sqlstate::kDataCorrupted, "malformed staged marker " + it->key().ToString(true));
    auto [first, last] = staged_range(marker->first, marker->second);
    std::vector<std::string> keys;
    TANDEM_RETURN_IF_ERROR(collect_shard_keys(durable_, first, last, nullptr, &keys));
    for (const std::string& key : keys) batch.Delete(durable_.handle(Family::kShards), key);
    batch.Delete(durable_.handle(Family::kMeta), it->key());
    ++cleared;
  }
  if (!it->status().ok()) return read_error("reading staged markers", it->status());
  if (cleared > 0) {
    rocksdb::WriteOptions sync;
    sync.sync = true;
    rocksdb::Status s = durable_.db()->Write(sync, &batch);
    if (!s.ok()) return Status::error(sqlstate::kIoError, "deleting staged appends failed: " + s.ToString());
  }
  // Committed stages keep their ids: the next one is above every stored
  // chunk's (each shard's last key is its highest stage's).
  std::unique_ptr<rocksdb::Iterator> keys(durable_.db()->NewIterator(rocksdb::ReadOptions(), durable_.handle(Family::kShards)));
  for (const auto& [shard, state] : shards_) {
    keys->SeekForPrev(shard_data_end(shard));
    if (!keys->Valid()) continue;
    auto key = decode_shard_data_key(std::string_view(keys->key().data(), keys->key().size()));
    if (key && key->shard == shard && key->time >= kStagedTimeBit) {
      next_stage_ = std::max(next_stage_, (key->time & ~kStagedTimeBit) + 1);
    }
  }
  if (!keys->status().ok()) return read_error("reading shard keys", keys->status());
  return Status::ok();
}

}  // namespace tandem::storage
