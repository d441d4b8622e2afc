#include <catch2/catch.hpp>

#include "catalog/catalog_test_support.hpp"

using namespace tandem;
using namespace tandem::catalog;
using namespace tandem::catalog::testing;

namespace {

ClusterSpec spec(const std::string& name, const std::string& size = "25cc", uint32_t rf = 1) {
  return ClusterSpec{name, size, rf,
                     "CREATE CLUSTER \"" + name + "\" (SIZE = '" + size + "', REPLICATION FACTOR = " +
                         std::to_string(rf) + ")"};
}

}  // namespace

TEST_CASE("clusters: create, duplicate, rename, persistence", "[catalog][cluster]") {
  CatalogFixture f;
  auto created = f.catalog().create_cluster(spec("c", "50cc", 2), false);
  REQUIRE(created.ok());
  CHECK(created->created_cluster == std::optional<ClusterId>(ClusterId::user(2)));
  auto dup = f.catalog().create_cluster(spec("c"), false);
  REQUIRE_FALSE(dup.ok());
  CHECK(dup.status().sqlstate() == sqlstate::kDuplicateObject);
  CHECK(dup.status().message() == "cluster 'c' already exists");
  auto quiet = f.catalog().create_cluster(spec("c"), true);
  REQUIRE(quiet.ok());
  CHECK_FALSE(quiet->created_cluster.has_value());
  CHECK(quiet->notices.size() == 1);
  CHECK_FALSE(f.catalog().create_cluster(spec("mz_mine"), false).ok());

  Status clash = f.catalog().rename_cluster("c", "quickstart", "");
  REQUIRE_FALSE(clash.is_ok());
  CHECK(clash.message() == "cluster 'quickstart' already exists");
  CHECK_FALSE(f.catalog().rename_cluster("mz_system", "x", "").is_ok());
  REQUIRE(f.catalog().rename_cluster("c", "d", spec("d", "50cc", 2).create_sql).is_ok());

  f.reopen();
  const Cluster* d = f.catalog().state().find_cluster("d");
  REQUIRE(d != nullptr);
  CHECK(d->id == ClusterId::user(2));
  CHECK(d->size == "50cc");
  CHECK(d->replication_factor == 2);
  CHECK(d->create_sql == spec("d", "50cc", 2).create_sql);
  CHECK(f.catalog().state().find_cluster("c") == nullptr);
  std::vector<std::string> names;
  for (const Cluster* c : f.catalog().state().clusters()) names.push_back(c->name);
  CHECK(names == std::vector<std::string>{"d", "mz_catalog_server", "mz_system", "quickstart"});
  // The counter survives: the next cluster is u3.
  auto e = f.catalog().create_cluster(spec("e"), false);
  REQUIRE(e.ok());
  CHECK(*e->created_cluster == ClusterId::user(3));
}

TEST_CASE("DROP CLUSTER refuses active objects unless CASCADE", "[catalog][cluster]") {
  CatalogFixture f;
  Catalog& c = f.catalog();
  REQUIRE(c.create_cluster(spec("c"), false).ok());
  ClusterId cid = c.state().find_cluster("c")->id;
  ItemId t = create(c, table_spec("t", 1));
  ItemId idx = create(c, index_spec("t_idx", t, cid));
  ItemId mv = create(c, mv_spec("mv", {t}, cid, 2));
  ItemId v = create(c, view_spec("over_mv", {mv}));

  auto restrict = c.drop_cluster("c", false, DropBehavior::kRestrict);
  REQUIRE_FALSE(restrict.ok());
  CHECK(restrict.status().sqlstate() == sqlstate::kDependentObjectsStillExist);
  CHECK(restrict.status().message() == "cannot drop cluster with active indexes or materialized views");
  CHECK(c.state().find_cluster("c") != nullptr);

  auto missing = c.drop_cluster("nope", false, DropBehavior::kRestrict);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().message() == "unknown cluster 'nope'");
  auto missing_ok = c.drop_cluster("nope", true, DropBehavior::kRestrict);
  REQUIRE(missing_ok.ok());
  CHECK(missing_ok->notices.size() == 1);
  CHECK_FALSE(c.drop_cluster("mz_catalog_server", false, DropBehavior::kCascade).ok());

  auto cascade = c.drop_cluster("c", false, DropBehavior::kCascade);
  REQUIRE(cascade.ok());
  std::vector<ItemId> dropped;
  for (const auto& item : cascade->dropped) dropped.push_back(item->id);
  CHECK(dropped == std::vector<ItemId>{v, mv, idx});
  CHECK(c.state().item(t) != nullptr);
  CHECK(c.state().find_cluster("c") == nullptr);

  f.reopen();
  CHECK(f.catalog().state().find_cluster("c") == nullptr);
  REQUIRE(f.catalog().items_to_replay().size() == 1);
  CHECK(f.catalog().items_to_replay()[0].id == t);
}

TEST_CASE("allowed_cluster_replica_sizes limits CREATE CLUSTER sizes", "[catalog][cluster]") {
  CatalogFixture f;
  REQUIRE(f.catalog().set_system_var(kAllowedClusterReplicaSizes, "'25cc', '50cc'").is_ok());
  CHECK(f.catalog().create_cluster(spec("ok", "50cc"), false).ok());
  auto bad = f.catalog().create_cluster(spec("big", "3200cc"), false);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().sqlstate() == sqlstate::kInvalidParameterValue);
}
