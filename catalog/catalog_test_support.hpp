#pragma once
// Helpers for the catalog unit tests only: a Catalog over a scratch RocksDB
// directory that can be closed and reopened, and ItemSpec builders shaped
// like what the coordinator produces.

#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "catalog/catalog.hpp"
#include "storage/test_support.hpp"

namespace tandem::catalog::testing {

// A data directory plus the store and catalog open over it.
class CatalogFixture {
 public:
  CatalogFixture() { reopen(); }

  // Closes the catalog and the store and opens both again from disk.
  void reopen() {
    catalog_.reset();
    store_.reset();
    store_ = storage::testing::open_durable(dir_.path(), /*sync=*/false);
    auto opened = Catalog::open(*store_);
    REQUIRE(opened.ok());
    catalog_ = std::move(*opened);
  }

  Catalog& catalog() { return *catalog_; }
  storage::DurableStore& store() { return *store_; }

 private:
  storage::testing::ScratchDir dir_;
  std::unique_ptr<storage::DurableStore> store_;
  std::unique_ptr<Catalog> catalog_;
};

inline QualifiedName user_name(const std::string& item, const std::string& schema = kPublicSchema) {
  return QualifiedName{kDefaultDatabase, schema, item};
}

inline RelationDesc int_columns(std::vector<std::string> names) {
  RelationDesc desc;
  for (auto& n : names) desc.columns.push_back(Column{std::move(n), ColumnType{TypeId::kInt4, -1, true}});
  return desc;
}

inline ItemSpec table_spec(const std::string& name, storage::ShardId shard,
                           const std::string& schema = kPublicSchema) {
  ItemSpec spec;
  spec.name = user_name(name, schema);
  spec.kind = ItemKind::kTable;
  spec.create_sql = "CREATE TABLE materialize." + schema + "." + name + " (a int, b int)";
  spec.desc = int_columns({"a", "b"});
  TableDetails details;
  details.columns.resize(2);
  details.columns[0].not_null = true;
  details.columns[1].default_sql = "42";
  details.primary_key = std::vector<size_t>{0};
  details.shard = shard;
  spec.details = details;
  return spec;
}

inline ItemSpec view_spec(const std::string& name, std::vector<ItemId> deps,
                          const std::string& schema = kPublicSchema) {
  ItemSpec spec;
  spec.name = user_name(name, schema);
  spec.kind = ItemKind::kView;
  spec.create_sql = "CREATE VIEW materialize." + schema + "." + name + " AS SELECT 1";
  spec.desc = int_columns({"a"});
  spec.dependencies = std::move(deps);
  return spec;
}

inline ItemSpec index_spec(const std::string& name, ItemId on, ClusterId cluster) {
  ItemSpec spec;
  spec.name = user_name(name);
  spec.kind = ItemKind::kIndex;
  spec.create_sql = "CREATE INDEX " + name + " IN CLUSTER quickstart ON x (a)";
  spec.desc = int_columns({"a"});
  spec.cluster = cluster;
  spec.details = IndexDetails{on, {IndexKey{"a", 0, ColumnType{TypeId::kInt4}}}};
  return spec;
}

inline ItemSpec mv_spec(const std::string& name, std::vector<ItemId> deps, ClusterId cluster,
                        storage::ShardId shard) {
  ItemSpec spec;
  spec.name = user_name(name);
  spec.kind = ItemKind::kMaterializedView;
  spec.create_sql = "CREATE MATERIALIZED VIEW " + name + " IN CLUSTER quickstart AS SELECT 1";
  spec.desc = int_columns({"a"});
  spec.dependencies = std::move(deps);
  spec.cluster = cluster;
  spec.details = MaterializedViewDetails{shard};
  return spec;
}

inline ItemSpec system_view_spec(const std::string& schema, const std::string& name) {
  ItemSpec spec;
  spec.name = QualifiedName{"", schema, name};
  spec.kind = ItemKind::kView;
  spec.create_sql = "CREATE VIEW " + schema + "." + name + " AS SELECT 1";
  spec.desc = int_columns({"a"});
  return spec;
}

// Creates the item or fails the test; returns its id.
inline ItemId create(Catalog& catalog, ItemSpec spec) {
  auto result = catalog.create_item(std::move(spec));
  INFO((result.ok() ? std::string("ok") : result.status().to_string()));
  REQUIRE(result.ok());
  REQUIRE(result->created_item.has_value());
  return *result->created_item;
}

inline ClusterId quickstart(const Catalog& catalog) {
  const Cluster* c = catalog.state().find_cluster(kDefaultClusterName);
  REQUIRE(c != nullptr);
  return c->id;
}

inline PartialName unqualified(const std::string& item) { return PartialName{std::nullopt, std::nullopt, item}; }

}  // namespace tandem::catalog::testing
