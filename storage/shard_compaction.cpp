// ShardStore's compaction half: the background thread that advances each
// shard's since and rewrites the history below it (see "Compaction" in
// storage/shard_store.hpp).

#include <algorithm>
#include <memory>

#include "storage/shard_codec.hpp"
#include "storage/shard_listener.hpp"
#include "storage/shard_request.hpp"
#include "storage/shard_scan.hpp"
#include "storage/shard_store.hpp"

namespace tandem::storage {

Status ShardStore::compact(ShardId shard, Timestamp new_since) {
  std::lock_guard<std::mutex> lock(mutex_);
  ShardState* state = live_shard(shard);
  if (state == nullptr) {
    return Status::error(sqlstate::kUndefinedObject,
                         "shard " + std::to_string(shard) + " does not exist");
  }
  state->since_target = std::max(state->since_target, new_since);
  maybe_schedule_compaction(shard, *state);
  return Status::ok();
}

void ShardStore::wait_for_compaction() {
  std::unique_lock<std::mutex> lock(mutex_);
  compaction_idle_cv_.wait(lock, [&] {
    return compaction_stopping_ || (compaction_dirty_.empty() && !compaction_busy_);
  });
}

Timestamp ShardStore::achievable_since(const ShardState& state) const {
  Timestamp since = std::min(state.since_target, state.frontiers.upper);
  for (const ShardListener* listener : state.listeners) since = std::min(since, listener->as_of_);
  return since;
}

void ShardStore::maybe_schedule_compaction(ShardId shard, const ShardState& state) {
  if (achievable_since(state) <= state.frontiers.since) return;
  if (compaction_dirty_.insert(shard).second) compaction_cv_.notify_one();
}

void ShardStore::compaction_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    compaction_cv_.wait(lock, [&] { return compaction_stopping_ || !compaction_dirty_.empty(); });
    if (compaction_stopping_) break;
    ShardId shard = *compaction_dirty_.begin();
    compaction_dirty_.erase(compaction_dirty_.begin());
    compaction_busy_ = true;
    compact_one(lock, shard);
    if (compaction_dirty_.empty() && since_unstored_) store_sinces(lock);
    compaction_busy_ = false;
    if (compaction_dirty_.empty()) compaction_idle_cv_.notify_all();
  }
  // Stopping between a raise of since and the end of its round: the
  // committer still runs (the store stops this thread first).
  if (since_unstored_) store_sinces(lock);
  compaction_idle_cv_.notify_all();
}

void ShardStore::store_sinces(std::unique_lock<std::mutex>& lock) {
  since_unstored_ = false;
  auto request = std::make_unique<Request>();
  request->kind = Request::Kind::kSince;
  lock.unlock();
  // Waits for the commit (the committer outlives this thread), so that
  // wait_for_compaction() returns with every since durable.
  Status stored = submit(std::move(request));
  lock.lock();
  if (!stored.is_ok()) since_unstored_ = true;  // tried again after the next round
}

bool ShardStore::rewrite_due(const ShardState& state) const {
  const ShardCompactionOptions& o = compaction_options_;
  if (static_cast<double>(state.appended_bytes) < o.base_ratio * static_cast<double>(state.base_bytes)) return false;
  return state.appended_bytes >= o.min_rewrite_bytes || state.appended_batches >= o.min_rewrite_batches;
}

void ShardStore::compact_one(std::unique_lock<std::mutex>& lock, ShardId shard) {
  ShardState* state = live_shard(shard);
  if (state == nullptr) return;
  Timestamp new_since = achievable_since(*state);
  if (new_since <= state->frontiers.since) return;
  // Raise since first: from here on no read at as_of < new_since starts, so
  // the rewrite below can never be observed by an exact read it would break.
  // It is stored with the next write of the shard's metadata: the rewrite's
  // commit, or else the kSince request that ends this round of compaction
  // (store_sinces). Until then a restart finds the older since, at which
  // the history is still exact.
  state->frontiers.since = new_since;
  if (!rewrite_due(*state)) {
    since_unstored_ = true;
    return;
  }
  const uint64_t incarnation = state->incarnation;
  const Timestamp base_time = state->base_time;
  lock.unlock();
  // Times below new_since <= upper are sealed, and only this thread rewrites
  // them. A failed rewrite (I/O error, shard dropped meanwhile) leaves the
  // history as it was, still exact at every time >= since; the next
  // compaction of the shard covers it again.
  uint64_t base_bytes = 0;
  Status rewritten = rewrite_history(shard, incarnation, new_since, base_time, &base_bytes);
  lock.lock();
  if (!rewritten.is_ok()) {
    since_unstored_ = true;
    return;
  }
  if (ShardState* now = live_shard(shard); now != nullptr && now->incarnation == incarnation) {
    now->base_bytes = base_bytes;
  }
}

}  // namespace tandem::storage
