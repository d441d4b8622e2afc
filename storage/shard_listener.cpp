#include "storage/shard_listener.hpp"

#include <mutex>

#include <rocksdb/db.h>

#include "storage/shard_scan.hpp"
#include "storage/shard_store.hpp"

namespace tandem::storage {

ShardListener::ShardListener(ShardStore& store, ShardId shard, uint64_t incarnation,
                             Timestamp as_of)
    : store_(store), shard_(shard), incarnation_(incarnation), as_of_(as_of) {}

namespace {
Status store_gone() {
  return Status::error(sqlstate::kAdminShutdown, "the shard store is shutting down");
}
}  // namespace

ShardListener::~ShardListener() {
  if (orphaned_.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(store_.mutex_);
  store_.listeners_.erase(this);
  if (detached_) return;
  auto it = store_.shards_.find(shard_);
  if (it == store_.shards_.end() || it->second.incarnation != incarnation_) return;
  it->second.listeners.erase(this);
  // Releasing the hold may let compaction proceed.
  store_.maybe_schedule_compaction(shard_, it->second);
}

Timestamp ShardListener::as_of() const {
  if (orphaned_.load(std::memory_order_acquire)) return as_of_;
  std::lock_guard<std::mutex> lock(store_.mutex_);
  return as_of_;
}

void ShardListener::notify_locked() {
  cv_.notify_all();
  if (wakeup_) wakeup_();
}

void ShardListener::cancel() {
  if (orphaned_.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(store_.mutex_);
  cancelled_ = true;
  notify_locked();
}

void ShardListener::set_wakeup(std::function<void()> hook) {
  if (orphaned_.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(store_.mutex_);
  wakeup_ = std::move(hook);
  // Data (or an error) may already be waiting: a hook installed late must
  // not miss it.
  const ShardStore::ShardState* state = store_.live_shard(shard_);
  if (wakeup_ && (cancelled_ || detached_ || state == nullptr ||
                  state->frontiers.upper > as_of_ + 1)) {
    wakeup_();
  }
}

Result<ListenBatch> ShardListener::next() {
  Result<std::optional<ListenBatch>> batch = next_impl(Wait::kBlock, Clock::time_point::max());
  if (!batch.ok()) return std::move(batch).take_status();
  // A blocking wait only returns once ready, so the optional is engaged.
  ListenBatch out;
  std::swap(out, **batch);
  return out;
}

Result<std::optional<ListenBatch>> ShardListener::next_until(Clock::time_point deadline) {
  return next_impl(Wait::kDeadline, deadline);
}

Result<std::optional<ListenBatch>> ShardListener::try_next() {
  return next_impl(Wait::kNone, Clock::time_point::max());
}

Result<std::optional<ListenBatch>> ShardListener::next_impl(Wait wait,
                                                           Clock::time_point deadline) {
  if (orphaned_.load(std::memory_order_acquire)) return store_gone();
  std::unique_lock<std::mutex> lock(store_.mutex_);
  // Counted so that the store's destructor waits for this call to leave.
  ++store_.listener_calls_;
  struct Leave {
    std::unique_lock<std::mutex>& lock;
    ShardStore& store;
    ~Leave() {
      if (!lock.owns_lock()) lock.lock();
      if (--store.listener_calls_ == 0 && store.stopping_) store.listener_calls_cv_.notify_all();
    }
  } leave{lock, store_};
  auto live = [&]() -> const ShardStore::ShardState* {
    const ShardStore::ShardState* state = store_.live_shard(shard_);
    return state != nullptr && state->incarnation == incarnation_ ? state : nullptr;
  };
  auto ready = [&] {
    if (cancelled_ || detached_) return true;
    const ShardStore::ShardState* state = live();
    return state == nullptr || state->frontiers.upper > as_of_ + 1;
  };
  switch (wait) {
    case Wait::kBlock:
      cv_.wait(lock, ready);
      break;
    case Wait::kDeadline:
      if (!cv_.wait_until(lock, deadline, ready)) return std::optional<ListenBatch>();
      break;
    case Wait::kNone:
      if (!ready()) return std::optional<ListenBatch>();
      break;
  }
  if (cancelled_) return Status::error(sqlstate::kQueryCanceled, "listen canceled");
  if (store_.stopping_) return store_gone();
  const ShardStore::ShardState* state = live();
  if (detached_ || state == nullptr) {
    return Status::error(sqlstate::kUndefinedObject,
                         "shard " + std::to_string(shard_) + " was dropped");
  }
  ListenBatch batch;
  batch.lower = as_of_ + 1;
  batch.upper = state->frontiers.upper;
  // A RocksDB snapshot taken with the upper: a concurrent drop cannot make
  // the batch partial. Our hold keeps compaction below batch.lower.
  const rocksdb::Snapshot* db_snapshot = store_.durable_.db()->GetSnapshot();
  lock.unlock();

  Status read = scan_visible(store_.durable_, shard_, batch.lower, batch.upper, db_snapshot,
                           [&](Timestamp time, std::string_view row, Diff diff) {
                             batch.updates.push_back(Update{std::string(row), time, diff});
                           });
  store_.durable_.db()->ReleaseSnapshot(db_snapshot);
  if (!read.is_ok()) return read;
  consolidate_updates(&batch.updates);

  lock.lock();
  as_of_ = batch.upper - 1;
  if (ShardStore::ShardState* held = store_.live_shard(shard_);
      held != nullptr && held->incarnation == incarnation_) {
    store_.maybe_schedule_compaction(shard_, *held);
  }
  return std::optional<ListenBatch>(std::move(batch));
}

}  // namespace tandem::storage
