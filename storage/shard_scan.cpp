#include "storage/shard_scan.hpp"

#include <algorithm>
#include <memory>

#include <rocksdb/db.h>
#include <rocksdb/iterator.h>
#include <rocksdb/options.h>

#include "storage/shard_codec.hpp"

namespace tandem::storage {

Result<Timestamp> stored_base_time(const DurableStore& durable, ShardId shard, const rocksdb::Snapshot* snapshot) {
  rocksdb::ReadOptions options;
  options.snapshot = snapshot;
  std::string value;
  rocksdb::Status s = durable.db()->Get(options, durable.handle(Family::kMeta), shard_meta_key(shard), &value);
  if (s.IsNotFound()) return kMaxTimestamp;
  if (!s.ok()) {
    return Status::error(sqlstate::kIoError, "reading shard " + std::to_string(shard) + ": " + s.ToString());
  }
  auto meta = decode_shard_meta(value);
  if (!meta) return Status::error(sqlstate::kDataCorrupted, "malformed metadata of shard " + std::to_string(shard));
  return meta->base_time;
}

ShardRangeIterator::ShardRangeIterator(const DurableStore& durable, std::string begin, std::string end,
                                       const rocksdb::Snapshot* snapshot)
    : durable_(durable),
      begin_(std::move(begin)),
      end_(std::move(end)),
      lower_(begin_),
      upper_(end_),
      snapshot_(snapshot) {
  if (snapshot_ == nullptr) snapshot_ = own_snapshot_ = durable_.db()->GetSnapshot();
  resume_ = begin_;
  open(/*resuming=*/false);
}

ShardRangeIterator::~ShardRangeIterator() {
  it_.reset();
  if (own_snapshot_ != nullptr) durable_.db()->ReleaseSnapshot(own_snapshot_);
}

void ShardRangeIterator::open(bool resuming) {
  rocksdb::ReadOptions options;
  options.snapshot = snapshot_;
  // Not filling the block cache: a scan reads each stored chunk once, so
  // caching its blocks would only evict others.
  options.fill_cache = false;
  options.iterate_lower_bound = &lower_;
  options.iterate_upper_bound = &upper_;
  // Read before the iterator is made: a flush completing in between
  // re-opens it once more, never too few times.
  flushes_at_open_ = durable_.flushes(Family::kShards);
  it_.reset(durable_.db()->NewIterator(options, durable_.handle(Family::kShards)));
  it_->Seek(resume_);
  if (resuming && it_->Valid() && it_->key() == rocksdb::Slice(resume_)) it_->Next();
}

bool ShardRangeIterator::valid() const { return detached_ || it_->Valid(); }

void ShardRangeIterator::detach(size_t min_value_bytes) {
  if (detached_ || it_->value().size() < min_value_bytes) return;
  resume_.assign(it_->key().data(), it_->key().size());
  detached_value_.assign(it_->value().data(), it_->value().size());
  it_.reset();
  detached_ = true;
}

void ShardRangeIterator::next() {
  if (detached_) {
    detached_ = false;
    open(/*resuming=*/true);
    return;
  }
  if (durable_.flushes(Family::kShards) == flushes_at_open_) {
    it_->Next();
    return;
  }
  resume_.assign(it_->key().data(), it_->key().size());
  open(/*resuming=*/true);
}

std::string_view ShardRangeIterator::key() const {
  if (detached_) return resume_;
  return std::string_view(it_->key().data(), it_->key().size());
}

std::string_view ShardRangeIterator::value() const {
  if (detached_) return detached_value_;
  return std::string_view(it_->value().data(), it_->value().size());
}

Status ShardRangeIterator::status() const {
  if (detached_ || it_->status().ok()) return Status::ok();
  const rocksdb::Status& s = it_->status();
  // Every range read here lies within one shard: its key prefix names it.
  uint64_t shard = 0;
  for (size_t i = 0; i < 8 && i < begin_.size(); ++i) shard = (shard << 8) | static_cast<uint8_t>(begin_[i]);
  const std::string range = "reading shard " + std::to_string(shard) + ", keys from " +
                            rocksdb::Slice(resume_).ToString(true) + " below " + rocksdb::Slice(end_).ToString(true);
  if (s.IsCorruption()) return Status::error(sqlstate::kDataCorrupted, range + ": " + s.ToString());
  return Status::error(sqlstate::kIoError, range + ": " + s.ToString());
}

Status scan_visible(const DurableStore& durable, ShardId shard, Timestamp lower, Timestamp upper,
                    const rocksdb::Snapshot* snapshot,
                    const std::function<void(Timestamp, std::string_view, Diff)>& visit) {
  TANDEM_ASSIGN_OR_RETURN(Timestamp base_time, stored_base_time(durable, shard, snapshot));
  return scan_shard(durable, shard, lower, upper, snapshot, base_time, visit);
}

namespace {

// The status a scan of `shard` ends with.
Status scan_status(ShardId shard, const ShardRangeIterator& it) {
  Status s = it.status();
  if (s.is_ok()) return s;
  return Status::error(s.sqlstate(), "reading shard " + std::to_string(shard) + ": " + s.message());
}

// Iterates [begin, end) of the shards family at `snapshot`.
Status scan_range(const DurableStore& durable, ShardId shard, const std::string& begin, const std::string& end,
                  const rocksdb::Snapshot* snapshot,
                  const std::function<Status(std::string_view, std::string_view)>& visit) {
  ShardRangeIterator it(durable, begin, end, snapshot);
  for (; it.valid(); it.next()) {
    it.detach();  // a large value's visit may take long
    TANDEM_RETURN_IF_ERROR(visit(it.key(), it.value()));
  }
  return scan_status(shard, it);
}

Status malformed_key(ShardId shard) {
  return Status::error(sqlstate::kDataCorrupted, "malformed key in shard " + std::to_string(shard));
}

}  // namespace

Status scan_stage_chunks(const DurableStore& durable, ShardId shard, uint64_t stage,
                         const rocksdb::Snapshot* snapshot,
                         const std::function<Status(uint32_t, std::string_view)>& visit) {
  auto [begin, end] = staged_range(shard, stage);
  return scan_range(durable, shard, begin, end, snapshot, [&](std::string_view key, std::string_view value) {
    auto decoded = decode_shard_data_key(key);
    if (!decoded || decoded->shard != shard) return malformed_key(shard);
    return visit(decoded->chunk, value);
  });
}

Status scan_shard_keys(const DurableStore& durable, ShardId shard, Timestamp lower, Timestamp upper,
                       const rocksdb::Snapshot* snapshot,
                       const std::function<Status(const DataKey&, std::string_view)>& visit,
                       const std::function<void(uint64_t)>& on_staged) {
  upper = std::min(upper, kStagedTimeBit);
  if (lower >= upper) return Status::ok();
  ShardRangeIterator it(durable, shard_data_bound(shard, lower), shard_data_bound(shard, upper), snapshot);
  for (; it.valid(); it.next()) {
    auto decoded = decode_shard_data_key(it.key());
    if (!decoded || decoded->shard != shard) return malformed_key(shard);
    if (decoded->part != kStagedRefPart) {
      it.detach();  // as in scan_range
      TANDEM_RETURN_IF_ERROR(visit(*decoded, it.value()));
      continue;
    }
    auto stage = decode_staged_ref(it.value());
    if (!stage) return malformed_key(shard);
    if (on_staged) on_staged(*stage);
    it.detach(0);  // reading the stage takes a while
    TANDEM_RETURN_IF_ERROR(
        scan_stage_chunks(durable, shard, *stage, snapshot, [&](uint32_t chunk, std::string_view chunk_value) {
          return visit(DataKey{shard, decoded->time, kAppendPart, chunk}, chunk_value);
        }));
  }
  return scan_status(shard, it);
}

Status scan_shard(const DurableStore& durable, ShardId shard, Timestamp lower, Timestamp upper,
                  const rocksdb::Snapshot* snapshot, Timestamp base_time,
                  const std::function<void(Timestamp, std::string_view, Diff)>& visit) {
  return scan_shard_keys(durable, shard, lower, upper, snapshot, [&](const DataKey& key, std::string_view value) {
    if (key.part == kRunPart || (key.part == kCompactedPart && key.time > base_time)) return Status::ok();
    BatchReader reader(value);
    std::string_view row;
    Diff diff = 0;
    while (reader.next(&row, &diff)) visit(key.time, row, diff);
    if (reader.corrupt()) {
      return Status::error(sqlstate::kDataCorrupted, "undecodable update batch in shard " + std::to_string(shard) +
                                                         " at time " + std::to_string(key.time));
    }
    return Status::ok();
  });
}

void consolidate_rows(std::vector<std::pair<std::string, Diff>>* rows) {
  std::sort(rows->begin(), rows->end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  size_t out = 0;
  for (size_t i = 0; i < rows->size();) {
    size_t j = i;
    Diff sum = 0;
    for (; j < rows->size() && (*rows)[j].first == (*rows)[i].first; ++j) sum += (*rows)[j].second;
    if (sum != 0) {
      if (out != i) (*rows)[out].first = std::move((*rows)[i].first);
      (*rows)[out].second = sum;
      ++out;
    }
    i = j;
  }
  rows->resize(out);
}

void consolidate_updates(std::vector<Update>* updates) {
  std::sort(updates->begin(), updates->end(), [](const Update& a, const Update& b) {
    return a.time != b.time ? a.time < b.time : a.row < b.row;
  });
  size_t out = 0;
  for (size_t i = 0; i < updates->size();) {
    size_t j = i;
    Diff sum = 0;
    for (; j < updates->size() && (*updates)[j].time == (*updates)[i].time &&
           (*updates)[j].row == (*updates)[i].row;
         ++j) {
      sum += (*updates)[j].diff;
    }
    if (sum != 0) {
      if (out != i) (*updates)[out] = std::move((*updates)[i]);
      (*updates)[out].diff = sum;
      ++out;
    }
    i = j;
  }
  updates->resize(out);
}

}  // namespace tandem::storage
