#pragma once
// Item: one named relation-like object in the catalog (table, source, view,
// materialized view, index), as plain data. The coordinator plans a CREATE
// statement, fills an ItemSpec and hands it to Catalog::create_item; the
// catalog assigns the id and stores the Item. Items are immutable once
// published: a change (rename, new create_sql) replaces the Item object.
//
// `create_sql` is what is persisted and replayed through the planner at boot,
// so it must be self-contained: fully qualified names and an
// explicit IN CLUSTER. Everything else here is derived from it by the
// planner, except the storage shard ids, which are persisted beside it.
//
// System items (builtin relations in mz_catalog, mz_internal,
// mz_introspection, pg_catalog, information_schema) are registered by the
// coordinator at every boot with system ids; they are never persisted.
// Threading: plain values.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "catalog/access_control.hpp"
#include "catalog/global_id.hpp"
#include "catalog/qualified_name.hpp"
#include "catalog/relation_desc.hpp"
#include "storage/shard_types.hpp"

namespace tandem::catalog {

enum class ItemKind : uint8_t {
  kTable,
  kSource,  // builtin log sources (mz_introspection); no user sources yet
  kView,
  kMaterializedView,
  kIndex,
};

// The type name SHOW OBJECTS prints: "table", "source", "view",
// "materialized-view", "index".
std::string_view item_kind_type_name(ItemKind kind);
// The noun used in messages: "table", "source", "view", "materialized view",
// "index".
std::string_view item_kind_noun(ItemKind kind);

// Per-column table facts.
struct TableColumnInfo {
  bool not_null = false;
  std::optional<std::string> default_sql;  // DEFAULT expression as SQL text

  bool operator==(const TableColumnInfo&) const = default;
};

struct TableDetails {
  std::vector<TableColumnInfo> columns;  // parallel to the RelationDesc
  std::optional<std::vector<size_t>> primary_key;
  std::vector<std::vector<size_t>> unique_keys;
  storage::ShardId shard = 0;

  bool operator==(const TableDetails&) const = default;
};

struct IndexKey {
  std::string sql;                // the key expression as SQL text
  std::optional<size_t> column;   // set when the key is a plain column of `on`
  ColumnType type;                // the key's type (pg_attribute of the index)

  bool operator==(const IndexKey&) const = default;
};

struct IndexDetails {
  ItemId on;  // the indexed item
  std::vector<IndexKey> keys;
  // CREATE UNIQUE INDEX on a table: its keys (plain columns) are enforced
  // on writes as a UNIQUE constraint named after the index.
  bool unique = false;

  bool operator==(const IndexDetails&) const = default;
};

struct MaterializedViewDetails {
  storage::ShardId shard = 0;

  bool operator==(const MaterializedViewDetails&) const = default;
};

// Views and sources carry nothing beyond the common fields.
using ItemDetails = std::variant<std::monostate, TableDetails, IndexDetails, MaterializedViewDetails>;

// What the coordinator supplies to create an item.
// Invariants checked by Catalog::create_item: kTable carries TableDetails,
// kIndex IndexDetails and a cluster, kMaterializedView
// MaterializedViewDetails and a cluster, kView/kSource std::monostate.
struct ItemSpec {
  QualifiedName name;
  ItemKind kind = ItemKind::kView;
  std::string create_sql;
  RelationDesc desc;
  std::vector<ItemId> dependencies;  // ids this item reads (indexes: `on`)
  std::optional<ClusterId> cluster;  // indexes and materialized views
  ItemDetails details;
  // The creating role, which owns the item (a user item's ACL is written
  // with it); nullopt for builtins and replay, whose ACL is stored.
  std::optional<RoleId> owner;
};

struct Item {
  ItemId id;
  QualifiedName name;
  ItemKind kind = ItemKind::kView;
  std::string create_sql;
  RelationDesc desc;
  std::vector<ItemId> dependencies;
  std::optional<ClusterId> cluster;
  ItemDetails details;

  const TableDetails* table() const { return std::get_if<TableDetails>(&details); }
  const IndexDetails* index() const { return std::get_if<IndexDetails>(&details); }
  const MaterializedViewDetails* materialized_view() const {
    return std::get_if<MaterializedViewDetails>(&details);
  }
  // The storage shard of a table or materialized view, or nullopt.
  std::optional<storage::ShardId> shard() const;
  // True for relations a query can read from (everything but indexes).
  bool is_relation() const { return kind != ItemKind::kIndex; }
};

// A table's PRIMARY KEY or UNIQUE constraint, named as PostgreSQL names
// them (t_pkey, t_a_key, t_a_b_key). The table enforces it on every write
// through a hash of its key rows (the coordinator's), which pg_catalog shows
// as the constraint's index.
struct TableKey {
  std::string name;
  std::vector<size_t> columns;
  bool primary = false;
};
// The primary key first, then the unique keys in declaration order; empty
// for everything but tables.
std::vector<TableKey> table_keys(const Item& item);

// The privilege object type of an item (TABLE, VIEW, ...).
ObjectType object_type_of(const Item& item);

}  // namespace tandem::catalog
