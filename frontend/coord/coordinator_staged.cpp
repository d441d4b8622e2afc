// The coordinator's staged writes (see StagedWrite in staged_write.hpp and
// "Staged appends" in storage/shard_store.hpp): one COPY's rows are in
// storage before its commit, which is one small append naming the stage;
// compute then reads the write back from the shard in bounded pieces.
#include <algorithm>

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "frontend/coord/coordinator.hpp"

namespace tandem::frontend {
namespace asio = boost::asio;

Result<std::unique_ptr<StagedWrite>> Coordinator::begin_staged_write(compute::GlobalId table) {
  storage::ShardId shard = 0;
  std::vector<UniqueKey> unique_keys;
  {
    // tables_ changes only under it (and on the coordinator thread).
    std::lock_guard lock(write_mutex_);
    auto it = tables_.find(table);
    if (it == tables_.end()) {
      return Status::error(sqlstate::kUndefinedTable, "table " + std::to_string(table) + " has no storage");
    }
    shard = it->second.shard;
    unique_keys = it->second.unique_keys;
  }
  TANDEM_ASSIGN_OR_RETURN(uint64_t stage, shards_->begin_staged(shard));
  return std::make_unique<StagedWrite>(*shards_, table, shard, stage, std::move(unique_keys));
}

void Coordinator::commit_staged(std::unique_ptr<StagedWrite> write, std::function<void(Result<Timestamp>)> acked) {
  // The last piece is written before the write lane is taken.
  if (Status flushed = write->flush(); !flushed.is_ok()) {
    write.reset();
    acked(flushed);
    return;
  }
  std::shared_ptr<StagedWrite> shared(std::move(write));
  std::unique_lock lock(write_mutex_, std::try_to_lock);
  if (lock.owns_lock()) {
    Status sequenced = sequence_staged(shared, acked);
    lock.unlock();
    if (!sequenced.is_ok()) acked(sequenced);
    return;
  }
  asio::post(io_, [this, shared, acked = std::move(acked)]() mutable {
    Status sequenced = Status::ok();
    {
      std::lock_guard lock(write_mutex_);
      sequenced = sequence_staged(shared, acked);
    }
    if (!sequenced.is_ok()) acked(sequenced);
  });
}

Status Coordinator::sequence_staged(std::shared_ptr<StagedWrite> write, std::function<void(Result<Timestamp>)>& acked) {
  auto it = tables_.find(write->table());
  if (it == tables_.end() || it->second.shard != write->shard()) {
    return Status::error(sqlstate::kUndefinedTable, "table " + std::to_string(write->table()) + " has no storage");
  }
  // The write's keys were distinct within it (StagedWrite::add); none may
  // be present in the table already. Checked before any is counted.
  Table& table = it->second;
  for (size_t k = 0; k < write->keys().size() && k < table.key_counts.size(); ++k) {
    for (const std::string& key : write->keys()[k]) {
      if (table.key_counts[k].count(key) != 0) return unique_violation(table.unique_keys[k], key);
    }
  }
  auto ts = oracle_->write_ts();
  if (!ts.ok()) return ts.status();
  for (size_t k = 0; k < write->keys().size() && k < table.key_counts.size(); ++k) {
    for (const std::string& key : write->keys()[k]) table.key_counts[k].emplace(key, 1);
  }
  const Timestamp time = *ts;
  it->second.last_write = time;
  std::vector<storage::ShardAppend> appends;
  appends.reserve(tables_.size());
  for (const auto& [id, t] : tables_) {
    storage::ShardAppend append(t.shard, {}, upper_, time + 1);
    if (id == write->table()) {
      append.staged = write->stage();
      append.encoded_time = time;
    } else {
      append.durable_upper = false;  // see upper_only (coordinator_write.cpp)
    }
    appends.push_back(std::move(append));
  }
  upper_ = time + 1;
  auto committed = [this, time, write, acked = std::move(acked)](Status s) mutable {
    if (!s.is_ok()) {
      asio::post(io_, [this, s, write, acked = std::move(acked)] {
        {
          std::lock_guard lock(write_mutex_);
          release_staged_keys(*write);
        }
        acked(s);  // `write` is dropped after: its stage is deleted
      });
      return;
    }
    write->set_committed();
    // Groups commit in timestamp order: every write up to `time` is durable.
    oracle_->apply_write(time);
    std::exchange(acked, nullptr)(time);
    CommittedFeed feed{time, nullptr, nullptr, StagedFeed{write->table(), write->shard(), write->stage()}};
    queue_feed(std::move(feed));
    post_feed_drain();
  };
  shards_->append_async(std::move(appends), std::move(committed));
  return Status::ok();
}

void Coordinator::release_staged_keys(const StagedWrite& write) {
  auto it = tables_.find(write.table());
  if (it == tables_.end()) return;
  for (size_t k = 0; k < write.keys().size() && k < it->second.key_counts.size(); ++k) {
    for (const std::string& key : write.keys()[k]) {
      auto count = it->second.key_counts[k].find(key);
      if (count != it->second.key_counts[k].end() && --count->second == 0) it->second.key_counts[k].erase(count);
    }
  }
}

void Coordinator::feed_staged(const CommittedFeed& feed, std::shared_ptr<std::vector<compute::Update>>* pending) {
  auto table = tables_.find(feed.staged->table);  // absent: dropped since
  if (table == tables_.end() || (table->second.inputs.empty() && table->second.replays.empty())) return;
  // An input still being replayed reads the write back itself, later, on
  // the replay thread (table_replay.hpp).
  for (auto& [cluster, replay] : table->second.replays) {
    if (*pending) replay->backlog.push_back(FeedOp{FeedOp::Kind::kSend, *pending});
    replay->backlog.push_back(
        FeedOp{FeedOp::Kind::kStaged, nullptr, feed.time, feed.staged->shard, feed.staged->stage});
  }
  std::vector<compute::SnapshotLoader> loaders;
  for (auto& [cluster, input] : table->second.inputs) {
    if (*pending) input->send_shared(*pending);
    // Earlier commits are released first: a loader starts with nothing
    // buffered.
    if (input->frontier() < feed.time) input->advance_to(feed.time);
    loaders.push_back(input->load_snapshot(feed.time));
  }
  pending->reset();
  if (loaders.empty()) return;
  Status read = shards_->scan_staged(feed.staged->shard, feed.staged->stage, [&](std::string_view row, Diff diff) {
    for (compute::SnapshotLoader& loader : loaders) loader.push(RowRef(row), diff);
  });
  // The write is durable and acknowledged: a failed read back leaves
  // compute without it, which only a restart (re-reading the shard) mends.
  if (!read.is_ok()) spdlog::error("feeding staged write at {} to compute: {}", feed.time, read.message());
  for (compute::SnapshotLoader& loader : loaders) loader.finish();
}

}  // namespace tandem::frontend
