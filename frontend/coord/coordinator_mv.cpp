// Materialized views in the coordinator: the persist sink's controller side
// (coordinator.hpp). A view's dataflow sinks its output as SinkBatch
// responses; each is appended to the view's shard and, once durable, fed to
// the view's compute input in every runtime, so any cluster reads the view
// as a source. At most one append per view is in flight; batches arriving
// meanwhile merge into the next.
//
// Shard format: data rows as they are; errors as "\0" + the error row (no
// packed row starts with a zero byte), so errors survive restarts and are
// read back into the view's error collection.
#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "frontend/coord/coordinator.hpp"

namespace tandem::frontend {
namespace asio = boost::asio;
namespace {

constexpr char kErrorMark = '\0';

bool is_error(std::string_view stored) { return !stored.empty() && stored.front() == kErrorMark; }

// Feeds stored updates (shard format) to a compute input.
void feed(compute::InputHandle& input, const std::vector<storage::Update>& updates) {
  std::vector<compute::Update> oks;
  std::vector<compute::Update> errs;
  for (const storage::Update& u : updates) {
    if (is_error(u.row)) {
      errs.push_back(compute::Update{{}, Row(u.row.substr(1)), u.time, u.diff});
    } else {
      oks.push_back(compute::Update{{}, Row(u.row), u.time, u.diff});
    }
  }
  if (!oks.empty()) input.send_batch(std::move(oks));
  if (!errs.empty()) input.send_errors(std::move(errs));
}

}  // namespace

Status Coordinator::create_materialized_view(compute::GlobalId mv, storage::ShardId shard, uint64_t cluster,
                                             compute::DataflowDescription dataflow) {
  if (mvs_.count(mv) != 0) return Status::error(sqlstate::kDuplicateObject, "materialized view already exists");
  if (runtimes_.count(cluster) == 0) return Status::error(sqlstate::kUndefinedObject, "the cluster has no runtime");
  if (dataflow.sink_exports.size() != 1 || dataflow.sink_exports.front().sink_id != mv) {
    return Status::error(sqlstate::kInternalError, "a materialized view's dataflow must sink into the view");
  }
  // Imported indexes may have compacted past the planned as_of.
  dataflow.as_of = readable_as_of(dataflow);
  MaterializedView view;
  view.shard = shard;
  view.cluster = cluster;
  view.export_id = dataflow.sink_exports.front().index_id;
  auto shards = shards_->list_shards();
  std::vector<storage::Update> contents;
  if (std::find(shards.begin(), shards.end(), shard) == shards.end()) {
    TANDEM_RETURN_IF_ERROR(shards_->create_shard(shard, dataflow.as_of));
    view.upper = dataflow.as_of;
  } else {
    TANDEM_ASSIGN_OR_RETURN(view.upper, shards_->upper(shard));
    TANDEM_ASSIGN_OR_RETURN(Timestamp since, shards_->since(shard));
    if (view.upper > since) {
      TANDEM_ASSIGN_OR_RETURN(view.correction, shards_->snapshot(shard, view.upper - 1));
    }
    for (const auto& [row, diff] : view.correction) contents.push_back(storage::Update{row, view.upper - 1, diff});
    dataflow.as_of = std::max(dataflow.as_of, view.upper);
    view.correction_time = dataflow.as_of;
  }
  for (auto& [key, runtime] : runtimes_) {
    auto input = runtime->create_input(mv);
    feed(*input, contents);
    input->advance_to(view.upper);
    view.inputs.emplace(key, std::move(input));
  }
  frontiers_.add_index(mv, view.upper > 0 && !contents.empty() ? view.upper - 1 : view.upper);
  frontiers_.advance_index(mv, view.upper);
  frontiers_.set_shard(mv, shard);
  mvs_.emplace(mv, std::move(view));
  return send(cluster, compute::CreateDataflow{std::move(dataflow)});
}

Status Coordinator::drop_materialized_view(compute::GlobalId mv) {
  auto it = mvs_.find(mv);
  if (it == mvs_.end()) return Status::ok();
  MaterializedView view = std::move(it->second);
  mvs_.erase(it);
  frontiers_.remove(mv);
  if (runtimes_.count(view.cluster) != 0) (void)send(view.cluster, compute::DropDataflow{view.export_id});
  return shards_->drop_shard(view.shard);
}

void Coordinator::add_view_inputs(uint64_t cluster, compute::Multiplexer& runtime) {
  for (auto& [id, view] : mvs_) {
    auto input = runtime.create_input(id);
    // What the other runtimes have been fed: the shard up to its upper
    // (appends in flight are fed to every input when they complete).
    auto since = shards_->since(view.shard);
    if (view.upper > 0 && since.ok() && *since < view.upper) {
      auto rows = shards_->snapshot(view.shard, view.upper - 1);
      if (rows.ok()) {
        std::vector<storage::Update> contents;
        for (auto& [row, diff] : *rows) contents.push_back(storage::Update{std::move(row), view.upper - 1, diff});
        feed(*input, contents);
      } else {
        spdlog::error("materialized view {}: cannot read its shard for cluster {}: {}", id, cluster,
                      rows.status().to_string());
      }
    }
    input->advance_to(view.upper);
    view.inputs.emplace(cluster, std::move(input));
  }
}

void Coordinator::on_sink_batch(compute::SinkBatch batch) {
  if (on_subscribe_batch(batch)) return;
  auto it = mvs_.find(batch.sink_id);
  if (it == mvs_.end()) return;  // dropped; the dataflow's last reports
  MaterializedView& view = it->second;
  if (!view.pending) {
    view.pending = std::move(batch);
  } else {
    auto& p = *view.pending;
    p.upper = std::max(p.upper, batch.upper);
    for (auto& u : batch.oks) p.oks.push_back(std::move(u));
    for (auto& u : batch.errs) p.errs.push_back(std::move(u));
  }
  if (!view.appending) append_sink(batch.sink_id);
}

void Coordinator::append_sink(compute::GlobalId mv) {
  auto it = mvs_.find(mv);
  if (it == mvs_.end() || !it->second.pending) return;
  MaterializedView& view = it->second;
  const Timestamp new_upper = std::max(view.upper, view.pending->upper);
  if (new_upper == view.upper && view.pending->oks.empty() && view.pending->errs.empty()) {
    view.pending.reset();
    return;
  }
  compute::SinkBatch batch = std::move(*view.pending);
  view.pending.reset();
  auto updates = std::make_shared<std::vector<storage::Update>>();
  updates->reserve(batch.oks.size() + batch.errs.size());
  // Sinked times are at or after the dataflow's as_of, which is at or after
  // the shard's upper when it was installed.
  for (auto& u : batch.oks) updates->push_back(storage::Update{std::string(u.row.bytes()), std::max(u.time, view.upper), u.diff});
  for (auto& u : batch.errs) {
    std::string stored(1, kErrorMark);
    stored += u.row.bytes();
    updates->push_back(storage::Update{std::move(stored), std::max(u.time, view.upper), u.diff});
  }
  if (!view.correction.empty() && new_upper > view.correction_time) {
    for (auto& [row, diff] : view.correction) updates->push_back(storage::Update{std::move(row), view.correction_time, -diff});
    view.correction.clear();
  }
  std::vector<storage::ShardAppend> appends;
  appends.push_back(storage::ShardAppend{view.shard, *updates, view.upper, new_upper});
  view.appending = true;
  shards_->append_async(std::move(appends), [this, mv, new_upper, updates](Status s) {
    asio::post(io_, [this, mv, new_upper, updates, s] {
      auto it = mvs_.find(mv);
      if (it == mvs_.end()) return;  // dropped while appending
      MaterializedView& view = it->second;
      view.appending = false;
      if (!s.is_ok()) {
        // The view stops advancing: reads of it wait (and time out) rather
        // than see a view that lost updates.
        spdlog::error("materialized view {}: cannot append to its shard: {}", mv, s.to_string());
        return;
      }
      view.upper = new_upper;
      for (auto& [cluster, input] : view.inputs) {
        feed(*input, *updates);
        input->advance_to(new_upper);
      }
      frontiers_.advance_index(mv, new_upper);
      // Nothing reads the sinked arrangement but the sink: let it compact.
      (void)send(view.cluster, compute::AllowCompaction{view.export_id, new_upper});
      if (view.pending) append_sink(mv);
    });
  });
}

}  // namespace tandem::frontend
