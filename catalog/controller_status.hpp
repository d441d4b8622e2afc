#pragma once
// ControllerStatus: what the compute controller (the coordinator) knows at
// one instant about the collections it maintains, as plain data, for the
// controller-level introspection relations of mz_internal
// (builtin_mz_internal.cpp): hydration, frontiers, durable shards, the
// process's cpu and memory, and its arrangement memory budget.
//
// Ids are compute's bare GlobalIds (catalog::to_compute_id) and clusters
// are packed the same way (cluster_id_from_compute): the coordinator knows
// only those, and catalog must not include compute or the frontend.
// Every cluster has exactly one replica, whose id is the cluster's id
// (mz_cluster_replicas), so a cluster id names the replica too.
//
// Threading: plain values; a status is taken once per statement and read
// by any thread.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "catalog/global_id.hpp"
#include "common/timestamp.hpp"

namespace tandem::catalog {

// One dataflow export on one replica: an index, a materialized view or a
// subscribe.
struct ComputeObjectStatus {
  uint64_t object_id = 0;  // compute GlobalId of the index, view or subscribe
  uint64_t cluster = 0;    // packed ClusterId = the replica
  Timestamp as_of = kMinTimestamp;
  // The export's output frontier on the replica: an index's upper (least
  // over workers), a sink's last reported upper.
  Timestamp write_frontier = kMinTimestamp;
  // Hydrated once the write frontier passed the as_of on every worker;
  // the time that took, from the dataflow's creation, in microseconds.
  bool hydrated = false;
  std::optional<int64_t> hydration_time_us;
};

// A readable collection's frontiers as the coordinator tracks them for
// timestamp selection: tables, indexes and materialized views.
struct CollectionFrontierStatus {
  uint64_t object_id = 0;
  Timestamp since = kMinTimestamp;  // read frontier
  Timestamp upper = kMinTimestamp;  // write frontier
};

// A table's or materialized view's durable shard as storage keeps it
// (mz_internal.mz_storage_shards, mz_internal.mz_shard_storage): its
// frontiers there and the chunks (stored batches) a reader visits.
struct ShardStatus {
  uint64_t object_id = 0;  // compute GlobalId of the table or view
  uint64_t shard_id = 0;
  Timestamp since = kMinTimestamp;
  Timestamp upper = kMinTimestamp;
  uint64_t stored_batches = 0;
  uint64_t stored_bytes = 0;
};

// The process's arrangement memory budget (compute's MemoryBudget:
// one for every cluster), and its block cache of spilled blocks read back.
struct ArrangementMemoryStatus {
  int64_t limit_bytes = 0;      // 0: unlimited
  int64_t resident_bytes = 0;   // admitted batch columns held in memory
  int64_t spilled_bytes = 0;    // written to the spill and not yet deleted
  int64_t spills_total = 0;     // batches spilled since boot
  int64_t cache_capacity_bytes = 0;
  int64_t cache_bytes = 0;
  int64_t cache_hits = 0;
  int64_t cache_misses = 0;
};

// The whole process (every replica runs in it): cpu over the last sample
// interval and memory now.
struct ProcessStatus {
  int64_t cpu_nano_cores = 0;       // cpu time used per second, in ns/s
  int64_t cpu_limit_nano_cores = 0;  // cores available * 1e9
  int64_t memory_bytes = 0;         // resident set size
  int64_t heap_bytes = 0;           // allocator bytes in use
  int64_t memory_limit_bytes = 0;   // the machine's memory
  // Absent when no budget is installed (a process that never spills).
  std::optional<ArrangementMemoryStatus> arrangement_memory;
};

// Admission control of one cluster's interactive runtime:
// peek dataflows running and waiting now, and totals since boot.
struct InteractiveAdmissionStatus {
  uint64_t cluster = 0;  // packed ClusterId = the replica
  uint64_t limit = 0;    // max_concurrent_interactive_dataflows last applied
  uint64_t active = 0;
  uint64_t queued = 0;
  uint64_t admitted_total = 0;
  uint64_t waited_total = 0;    // of those, admitted after waiting in the queue
  uint64_t canceled_total = 0;  // left the queue canceled
  uint64_t wait_ns_total = 0;
  uint64_t wait_ns_max = 0;
};

struct ControllerStatus {
  std::vector<ComputeObjectStatus> compute;
  std::vector<InteractiveAdmissionStatus> admission;
  std::vector<CollectionFrontierStatus> frontiers;
  std::vector<ShardStatus> shards;
  ProcessStatus process;
};

// Takes a status now. Set by whoever plans a read (the adapter); relations
// that need it produce no rows without it (only planning that never reads
// rows, such as describing a statement, goes without).
using ControllerStatusSource = std::function<std::shared_ptr<const ControllerStatus>()>;

inline uint64_t cluster_to_compute(ClusterId id) { return to_compute_id(ItemId{id.kind, id.value}); }
inline ClusterId cluster_id_from_compute(uint64_t raw) {
  ItemId as_item = item_id_from_compute(raw);
  return ClusterId{as_item.kind, as_item.value};
}

}  // namespace tandem::catalog
