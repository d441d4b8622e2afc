#pragma once
// Builtin catalog relations: mz_catalog (mz_databases, mz_schemas,
// mz_tables, mz_views, mz_materialized_views, mz_indexes, mz_index_columns,
// mz_columns, mz_objects, mz_clusters, mz_cluster_replicas), pg_catalog
// (pg_namespace, pg_class, pg_attribute, pg_type, pg_database, pg_index,
// pg_am, pg_roles, pg_user, pg_settings, pg_description, pg_attrdef,
// pg_collation, pg_constraint, pg_inherits, and the empty pg_policy,
// pg_statistic_ext, pg_publication, pg_publication_rel,
// pg_publication_namespace) and information_schema (tables,
// columns, schemata), with Materialize's and PostgreSQL's column names;
// and the controller-level introspection relations of mz_internal and
// mz_catalog (hydration, frontiers, lag, replica metrics:
// builtin_mz_internal.cpp), whose rows come from the controller's status
// taken when the read is planned (a snapshot at the read's time, like the
// catalog rows; hence also refused under indexes, MVs and subscribes).
//
// Design: Materialize keeps these as builtin tables that the coordinator
// writes in the same transaction as each catalog change. tandem instead
// computes their rows from the catalog snapshot a read is planned against:
// the planner receives them as a constant collection (the same snapshot the
// rest of the statement's names resolved in), so they are exact at the
// statement's catalog version and behave as any relation in joins, views
// (inlined at each read, hence never stale) and subqueries. What that
// choice rules out, and refuses with 0A000: indexes, materialized views and
// (later) SUBSCRIBE over them, since a constant does not change over time.
//
// Stable OIDs (PostgreSQL clients join on them): every id in the catalog is
// persisted and never reused, and OIDs are pure functions of ids, so they
// are the same after a restart. Ranges (all below 2^31):
//   roles          mz_system 16661, u<n> 16661 + n (materialize, u1, 16662)
//   access methods arrangement 16663 (CREATE INDEX), hash 405 (the index
//                  enforcing a table key, PostgreSQL's OID)
//   database       materialize 16384
//   system schemas 16385 + n for s<n> (pg_catalog s2 = 16387, ...)
//   system items   16400 + n for s<n> (builtins are registered in a fixed
//                  order at every boot, so their ids are stable too)
//   user items     20000 + n for u<n> (Materialize's first user OID)
//   user schemas   1000000000 + n for u<n>
//   table keys     1500000000 + 32n + 2k for the k-th key constraint of
//                  table u<n> (table_keys), + 1 for the hash index that
//                  enforces it (k < 16)
// Types use PostgreSQL's OIDs (common/types.hpp).
//
// Session-dependent rows: mz_internal.mz_search_path_schemas lists the
// session's effective search path (mz_catalog and pg_catalog first, as
// name resolution searches them); pg_table_is_visible is defined over it.
// Threading: pure functions over an immutable snapshot.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "catalog/catalog_snapshot.hpp"
#include "catalog/controller_status.hpp"
#include "common/row.hpp"
#include "common/status.hpp"

namespace tandem::catalog {

class Catalog;

inline constexpr uint32_t kMzSystemRoleOid = 16661;
inline constexpr uint32_t kMaterializeRoleOid = 16662;
inline constexpr uint32_t kMaterializeDatabaseOid = 16384;
inline constexpr uint32_t kArrangementAmOid = 16663;
inline constexpr uint32_t kHashAmOid = 405;
inline constexpr const char* kMzSystemRoleId = "s1";
inline constexpr const char* kMaterializeRoleId = "u1";
inline constexpr const char* kMaterializeDatabaseId = "u1";

uint32_t item_oid(ItemId id);
uint32_t schema_oid(SchemaId id);
uint32_t key_constraint_oid(ItemId table, size_t k);
uint32_t key_index_oid(ItemId table, size_t k);

// Registers every builtin relation as a system item (kind kSource), in a
// fixed order. Coordinator thread, once at boot before replay.
Status register_builtin_relations(Catalog& catalog);

// True for an item registered by register_builtin_relations.
bool is_builtin_catalog_relation(const Item& item);
// The kind users see: builtin catalog relations are tables (as in
// Materialize, where they are builtin tables), everything else its kind.
ItemKind visible_kind(const Item& item);

// What rows may depend on besides the snapshot.
struct BuiltinContext {
  SearchPath path;
  std::string user;
  // The controller-level relations (builtin_mz_internal.cpp) read the
  // controller's status through this; without it they have no rows.
  ControllerStatusSource controller;
};

// The rows of builtin relation `item` in `snapshot`, column by column as
// its RelationDesc. REQUIRES: is_builtin_catalog_relation(item).
std::vector<Row> builtin_rows(const CatalogSnapshot& snapshot, const Item& item, const BuiltinContext& context);

namespace builtin_detail {
// One generator per relation, split by schema (builtin_mz_catalog.cpp,
// builtin_pg_catalog.cpp). Each returns rows in its relation's column order.
using Generator = std::vector<Row> (*)(const CatalogSnapshot&, const BuiltinContext&);
struct BuiltinColumn {
  const char* name;
  TypeId type;
  bool nullable;
};
struct BuiltinRelation {
  const char* schema;
  const char* name;
  std::vector<BuiltinColumn> columns;
  Generator rows;
};
void add_mz_catalog_relations(std::vector<BuiltinRelation>& out);
void add_pg_catalog_relations(std::vector<BuiltinRelation>& out);
void add_information_schema_relations(std::vector<BuiltinRelation>& out);
void add_mz_internal_relations(std::vector<BuiltinRelation>& out);
// pg_constraint and mz_internal.mz_table_keys (builtin_table_keys.cpp).
std::vector<Row> key_constraint_rows(const CatalogSnapshot& s, const BuiltinContext& context);
void add_table_key_relations(std::vector<BuiltinRelation>& out);
// pg_policy, pg_statistic_ext and the publication relations: always empty
// (builtin_pg_features.cpp).
void add_pg_feature_relations(std::vector<BuiltinRelation>& out);
// mz_internal.mz_object_dependencies (builtin_mz_catalog.cpp).
void add_dependency_relations(std::vector<BuiltinRelation>& out);
// mz_roles, mz_role_members, pg_auth_members, mz_effective_privileges
// (builtin_roles.cpp), and pg_roles'/pg_user's rows.
void add_role_relations(std::vector<BuiltinRelation>& out);
std::vector<Row> role_rows(const CatalogSnapshot& s, const BuiltinContext& context);
std::vector<Row> user_rows(const CatalogSnapshot& s, const BuiltinContext& context);
// Calls `f(table, k, key)` for every key of every table, in id order.
void for_each_table_key(const CatalogSnapshot& s, const std::function<void(const Item&, size_t, const TableKey&)>& f);

// Helpers shared by the generators.
std::string owner_id(const CatalogSnapshot& snapshot, const Item& item);
uint32_t owner_oid(const CatalogSnapshot& snapshot, const Item& item);
RoleId owner_of(const CatalogSnapshot& snapshot, const std::string& object, ObjectType type);
// An object's ACL as text[] elements packed for Datum::from_array
// ("alice=arwd/alice", "=UC/materialize").
std::string acl_elements(const CatalogSnapshot& snapshot, const std::string& object, ObjectType type);
// The schema an item lives in (nullptr only for a corrupt snapshot).
const Schema* schema_of(const CatalogSnapshot& snapshot, const Item& item);
// The defining query of a view or materialized view ("SELECT ...;"), or "".
std::string definition_of(const Item& item);
Row make_row(std::initializer_list<Datum> datums);
// Calls `f(item, index, column, table_info)` for every column of every
// relation (not index) in id order; `table_info` is null except for tables.
void for_each_column(const CatalogSnapshot& snapshot,
                     const std::function<void(const Item&, size_t, const Column&, const TableColumnInfo*)>& f);
Datum text_or_null(const std::optional<std::string>& s);
}  // namespace builtin_detail

}  // namespace tandem::catalog
