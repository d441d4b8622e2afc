#pragma once
// GET /metrics: what the server tracks, in the Prometheus text exposition
// format (version 0.0.4). Only numbers the server keeps anyway:
//   connections and sessions         ServerMetrics gauges, ConnectionCounter
//   statements by kind and outcome   ServerMetrics (server/statement_runner)
//   HTTP requests                    ServerMetrics, by endpoint and status class
//   read latency histograms          compute's PeekLog, by cluster, runtime and path
//   process cpu and memory           Coordinator::controller_status()
//   arrangement memory and spill     the memory budget (ProcessStatus)
//   hydration of dataflow exports    the coordinator's hydration tracker
//   peek dataflow admission          InteractiveAdmission, per cluster
//   durable shards                   storage's stored batches and bytes
//
// Threading: any thread (every source is thread-safe).

#include <string>

#include "frontend/server/server_context.hpp"

namespace tandem::frontend::http {

std::string render_metrics(ServerContext& context);

}  // namespace tandem::frontend::http
