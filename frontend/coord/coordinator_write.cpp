// The coordinator's write path: sequencing (timestamp, unique keys, the
// commit's appends) under write_mutex_, inline or queued commits, feeding
// committed rows to every cluster, and the upper tick that seals idle
// tables (see Coordinator in coordinator.hpp).
#include <algorithm>
#include <map>

#include <boost/asio/post.hpp>

#include "common/row.hpp"
#include "frontend/coord/coordinator.hpp"
#include "storage/shard_codec.hpp"

namespace tandem::frontend {
namespace asio = boost::asio;

namespace {

// Seals a table shard up to `upper` without storing the advance: at boot
// every table is re-sealed above all earlier times (open_table), and the
// rows appended to a shard carry its upper across a restart, so a write
// stores its rows and no record per table.
storage::ShardAppend upper_only(storage::ShardId shard, Timestamp expected_upper, Timestamp upper) {
  storage::ShardAppend append(shard, {}, expected_upper, upper);
  append.durable_upper = false;
  return append;
}

}  // namespace

void Coordinator::advance_all() {
  std::lock_guard lock(write_mutex_);
  auto ts = oracle_->write_ts();
  if (!ts.ok()) return;
  Timestamp upper = *ts + 1;
  std::vector<storage::ShardAppend> appends;
  for (const auto& [id, table] : tables_) appends.push_back(upper_only(table.shard, upper_, upper));
  upper_ = upper;
  shards_->append_async(std::move(appends), [this, upper](Status s) {
    if (!s.is_ok()) return;  // the next write or tick retries from the shards' state
    queue_feed(CommittedFeed{upper - 1, nullptr, nullptr, std::nullopt});  // fed after the group (set_after_group)
  });
}

void Coordinator::queue_feed(CommittedFeed feed) {
  std::lock_guard lock(feed_mutex_);
  if (feed.staged) staged_queued_ = true;
  feeds_.push_back(std::move(feed));
}

void Coordinator::post_feed_drain() {
  {
    std::lock_guard lock(feed_mutex_);
    if (feed_drain_posted_ || feeds_.empty()) return;
    feed_drain_posted_ = true;
  }
  asio::post(io_, [this] { drain_feeds(); });
}

void Coordinator::feed_or_post() {
  {
    // A staged COPY is read back from storage by the drain that feeds it:
    // long work, for the coordinator's thread, not a committer's or a
    // session's.
    std::lock_guard lock(feed_mutex_);
    if (staged_queued_) {
      if (!feed_drain_posted_ && !feeds_.empty()) {
        feed_drain_posted_ = true;
        asio::post(io_, [this] { drain_feeds(); });
      }
      return;
    }
  }
  std::unique_lock drain(drain_mutex_, std::try_to_lock);
  if (!drain.owns_lock()) {
    // The drain running now may have emptied the queue before this
    // thread's commit joined it: the coordinator drains whatever is left.
    post_feed_drain();
    return;
  }
  drain_feeds(std::move(drain));
}

void Coordinator::drain_feeds() { drain_feeds(std::unique_lock(drain_mutex_)); }

void Coordinator::drain_feeds(std::unique_lock<std::mutex> drain) {
  std::vector<CommittedFeed> feeds = feed_compute();
  drain.unlock();
  for (CommittedFeed& feed : feeds) {
    if (feed.done) feed.done(feed.time);
  }
}

std::vector<Coordinator::CommittedFeed> Coordinator::feed_compute() {
  std::vector<CommittedFeed> feeds;
  {
    std::lock_guard lock(feed_mutex_);
    feeds.swap(feeds_);
    feed_drain_posted_ = false;
    staged_queued_ = false;
  }
  if (feeds.empty()) return feeds;
  // Per table, one chunk of updates for all the queued writes, shared by
  // every cluster's input (no copy per cluster, and one chunk for an input
  // to keep however many writes the group commit gathered).
  // A table no dataflow reads (no input anywhere) gets no chunk at all. An
  // input still being replayed gets the same steps in its backlog
  // (table_replay.hpp).
  std::map<compute::GlobalId, std::shared_ptr<std::vector<compute::Update>>> chunks;
  for (CommittedFeed& feed : feeds) {
    if (feed.staged) feed_staged(feed, &chunks[feed.staged->table]);
    if (!feed.writes) continue;
    for (auto& w : *feed.writes) {
      auto table = tables_.find(w.table);  // absent: dropped while the write committed
      if (table == tables_.end() || (table->second.inputs.empty() && table->second.replays.empty())) continue;
      auto& chunk = chunks[w.table];
      if (!chunk) {
        chunk = std::make_shared<std::vector<compute::Update>>();
        chunk->reserve(w.updates.size());
      }
      for (auto& [row, diff] : w.updates) chunk->push_back(compute::Update{{}, std::move(row), feed.time, diff});
    }
  }
  for (auto& [table, chunk] : chunks) {
    if (!chunk) continue;  // sent before a staged write (feed_staged)
    Table& t = tables_.find(table)->second;
    for (auto& [cluster, input] : t.inputs) input->send_shared(chunk);
    for (auto& [cluster, replay] : t.replays) replay->backlog.push_back(FeedOp{FeedOp::Kind::kSend, chunk});
  }
  Timestamp upper = feeds.back().time + 1;  // commits queue in timestamp order
  oracle_->apply_write(upper - 1);
  for (auto& [id, table] : tables_) {
    // A table opened after these commits were sequenced starts at a later
    // upper already.
    for (auto& [cluster, input] : table.inputs) {
      if (input->frontier() < upper) input->advance_to(upper);
    }
    for (auto& [cluster, replay] : table.replays) {
      replay->backlog.push_back(FeedOp{FeedOp::Kind::kAdvance, nullptr, upper});
    }
  }
  fed_upper_ = std::max(fed_upper_, upper);
  frontiers_.set_table_upper(upper);
  return feeds;
}

std::optional<size_t> Coordinator::count_keys(Table& table, RowRef row, Diff diff) {
  std::optional<size_t> violated;
  for (size_t k = 0; k < table.unique_keys.size(); ++k) {
    auto key = unique_key_of(row, table.unique_keys[k].columns);
    if (!key) continue;
    auto [it, inserted] = table.key_counts[k].try_emplace(std::move(*key), 0);
    it->second += diff;
    if (it->second > 1 && !violated) violated = k;
    if (it->second == 0) table.key_counts[k].erase(it);
  }
  return violated;
}

Status Coordinator::reserve_keys(const std::vector<TableWrite>& writes) {
  release_failed_reservations();
  for (size_t w = 0; w < writes.size(); ++w) {
    auto it = tables_.find(writes[w].table);
    if (it == tables_.end() || it->second.unique_keys.empty()) continue;
    Table& table = it->second;
    // Apply deletes before inserts, so UPDATE of a key's other columns works.
    // Every key count is at most 1 before a write, so only a key this write
    // touches can exceed it, and only through an insert (the second pass).
    std::optional<size_t> violated;
    std::string violating_key;
    for (int pass = 0; pass < 2; ++pass) {
      for (const auto& [row, diff] : writes[w].updates) {
        if ((diff < 0) != (pass == 0)) continue;
        auto k = count_keys(table, row.ref(), diff);
        if (k && !violated) {
          violated = k;
          violating_key = unique_key_of(row.ref(), table.unique_keys[*k].columns).value_or("");
        }
      }
    }
    if (violated) {
      release_keys({writes.begin(), writes.begin() + static_cast<std::ptrdiff_t>(w) + 1});
      return unique_violation(table.unique_keys[*violated], violating_key);
    }
  }
  return Status::ok();
}

void Coordinator::release_failed_reservations() {
  std::lock_guard lock(unreserve_mutex_);
  for (const auto& failed : unreserve_) release_keys(*failed);
  unreserve_.clear();
}

void Coordinator::release_keys(const std::vector<TableWrite>& writes) {
  for (const auto& w : writes) {
    auto it = tables_.find(w.table);
    if (it == tables_.end() || it->second.unique_keys.empty()) continue;
    for (const auto& [row, diff] : w.updates) count_keys(it->second, row.ref(), -diff);
  }
}

void Coordinator::write(std::vector<TableWrite> writes, std::function<void(Result<Timestamp>)> done) {
  lock_and_sequence(writes, done, false);
}

Status Coordinator::check_pending_keys(compute::GlobalId table, const std::vector<std::pair<Row, Diff>>& updates,
                                       std::vector<std::unordered_map<std::string, Diff>>& pending_keys) {
  std::lock_guard lock(write_mutex_);
  auto it = tables_.find(table);
  if (it == tables_.end() || it->second.unique_keys.empty()) return Status::ok();
  Table& t = it->second;
  pending_keys.resize(t.unique_keys.size());
  // Deletes before inserts, as reserve_keys applies them.
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& [row, diff] : updates) {
      if ((diff < 0) != (pass == 0)) continue;
      for (size_t k = 0; k < t.unique_keys.size(); ++k) {
        auto key = unique_key_of(row.ref(), t.unique_keys[k].columns);
        if (!key) continue;
        auto [pending, inserted] = pending_keys[k].try_emplace(*key, 0);
        pending->second += diff;
        Diff net = pending->second;
        if (net == 0) pending_keys[k].erase(pending);
        if (pass == 0) continue;
        auto committed = t.key_counts[k].find(*key);
        if (net + (committed == t.key_counts[k].end() ? 0 : committed->second) > 1) {
          return unique_violation(t.unique_keys[k], *key);
        }
      }
    }
  }
  return Status::ok();
}

void Coordinator::write_validated(std::vector<TableWrite> writes, Timestamp read_ts,
                                  const std::vector<compute::GlobalId>& read_tables,
                                  std::function<void(Result<Timestamp>)> done) {
  Status sequenced = Status::ok();
  {
    std::lock_guard lock(write_mutex_);
    for (compute::GlobalId id : read_tables) {
      auto it = tables_.find(id);
      if (it != tables_.end() && it->second.last_write > read_ts) {
        sequenced = Status::error(sqlstate::kSerializationFailure,
                                  "could not serialize access due to concurrent update")
                        .with_detail("Another transaction wrote a table this transaction updated or deleted from "
                                     "after this transaction read it.")
                        .with_hint("Retry the transaction.");
        break;
      }
    }
    if (sequenced.is_ok()) sequenced = sequence_write(writes, done, false);
  }
  if (!sequenced.is_ok()) done(sequenced);
}

void Coordinator::lock_and_sequence(std::vector<TableWrite>& writes, std::function<void(Result<Timestamp>)>& done,
                                    bool ack_on_commit) {
  Status sequenced = Status::ok();
  {
    std::lock_guard lock(write_mutex_);
    sequenced = sequence_write(writes, done, ack_on_commit);
  }
  if (!sequenced.is_ok()) done(sequenced);
}

void Coordinator::write_and_ack(std::vector<TableWrite> writes, std::function<void(Result<Timestamp>)> acked) {
  // Sequenced right here on the caller's thread when the lane is free, a
  // thread hop sooner; else by the coordinator thread once a DDL statement
  // or another writer is done with it. Either order is a valid one: the
  // lock makes timestamp, key checks and queueing one step.
  std::unique_lock lock(write_mutex_, std::try_to_lock);
  if (lock.owns_lock()) {
    Status sequenced = sequence_write(writes, acked, true);
    lock.unlock();
    if (!sequenced.is_ok()) acked(sequenced);
    return;
  }
  asio::post(io_, [this, writes = std::move(writes), acked = std::move(acked)]() mutable {
    lock_and_sequence(writes, acked, true);
  });
}

std::optional<Result<Timestamp>> Coordinator::try_write_inline(std::vector<TableWrite>& writes,
                                                               const FeedLater& feed_later) {
  std::unique_lock lock(write_mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return std::nullopt;
  storage::ShardStore::Lead lead = shards_->try_lead();
  if (!lead) return std::nullopt;
  std::optional<Result<Timestamp>> result;
  std::function<void(Result<Timestamp>)> done = [&result](Result<Timestamp> r) { result = std::move(r); };
  Status sequenced = sequence_write(writes, done, true, &lead);
  lock.unlock();
  lead.run();  // the commit, and `done`, on this thread
  if (!sequenced.is_ok()) return Result<Timestamp>(sequenced);
  if (result->ok()) {
    if (feed_later) {
      feed_later([this] { feed_or_post(); });
    } else {
      feed_or_post();
    }
  }
  return result;
}

Status Coordinator::sequence_write(std::vector<TableWrite>& writes, std::function<void(Result<Timestamp>)>& done,
                                   bool ack_on_commit, storage::ShardStore::Lead* lead) {
  for (const auto& w : writes) {
    if (tables_.count(w.table) == 0) {
      return Status::error(sqlstate::kUndefinedTable, "table " + std::to_string(w.table) + " has no storage");
    }
  }
  TANDEM_RETURN_IF_ERROR(reserve_keys(writes));
  auto ts = oracle_->write_ts();
  if (!ts.ok()) {
    release_keys(writes);
    return ts.status();
  }
  Timestamp time = *ts;
  std::vector<storage::ShardAppend> appends;
  appends.reserve(tables_.size());
  for (const auto& [id, table] : tables_) appends.push_back(upper_only(table.shard, upper_, time + 1));
  for (const auto& w : writes) {
    Table& table = tables_.find(w.table)->second;
    table.last_write = time;
    storage::ShardId shard = table.shard;
    storage::ShardAppend& append =
        *std::find_if(appends.begin(), appends.end(), [shard](const auto& a) { return a.shard == shard; });
    append.encoded_time = time;
    size_t bytes = append.encoded.size();
    for (const auto& [row, diff] : w.updates) bytes += row.bytes().size() + 12;
    append.encoded.reserve(bytes);
    for (const auto& [row, diff] : w.updates) storage::append_batch_entry(&append.encoded, row.bytes(), diff);
  }
  upper_ = time + 1;
  auto shared_writes = std::make_shared<std::vector<TableWrite>>(std::move(writes));
  bool led = lead != nullptr;
  auto committed = [this, time, shared_writes, ack_on_commit, led, done = std::move(done)](Status s) mutable {
    if (led && !s.is_ok()) {
      // On the lead's thread, which must not wait for write_mutex_ (its
      // holder may be waiting for the commit lane): the next sequencing
      // releases the keys before it checks any, and the error is reported
      // now.
      {
        std::lock_guard lock(unreserve_mutex_);
        unreserve_.push_back(shared_writes);
      }
      std::exchange(done, nullptr)(s);
      return;
    }
    if (!s.is_ok()) {
      asio::post(io_, [this, s, shared_writes, done = std::move(done)] {
        {
          std::lock_guard lock(write_mutex_);
          release_keys(*shared_writes);
        }
        done(s);
      });
      return;
    }
    if (ack_on_commit) {
      // Groups commit in timestamp order, so every write up to `time` is
      // durable: the read timestamp may cover it before compute has it.
      oracle_->apply_write(time);
      std::exchange(done, nullptr)(time);
    }
    // Fed after the group: by the committer (set_after_group), or by a
    // lead's caller once it has replied (try_write_inline).
    queue_feed(CommittedFeed{time, std::move(shared_writes), std::move(done), std::nullopt});
  };
  if (lead != nullptr) {
    lead->append(std::move(appends), std::move(committed));
  } else {
    shards_->append_async(std::move(appends), std::move(committed));
  }
  return Status::ok();
}

}  // namespace tandem::frontend
