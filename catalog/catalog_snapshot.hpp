#pragma once
// CatalogSnapshot: an immutable view of the whole catalog at one version —
// items, schemas, clusters and system parameters — with the read operations
// sessions need: lookups by id and name, name resolution against a
// search_path, listings for SHOW, and dependency queries.
//
// Threading: a snapshot is never modified after Catalog publishes it, so any
// number of threads may read one concurrently without locks. Catalog (the
// coordinator thread) builds each new version from a copy of the previous one
// and publishes it atomically; a reader that holds a
// std::shared_ptr<const CatalogSnapshot> keeps seeing exactly that version.
// Pointers returned by the accessors live as long as the snapshot does.
//
// Name resolution (Materialize's rules and error texts):
//   x       searched in mz_catalog, then pg_catalog (unless the search_path
//           lists them, in which case at their listed position), then in each
//           search_path schema of the current database; schemas on the path
//           that do not exist are skipped. Miss: 42P01
//           `unknown catalog item 'x'`.
//   s.x     schema s of the current database, or the ambient system schema s.
//           Unknown schema: 3F000 `unknown schema 's'`.
//   d.s.x   database d (3D000 `unknown database 'd'`), then as above.

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/access_control.hpp"
#include "catalog/cluster.hpp"
#include "catalog/global_id.hpp"
#include "catalog/item.hpp"
#include "catalog/qualified_name.hpp"
#include "catalog/schema.hpp"
#include "catalog/system_vars.hpp"
#include "common/status.hpp"

namespace tandem::catalog {

class CatalogSnapshot {
 public:
  // Increases by at least one with every published change.
  uint64_t version() const { return version_; }

  // ---- items
  // nullptr when absent.
  const Item* item(ItemId id) const;
  std::shared_ptr<const Item> item_ptr(ItemId id) const;
  const Item* find_item(const QualifiedName& name) const;
  // Resolves a name as written in SQL (see the rules above).
  Result<const Item*> resolve_item(const PartialName& name, const SearchPath& path) const;
  // Every item, in id order (system items first, then user items as created).
  std::vector<const Item*> items() const;
  // Items in one schema (database empty for an ambient schema), by name,
  // optionally of one kind: SHOW OBJECTS/TABLES/VIEWS/... FROM s.
  std::vector<const Item*> items_in_schema(std::string_view database, std::string_view schema,
                                           std::optional<ItemKind> kind = std::nullopt) const;
  // Items that list `id` among their dependencies, in id order.
  std::vector<ItemId> dependents(ItemId id) const;
  // Indexes whose `on` is `id`, in id order.
  std::vector<const Item*> indexes_on(ItemId id) const;
  // Indexes and materialized views installed on `cluster`, in id order.
  std::vector<const Item*> items_in_cluster(ClusterId cluster) const;

  // ---- namespaces
  bool has_database(std::string_view name) const { return databases_.count(std::string(name)) > 0; }
  std::vector<std::string> databases() const { return {databases_.begin(), databases_.end()}; }
  // Looks up a schema; `database` is ignored for ambient system schemas.
  const Schema* find_schema(std::string_view database, std::string_view name) const;
  // Resolves a 1- or 2-part schema name against the current database:
  // 3D000 / 3F000 errors as above.
  Result<const Schema*> resolve_schema(const std::optional<std::string>& database,
                                       std::string_view name, const SearchPath& path) const;
  // Schemas of `database` followed by the ambient ones, each group by name.
  std::vector<const Schema*> schemas(std::string_view database) const;

  // ---- clusters
  const Cluster* cluster(ClusterId id) const;
  const Cluster* find_cluster(std::string_view name) const;
  // 42704 `unknown cluster 'c'` when absent.
  Result<const Cluster*> resolve_cluster(std::string_view name) const;
  // All clusters by name.
  std::vector<const Cluster*> clusters() const;

  // ---- system parameters
  const SystemVars& system_vars() const { return vars_; }

  // ---- roles, ownership and privileges
  const AccessControl& access() const { return access_; }

 private:
  friend class Catalog;
  using SchemaKey = std::pair<std::string, std::string>;  // (database or "", name)

  const Item* lookup_in_schema(const Schema& schema, std::string_view item) const;
  // Mutators used by Catalog on its private working copy only.
  void insert_item(std::shared_ptr<const Item> item);
  void erase_item(ItemId id);
  // Swaps in a new version of an existing item (new name or create_sql).
  // REQUIRES: same id and dependencies as the current version.
  void replace_item(std::shared_ptr<const Item> item);

  uint64_t version_ = 0;
  std::map<ItemId, std::shared_ptr<const Item>> items_;
  std::map<QualifiedName, ItemId> names_;
  std::map<ItemId, std::set<ItemId>> used_by_;  // reverse dependencies
  std::set<std::string> databases_;
  std::map<SchemaKey, Schema> schemas_;
  std::map<ClusterId, Cluster> clusters_;
  std::map<std::string, ClusterId, std::less<>> cluster_names_;
  SystemVars vars_;
  AccessControl access_;
};

}  // namespace tandem::catalog
