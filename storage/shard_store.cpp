#include "storage/shard_store.hpp"

#include <pthread.h>

#include <algorithm>

#include <rocksdb/db.h>
#include <rocksdb/iterator.h>
#include <rocksdb/options.h>

#include "storage/shard_codec.hpp"
#include "storage/shard_listener.hpp"
#include "storage/shard_request.hpp"
#include "storage/shard_scan.hpp"

namespace tandem::storage {

Status no_shard(ShardId shard) {
  return Status::error(sqlstate::kUndefinedObject,
                       "shard " + std::to_string(shard) + " does not exist");
}

Status shutting_down() {
  return Status::error(sqlstate::kAdminShutdown, "the shard store is shutting down");
}

namespace {

std::string ts(Timestamp t) { return std::to_string(t); }

// Counts the chunks of `shard` a reader visits at `snapshot` (null: now)
// and their value bytes into `out`, whose base_time it sets.
Status count_visible(const DurableStore& durable, ShardId shard, const rocksdb::Snapshot* snapshot, ShardStorage* out) {
  TANDEM_ASSIGN_OR_RETURN(out->base_time, stored_base_time(durable, shard, snapshot));
  out->stored_batches = out->stored_bytes = out->pending_chunks = 0;
  // Counted per key, not per update: the values are only measured.
  std::string begin = shard_data_bound(shard, 0);
  std::string end = shard_data_end(shard);
  rocksdb::Slice end_slice(end);
  rocksdb::ReadOptions options;
  options.snapshot = snapshot;
  options.iterate_upper_bound = &end_slice;
  options.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it(durable.db()->NewIterator(options, durable.handle(Family::kShards)));
  // References sort before the stages' chunks (staged times are last).
  std::set<uint64_t> committed;
  for (it->Seek(begin); it->Valid(); it->Next()) {
    auto key = decode_shard_data_key(std::string_view(it->key().data(), it->key().size()));
    if (!key || key->part == kRunPart || (key->part == kCompactedPart && key->time > out->base_time)) continue;
    if (key->part == kStagedRefPart) {
      if (auto stage = decode_staged_ref(std::string_view(it->value().data(), it->value().size()))) {
        committed.insert(*stage);
      }
      continue;
    }
    if (key->part == kStagedPart && committed.count(key->time & ~kStagedTimeBit) == 0) {
      ++out->pending_chunks;
      continue;
    }
    ++out->stored_batches;
    out->stored_bytes += it->value().size();
  }
  if (!it->status().ok()) return read_error("reading shard " + std::to_string(shard), it->status());
  return Status::ok();
}

// The appends committed after a shard's stored record was written: an
// append of rows whose last time is right below its new upper does not
// rewrite the record (commit_requests), so its keys, at times at or above
// the stored upper, carry the upper and count toward the visible chunks.
struct ImpliedAppends {
  uint64_t chunks = 0;
  uint64_t bytes = 0;
  Timestamp upper = 0;  // the least time above them (0: none)
};

Result<ImpliedAppends> implied_appends(const DurableStore& durable, ShardId shard, Timestamp stored_upper) {
  ImpliedAppends implied;
  std::string begin = shard_data_bound(shard, stored_upper);
  std::string end = shard_data_bound(shard, kStagedTimeBit);
  rocksdb::Slice end_slice(end);
  rocksdb::ReadOptions options;
  options.iterate_upper_bound = &end_slice;
  options.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it(durable.db()->NewIterator(options, durable.handle(Family::kShards)));
  for (it->Seek(begin); it->Valid(); it->Next()) {
    auto key = decode_shard_data_key(std::string_view(it->key().data(), it->key().size()));
    // A rewrite a crash interrupted may have left its (invisible) staged
    // keys at a since above the stored upper.
    if (!key || key->part != kAppendPart) continue;
    ++implied.chunks;
    implied.bytes += it->value().size();
    implied.upper = key->time + 1;
  }
  if (!it->status().ok()) return read_error("reading shard " + std::to_string(shard), it->status());
  return implied;
}

}  // namespace

ShardStore::ShardStore(DurableStore& durable, ShardCompactionOptions options)
    : durable_(durable), compaction_options_(options) {}

Result<std::unique_ptr<ShardStore>> ShardStore::open(DurableStore& durable, ShardCompactionOptions compaction) {
  compaction.fan_in = std::max<size_t>(2, compaction.fan_in);
  compaction.chunk_bytes = std::max<size_t>(1, compaction.chunk_bytes);
  std::unique_ptr<ShardStore> store(new ShardStore(durable, compaction));
  std::string begin(kShardMetaPrefix);
  std::string end = begin;
  end.back() = static_cast<char>(end.back() + 1);
  rocksdb::Slice end_slice(end);
  rocksdb::ReadOptions options;
  options.iterate_upper_bound = &end_slice;
  std::unique_ptr<rocksdb::Iterator> it(
      durable.db()->NewIterator(options, durable.handle(Family::kMeta)));
  for (it->Seek(begin); it->Valid(); it->Next()) {
    auto shard = decode_shard_meta_key(std::string_view(it->key().data(), it->key().size()));
    auto meta = decode_shard_meta(std::string_view(it->value().data(), it->value().size()));
    if (!shard || !meta) {
      return Status::error(sqlstate::kDataCorrupted,
                           "malformed shard metadata key " + it->key().ToString(true));
    }
    ShardState& state = store->shards_[*shard];
    state.frontiers = meta->frontiers;
    state.stored_since = meta->frontiers.since;
    state.base_time = meta->base_time;
    state.since_target = meta->frontiers.since;
    state.incarnation = store->next_incarnation_++;
    state.stored_batches = meta->stored_batches;
    state.stored_bytes = meta->stored_bytes;
    if (!meta->counted) {
      // Written before the counts were stored: counted once here, and stored
      // with the shard's next metadata write.
      ShardStorage counted;
      TANDEM_RETURN_IF_ERROR(count_visible(durable, *shard, nullptr, &counted));
      state.stored_batches = counted.stored_batches;
      state.stored_bytes = counted.stored_bytes;
    }
    TANDEM_ASSIGN_OR_RETURN(ImpliedAppends implied, implied_appends(durable, *shard, state.frontiers.upper));
    state.frontiers.upper = std::max(state.frontiers.upper, implied.upper);
    if (meta->counted) {
      state.stored_batches += implied.chunks;
      state.stored_bytes += implied.bytes;
    }
    state.unrecorded_appends = implied.chunks;
  }
  if (!it->status().ok()) {
    return read_error("reading shard metadata", it->status());
  }
  it.reset();
  TANDEM_RETURN_IF_ERROR(store->clear_pending_stages());
  store->committer_ = std::thread([s = store.get()] {
    pthread_setname_np(pthread_self(), "shard-commit");
    s->committer_loop();
  });
  store->compactor_ = std::thread([s = store.get()] {
    pthread_setname_np(pthread_self(), "shard-compact");
    s->compaction_loop();
  });
  return store;
}

ShardStore::~ShardStore() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    compaction_stopping_ = true;
  }
  compaction_cv_.notify_all();
  compaction_idle_cv_.notify_all();
  if (compactor_.joinable()) compactor_.join();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  queue_cv_.notify_all();
  if (committer_.joinable()) committer_.join();
  std::unique_lock<std::mutex> lock(mutex_);
  for (ShardListener* listener : listeners_) {
    listener->detached_ = true;
    listener->orphaned_.store(true, std::memory_order_release);
    listener->notify_locked();
  }
  listener_calls_cv_.wait(lock, [&] { return listener_calls_ == 0; });
}

// ---- metadata and reads ----------------------------------------------------

const ShardStore::ShardState* ShardStore::live_shard(ShardId shard) const {
  auto it = shards_.find(shard);
  if (it == shards_.end() || it->second.dropping) return nullptr;
  return &it->second;
}

ShardStore::ShardState* ShardStore::live_shard(ShardId shard) {
  return const_cast<ShardState*>(std::as_const(*this).live_shard(shard));
}

std::vector<ShardId> ShardStore::list_shards() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<ShardId> ids;
  for (const auto& [id, state] : shards_) {
    if (!state.dropping) ids.push_back(id);
  }
  return ids;
}

Result<ShardFrontiers> ShardStore::frontiers(ShardId shard) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const ShardState* state = live_shard(shard);
  if (state == nullptr) return no_shard(shard);
  return state->frontiers;
}

Result<Timestamp> ShardStore::upper(ShardId shard) const {
  TANDEM_ASSIGN_OR_RETURN(ShardFrontiers f, frontiers(shard));
  return f.upper;
}

Result<Timestamp> ShardStore::since(ShardId shard) const {
  TANDEM_ASSIGN_OR_RETURN(ShardFrontiers f, frontiers(shard));
  return f.since;
}

ShardStoreStats ShardStore::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

Result<ShardStorage> ShardStore::stored(ShardId shard) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const ShardState* state = live_shard(shard);
  if (state == nullptr) return no_shard(shard);
  return ShardStorage{state->frontiers, state->base_time, state->stored_batches, state->stored_bytes};
}

Result<ShardStorage> ShardStore::storage_stats(ShardId shard) const {
  ShardStorage out;
  const rocksdb::Snapshot* db_snapshot = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const ShardState* state = live_shard(shard);
    if (state == nullptr) return no_shard(shard);
    out.frontiers = state->frontiers;
    db_snapshot = durable_.db()->GetSnapshot();
  }
  Status s = count_visible(durable_, shard, db_snapshot, &out);
  durable_.db()->ReleaseSnapshot(db_snapshot);
  if (!s.is_ok()) return s;
  return out;
}

Result<std::vector<std::pair<std::string, Diff>>> ShardStore::snapshot(ShardId shard,
                                                                      Timestamp as_of) const {
  std::vector<std::pair<std::string, Diff>> rows;
  TANDEM_RETURN_IF_ERROR(scan_snapshot(
      shard, as_of, [&](std::string_view row, Diff diff) { rows.emplace_back(std::string(row), diff); }));
  consolidate_rows(&rows);
  return rows;
}

Status ShardStore::scan_snapshot(ShardId shard, Timestamp as_of,
                                 const std::function<void(std::string_view, Diff)>& visit) const {
  return scan_history(shard, as_of, as_of + 1, [&](Timestamp, std::string_view row, Diff diff) { visit(row, diff); });
}

Status ShardStore::scan_history(ShardId shard, Timestamp as_of, Timestamp until,
                                const std::function<void(Timestamp, std::string_view, Diff)>& visit) const {
  const rocksdb::Snapshot* db_snapshot = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const ShardState* state = live_shard(shard);
    if (state == nullptr) return no_shard(shard);
    if (as_of < state->frontiers.since) {
      return Status::error(sqlstate::kSnapshotTooOld,
                           "shard " + std::to_string(shard) + " is compacted past " + ts(as_of))
          .with_detail("since is " + ts(state->frontiers.since));
    }
    if (as_of >= until || until > state->frontiers.upper) {
      return Status::error(sqlstate::kObjectNotInPrerequisiteState,
                           "shard " + std::to_string(shard) + " is not yet sealed at " + ts(until - 1))
          .with_detail("upper is " + ts(state->frontiers.upper));
    }
    // Taken under the mutex: see "Ordering rules" in the header.
    db_snapshot = durable_.db()->GetSnapshot();
  }
  Status s = scan_visible(durable_, shard, 0, until, db_snapshot, [&](Timestamp time, std::string_view row, Diff diff) {
    visit(std::max(time, as_of), row, diff);
  });
  durable_.db()->ReleaseSnapshot(db_snapshot);
  return s;
}

Result<std::unique_ptr<ShardListener>> ShardStore::listen(ShardId shard, Timestamp as_of) {
  std::lock_guard<std::mutex> lock(mutex_);
  ShardState* state = live_shard(shard);
  if (state == nullptr) return no_shard(shard);
  if (as_of < state->frontiers.since) {
    return Status::error(sqlstate::kSnapshotTooOld,
                         "cannot listen to shard " + std::to_string(shard) + " from " + ts(as_of) +
                             ": it is compacted")
        .with_detail("since is " + ts(state->frontiers.since));
  }
  std::unique_ptr<ShardListener> listener(
      new ShardListener(*this, shard, state->incarnation, as_of));
  state->listeners.insert(listener.get());
  listeners_.insert(listener.get());
  return listener;
}

void ShardStore::notify_listeners(const ShardState& state) {
  for (ShardListener* listener : state.listeners) {
    if (state.frontiers.upper > listener->as_of_ + 1) listener->notify_locked();
  }
}

}  // namespace tandem::storage
