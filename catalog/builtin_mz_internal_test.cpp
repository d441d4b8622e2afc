// Controller-level relations: rows follow the ControllerStatus handed in,
// restricted to objects and replicas of the snapshot; lag follows inputs
// through views; metrics report the process per replica.
#include "catalog/builtin_relations.hpp"
#include "catalog/catalog_test_support.hpp"

namespace tandem::catalog {
namespace {

using testing::CatalogFixture;

struct Rows {
  std::vector<std::vector<std::string>> rows;
  size_t size() const { return rows.size(); }
  const std::vector<std::string>& operator[](size_t i) const { return rows[i]; }
};

std::string text_of(const Datum& d) {
  if (d.is_null()) return "NULL";
  switch (d.kind()) {
    case DatumKind::kString: return std::string(d.as_string());
    case DatumKind::kBool: return d.as_bool() ? "t" : "f";
    case DatumKind::kInterval: return std::to_string(d.as_interval().micros) + "us";
    case DatumKind::kFloat64: return std::to_string(d.as_float64());
    default: return std::to_string(d.as_integer());
  }
}

Rows rows_of(Catalog& catalog, const char* schema, const char* name, std::shared_ptr<const ControllerStatus> status) {
  auto s = catalog.snapshot();
  const Item* item = s->find_item(QualifiedName{"", schema, name});
  REQUIRE(item != nullptr);
  BuiltinContext context{{}, "materialize", [status] { return status; }};
  Rows out;
  for (const Row& row : builtin_rows(*s, *item, context)) {
    RowArena arena;
    std::vector<std::string> values;
    for (const Datum& d : unpack(row, &arena)) values.push_back(text_of(d));
    REQUIRE(values.size() == item->desc.arity());
    out.rows.push_back(std::move(values));
  }
  std::sort(out.rows.begin(), out.rows.end());
  return out;
}

struct Objects {
  ItemId table, view, mv, index;
  ClusterId cluster;
};

// t <- v (view) <- m (materialized view) <- i (index on m).
Objects make_objects(CatalogFixture& f) {
  Objects o;
  o.cluster = f.catalog().snapshot()->find_cluster(kDefaultClusterName)->id;
  o.table = *f.catalog().create_item(testing::table_spec("t", 1)).value().created_item;
  o.view = *f.catalog().create_item(testing::view_spec("v", {o.table})).value().created_item;
  o.mv = *f.catalog().create_item(testing::mv_spec("m", {o.view}, o.cluster, 2)).value().created_item;
  ItemSpec index = testing::index_spec("i", o.mv, o.cluster);
  index.dependencies = {o.mv};
  o.index = *f.catalog().create_item(index).value().created_item;
  return o;
}

std::shared_ptr<ControllerStatus> status_for(const Objects& o) {
  auto status = std::make_shared<ControllerStatus>();
  uint64_t replica = cluster_to_compute(o.cluster);
  status->compute.push_back({to_compute_id(o.index), replica, 50, 80, true, 1500});
  status->compute.push_back({to_compute_id(o.mv), replica, 50, 50, false, std::nullopt});
  status->compute.push_back({to_compute_id(ItemId::transient(5)), replica, 60, 61, true, 10});  // a subscribe
  status->compute.push_back({to_compute_id(ItemId::user(999)), replica, 1, 2, true, 1});  // dropped meanwhile
  status->compute.push_back({to_compute_id(o.index), cluster_to_compute(ClusterId::user(77)), 1, 2, true, 1});
  status->frontiers.push_back({to_compute_id(o.table), 10, 100});
  status->frontiers.push_back({to_compute_id(o.mv), 50, 90});
  status->frontiers.push_back({to_compute_id(o.index), 50, 80});
  status->frontiers.push_back({to_compute_id(ItemId::transient(4)), 60, 61});  // a subscribe's export
  status->process = ProcessStatus{500'000'000, 2'000'000'000, 1 << 20, 1 << 19, 1 << 22, std::nullopt};
  return status;
}

TEST_CASE("hydration statuses list live exports per replica") {
  CatalogFixture f;
  REQUIRE(register_builtin_relations(f.catalog()).is_ok());
  Objects o = make_objects(f);
  auto status = status_for(o);
  std::string replica = o.cluster.to_string();

  Rows compute = rows_of(f.catalog(), kMzInternalSchema, "mz_compute_hydration_statuses", status);
  REQUIRE(compute.size() == 3);  // not the dropped object, not the unknown replica
  CHECK(compute[0] == std::vector<std::string>{"t5", replica, "t", "10us"});
  CHECK(compute[1] == std::vector<std::string>{o.mv.to_string(), replica, "f", "NULL"});
  CHECK(compute[2] == std::vector<std::string>{o.index.to_string(), replica, "t", "1500us"});

  Rows hydration = rows_of(f.catalog(), kMzInternalSchema, "mz_hydration_statuses", status);
  REQUIRE(hydration.size() == 3);
  CHECK(hydration[1] == std::vector<std::string>{o.mv.to_string(), replica, "f"});

  Rows replica_frontiers = rows_of(f.catalog(), kMzCatalogSchema, "mz_cluster_replica_frontiers", status);
  REQUIRE(replica_frontiers.size() == 3);
  CHECK(replica_frontiers[2] == std::vector<std::string>{o.index.to_string(), replica, "80"});

  // Without a controller the relations are empty, not made up.
  auto s = f.catalog().snapshot();
  const Item* item = s->find_item(QualifiedName{"", kMzInternalSchema, "mz_hydration_statuses"});
  CHECK(builtin_rows(*s, *item, BuiltinContext{}).empty());
}

TEST_CASE("mz_frontiers lists the catalog's collections") {
  CatalogFixture f;
  REQUIRE(register_builtin_relations(f.catalog()).is_ok());
  Objects o = make_objects(f);
  Rows rows = rows_of(f.catalog(), kMzInternalSchema, "mz_frontiers", status_for(o));
  REQUIRE(rows.size() == 3);
  CHECK(rows[0] == std::vector<std::string>{o.table.to_string(), "10", "100"});
  CHECK(rows[1] == std::vector<std::string>{o.mv.to_string(), "50", "90"});
  CHECK(rows[2] == std::vector<std::string>{o.index.to_string(), "50", "80"});
}

TEST_CASE("mz_storage_shards and mz_shard_storage list live tables' and views' shards") {
  CatalogFixture f;
  REQUIRE(register_builtin_relations(f.catalog()).is_ok());
  Objects o = make_objects(f);
  auto status = status_for(o);
  status->shards.push_back({to_compute_id(o.table), 7001, 10, 100, 3, 4096});
  status->shards.push_back({to_compute_id(o.mv), 7002, 89, 90, 1, 12});
  status->shards.push_back({to_compute_id(ItemId::user(999)), 7003, 1, 2, 1, 1});  // dropped meanwhile
  Rows shards = rows_of(f.catalog(), kMzInternalSchema, "mz_storage_shards", status);
  REQUIRE(shards.size() == 2);
  CHECK(shards[0] == std::vector<std::string>{o.table.to_string(), "7001"});
  CHECK(shards[1] == std::vector<std::string>{o.mv.to_string(), "7002"});
  Rows storage = rows_of(f.catalog(), kMzInternalSchema, "mz_shard_storage", status);
  REQUIRE(storage.size() == 2);
  CHECK(storage[0] == std::vector<std::string>{o.table.to_string(), "7001", "10", "100", "3", "4096"});
  CHECK(storage[1] == std::vector<std::string>{o.mv.to_string(), "7002", "89", "90", "1", "12"});
  // Without a controller the relations are empty.
  CHECK(rows_of(f.catalog(), kMzInternalSchema, "mz_shard_storage", nullptr).size() == 0);
}

TEST_CASE("materialization lag follows inputs through views to the roots") {
  CatalogFixture f;
  REQUIRE(register_builtin_relations(f.catalog()).is_ok());
  Objects o = make_objects(f);
  Rows rows = rows_of(f.catalog(), kMzInternalSchema, "mz_materialization_lag", status_for(o));
  REQUIRE(rows.size() == 2);
  // m reads t through the view v: 100 - 90 ms behind it, locally and globally.
  CHECK(rows[0] == std::vector<std::string>{o.mv.to_string(), "10000us", "10000us", o.table.to_string(),
                                            o.table.to_string()});
  // i is 10 ms behind m (its direct input) and 20 ms behind t (its root).
  CHECK(rows[1] == std::vector<std::string>{o.index.to_string(), "10000us", "20000us", o.mv.to_string(),
                                            o.table.to_string()});
}

TEST_CASE("replica metrics report the process for every replica") {
  CatalogFixture f;
  REQUIRE(register_builtin_relations(f.catalog()).is_ok());
  Objects o = make_objects(f);
  auto status = status_for(o);
  Rows metrics = rows_of(f.catalog(), kMzInternalSchema, "mz_cluster_replica_metrics", status);
  REQUIRE(metrics.size() >= 1);
  bool found = false;
  for (const auto& r : metrics.rows) {
    CHECK(r[1] == "0");
    CHECK(r[2] == "500000000");
    CHECK(r[3] == std::to_string(1 << 20));
    CHECK(r[4] == "NULL");
    found |= r[0] == o.cluster.to_string();
  }
  CHECK(found);
  Rows utilization = rows_of(f.catalog(), kMzInternalSchema, "mz_cluster_replica_utilization", status);
  REQUIRE(utilization.size() == metrics.size());
  CHECK(utilization[0][2] == std::to_string(25.0));  // 0.5 of 2 cores
  CHECK(utilization[0][3] == std::to_string(25.0));  // 1 MiB of 4 MiB
  CHECK(utilization[0][4] == "NULL");
  CHECK(utilization[0][5] == std::to_string(12.5));
}

}  // namespace
}  // namespace tandem::catalog

namespace tandem::catalog {

TEST_CASE("mz_interactive_admission shows each cluster's running and waiting dataflows") {
  CatalogFixture f;
  REQUIRE(register_builtin_relations(f.catalog()).is_ok());
  Objects o = make_objects(f);
  auto status = status_for(o);
  InteractiveAdmissionStatus a;
  a.cluster = cluster_to_compute(o.cluster);
  a.limit = 2;
  a.active = 2;
  a.queued = 1;
  a.admitted_total = 9;
  a.waited_total = 3;
  a.canceled_total = 1;
  a.wait_ns_total = 7'000'000;
  a.wait_ns_max = 4'000'000;
  status->admission.push_back(a);
  a.cluster = cluster_to_compute(ClusterId::user(77));  // no such cluster
  status->admission.push_back(a);
  Rows rows = rows_of(f.catalog(), kMzInternalSchema, "mz_interactive_admission", status);
  bool found = false;
  for (const auto& r : rows.rows) {
    CHECK(r[0] != ClusterId::user(77).to_string());
    if (r[0] != o.cluster.to_string()) {
      CHECK(r[4] == "0");  // a cluster with no peek dataflow yet
      continue;
    }
    found = true;
    CHECK(r == std::vector<std::string>{o.cluster.to_string(), "2", "2", "1", "9", "3", "1", "7000us", "4000us"});
  }
  CHECK(found);
}

}  // namespace tandem::catalog

namespace tandem::catalog {

TEST_CASE("mz_arrangement_memory and mz_arrangement_block_cache show the process's budget and cache") {
  CatalogFixture f;
  REQUIRE(register_builtin_relations(f.catalog()).is_ok());
  auto status = std::make_shared<ControllerStatus>();
  // No budget installed: no rows.
  CHECK(rows_of(f.catalog(), kMzInternalSchema, "mz_arrangement_memory", status).size() == 0);
  CHECK(rows_of(f.catalog(), kMzInternalSchema, "mz_arrangement_block_cache", status).size() == 0);

  ArrangementMemoryStatus m;
  m.limit_bytes = 1 << 20;
  m.resident_bytes = 4096;
  m.spilled_bytes = 900000;
  m.spills_total = 12;
  m.cache_capacity_bytes = 32 << 20;
  m.cache_bytes = 65536;
  status->process.arrangement_memory = m;
  // No lookup yet: the hit rate is NULL, not a division by zero.
  Rows cold = rows_of(f.catalog(), kMzInternalSchema, "mz_arrangement_block_cache", status);
  REQUIRE(cold.size() == 1);
  CHECK(cold[0] == std::vector<std::string>{"0", std::to_string(32 << 20), "65536", "0", "0", "NULL"});

  status->process.arrangement_memory->cache_hits = 3;
  status->process.arrangement_memory->cache_misses = 1;
  Rows cache = rows_of(f.catalog(), kMzInternalSchema, "mz_arrangement_block_cache", status);
  REQUIRE(cache.size() == 1);
  CHECK(cache[0][3] == "3");
  CHECK(cache[0][4] == "1");
  CHECK(cache[0][5] == std::to_string(0.75));
  Rows memory = rows_of(f.catalog(), kMzInternalSchema, "mz_arrangement_memory", status);
  REQUIRE(memory.size() == 1);
  CHECK(memory[0] == std::vector<std::string>{"0", std::to_string(1 << 20), "4096", "900000", "12"});

  status->process.arrangement_memory->limit_bytes = 0;  // unlimited
  CHECK(rows_of(f.catalog(), kMzInternalSchema, "mz_arrangement_memory", status)[0][1] == "NULL");
}

}  // namespace tandem::catalog
