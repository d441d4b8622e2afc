// Subscribes in the coordinator: the controller side of a subscribe sink
// (coordinator.hpp). A subscribe's dataflow runs on its cluster's
// maintenance runtime and sinks its output as SinkBatch responses, which
// the coordinator hands, in order, to the subscribe's consumer (the
// adapter's SubscribeSink, which turns them into rows for the client). The
// coordinator keeps no rows: what it delivers is the consumer's to bound.
#include <spdlog/spdlog.h>

#include "frontend/coord/coordinator.hpp"

namespace tandem::frontend {

Status Coordinator::create_subscribe(compute::GlobalId sink_id, uint64_t cluster,
                                     compute::DataflowDescription dataflow,
                                     std::function<bool(compute::SinkBatch)> deliver) {
  if (runtimes_.count(cluster) == 0) return Status::error(sqlstate::kUndefinedObject, "the cluster has no runtime");
  if (dataflow.sink_exports.size() != 1 || dataflow.sink_exports.front().sink_id != sink_id) {
    return Status::error(sqlstate::kInternalError, "a subscribe's dataflow must sink into the subscribe");
  }
  Subscription subscription;
  subscription.cluster = cluster;
  subscription.export_id = dataflow.sink_exports.front().index_id;
  subscription.deliver = std::move(deliver);
  subscribes_.emplace(sink_id, std::move(subscription));
  spdlog::debug("subscribe {} installed on cluster {} as of {}", sink_id, cluster, dataflow.as_of);
  return send(cluster, compute::CreateDataflow{std::move(dataflow)});
}

void Coordinator::drop_subscribe(compute::GlobalId sink_id) {
  auto it = subscribes_.find(sink_id);
  if (it == subscribes_.end()) return;
  Subscription subscription = std::move(it->second);
  subscribes_.erase(it);
  if (runtimes_.count(subscription.cluster) != 0) {
    (void)send(subscription.cluster, compute::DropDataflow{subscription.export_id});
  }
  spdlog::info("subscribe {} ended: dataflow dropped", sink_id);
}

bool Coordinator::on_subscribe_batch(compute::SinkBatch& batch) {
  auto it = subscribes_.find(batch.sink_id);
  if (it == subscribes_.end()) return false;
  const compute::GlobalId id = batch.sink_id;
  if (!it->second.deliver(std::move(batch))) drop_subscribe(id);
  return true;
}

}  // namespace tandem::frontend
