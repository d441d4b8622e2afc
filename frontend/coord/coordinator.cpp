#include "frontend/coord/coordinator.hpp"

#include <pthread.h>

#include <algorithm>
#include <optional>
#include <string>

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "catalog/global_id.hpp"
#include "common/row.hpp"
#include "common/row_arena.hpp"
#include "storage/durable_store.hpp"

namespace tandem::frontend {
namespace asio = boost::asio;

Result<std::unique_ptr<Coordinator>> Coordinator::open(storage::DurableStore& durable, CoordinatorOptions options) {
  std::unique_ptr<Coordinator> c(new Coordinator(options));
  TANDEM_ASSIGN_OR_RETURN(c->shards_, storage::ShardStore::open(durable));
  // What the committer thread commits, it feeds to compute itself, once per
  // group: no wake-up of the coordinator's thread per write.
  c->shards_->set_after_group([c = c.get()] { c->feed_or_post(); });
  TANDEM_ASSIGN_OR_RETURN(c->oracle_, storage::TimestampOracle::open(durable));
  c->replay_thread_ = std::make_unique<ReplayThread>();

  // A fresh timestamp above everything before the restart: every table is
  // advanced to just past it, and reads start there.
  TANDEM_ASSIGN_OR_RETURN(Timestamp boot, c->oracle_->write_ts());
  // Table shards advance to it as they are reopened (open_table);
  // materialized views' shards keep their uppers until their sinks write.
  c->oracle_->apply_write(boot);
  c->upper_ = boot + 1;
  c->fed_upper_ = boot + 1;
  c->set_compaction_lag(options.compaction_lag);
  // A dropped hold that kept a since back: recompute the sinces once, on
  // the coordinator thread (posts coalesce while one is pending).
  c->frontiers_.set_release_waker([c = c.get()] {
    if (c->compaction_posted_.exchange(true)) return;
    asio::post(c->io_, [c] {
      c->compaction_posted_ = false;
      c->compact_indexes();
    });
  });
  TANDEM_RETURN_IF_ERROR(c->add_cluster(options.default_cluster, options.default_compute));
  c->ticker_ = std::make_unique<asio::steady_timer>(c->io_);
  c->schedule_upper_tick();
  c->thread_ = std::thread([io = &c->io_] {
    pthread_setname_np(pthread_self(), "coord");
    io->run();
  });
  return c;
}

Coordinator::~Coordinator() {
  frontiers_.set_release_waker(nullptr);  // holds may outlive the coordinator
  asio::post(io_, [this] {
    stopping_ = true;
    ticker_->cancel();
  });
  if (thread_.joinable()) thread_.join();  // not started when open failed
  // A replay still running stops feeding and ends with its scan; the
  // since holds of those that never ran go before the store.
  {
    std::lock_guard drain(drain_mutex_);
    for (auto& [id, table] : tables_) {
      for (auto& [cluster, replay] : table.replays) replay->cancelled = true;
    }
  }
  if (replay_thread_) replay_thread_->stop();
  for (auto& [id, table] : tables_) {
    for (auto& [cluster, replay] : table.replays) replay->since_hold.reset();
  }
  // The committer may still complete appends; they post to the stopped
  // io_context, which outlives the shard store.
  shards_.reset();
  runtimes_.clear();
}

void Coordinator::schedule_upper_tick() {
  ticker_->expires_after(options_.upper_interval);
  ticker_->async_wait([this](const boost::system::error_code& ec) {
    if (ec || stopping_) return;
    advance_all();
    compact_shards();
    process_metrics_.sample();
    schedule_upper_tick();
  });
}

Status Coordinator::open_table(compute::GlobalId table, storage::ShardId shard, std::vector<UniqueKey> unique_keys) {
  // Held throughout: no write is sequenced between the shard catching up
  // with upper_ and the table joining the tables every write advances.
  std::lock_guard lock(write_mutex_);
  if (tables_.count(table) != 0) return Status::ok();
  auto shards = shards_->list_shards();
  bool exists = std::find(shards.begin(), shards.end(), shard) != shards.end();
  if (!exists) {
    TANDEM_RETURN_IF_ERROR(shards_->create_shard(shard, upper_));
  } else {
    TANDEM_ASSIGN_OR_RETURN(Timestamp shard_upper, shards_->upper(shard));
    if (shard_upper < upper_) {
      TANDEM_RETURN_IF_ERROR(shards_->append({storage::ShardAppend{shard, {}, shard_upper, upper_}}));
    }
  }
  Table t;
  t.shard = shard;
  t.opened_at = upper_ - 1;
  t.unique_keys = std::move(unique_keys);
  t.key_counts.resize(t.unique_keys.size());
  if (exists && !t.unique_keys.empty()) {
    // The unique keys present, counted once at boot; compute reads the
    // table only when a dataflow imports it (ensure_table_inputs).
    TANDEM_RETURN_IF_ERROR(load_snapshot(shard, t.opened_at, {}, &t));
  }
  std::lock_guard drain(drain_mutex_);
  tables_.emplace(table, std::move(t));
  frontiers_.add_table(table, upper_ - 1);
  frontiers_.set_shard(table, shard);
  fed_upper_ = std::max(fed_upper_, upper_);
  frontiers_.set_table_upper(upper_);
  return Status::ok();
}

Status Coordinator::add_unique_key(compute::GlobalId table, UniqueKey key,
                                   const std::function<Status(size_t column)>& null_key) {
  // Held throughout: no write is sequenced between the count and the key
  // joining the table's keys.
  std::lock_guard lock(write_mutex_);
  auto it = tables_.find(table);
  if (it == tables_.end()) return Status::error(sqlstate::kUndefinedTable, "unknown table");
  Table& t = it->second;
  // Writes whose commit failed give their keys back first: the new key's
  // counts never saw them.
  release_failed_reservations();
  // The committer commits in order: once this empty commit is durable, so
  // is every write sequenced before it, and the snapshot below has them.
  TANDEM_RETURN_IF_ERROR(shards_->append({}));
  TANDEM_ASSIGN_OR_RETURN(Timestamp shard_upper, shards_->upper(t.shard));
  const Timestamp as_of = std::min(upper_, shard_upper) - 1;
  std::unordered_map<std::string, Diff> counts;
  // Rows with a NULL key column, net of retractions, per column.
  std::map<size_t, std::unordered_map<std::string, Diff>> null_rows;
  TANDEM_RETURN_IF_ERROR(shards_->scan_snapshot(t.shard, as_of, [&](std::string_view bytes, Diff diff) {
    if (auto k = unique_key_of(RowRef(bytes), key.columns)) {
      counts[std::move(*k)] += diff;
    } else if (null_key) {
      RowArena arena;
      std::vector<Datum> datums = unpack(RowRef(bytes), &arena);
      for (size_t c : key.columns) {
        if (c < datums.size() && datums[c].is_null()) null_rows[c][std::string(bytes)] += diff;
      }
    }
  }));
  for (const auto& [column, rows] : null_rows) {
    for (const auto& [row, diff] : rows) {
      if (diff != 0) return null_key(column);
    }
  }
  for (auto c = counts.begin(); c != counts.end();) {
    if (c->second > 1) {
      auto described = describe_key(key, c->first);
      return Status::error(sqlstate::kUniqueViolation, "could not create unique index \"" + key.name + "\"")
          .with_detail(described ? *described + " is duplicated." : "The table holds a key more than once.");
    }
    c = c->second == 0 ? counts.erase(c) : std::next(c);
  }
  t.unique_keys.push_back(std::move(key));
  t.key_counts.push_back(std::move(counts));
  return Status::ok();
}

void Coordinator::drop_unique_key(compute::GlobalId table, const std::string& name) {
  std::lock_guard lock(write_mutex_);
  auto it = tables_.find(table);
  if (it == tables_.end()) return;
  Table& t = it->second;
  for (size_t k = 0; k < t.unique_keys.size(); ++k) {
    if (t.unique_keys[k].name != name) continue;
    t.unique_keys.erase(t.unique_keys.begin() + static_cast<std::ptrdiff_t>(k));
    t.key_counts.erase(t.key_counts.begin() + static_cast<std::ptrdiff_t>(k));
    return;
  }
}

Status Coordinator::load_snapshot(storage::ShardId shard, Timestamp as_of,
                                  const std::vector<compute::InputHandle*>& inputs, Table* keyed) {
  std::vector<compute::SnapshotLoader> loaders;
  for (compute::InputHandle* input : inputs) loaders.push_back(input->load_snapshot(as_of));
  TANDEM_RETURN_IF_ERROR(shards_->scan_snapshot(shard, as_of, [&](std::string_view bytes, Diff diff) {
    RowRef row(bytes);
    if (keyed != nullptr && !keyed->unique_keys.empty()) count_keys(*keyed, row, diff);
    for (compute::SnapshotLoader& loader : loaders) loader.push(row, diff);
  }));
  for (compute::SnapshotLoader& loader : loaders) loader.finish();
  return Status::ok();
}

void Coordinator::compact_shards() {
  Timestamp fed_upper = 0;
  {
    std::lock_guard drain(drain_mutex_);  // a session's drain may move it
    fed_upper = fed_upper_;
  }
  compact_indexes();
  const Timestamp now = std::min(oracle_->read_ts(), fed_upper - 1);
  const auto lag = static_cast<Timestamp>(compaction_lag_ms_.load());
  if (now <= lag) return;
  const Timestamp since = frontiers_.advance_table_since(now - lag);
  // compact() only records the target: the rewrite runs on storage's
  // compaction thread. A dropped shard's error is of no interest here.
  for (const auto& [id, table] : tables_) (void)shards_->compact(table.shard, since);
  for (const auto& [id, view] : mvs_) {
    if (view.upper > 0) (void)shards_->compact(view.shard, view.upper - 1);
  }
}

void Coordinator::set_compaction_lag(std::chrono::milliseconds lag) {
  const int64_t ms = std::max<int64_t>(1, lag.count());
  compaction_lag_ms_ = ms;
  frontiers_.set_compaction_lag(static_cast<Timestamp>(ms));
}

void Coordinator::compact_indexes() {
  for (const CollectionFrontiers::Allowed& allowed : frontiers_.advance_index_sinces()) {
    auto runtime = runtimes_.find(allowed.cluster);
    if (runtime == runtimes_.end()) continue;
    submit(allowed.cluster, compute::AllowCompaction{allowed.id, allowed.since});
  }
}

Timestamp Coordinator::readable_as_of(const compute::DataflowDescription& desc) const {
  Timestamp as_of = desc.as_of;
  for (const compute::IndexImport& i : desc.index_imports) {
    if (auto f = frontiers_.get(i.index_id)) as_of = std::max(as_of, f->since);
  }
  return as_of;
}

Status Coordinator::check_read_hold(compute::GlobalId id, Timestamp time) const {
  auto f = frontiers_.get(id);
  if (!f || f->is_table || f->since <= time) return Status::ok();
  spdlog::error("internal error: collection {} was compacted to {}, past a read at {} that held it", id, f->since,
                time);
  return Status::error(sqlstate::kInternalError, "internal error: collection " + std::to_string(id) +
                                                     " was compacted past the read's timestamp " +
                                                     std::to_string(time))
      .with_detail("its since is " + std::to_string(f->since) + "; the read held an earlier time");
}

Status Coordinator::add_cluster(uint64_t cluster, ClusterCompute compute) {
  if (runtimes_.count(cluster) != 0) return Status::ok();
  compute::MultiplexerOptions options;
  options.maintenance.workers = std::max<size_t>(1, compute.workers);
  // Logs name collections as the catalog does ("u5", "t3").
  options.maintenance.format_id = [](compute::GlobalId id) { return catalog::item_id_from_compute(id).to_string(); };
  options.maintenance.offload_pool = offload_pool_;
  options.interactive_runtime = compute.interactive_runtime;
  options.interactive_dataflows = compute.interactive_dataflows;
  options.background_maintenance = compute.background_maintenance;
  auto runtime = std::make_unique<compute::Multiplexer>(std::move(options));
  runtime->set_response_waker([this, cluster] { asio::post(io_, [this, cluster] { drain_compute_responses(cluster); }); });
  // Tables become its sources when its first dataflow reads them
  // (ensure_table_inputs).
  add_view_inputs(cluster, *runtime);
  std::unique_lock lock(runtimes_mutex_);
  runtimes_.emplace(cluster, std::move(runtime));
  return Status::ok();
}

std::pair<bool, bool> Coordinator::read_routing(uint64_t cluster) {
  std::shared_lock lock(runtimes_mutex_);
  auto it = runtimes_.find(cluster);
  if (it == runtimes_.end()) return {false, false};
  return {it->second->interactive(), it->second->interactive_dataflows()};
}

void Coordinator::drop_cluster(uint64_t cluster) {
  {
    std::lock_guard drain(drain_mutex_);
    for (auto& [id, table] : tables_) {
      table.inputs.erase(cluster);
      cancel_replays(table, cluster);
    }
  }
  // What still waits for the cluster is not sent; peeks are answered.
  if (auto queued = deferred_.find(cluster); queued != deferred_.end()) {
    std::deque<Deferred> queue = std::move(queued->second);
    deferred_.erase(queued);
    for (Deferred& d : queue) d.run(Status::error(sqlstate::kUndefinedObject, "the cluster was dropped"));
  }
  for (auto& [id, view] : mvs_) view.inputs.erase(cluster);
  std::unique_lock lock(runtimes_mutex_);
  runtimes_.erase(cluster);
}

Status Coordinator::send(uint64_t cluster, compute::ComputeCommand command) {
  auto it = runtimes_.find(cluster);
  if (it == runtimes_.end()) return Status::error(sqlstate::kUndefinedObject, "the cluster has no runtime");
  if (auto* create = std::get_if<compute::CreateDataflow>(&command)) {
    compute::DataflowDescription& desc = create->desc;
    std::set<compute::GlobalId> sinked;
    for (const auto& sink : desc.sink_exports) sinked.insert(sink.index_id);
    // An index or view maintained from now on may start later than planned,
    // where its imports are still readable; a subscribe's as_of is what its
    // client asked for, held since it was chosen.
    const bool subscribe = !sinked.empty() && mvs_.count(desc.sink_exports.front().sink_id) == 0;
    if (!subscribe) desc.as_of = readable_as_of(desc);
    for (const auto& i : desc.index_imports) TANDEM_RETURN_IF_ERROR(check_read_hold(i.index_id, desc.as_of));
    Deferred deferred;
    TANDEM_RETURN_IF_ERROR(ensure_table_inputs(cluster, desc, &deferred.waits));
    // A sinked export is compacted by its sink's controller (a view's
    // shard appends), not by the read policy.
    for (const auto& e : desc.index_exports) {
      frontiers_.add_index(e.index_id, desc.as_of, cluster, sinked.count(e.index_id) == 0);
      deferred.exports.push_back(e.index_id);
    }
    track_hydration(cluster, desc);
    deferred.run = [this, cluster, command = std::move(command)](Status status) mutable {
      auto runtime = runtimes_.find(cluster);
      if (runtime == runtimes_.end()) return;
      if (!status.is_ok()) {
        // A table it reads was dropped meanwhile: so was the dataflow's
        // object (a dependent), whose DropDataflow follows in the queue.
        spdlog::info("dataflow {} not installed: {}", std::get<compute::CreateDataflow>(command).desc.debug_name,
                     status.message());
        return;
      }
      runtime->second->send(std::move(command));
    };
    dispatch(cluster, std::move(deferred));
    return Status::ok();
  }
  if (auto* drop = std::get_if<compute::DropDataflow>(&command)) {
    frontiers_.remove(drop->export_id);
    hydration_.dropped(drop->export_id);
  }
  submit(cluster, std::move(command));
  return Status::ok();
}

void Coordinator::track_hydration(uint64_t cluster, const compute::DataflowDescription& desc) {
  std::set<compute::GlobalId> sinked;
  for (const auto& sink : desc.sink_exports) {
    hydration_.created(sink.sink_id, sink.index_id, cluster, desc.as_of);
    sinked.insert(sink.index_id);
  }
  for (const auto& e : desc.index_exports) {
    if (sinked.count(e.index_id) == 0) hydration_.created(e.index_id, e.index_id, cluster, desc.as_of);
  }
}

std::shared_ptr<const catalog::ControllerStatus> Coordinator::controller_status() const {
  auto status = std::make_shared<catalog::ControllerStatus>();
  status->compute = hydration_.statuses();
  status->admission = admission_.stats();
  status->frontiers = frontiers_.all();
  for (const auto& [id, shard] : frontiers_.shards()) {
    auto stored = shards_->stored(shard);
    if (!stored.ok()) continue;  // dropped meanwhile
    status->shards.push_back({id, shard, stored->frontiers.since, stored->frontiers.upper, stored->stored_batches,
                              stored->stored_bytes});
  }
  status->process = process_metrics_.status();
  return status;
}

std::optional<compute::PeekResponse> Coordinator::peek_if_ready(uint64_t cluster, const compute::Peek& peek,
                                                                size_t inline_budget) {
  std::shared_lock lock(runtimes_mutex_);
  auto it = runtimes_.find(cluster);
  if (it == runtimes_.end()) return std::nullopt;
  return it->second->peek_if_ready(peek, inline_budget);
}

std::vector<Coordinator::ClusterReads> Coordinator::read_histograms() {
  std::vector<ClusterReads> out;
  std::shared_lock lock(runtimes_mutex_);
  for (const auto& [cluster, runtime] : runtimes_) out.push_back({cluster, runtime->peek_log().path_histograms()});
  return out;
}

std::optional<Timestamp> Coordinator::published_upper(uint64_t cluster, compute::GlobalId id) {
  std::shared_lock lock(runtimes_mutex_);
  auto it = runtimes_.find(cluster);
  if (it == runtimes_.end()) return std::nullopt;
  return it->second->published_upper(id);
}

std::optional<compute::ReadyPeek> Coordinator::walk_if_ready(uint64_t cluster, const compute::Peek& peek,
                                                            size_t inline_budget, bool offload) {
  std::shared_lock lock(runtimes_mutex_);
  auto it = runtimes_.find(cluster);
  if (it == runtimes_.end()) return std::nullopt;
  return it->second->walk_if_ready(peek, inline_budget, offload);
}

std::optional<Result<std::unique_ptr<compute::IndexScan>>> Coordinator::scan_if_ready(uint64_t cluster,
                                                                                      const compute::Peek& peek) {
  std::shared_lock lock(runtimes_mutex_);
  auto it = runtimes_.find(cluster);
  if (it == runtimes_.end()) return std::nullopt;
  return it->second->scan_if_ready(peek);
}

void Coordinator::cancel_peek(compute::PeekId id) {
  auto it = peeks_.find(id);
  if (it == peeks_.end()) return;  // already answered
  // The session is answered now; compute finishes (or abandons) the peek in
  // its own time and its late response finds no pending peek.
  PendingPeek pending = std::move(it->second);
  peeks_.erase(it);
  // A peek still queued is never sent (its queue entry finds it gone).
  auto runtime = pending.sent ? runtimes_.find(pending.cluster) : runtimes_.end();
  if (runtime != runtimes_.end()) {
    runtime->second->send(compute::CancelPeek{id});
    if (pending.drop_after) runtime->second->send(compute::DropDataflow{*pending.drop_after});
  }
  compute::PeekResponse response;
  response.uuid = id;
  response.kind = compute::PeekResponse::Kind::kCanceled;
  pending.done(std::move(response));
}

compute::PeekId Coordinator::peek(uint64_t cluster, std::optional<compute::DataflowDescription> dataflow,
                                  compute::Peek peek, std::function<void(compute::PeekResponse)> done) {
  auto runtime = runtimes_.find(cluster);
  Deferred deferred;
  Status refused = runtime == runtimes_.end()
                       ? Status::error(sqlstate::kUndefinedObject, "the cluster has no runtime")
                   : dataflow ? ensure_table_inputs(cluster, *dataflow, &deferred.waits)
                              : check_read_hold(peek.target, peek.time);
  if (refused.is_ok() && dataflow) {
    for (const auto& i : dataflow->index_imports) {
      refused = check_read_hold(i.index_id, dataflow->as_of);
      if (!refused.is_ok()) break;
    }
  }
  if (!refused.is_ok()) {
    compute::PeekResponse response;
    response.kind = compute::PeekResponse::Kind::kError;
    response.error = std::move(refused);
    done(std::move(response));
    return 0;
  }
  peek.uuid = next_peek_++;
  PendingPeek pending;
  pending.cluster = cluster;
  pending.done = std::move(done);
  // What the peek reads: it passes the cluster's queue unless a queued
  // dataflow exports one of them.
  std::vector<compute::GlobalId> reads{peek.target};
  if (dataflow) {
    pending.drop_after = peek.target;
    for (const auto& i : dataflow->index_imports) reads.push_back(i.index_id);
    for (const auto& e : dataflow->index_exports) deferred.exports.push_back(e.index_id);
  }
  compute::PeekId id = peek.uuid;
  peeks_.emplace(id, std::move(pending));
  deferred.run = [this, id, dataflow = std::move(dataflow), peek = std::move(peek)](Status status) mutable {
    auto it = peeks_.find(id);
    if (it == peeks_.end()) return;  // canceled while queued
    auto runtime = runtimes_.find(it->second.cluster);
    if (!status.is_ok() || runtime == runtimes_.end()) {
      PendingPeek pending = std::move(it->second);
      peeks_.erase(it);
      compute::PeekResponse response;
      response.uuid = id;
      response.kind = compute::PeekResponse::Kind::kError;
      response.error = status.is_ok() ? Status::error(sqlstate::kUndefinedObject, "the cluster has no runtime") : status;
      pending.done(std::move(response));
      return;
    }
    it->second.sent = true;
    if (dataflow) runtime->second->send(compute::CreateDataflow{std::move(*dataflow)});
    runtime->second->send(std::move(peek));
  };
  dispatch(cluster, std::move(deferred), &reads);
  return id;
}

void Coordinator::lock_modifications(std::function<void()> granted) {
  if (!modifying_) {
    modifying_ = true;
    granted();
    return;
  }
  modify_waiters_.push_back(std::move(granted));
}

void Coordinator::unlock_modifications() {
  if (modify_waiters_.empty()) {
    modifying_ = false;
    return;
  }
  auto next = std::move(modify_waiters_.front());
  modify_waiters_.pop_front();
  asio::post(io_, std::move(next));  // still held: handed to the next waiter
}

void Coordinator::drain_compute_responses(uint64_t cluster) {
  auto runtime = runtimes_.find(cluster);
  if (runtime == runtimes_.end()) return;
  bool advanced = false;
  while (auto response = runtime->second->try_recv()) {
    if (auto* f = std::get_if<compute::FrontierUpper>(&*response)) {
      frontiers_.advance_index(f->id, f->upper);
      hydration_.advanced(f->id, f->upper);
      advanced = true;
    }
    auto* p = std::get_if<compute::PeekResponse>(&*response);
    if (auto* sink = std::get_if<compute::SinkBatch>(&*response)) {
      hydration_.advanced(sink->sink_id, sink->upper);
      on_sink_batch(std::move(*sink));
      continue;
    }
    if (p == nullptr) continue;  // frontier reports: introspection will use them
    auto it = peeks_.find(p->uuid);
    if (it == peeks_.end()) continue;
    PendingPeek pending = std::move(it->second);
    peeks_.erase(it);
    if (pending.drop_after) runtime->second->send(compute::DropDataflow{*pending.drop_after});
    pending.done(std::move(*p));
  }
  if (advanced) compact_indexes();
}

Status Coordinator::drop_table(compute::GlobalId table) {
  auto it = tables_.find(table);
  if (it == tables_.end()) return Status::ok();
  storage::ShardId shard = it->second.shard;
  {
    std::lock_guard lock(write_mutex_);
    std::lock_guard drain(drain_mutex_);
    cancel_replays(it->second, std::nullopt);
    tables_.erase(it);
  }
  frontiers_.remove(table);
  return shards_->drop_shard(shard);
}

Result<std::vector<std::pair<std::string, Diff>>> Coordinator::snapshot(compute::GlobalId table, Timestamp as_of) {
  auto it = tables_.find(table);
  if (it == tables_.end()) {
    return Status::error(sqlstate::kUndefinedTable, "table " + std::to_string(table) + " has no storage");
  }
  return shards_->snapshot(it->second.shard, as_of);
}

}  // namespace tandem::frontend
