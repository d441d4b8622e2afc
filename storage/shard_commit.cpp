// ShardStore's write path (see "Design" in storage/shard_store.hpp): the
// request queue, the committer thread, a Lead's inline commit, and the
// validation and writing of one group.
#include <future>

#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/write_batch.h>

#include "storage/key_delete.hpp"
#include "storage/shard_codec.hpp"
#include "storage/shard_listener.hpp"
#include "storage/shard_request.hpp"
#include "storage/shard_scan.hpp"
#include "storage/shard_store.hpp"

namespace tandem::storage {
namespace {

std::string ts(Timestamp t) { return std::to_string(t); }

// What an append stored: bytes and keys (chunks), and its last time.
struct Stored {
  size_t bytes = 0;
  size_t chunks = 0;
  Timestamp last_time = 0;
};

// Puts one time's encoded updates, cut into chunks (shard_codec.hpp).
void put_chunks(ShardId shard, Timestamp time, std::string_view value, rocksdb::WriteBatch* batch,
                rocksdb::ColumnFamilyHandle* shards, Stored* stored) {
  uint32_t chunk = 0;
  for (std::string_view piece : split_batch(value)) {
    batch->Put(shards, shard_data_key(shard, time, kAppendPart, chunk++), rocksdb::Slice(piece.data(), piece.size()));
  }
  stored->bytes += value.size();
  stored->chunks += chunk;
  stored->last_time = std::max(stored->last_time, time);
}

// Writes one ShardAppend's updates (already validated), one key per time
// and chunk; returns what it stored.
Stored encode_append(ShardAppend& append, rocksdb::WriteBatch* batch, rocksdb::ColumnFamilyHandle* shards) {
  Stored stored;
  if (!append.encoded.empty()) {
    put_chunks(append.shard, append.encoded_time, append.encoded, batch, shards, &stored);
    return stored;
  }
  consolidate_updates(&append.updates);
  std::string value;
  for (size_t i = 0; i < append.updates.size();) {
    Timestamp time = append.updates[i].time;
    value.clear();
    for (; i < append.updates.size() && append.updates[i].time == time; ++i) {
      append_batch_entry(&value, append.updates[i].row, append.updates[i].diff);
    }
    put_chunks(append.shard, time, value, batch, shards, &stored);
  }
  return stored;
}

}  // namespace

// ---- the write path ---------------------------------------------------------

void ShardStore::enqueue(std::unique_ptr<Request> request) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!stopping_) {
      queue_.push_back(std::move(request));
      // A committer inside a group finds the queue when it is done, and a
      // Lead wakes the committer when it releases the lane: only an idle
      // committer needs waking (a futex wake per queued write saved).
      if (!committing_ && !leading_) queue_cv_.notify_one();
      return;
    }
  }
  if (request->done) request->done(shutting_down());
}

Status ShardStore::submit(std::unique_ptr<Request> request) {
  std::promise<Status> promise;
  std::future<Status> result = promise.get_future();
  request->done = [&promise](Status s) { promise.set_value(std::move(s)); };
  enqueue(std::move(request));
  return result.get();
}

Status ShardStore::create_shard(ShardId shard, Timestamp initial_upper) {
  auto request = std::make_unique<Request>();
  request->kind = Request::Kind::kCreate;
  request->shard = shard;
  request->time = initial_upper;
  return submit(std::move(request));
}

Status ShardStore::drop_shard(ShardId shard) {
  auto request = std::make_unique<Request>();
  request->kind = Request::Kind::kDrop;
  request->shard = shard;
  return submit(std::move(request));
}

Status ShardStore::append(std::vector<ShardAppend> appends) {
  auto request = std::make_unique<Request>();
  request->appends = std::move(appends);
  return submit(std::move(request));
}

void ShardStore::append_async(std::vector<ShardAppend> appends, Done done) {
  auto request = std::make_unique<Request>();
  request->appends = std::move(appends);
  request->done = std::move(done);
  enqueue(std::move(request));
}

Status ShardStore::advance_uppers(Timestamp new_upper) {
  auto request = std::make_unique<Request>();
  request->kind = Request::Kind::kAdvance;
  request->time = new_upper;
  return submit(std::move(request));
}

void ShardStore::committer_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    queue_cv_.wait(lock, [&] { return !leading_ && (stopping_ || !queue_.empty()); });
    if (queue_.empty()) return;  // stopping, and everything queued is done
    committing_ = true;
    commit_group(lock);
    if (after_group_) {
      lock.unlock();
      after_group_();
      lock.lock();
    }
    committing_ = false;
  }
}

ShardStore::Lead ShardStore::try_lead() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_ || committing_ || leading_ || !queue_.empty()) return Lead();
  leading_ = true;
  return Lead(this);
}

ShardStore::Lead::Lead() = default;

ShardStore::Lead::Lead(ShardStore* store) : store_(store) {}

ShardStore::Lead::Lead(Lead&& other) noexcept
    : store_(std::exchange(other.store_, nullptr)), request_(std::move(other.request_)) {}

ShardStore::Lead::~Lead() {
  if (store_ != nullptr) run();
}

void ShardStore::Lead::append(std::vector<ShardAppend> appends, Done done) {
  request_ = std::make_unique<Request>();
  request_->appends = std::move(appends);
  request_->done = std::move(done);
}

void ShardStore::Lead::run() {
  ShardStore* store = std::exchange(store_, nullptr);
  if (store == nullptr) return;
  std::unique_lock<std::mutex> lock(store->mutex_);
  if (request_ != nullptr) {
    std::vector<std::unique_ptr<Request>> requests;
    requests.push_back(std::move(request_));
    store->commit_requests(lock, requests);
  }
  store->leading_ = false;
  if (store->stopping_ || !store->queue_.empty()) store->queue_cv_.notify_one();
}

Status ShardStore::validate(Request& request, Group& g) {
  std::map<ShardId, PendingShard>& group = g.shards;
  // The shard as earlier requests of the group (or else the live state)
  // leave it, materialized in `m` (the group itself or a scratch copy).
  auto view = [&](std::map<ShardId, PendingShard>& m, ShardId id) -> PendingShard& {
    if (auto it = m.find(id); it != m.end()) return it->second;
    if (&m != &group) {
      if (auto it = group.find(id); it != group.end()) return m.emplace(id, it->second).first->second;
    }
    PendingShard p;
    if (const ShardState* s = live_shard(id)) {
      p.exists = true;
      p.frontiers = s->frontiers;
      p.incarnation = s->incarnation;
      p.base_time = s->base_time;
      p.stored_batches = s->stored_batches;
      p.stored_bytes = s->stored_bytes;
      p.unrecorded_appends = s->unrecorded_appends;
    }
    return m.emplace(id, p).first->second;
  };
  using Kind = Request::Kind;
  switch (request.kind) {
    case Kind::kCreate: {
      PendingShard& p = view(group, request.shard);
      if (p.exists) {
        return Status::error(sqlstate::kDuplicateObject,
                             "shard " + std::to_string(request.shard) + " already exists");
      }
      p.exists = p.created = p.meta_dirty = true;
      p.frontiers = ShardFrontiers{0, request.time};
      p.incarnation = next_incarnation_++;
      p.base_time = 0;
      p.stored_batches = p.stored_bytes = 0;
      return Status::ok();
    }
    case Kind::kDrop: {
      PendingShard& p = view(group, request.shard);
      if (!p.exists) return no_shard(request.shard);
      if (!p.created) p.dropped = true;
      p.exists = p.created = p.meta_dirty = false;
      return Status::ok();
    }
    case Kind::kStage: {
      PendingShard& p = view(group, request.shard);
      if (!p.exists || p.incarnation != request.incarnation) return no_shard(request.shard);
      return Status::ok();
    }
    case Kind::kRewrite: {
      PendingShard& p = view(group, request.shard);
      if (!p.exists || p.incarnation != request.incarnation) return no_shard(request.shard);
      p.meta_dirty = true;
      p.base_time = request.time;
      p.rewritten_bytes += request.folded_bytes;
      p.rewritten_batches += request.folded_batches;
      p.stored_batches = p.stored_batches - std::min(p.stored_batches, request.removed_batches) + request.base_batches;
      p.stored_bytes = p.stored_bytes - std::min(p.stored_bytes, request.removed_bytes) + request.base_bytes;
      return Status::ok();
    }
    case Kind::kSince: {
      for (const auto& [id, state] : shards_) {
        if (!state.dropping && state.frontiers.since > state.stored_since) view(group, id).meta_dirty = true;
      }
      return Status::ok();
    }
    case Kind::kAdvance: {
      for (const auto& entry : shards_) view(group, entry.first);
      for (auto& [id, p] : group) {
        if (p.exists && p.frontiers.upper < request.time) {
          p.frontiers.upper = request.time;
          p.meta_dirty = true;
        }
      }
      return Status::ok();
    }
    case Kind::kAppend: {
      // All or nothing: validate into a scratch copy, then merge.
      std::map<ShardId, PendingShard> scratch;
      for (const ShardAppend& a : request.appends) {
        PendingShard& p = view(scratch, a.shard);
        auto name = [&a] { return "shard " + std::to_string(a.shard); };
        if (!p.exists) return no_shard(a.shard);
        if (p.frontiers.upper != a.expected_upper) {
          return Status::error(sqlstate::kSerializationFailure, "upper mismatch on " + name())
              .with_detail("expected upper " + ts(a.expected_upper) + ", found " +
                           ts(p.frontiers.upper));
        }
        if (a.new_upper < a.expected_upper) {
          return Status::error(sqlstate::kInternalError,
                               "append to " + name() + " would move its upper back from " +
                                   ts(a.expected_upper) + " to " + ts(a.new_upper));
        }
        if (a.staged != 0) {
          TANDEM_RETURN_IF_ERROR(validate_staged(a, p));
          // Its chunks become visible with this commit (stored with the
          // shard's metadata).
          const Stage& stage = staging_.find({a.shard, a.staged})->second;
          p.stored_batches += stage.chunks;
          p.stored_bytes += stage.bytes;
        } else if (!a.encoded.empty() &&
            (!a.updates.empty() || a.encoded_time < a.expected_upper || a.encoded_time >= a.new_upper)) {
          return Status::error(sqlstate::kInternalError,
                               "append to " + name() + " has encoded updates at " + ts(a.encoded_time) +
                                   " outside [" + ts(a.expected_upper) + ", " + ts(a.new_upper) +
                                   ") or beside decoded ones");
        }
        for (const Update& u : a.updates) {
          if (u.time < a.expected_upper || u.time >= a.new_upper) {
            return Status::error(sqlstate::kInternalError,
                                 "append to " + name() + " has an update at " + ts(u.time) +
                                     " outside [" + ts(a.expected_upper) + ", " +
                                     ts(a.new_upper) + ")");
          }
        }
        p.frontiers.upper = a.new_upper;
        // A staged append's chunks are counted in the record. Whether an
        // append of rows needs it is known once they are encoded
        // (commit_requests); an upper-only advance that need not survive a
        // crash leaves it as it is (shard_types.hpp, durable_upper).
        const bool rows = !a.updates.empty() || !a.encoded.empty();
        if (a.staged != 0 || (a.durable_upper && !rows)) p.meta_dirty = true;
        if (rows && ++p.unrecorded_appends >= kRecordEvery) p.meta_dirty = true;
      }
      for (auto& [id, p] : scratch) group[id] = p;
      return Status::ok();
    }
  }
  return Status::error(sqlstate::kInternalError, "unknown shard request");
}

void ShardStore::commit_group(std::unique_lock<std::mutex>& lock) {
  std::vector<std::unique_ptr<Request>> requests;
  // A drop commits alone: its point deletes cover the shard's stored keys,
  // not those an earlier request of the same group would put.
  while (!queue_.empty()) {
    const bool drop = queue_.front()->kind == Request::Kind::kDrop;
    if (drop && !requests.empty()) break;
    requests.push_back(std::move(queue_.front()));
    queue_.pop_front();
    if (drop) break;
  }
  commit_requests(lock, requests);
}

void ShardStore::commit_requests(std::unique_lock<std::mutex>& lock,
                                 std::vector<std::unique_ptr<Request>>& requests) {
  Group group;
  bool any_valid = false;
  for (auto& request : requests) {
    request->result = validate(*request, group);
    any_valid |= request->result.is_ok();
  }
  for (auto& [id, p] : group.shards) {
    auto it = shards_.find(id);
    if (p.dropped && it != shards_.end()) {
      it->second.dropping = true;
      group.marked_dropping.push_back(id);
    }
  }
  lock.unlock();

  Status written;
  bool wrote = false;
  if (any_valid) {
    rocksdb::WriteBatch batch;
    rocksdb::ColumnFamilyHandle* data = durable_.handle(Family::kShards);
    rocksdb::ColumnFamilyHandle* meta = durable_.handle(Family::kMeta);
    for (auto& request : requests) {
      if (!request->result.is_ok()) continue;
      switch (request->kind) {
        case Request::Kind::kAppend:
          for (ShardAppend& a : request->appends) {
            if (a.staged != 0) {
              write_staged_commit(a, &batch);
              continue;
            }
            Stored stored = encode_append(a, &batch, data);
            PendingShard& p = group.shards[a.shard];
            if (stored.bytes > 0) {
              p.appended_bytes += stored.bytes;
              ++p.appended_batches;
              p.stored_bytes += stored.bytes;
              p.stored_batches += stored.chunks;
            }
            // Rows that end right below the new upper imply it, and their
            // keys are counted when the store opens (implied_appends in
            // shard_store.cpp): the record is not rewritten on every append.
            const bool implied = stored.bytes > 0 && stored.last_time + 1 == a.new_upper;
            if (!implied && (a.durable_upper || stored.bytes > 0)) p.meta_dirty = true;
          }
          break;
        case Request::Kind::kDrop: {
          // Alone in its group (commit_group): every key of the shard is
          // stored, none is in this batch.
          // A failed enumeration fails the group unwritten.
          std::vector<std::string> keys;
          written = collect_shard_keys(durable_, shard_data_bound(request->shard, 0),
                                       shard_data_end(request->shard), nullptr, &keys);
          for (const std::string& key : keys) batch.Delete(data, key);
          batch.Delete(meta, shard_meta_key(request->shard));
          break;
        }
        case Request::Kind::kStage:
        case Request::Kind::kRewrite: {
          const ShardId shard = request->shard;
          const Timestamp since = request->time;
          // The keys the rewrite replaces (the history below since, the
          // chunks of the staged appends it folded, its runs) or an
          // interrupted rewrite left, enumerated by the requester.
          for (const std::string& key : request->deleted_keys) batch.Delete(data, key);
          for (const StagedChunk& c : request->chunks) {
            batch.Put(data, shard_data_key(shard, since, c.part, c.chunk), c.value);
          }
          break;
        }
        case Request::Kind::kCreate:
        case Request::Kind::kAdvance:
        case Request::Kind::kSince:
          break;  // metadata only, written below
      }
    }
    for (const auto& [id, p] : group.shards) {
      if (p.exists && p.meta_dirty) {
        // p.frontiers.since was read at validation; a rewrite's since was
        // raised before it was queued, so it is never persisted too low.
        batch.Put(meta, shard_meta_key(id),
                  encode_shard_meta(ShardMeta{p.frontiers, p.base_time, true, p.stored_batches, p.stored_bytes}));
      }
    }
    // A group of upper-only advances that need not survive a crash (the
    // coordinator's tick) writes nothing: no log record, no sync.
    wrote = written.is_ok() && batch.Count() > 0;
    if (wrote) {
      rocksdb::WriteOptions options;
      options.sync = durable_.options().sync_writes;
      rocksdb::Status s = durable_.db()->Write(options, &batch);
      if (!s.ok()) written = Status::error(sqlstate::kIoError, "shard commit failed: " + s.ToString());
    }
  }

  lock.lock();
  if (wrote) ++stats_.write_batches;
  stats_.requests += requests.size();
  if (!written.is_ok()) {
    for (ShardId id : group.marked_dropping) {
      if (auto it = shards_.find(id); it != shards_.end()) it->second.dropping = false;
    }
    for (auto& request : requests) {
      if (request->result.is_ok()) request->result = written;
    }
  } else {
    for (auto& request : requests) {
      if (request->kind == Request::Kind::kAppend && request->result.is_ok()) {
        for (const ShardAppend& a : request->appends) {
          if (a.staged == 0) continue;
          // Counted for the rewrite policy like an appended batch.
          PendingShard& p = group.shards[a.shard];
          p.appended_bytes += settle_staged(a);
          ++p.appended_batches;
        }
      } else if (request->kind == Request::Kind::kRewrite && request->result.is_ok()) {
        ++stats_.compactions;
      } else if (request->kind == Request::Kind::kStage && request->result.is_ok()) {
        stats_.staged_chunks += request->chunks.size();
      }
    }
    for (auto& [id, p] : group.shards) {
      auto it = shards_.find(id);
      if (it != shards_.end() && (p.dropped || p.created)) {
        // The old shard is gone (dropped, perhaps re-created in this group).
        for (ShardListener* listener : it->second.listeners) {
          listener->detached_ = true;
          listener->notify_locked();
        }
        compaction_dirty_.erase(id);
        shards_.erase(it);
        it = shards_.end();
      }
      if (!p.exists) continue;
      if (it == shards_.end()) {
        ShardState& state = shards_[id];
        state.frontiers = p.frontiers;
        state.incarnation = p.incarnation;
        state.base_time = p.base_time;
        state.appended_bytes = p.appended_bytes;
        state.appended_batches = p.appended_batches;
        state.stored_batches = p.stored_batches;
        state.stored_bytes = p.stored_bytes;
        state.stored_since = p.frontiers.since;
        state.unrecorded_appends = p.meta_dirty ? 0 : p.unrecorded_appends;
        continue;
      }
      ShardState& state = it->second;
      state.base_time = p.base_time;
      state.stored_batches = p.stored_batches;
      state.stored_bytes = p.stored_bytes;
      if (p.meta_dirty) state.stored_since = std::max(state.stored_since, p.frontiers.since);
      state.unrecorded_appends = p.meta_dirty ? 0 : p.unrecorded_appends;
      state.appended_bytes += p.appended_bytes;
      state.appended_batches += p.appended_batches;
      state.appended_bytes -= std::min(state.appended_bytes, p.rewritten_bytes);
      state.appended_batches -= std::min(state.appended_batches, p.rewritten_batches);
      if (p.frontiers.upper > state.frontiers.upper) {
        state.frontiers.upper = p.frontiers.upper;
        notify_listeners(state);
        maybe_schedule_compaction(id, state);
      }
    }
  }
  lock.unlock();
  for (auto& request : requests) {
    if (request->done) request->done(std::move(request->result));
  }
  lock.lock();
}

}  // namespace tandem::storage
