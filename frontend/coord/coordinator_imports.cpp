// The coordinator's table inputs and per-cluster command queues (see
// "Table inputs" in coordinator.hpp and table_replay.hpp): a table's first
// import on a cluster is replayed from its shard on the replay thread, and
// the commands that need it wait in the cluster's queue, so the
// coordinator thread never reads a whole table.
#include <algorithm>
#include <chrono>

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "compute/dataflow/error_row.hpp"
#include "frontend/coord/coordinator.hpp"

namespace tandem::frontend {
namespace asio = boost::asio;

namespace {

// Past this many updates (and whenever a staged write is in it), the
// replay thread applies a backlog outside drain_mutex_ and looks again;
// below it, it applies the backlog under the lock and joins the input, so
// a drain waits at most for that much in-memory feeding.
constexpr size_t kJoinBacklogUpdates = 16 * 1024;

bool join_now(const std::vector<FeedOp>& backlog, int round) {
  size_t updates = 0;
  for (const FeedOp& op : backlog) {
    if (op.kind == FeedOp::Kind::kStaged) return false;
    if (op.chunk) updates += op.chunk->size();
  }
  // A steady stream of writes cannot keep the replay from joining.
  return updates <= kJoinBacklogUpdates || round >= 8;
}

}  // namespace

Status Coordinator::ensure_table_inputs(uint64_t cluster, const compute::DataflowDescription& desc,
                                        std::vector<std::shared_ptr<TableReplay>>* waits) {
  auto runtime = runtimes_.find(cluster);
  if (runtime == runtimes_.end()) return Status::ok();  // the caller reports it
  // fed_upper_ cannot move between the replay's `until` and the replay
  // joining the table's replays: every later feed goes to its backlog.
  std::lock_guard drain(drain_mutex_);
  for (const compute::SourceImport& source : desc.source_imports) {
    auto it = tables_.find(source.id);
    if (it == tables_.end() || it->second.inputs.count(cluster) != 0) continue;
    Table& table = it->second;
    if (auto running = table.replays.find(cluster); running != table.replays.end()) {
      waits->push_back(running->second);
      continue;
    }
    // Shards are compacted up to the table read frontier at most.
    const Timestamp start = std::max(table.opened_at, frontiers_.table_since());
    if (desc.as_of < start) {
      return Status::error(sqlstate::kSnapshotTooOld, "table " + std::to_string(source.id) +
                                                          " is compacted past the read's timestamp " +
                                                          std::to_string(desc.as_of))
          .with_detail("it can be read from " + std::to_string(start) + " on");
    }
    auto replay = std::make_shared<TableReplay>();
    replay->table = source.id;
    replay->cluster = cluster;
    replay->shard = table.shard;
    replay->start = start;
    replay->until = fed_upper_;
    TANDEM_ASSIGN_OR_RETURN(replay->since_hold, shards_->listen(table.shard, start));
    replay->input = runtime->second->create_input(source.id);
    table.replays.emplace(cluster, replay);
    waits->push_back(replay);
    replay_thread_->submit([this, replay] { run_replay(replay); });
  }
  return Status::ok();
}

void Coordinator::run_replay(const std::shared_ptr<TableReplay>& replay) {
  const auto began = std::chrono::steady_clock::now();
  compute::InputHandle& input = *replay->input;
  const Timestamp start = replay->start;
  size_t updates = 0;
  std::optional<compute::SnapshotLoader> loader;
  loader.emplace(input.load_snapshot(start));
  auto visit = [&](Timestamp time, std::string_view row, Diff diff) {
    if (replay->cancelled.load(std::memory_order_relaxed)) return;  // nobody will read it
    ++updates;
    if (time == start) {
      loader->push(RowRef(row), diff);
      return;
    }
    if (loader) {
      loader->finish();
      loader.reset();
    }
    // Each earlier time is released as it is passed, so the input keeps it
    // as a spillable history batch (as with writes fed live), not the whole
    // replay as buffered updates.
    if (time > input.frontier()) input.advance_to(time);
    input.send(Row(std::string(row)), time, diff);
  };
  // Dropped before it began: nothing to read.
  Status scanned = replay->cancelled ? Status::error(sqlstate::kUndefinedTable, "table dropped")
                                     : shards_->scan_history(replay->shard, start, replay->until, visit);
  if (scanned.is_ok()) {
    if (loader) loader->finish();
    if (input.frontier() < replay->until) input.advance_to(replay->until);
  }
  // What the feed gave the table's live inputs meanwhile, then the join.
  for (int round = 0; scanned.is_ok(); ++round) {
    std::vector<FeedOp> ops;
    {
      std::lock_guard drain(drain_mutex_);
      if (replay->cancelled) break;
      if (join_now(replay->backlog, round)) {
        apply_feed_ops(*shards_, input, replay->backlog);
        replay->backlog.clear();
        // Not cancelled: the table and this replay are still there.
        Table& table = tables_.find(replay->table)->second;
        table.inputs.emplace(replay->cluster, replay->input);
        table.replays.erase(replay->cluster);
        replay->since_hold.reset();
        break;
      }
      ops.swap(replay->backlog);
    }
    apply_feed_ops(*shards_, input, ops);
  }
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - began).count();
  spdlog::info("table {} replayed for cluster {} in {} ms: {} updates up to {}", replay->table, replay->cluster, ms,
               updates, replay->until);
  asio::post(io_, [this, replay, scanned] { finish_replay(replay, scanned); });
}

void Coordinator::finish_replay(const std::shared_ptr<TableReplay>& replay, Status scanned) {
  replay->ended = true;
  if (!scanned.is_ok() && !replay->cancelled) {
    spdlog::error("replaying table {} for cluster {}: {}", replay->table, replay->cluster, scanned.to_string());
  }
  auto runtime = runtimes_.find(replay->cluster);
  if (!scanned.is_ok() && runtime != runtimes_.end()) {
    // The partly filled input is replaced by one holding only the error,
    // from the replay's start on: every read of the table on this cluster
    // reports it, none sees part of the table.
    std::lock_guard drain(drain_mutex_);
    auto table = tables_.find(replay->table);
    if (!replay->cancelled && table != tables_.end()) {
      auto input = runtime->second->create_input(replay->table);
      std::vector<compute::Update> errors;
      errors.push_back(compute::Update{{}, compute::error_row(scanned), replay->start, 1});
      input->send_errors(std::move(errors));
      input->advance_to(fed_upper_);
      table->second.inputs.emplace(replay->cluster, std::move(input));
      table->second.replays.erase(replay->cluster);
    }
    replay->backlog.clear();
  }
  {
    std::lock_guard drain(drain_mutex_);
    replay->since_hold.reset();
  }
  pump(replay->cluster);
}

void Coordinator::cancel_replays(Table& table, std::optional<uint64_t> cluster) {
  for (auto it = table.replays.begin(); it != table.replays.end();) {
    if (cluster && it->first != *cluster) {
      ++it;
      continue;
    }
    it->second->cancelled = true;
    it->second->backlog.clear();
    it = table.replays.erase(it);
  }
}

void Coordinator::dispatch(uint64_t cluster, Deferred deferred, const std::vector<compute::GlobalId>* bypass) {
  const bool ready = std::all_of(deferred.waits.begin(), deferred.waits.end(),
                                 [](const auto& replay) { return replay->ended; });
  std::deque<Deferred>& queue = deferred_[cluster];
  bool now = ready && queue.empty();
  if (ready && !now && bypass != nullptr) {
    now = std::none_of(queue.begin(), queue.end(), [&](const Deferred& queued) {
      return std::any_of(queued.exports.begin(), queued.exports.end(), [&](compute::GlobalId id) {
        return std::find(bypass->begin(), bypass->end(), id) != bypass->end();
      });
    });
  }
  if (now) {
    if (queue.empty()) deferred_.erase(cluster);
    deferred.run(Status::ok());
    return;
  }
  queue.push_back(std::move(deferred));
}

void Coordinator::pump(uint64_t cluster) {
  for (;;) {
    auto it = deferred_.find(cluster);
    if (it == deferred_.end()) return;
    std::deque<Deferred>& queue = it->second;
    if (queue.empty()) {
      deferred_.erase(it);
      return;
    }
    Deferred& head = queue.front();
    if (!std::all_of(head.waits.begin(), head.waits.end(), [](const auto& replay) { return replay->ended; })) return;
    // A wait that ended without its input joining: the table was dropped.
    Status status = Status::ok();
    for (const auto& replay : head.waits) {
      if (replay->cancelled) {
        status = Status::error(sqlstate::kUndefinedTable,
                               "table " + std::to_string(replay->table) + " was dropped while it was read");
      }
    }
    Deferred next = std::move(head);
    queue.pop_front();
    // `run` may issue commands to this cluster; they queue behind the rest.
    next.run(status);
  }
}

void Coordinator::submit(uint64_t cluster, compute::ComputeCommand command) {
  Deferred deferred;
  deferred.run = [this, cluster, command = std::move(command)](Status status) mutable {
    auto runtime = runtimes_.find(cluster);
    if (!status.is_ok() || runtime == runtimes_.end()) return;
    runtime->second->send(std::move(command));
  };
  dispatch(cluster, std::move(deferred));
}

void Coordinator::when_dispatched(uint64_t cluster, std::function<void()> done) {
  Deferred deferred;
  deferred.run = [done = std::move(done)](Status) { done(); };
  dispatch(cluster, std::move(deferred));
}

}  // namespace tandem::frontend
