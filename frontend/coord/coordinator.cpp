#include "frontend/coord/coordinator.hpp"
#include <algorithm>

#include <boost/asio/post.hpp>

#include "storage/durable_store.hpp"
#include "storage/shard_codec.hpp"

namespace tandem::frontend {
namespace asio = boost::asio;

Result<std::unique_ptr<Coordinator>> Coordinator::open(storage::DurableStore& durable, CoordinatorOptions options) {
  std::unique_ptr<Coordinator> c(new Coordinator(options));
  TANDEM_ASSIGN_OR_RETURN(c->shards_, storage::ShardStore::open(durable));
  TANDEM_ASSIGN_OR_RETURN(c->oracle_, storage::TimestampOracle::open(durable));

  // A fresh timestamp above everything before the restart: every table is
  // advanced to just past it, and reads start there.
  TANDEM_ASSIGN_OR_RETURN(Timestamp boot, c->oracle_->write_ts());
  // Table shards advance to it as they are reopened (open_table);
  // materialized views' shards keep their uppers until their sinks write.
  c->oracle_->apply_write(boot);
  c->upper_ = boot + 1;
  c->fed_upper_ = boot + 1;
  TANDEM_RETURN_IF_ERROR(c->add_cluster(options.default_cluster, options.compute_workers));
  c->ticker_ = std::make_unique<asio::steady_timer>(c->io_);
  c->schedule_upper_tick();
  c->thread_ = std::thread([io = &c->io_] { io->run(); });
  return c;
}

Coordinator::~Coordinator() {
  asio::post(io_, [this] {
    stopping_ = true;
    ticker_->cancel();
  });
  thread_.join();
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
    process_metrics_.sample();
    schedule_upper_tick();
  });
}

namespace {

// Seals a table shard up to `upper` without storing the advance: at boot
// every table is re-sealed above all earlier times (open_table), and a
// shard's stored upper moves whenever rows are appended to it, so a write
// stores one record per table it touches, not one per table.
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
    asio::post(io_, [this, upper, s] {
      if (!s.is_ok()) return;  // the next write or tick retries from the shards' state
      oracle_->apply_write(upper - 1);
      for (auto& [id, table] : tables_) {
        for (auto& [cluster, input] : table.inputs) input->advance_to(upper);
      }
      fed_upper_ = std::max(fed_upper_, upper);
      frontiers_.set_table_upper(upper);
    });
  });
}

namespace {

// The key row of `row` for `columns`, or nullopt when a key column is NULL
// (SQL unique constraints admit any number of NULL keys).
std::optional<std::string> key_of(RowRef row, const std::vector<size_t>& columns) {
  RowArena arena;
  std::vector<Datum> datums = unpack(row, &arena);
  std::string key;
  RowPacker packer(&key);
  packer.set_normalize_numeric(true);  // 1.0 and 1.00 are the same key
  for (size_t c : columns) {
    if (c >= datums.size() || datums[c].is_null()) return std::nullopt;
    packer.push(datums[c]);
  }
  return key;
}

}  // namespace

std::optional<size_t> Coordinator::count_keys(Table& table, RowRef row, Diff diff) {
  std::optional<size_t> violated;
  for (size_t k = 0; k < table.unique_keys.size(); ++k) {
    auto key = key_of(row, table.unique_keys[k].columns);
    if (!key) continue;
    auto [it, inserted] = table.key_counts[k].try_emplace(std::move(*key), 0);
    it->second += diff;
    if (it->second > 1 && !violated) violated = k;
    if (it->second == 0) table.key_counts[k].erase(it);
  }
  return violated;
}

Status Coordinator::reserve_keys(const std::vector<TableWrite>& writes) {
  {
    std::lock_guard lock(unreserve_mutex_);
    for (const auto& failed : unreserve_) release_keys(*failed);
    unreserve_.clear();
  }
  for (size_t w = 0; w < writes.size(); ++w) {
    auto it = tables_.find(writes[w].table);
    if (it == tables_.end() || it->second.unique_keys.empty()) continue;
    Table& table = it->second;
    // Apply deletes before inserts, so UPDATE of a key's other columns works.
    // Every key count is at most 1 before a write, so only a key this write
    // touches can exceed it, and only through an insert (the second pass).
    std::optional<size_t> violated;
    for (int pass = 0; pass < 2; ++pass) {
      for (const auto& [row, diff] : writes[w].updates) {
        if ((diff < 0) != (pass == 0)) continue;
        auto k = count_keys(table, row.ref(), diff);
        if (k && !violated) violated = k;
      }
    }
    if (violated) {
      release_keys({writes.begin(), writes.begin() + static_cast<std::ptrdiff_t>(w) + 1});
      return Status::error(sqlstate::kUniqueViolation, "duplicate key value violates unique constraint \"" +
                                                           table.unique_keys[*violated].name + "\"");
    }
  }
  return Status::ok();
}

void Coordinator::release_keys(const std::vector<TableWrite>& writes) {
  for (const auto& w : writes) {
    auto it = tables_.find(w.table);
    if (it == tables_.end() || it->second.unique_keys.empty()) continue;
    for (const auto& [row, diff] : w.updates) count_keys(it->second, row.ref(), -diff);
  }
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
  t.unique_keys = std::move(unique_keys);
  t.key_counts.resize(t.unique_keys.size());
  std::vector<std::pair<std::string, Diff>> rows;
  if (exists) {
    // The history before the boot timestamp arrives consolidated at it.
    TANDEM_ASSIGN_OR_RETURN(rows, shards_->snapshot(shard, upper_ - 1));
    for (auto& [row, diff] : rows) count_keys(t, RowRef(row), diff);
  }
  for (auto& [cluster, runtime] : runtimes_) {
    auto input = runtime->create_input(table);
    for (auto& [row, diff] : rows) input->send(Row(row), upper_ - 1, diff);
    input->advance_to(upper_);
    t.inputs.emplace(cluster, std::move(input));
  }
  tables_.emplace(table, std::move(t));
  frontiers_.add_table(table, upper_ - 1);
  fed_upper_ = std::max(fed_upper_, upper_);
  frontiers_.set_table_upper(upper_);
  return Status::ok();
}

Status Coordinator::add_cluster(uint64_t cluster, size_t workers) {
  if (runtimes_.count(cluster) != 0) return Status::ok();
  auto runtime = std::make_unique<compute::Runtime>(compute::RuntimeOptions{std::max<size_t>(1, workers)});
  runtime->set_response_waker([this, cluster] { asio::post(io_, [this, cluster] { drain_compute_responses(cluster); }); });
  // Every table becomes a source of the new runtime, with its contents as
  // of the last write fed to the other runtimes; later writes reach it like
  // every runtime. (Not the oracle's read time: a write acknowledged at
  // commit may not be fed yet, and would arrive twice.)
  Timestamp as_of = fed_upper_ - 1;
  for (auto& [id, table] : tables_) {
    auto input = runtime->create_input(id);
    TANDEM_ASSIGN_OR_RETURN(auto rows, shards_->snapshot(table.shard, as_of));
    for (auto& [row, diff] : rows) input->send(Row(std::move(row)), as_of, diff);
    input->advance_to(as_of + 1);
    table.inputs.emplace(cluster, std::move(input));
  }
  add_view_inputs(cluster, *runtime);
  std::unique_lock lock(runtimes_mutex_);
  runtimes_.emplace(cluster, std::move(runtime));
  return Status::ok();
}

void Coordinator::drop_cluster(uint64_t cluster) {
  for (auto& [id, table] : tables_) table.inputs.erase(cluster);
  for (auto& [id, view] : mvs_) view.inputs.erase(cluster);
  std::unique_lock lock(runtimes_mutex_);
  runtimes_.erase(cluster);
}

Status Coordinator::send(uint64_t cluster, compute::ComputeCommand command) {
  auto it = runtimes_.find(cluster);
  if (it == runtimes_.end()) return Status::error(sqlstate::kUndefinedObject, "the cluster has no runtime");
  if (auto* create = std::get_if<compute::CreateDataflow>(&command)) {
    const compute::DataflowDescription& desc = create->desc;
    for (const auto& e : desc.index_exports) frontiers_.add_index(e.index_id, desc.as_of);
    track_hydration(cluster, desc);
  } else if (auto* drop = std::get_if<compute::DropDataflow>(&command)) {
    frontiers_.remove(drop->export_id);
    hydration_.dropped(drop->export_id);
  }
  it->second->send(std::move(command));
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
  status->frontiers = frontiers_.all();
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
  auto runtime = runtimes_.find(pending.cluster);
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
  if (runtime == runtimes_.end()) {
    compute::PeekResponse response;
    response.kind = compute::PeekResponse::Kind::kError;
    response.error = Status::error(sqlstate::kUndefinedObject, "the cluster has no runtime");
    done(std::move(response));
    return 0;
  }
  peek.uuid = next_peek_++;
  PendingPeek pending;
  pending.cluster = cluster;
  pending.done = std::move(done);
  if (dataflow) {
    pending.drop_after = peek.target;
    runtime->second->send(compute::CreateDataflow{std::move(*dataflow)});
  }
  compute::PeekId id = peek.uuid;
  peeks_.emplace(id, std::move(pending));
  runtime->second->send(std::move(peek));
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
  while (auto response = runtime->second->try_recv()) {
    if (auto* f = std::get_if<compute::FrontierUpper>(&*response)) {
      frontiers_.advance_index(f->id, f->upper);
      hydration_.advanced(f->id, f->upper);
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
}

Status Coordinator::drop_table(compute::GlobalId table) {
  auto it = tables_.find(table);
  if (it == tables_.end()) return Status::ok();
  storage::ShardId shard = it->second.shard;
  {
    std::lock_guard lock(write_mutex_);
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

void Coordinator::write(std::vector<TableWrite> writes, std::function<void(Result<Timestamp>)> done) {
  lock_and_sequence(writes, done, false);
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

std::optional<Result<Timestamp>> Coordinator::try_write_inline(std::vector<TableWrite>& writes) {
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
    storage::ShardId shard = tables_.find(w.table)->second.shard;
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
    if (ack_on_commit && s.is_ok()) {
      // Groups commit in timestamp order, so every write up to `time` is
      // durable: the read timestamp may cover it before compute has it.
      oracle_->apply_write(time);
      std::exchange(done, nullptr)(time);
    }
    asio::post(io_, [this, time, s, shared_writes, done = std::move(done)] {
      if (!s.is_ok()) {
        {
          std::lock_guard lock(write_mutex_);
          release_keys(*shared_writes);
        }
        done(s);
        return;
      }
      oracle_->apply_write(time);
      for (auto& w : *shared_writes) {
        auto it = tables_.find(w.table);
        if (it == tables_.end()) continue;  // dropped while the write committed
        // One chunk of updates, shared by every cluster's input (no copy
        // per cluster).
        auto updates = std::make_shared<std::vector<compute::Update>>();
        updates->reserve(w.updates.size());
        for (auto& [row, diff] : w.updates) updates->push_back(compute::Update{{}, std::move(row), time, diff});
        for (auto& [cluster, input] : it->second.inputs) input->send_shared(updates);
      }
      for (auto& [id, table] : tables_) {
        for (auto& [cluster, input] : table.inputs) input->advance_to(time + 1);
      }
      fed_upper_ = std::max(fed_upper_, time + 1);
      frontiers_.set_table_upper(time + 1);
      if (done) done(time);
    });
  };
  if (lead != nullptr) {
    lead->append(std::move(appends), std::move(committed));
  } else {
    shards_->append_async(std::move(appends), std::move(committed));
  }
  return Status::ok();
}

}  // namespace tandem::frontend
