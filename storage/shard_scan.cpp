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

Status scan_visible(const DurableStore& durable, ShardId shard, Timestamp lower, Timestamp upper,
                    const rocksdb::Snapshot* snapshot,
                    const std::function<void(Timestamp, std::string_view, Diff)>& visit) {
  TANDEM_ASSIGN_OR_RETURN(Timestamp base_time, stored_base_time(durable, shard, snapshot));
  return scan_shard(durable, shard, lower, upper, snapshot, base_time, visit);
}

namespace {

// Iterates [begin, end) of the shards family at `snapshot`, not filling
// the block cache (a scan reads each stored batch once: caching its blocks
// would only evict others, and a block of a large batch is as large as the
// batch).
Status scan_range(const DurableStore& durable, ShardId shard, const std::string& begin, const std::string& end,
                  const rocksdb::Snapshot* snapshot,
                  const std::function<Status(std::string_view, std::string_view)>& visit) {
  rocksdb::Slice begin_slice(begin);
  rocksdb::Slice end_slice(end);
  rocksdb::ReadOptions options;
  options.snapshot = snapshot;
  options.iterate_lower_bound = &begin_slice;
  options.iterate_upper_bound = &end_slice;
  options.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it(durable.db()->NewIterator(options, durable.handle(Family::kShards)));
  for (it->Seek(begin_slice); it->Valid(); it->Next()) {
    rocksdb::Slice key = it->key();
    rocksdb::Slice value = it->value();
    TANDEM_RETURN_IF_ERROR(
        visit(std::string_view(key.data(), key.size()), std::string_view(value.data(), value.size())));
  }
  if (!it->status().ok()) {
    return Status::error(sqlstate::kIoError,
                         "reading shard " + std::to_string(shard) + ": " + it->status().ToString());
  }
  return Status::ok();
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
  return scan_range(durable, shard, shard_data_bound(shard, lower), shard_data_bound(shard, upper), snapshot,
                    [&](std::string_view key, std::string_view value) {
                      auto decoded = decode_shard_data_key(key);
                      if (!decoded || decoded->shard != shard) return malformed_key(shard);
                      if (decoded->part != kStagedRefPart) return visit(*decoded, value);
                      auto stage = decode_staged_ref(value);
                      if (!stage) return malformed_key(shard);
                      if (on_staged) on_staged(*stage);
                      return scan_stage_chunks(durable, shard, *stage, snapshot,
                                               [&](uint32_t chunk, std::string_view chunk_value) {
                                                 return visit(DataKey{shard, decoded->time, kAppendPart, chunk},
                                                              chunk_value);
                                               });
                    });
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
