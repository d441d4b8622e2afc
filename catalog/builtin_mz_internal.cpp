// Rows of the controller-level introspection relations (Materialize's
// names and columns, reference §3): one set for all replicas, keyed by
// replica_id, computed from the ControllerStatus taken when the read is
// planned (controller_status.hpp), joined with the catalog snapshot so that
// only objects that exist at the statement's catalog version appear.
//
//  mz_internal.mz_compute_hydration_statuses  indexes, materialized views
//  mz_internal.mz_hydration_statuses          and subscribes, per replica
//  mz_catalog.mz_cluster_replica_frontiers    their output frontier per replica
//  mz_internal.mz_frontiers                   tables, indexes, materialized
//                                             views: since / upper
//  mz_internal.mz_storage_shards              tables and materialized views:
//                                             their durable shard
//  mz_internal.mz_shard_storage               (tandem's) the same shards'
//                                             since and upper in storage,
//                                             stored batches (chunks a
//                                             reader visits) and bytes
//  mz_internal.mz_materialization_lag         indexes and materialized views
//  mz_internal.mz_cluster_replica_metrics     cpu and memory per replica
//  mz_internal.mz_cluster_replica_utilization the same over the limits
//  mz_internal.mz_interactive_admission       peek dataflows running and
//                                             waiting per cluster, waits
//  mz_internal.mz_arrangement_memory          the arrangement memory budget:
//                                             limit, resident and spilled
//                                             bytes
//  mz_internal.mz_arrangement_block_cache     the cache of spilled blocks
//                                             read back: size, hits, misses,
//                                             hit rate
//
// Metrics: every replica runs in this one process, so each replica's row
// reports the whole process (process_id 0): cpu time per second over the
// coordinator's last sample interval, resident memory, allocator heap;
// limits are the machine's cores and memory. disk_bytes/disk_percent are
// NULL: replicas have no scratch disk (mz_clusters.disk is false). The
// arrangement budget and its block cache are the process's too: one row
// (process_id 0), none when the process has no budget.
// Materialize's uint8 columns are bigint here.
#include <algorithm>
#include <map>
#include <set>

#include "catalog/builtin_relations.hpp"

namespace tandem::catalog::builtin_detail {
namespace {

using T = TypeId;

Datum str(const std::string& s) { return Datum::from_string(s); }

std::shared_ptr<const ControllerStatus> status_of(const BuiltinContext& context) {
  return context.controller ? context.controller() : nullptr;
}

std::string replica_id(uint64_t cluster) { return cluster_id_from_compute(cluster).to_string(); }

// The object's id as users see it, if the object exists at this snapshot
// (subscribes are transient and not catalog items).
std::optional<std::string> object_name(const CatalogSnapshot& s, uint64_t raw) {
  ItemId id = item_id_from_compute(raw);
  if (id.is_transient() || s.item(id) != nullptr) return id.to_string();
  return std::nullopt;
}

// The replicas that exist: one per cluster with a replica.
std::set<uint64_t> replicas(const CatalogSnapshot& s) {
  std::set<uint64_t> out;
  for (const Cluster* c : s.clusters()) {
    if (c->replication_factor == 0) continue;
    out.insert(cluster_to_compute(c->id));
  }
  return out;
}

Datum micros(int64_t us) { return Datum::from_interval(Interval{0, 0, us}); }

template <class F>
std::vector<Row> for_each_export(const CatalogSnapshot& s, const BuiltinContext& context, F row_of) {
  std::vector<Row> rows;
  auto status = status_of(context);
  if (!status) return rows;
  std::set<uint64_t> live = replicas(s);
  for (const ComputeObjectStatus& o : status->compute) {
    auto name = object_name(s, o.object_id);
    if (!name || live.count(o.cluster) == 0) continue;
    rows.push_back(row_of(*name, o));
  }
  return rows;
}

std::vector<Row> compute_hydration_statuses(const CatalogSnapshot& s, const BuiltinContext& context) {
  return for_each_export(s, context, [](const std::string& name, const ComputeObjectStatus& o) {
    return make_row({str(name), str(replica_id(o.cluster)), Datum::from_bool(o.hydrated),
                     o.hydration_time_us ? micros(*o.hydration_time_us) : Datum::null()});
  });
}

std::vector<Row> hydration_statuses(const CatalogSnapshot& s, const BuiltinContext& context) {
  return for_each_export(s, context, [](const std::string& name, const ComputeObjectStatus& o) {
    return make_row({str(name), str(replica_id(o.cluster)), Datum::from_bool(o.hydrated)});
  });
}

std::vector<Row> cluster_replica_frontiers(const CatalogSnapshot& s, const BuiltinContext& context) {
  return for_each_export(s, context, [](const std::string& name, const ComputeObjectStatus& o) {
    return make_row({str(name), str(replica_id(o.cluster)), Datum::from_mz_timestamp(o.write_frontier)});
  });
}

// Frontiers of the catalog's collections, by item id.
std::map<ItemId, CollectionFrontierStatus> collection_frontiers(const CatalogSnapshot& s, const ControllerStatus& status) {
  std::map<ItemId, CollectionFrontierStatus> out;
  for (const CollectionFrontierStatus& f : status.frontiers) {
    ItemId id = item_id_from_compute(f.object_id);
    if (s.item(id) != nullptr) out.emplace(id, f);
  }
  return out;
}

std::vector<Row> frontiers(const CatalogSnapshot& s, const BuiltinContext& context) {
  std::vector<Row> rows;
  auto status = status_of(context);
  if (!status) return rows;
  for (const auto& [id, f] : collection_frontiers(s, *status)) {
    rows.push_back(make_row({str(id.to_string()), Datum::from_mz_timestamp(f.since), Datum::from_mz_timestamp(f.upper)}));
  }
  return rows;
}

// Each live table's and materialized view's shard, through `row_of`.
template <class F>
std::vector<Row> for_each_shard(const CatalogSnapshot& s, const BuiltinContext& context, F row_of) {
  std::vector<Row> rows;
  auto status = status_of(context);
  if (!status) return rows;
  for (const ShardStatus& shard : status->shards) {
    ItemId id = item_id_from_compute(shard.object_id);
    if (s.item(id) != nullptr) rows.push_back(row_of(id.to_string(), shard));
  }
  return rows;
}

std::vector<Row> storage_shards(const CatalogSnapshot& s, const BuiltinContext& context) {
  return for_each_shard(s, context, [](const std::string& id, const ShardStatus& shard) {
    return make_row({str(id), str(std::to_string(shard.shard_id))});
  });
}

std::vector<Row> shard_storage(const CatalogSnapshot& s, const BuiltinContext& context) {
  return for_each_shard(s, context, [](const std::string& id, const ShardStatus& shard) {
    return make_row({str(id), str(std::to_string(shard.shard_id)), Datum::from_mz_timestamp(shard.since),
                     Datum::from_mz_timestamp(shard.upper), Datum::from_int64(static_cast<int64_t>(shard.stored_batches)),
                     Datum::from_int64(static_cast<int64_t>(shard.stored_bytes))});
  });
}

// What a dataflow computing `item` imports: its dependencies, with
// (non-materialized) views replaced by what they read, since a view is
// inlined into the dataflows that use it.
void collect_inputs(const CatalogSnapshot& s, const Item& item, std::set<ItemId>& out) {
  for (ItemId dep : item.dependencies) {
    const Item* input = s.item(dep);
    if (input == nullptr) continue;
    if (input->kind == ItemKind::kView) collect_inputs(s, *input, out);
    else out.insert(dep);
  }
}

// The collections at the roots of `item`'s inputs: tables (and builtin
// relations), reached through views, indexes and materialized views.
void collect_roots(const CatalogSnapshot& s, const Item& item, std::set<ItemId>& out) {
  std::set<ItemId> inputs;
  collect_inputs(s, item, inputs);
  for (ItemId id : inputs) {
    const Item* input = s.item(id);
    if (input->dependencies.empty()) out.insert(id);
    else collect_roots(s, *input, out);
  }
}

// The input whose upper is furthest ahead of `upper`, and by how much
// (never negative); inputs without a known frontier (builtin relations:
// constants) are skipped.
struct Slowest {
  std::optional<ItemId> input;
  Timestamp lag = 0;
};
Slowest slowest(const std::set<ItemId>& inputs, Timestamp upper, const std::map<ItemId, CollectionFrontierStatus>& known) {
  Slowest out;
  for (ItemId id : inputs) {
    auto f = known.find(id);
    if (f == known.end()) continue;
    Timestamp lag = f->second.upper > upper ? f->second.upper - upper : 0;
    if (!out.input || lag > out.lag) out = Slowest{id, lag};
  }
  return out;
}

std::vector<Row> materialization_lag(const CatalogSnapshot& s, const BuiltinContext& context) {
  std::vector<Row> rows;
  auto status = status_of(context);
  if (!status) return rows;
  auto known = collection_frontiers(s, *status);
  for (const auto& [id, f] : known) {
    const Item* item = s.item(id);
    if (item->kind != ItemKind::kIndex && item->kind != ItemKind::kMaterializedView) continue;
    std::set<ItemId> local;
    std::set<ItemId> global;
    collect_inputs(s, *item, local);
    collect_roots(s, *item, global);
    Slowest l = slowest(local, f.upper, known);
    Slowest g = slowest(global, f.upper, known);
    std::string local_input = l.input ? l.input->to_string() : "";
    std::string global_input = g.input ? g.input->to_string() : "";
    auto lag = [](const Slowest& x) { return x.input ? micros(static_cast<int64_t>(x.lag) * 1000) : Datum::null(); };
    rows.push_back(make_row({str(id.to_string()), lag(l), lag(g), l.input ? str(local_input) : Datum::null(),
                             g.input ? str(global_input) : Datum::null()}));
  }
  return rows;
}

double percent(int64_t part, int64_t whole) {
  return whole <= 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

template <class F>
std::vector<Row> per_replica(const CatalogSnapshot& s, const BuiltinContext& context, F row_of) {
  std::vector<Row> rows;
  auto status = status_of(context);
  if (!status) return rows;
  for (uint64_t replica : replicas(s)) rows.push_back(row_of(str(replica_id(replica)), status->process));
  return rows;
}

std::vector<Row> replica_metrics(const CatalogSnapshot& s, const BuiltinContext& context) {
  return per_replica(s, context, [](Datum replica, const ProcessStatus& p) {
    return make_row({replica, Datum::from_int64(0), Datum::from_int64(p.cpu_nano_cores),
                     Datum::from_int64(p.memory_bytes), Datum::null()});
  });
}

std::vector<Row> replica_utilization(const CatalogSnapshot& s, const BuiltinContext& context) {
  return per_replica(s, context, [](Datum replica, const ProcessStatus& p) {
    return make_row({replica, Datum::from_int64(0), Datum::from_float64(percent(p.cpu_nano_cores, p.cpu_limit_nano_cores)),
                     Datum::from_float64(percent(p.memory_bytes, p.memory_limit_bytes)), Datum::null(),
                     Datum::from_float64(percent(p.heap_bytes, p.memory_limit_bytes))});
  });
}

// One row per cluster with a replica (zeros before its first peek dataflow).
std::vector<Row> interactive_admission(const CatalogSnapshot& s, const BuiltinContext& context) {
  std::vector<Row> rows;
  auto status = status_of(context);
  if (!status) return rows;
  std::map<uint64_t, InteractiveAdmissionStatus> by_cluster;
  for (const InteractiveAdmissionStatus& a : status->admission) by_cluster[a.cluster] = a;
  auto i64 = [](uint64_t v) { return Datum::from_int64(static_cast<int64_t>(v)); };
  for (uint64_t cluster : replicas(s)) {
    InteractiveAdmissionStatus a = by_cluster.count(cluster) ? by_cluster[cluster] : InteractiveAdmissionStatus{};
    rows.push_back(make_row({str(replica_id(cluster)), i64(a.limit), i64(a.active), i64(a.queued),
                             i64(a.admitted_total), i64(a.waited_total), i64(a.canceled_total),
                             micros(static_cast<int64_t>(a.wait_ns_total / 1000)),
                             micros(static_cast<int64_t>(a.wait_ns_max / 1000))}));
  }
  return rows;
}

// One row for the process's budget, through `row_of`.
template <class F>
std::vector<Row> for_arrangement_memory(const BuiltinContext& context, F row_of) {
  std::vector<Row> rows;
  auto status = status_of(context);
  if (status && status->process.arrangement_memory) rows.push_back(row_of(*status->process.arrangement_memory));
  return rows;
}

std::vector<Row> arrangement_memory(const CatalogSnapshot&, const BuiltinContext& context) {
  return for_arrangement_memory(context, [](const ArrangementMemoryStatus& m) {
    return make_row({Datum::from_int64(0), m.limit_bytes > 0 ? Datum::from_int64(m.limit_bytes) : Datum::null(),
                     Datum::from_int64(m.resident_bytes), Datum::from_int64(m.spilled_bytes),
                     Datum::from_int64(m.spills_total)});
  });
}

std::vector<Row> arrangement_block_cache(const CatalogSnapshot&, const BuiltinContext& context) {
  return for_arrangement_memory(context, [](const ArrangementMemoryStatus& m) {
    const int64_t lookups = m.cache_hits + m.cache_misses;
    return make_row({Datum::from_int64(0), Datum::from_int64(m.cache_capacity_bytes), Datum::from_int64(m.cache_bytes),
                     Datum::from_int64(m.cache_hits), Datum::from_int64(m.cache_misses),
                     lookups == 0 ? Datum::null() : Datum::from_float64(static_cast<double>(m.cache_hits) / lookups)});
  });
}

}  // namespace

void add_mz_internal_relations(std::vector<BuiltinRelation>& out) {
  const char* mi = kMzInternalSchema;
  out.push_back({mi, "mz_compute_hydration_statuses",
                 {{"object_id", T::kText, false}, {"replica_id", T::kText, false}, {"hydrated", T::kBool, false},
                  {"hydration_time", T::kInterval, true}}, compute_hydration_statuses});
  out.push_back({mi, "mz_hydration_statuses",
                 {{"object_id", T::kText, false}, {"replica_id", T::kText, true}, {"hydrated", T::kBool, true}},
                 hydration_statuses});
  out.push_back({mi, "mz_frontiers",
                 {{"object_id", T::kText, false}, {"read_frontier", T::kMzTimestamp, true},
                  {"write_frontier", T::kMzTimestamp, true}}, frontiers});
  out.push_back({mi, "mz_storage_shards", {{"object_id", T::kText, false}, {"shard_id", T::kText, false}},
                 storage_shards});
  out.push_back({mi, "mz_shard_storage",
                 {{"object_id", T::kText, false}, {"shard_id", T::kText, false},
                  {"read_frontier", T::kMzTimestamp, false}, {"write_frontier", T::kMzTimestamp, false},
                  {"stored_batches", T::kInt8, false}, {"stored_bytes", T::kInt8, false}},
                 shard_storage});
  out.push_back({kMzCatalogSchema, "mz_cluster_replica_frontiers",
                 {{"object_id", T::kText, false}, {"replica_id", T::kText, false},
                  {"write_frontier", T::kMzTimestamp, true}}, cluster_replica_frontiers});
  out.push_back({mi, "mz_materialization_lag",
                 {{"object_id", T::kText, false}, {"local_lag", T::kInterval, true}, {"global_lag", T::kInterval, true},
                  {"slowest_local_input_id", T::kText, true}, {"slowest_global_input_id", T::kText, true}},
                 materialization_lag});
  out.push_back({mi, "mz_cluster_replica_utilization",
                 {{"replica_id", T::kText, false}, {"process_id", T::kInt8, false}, {"cpu_percent", T::kFloat8, true},
                  {"memory_percent", T::kFloat8, true}, {"disk_percent", T::kFloat8, true},
                  {"heap_percent", T::kFloat8, true}}, replica_utilization});
  out.push_back({mi, "mz_interactive_admission",
                 {{"cluster_id", T::kText, false}, {"max_concurrent", T::kInt8, false}, {"active", T::kInt8, false},
                  {"queued", T::kInt8, false}, {"admitted_total", T::kInt8, false},
                  {"waited_total", T::kInt8, false}, {"canceled_total", T::kInt8, false},
                  {"wait_time_total", T::kInterval, false}, {"wait_time_max", T::kInterval, false}},
                 interactive_admission});
  out.push_back({mi, "mz_cluster_replica_metrics",
                 {{"replica_id", T::kText, false}, {"process_id", T::kInt8, false},
                  {"cpu_nano_cores", T::kInt8, true}, {"memory_bytes", T::kInt8, true},
                  {"disk_bytes", T::kInt8, true}}, replica_metrics});
  out.push_back({mi, "mz_arrangement_memory",
                 {{"process_id", T::kInt8, false}, {"limit_bytes", T::kInt8, true},
                  {"resident_bytes", T::kInt8, false}, {"spilled_bytes", T::kInt8, false},
                  {"spills_total", T::kInt8, false}}, arrangement_memory});
  out.push_back({mi, "mz_arrangement_block_cache",
                 {{"process_id", T::kInt8, false}, {"capacity_bytes", T::kInt8, false},
                  {"cached_bytes", T::kInt8, false}, {"hits", T::kInt8, false}, {"misses", T::kInt8, false},
                  {"hit_rate", T::kFloat8, true}}, arrangement_block_cache});
}

}  // namespace tandem::catalog::builtin_detail
