#pragma once
// The catalog's errors and notices, with Materialize's wording (quoted names
// in single quotes for "unknown"/"already exists", PostgreSQL-style double
// quotes for dependency errors, as Materialize prints them). Kept in one
// place so the frontend's sqllogic expectations have one source of truth.
//   42P01 unknown catalog item 'x'
//   3F000 unknown schema 's'             3D000 unknown database 'd'
//   42704 unknown cluster 'c'
//   42P07 catalog item 'x' already exists
//   42P06 schema 's' already exists      42710 cluster 'c' already exists
//   2BP01 cannot drop table "t": still depended upon by view "v"
//         (hint: Use DROP ... CASCADE to drop the dependent objects too.)
//   2BP01 schema 'materialize.s' cannot be dropped without CASCADE while it
//         contains objects
//   2BP01 cannot drop cluster with active indexes or materialized views
//   42809 materialize.public.t is not a view
//   42501 system item 'mz_catalog.x' cannot be modified (likewise schema,
//         cluster)
// Notices (severity NOTICE, carried as Status values):
//   42P07 catalog item 'x' already exists, skipping   (IF NOT EXISTS)
//   42P01 table "x" does not exist, skipping          (IF EXISTS)
// Threading: pure functions.

#include <string>
#include <string_view>

#include "catalog/item.hpp"
#include "common/status.hpp"

namespace tandem::catalog::errors {

inline Status unknown_item(std::string_view name) {
  return Status::error(sqlstate::kUndefinedTable, "unknown catalog item '" + std::string(name) + "'");
}
inline Status unknown_schema(std::string_view name) {
  return Status::error(sqlstate::kInvalidSchemaName, "unknown schema '" + std::string(name) + "'");
}
inline Status unknown_database(std::string_view name) {
  return Status::error(sqlstate::kInvalidCatalogName, "unknown database '" + std::string(name) + "'");
}
inline Status unknown_cluster(std::string_view name) {
  return Status::error(sqlstate::kUndefinedObject, "unknown cluster '" + std::string(name) + "'");
}
inline Status item_exists(std::string_view name) {
  return Status::error(sqlstate::kDuplicateTable, "catalog item '" + std::string(name) + "' already exists");
}
inline Status schema_exists(std::string_view name) {
  return Status::error(sqlstate::kDuplicateSchema, "schema '" + std::string(name) + "' already exists");
}
inline Status cluster_exists(std::string_view name) {
  return Status::error(sqlstate::kDuplicateObject, "cluster '" + std::string(name) + "' already exists");
}
inline Status still_depended_upon(const Item& item, const Item& dependent) {
  return Status::error(sqlstate::kDependentObjectsStillExist,
                       "cannot drop " + std::string(item_kind_noun(item.kind)) + " \"" + item.name.item +
                           "\": still depended upon by " + std::string(item_kind_noun(dependent.kind)) +
                           " \"" + dependent.name.item + "\"")
      .with_hint("Use DROP ... CASCADE to drop the dependent objects too.");
}
inline Status schema_not_empty(std::string_view schema) {
  return Status::error(sqlstate::kDependentObjectsStillExist,
                       "schema '" + std::string(schema) +
                           "' cannot be dropped without CASCADE while it contains objects");
}
inline Status cluster_in_use() {
  return Status::error(sqlstate::kDependentObjectsStillExist,
                       "cannot drop cluster with active indexes or materialized views")
      .with_hint("Use DROP CLUSTER ... CASCADE to drop them too.");
}
inline Status wrong_kind(const Item& item, ItemKind expected) {
  return Status::error(sqlstate::kWrongObjectType, item.name.to_string() + " is not a" +
                                                       (expected == ItemKind::kIndex ? "n " : " ") +
                                                       std::string(item_kind_noun(expected)));
}
inline Status system_object(std::string_view what, std::string_view name) {
  return Status::error(sqlstate::kInsufficientPrivilege,
                       "system " + std::string(what) + " '" + std::string(name) + "' cannot be modified");
}
inline Status internal(std::string message) {
  return Status::error(sqlstate::kInternalError, std::move(message));
}

inline Status notice_item_exists(std::string_view name) {
  return Status::error(sqlstate::kDuplicateTable,
                       "catalog item '" + std::string(name) + "' already exists, skipping");
}
inline Status notice_does_not_exist(std::string_view noun, std::string_view name) {
  return Status::error(sqlstate::kUndefinedTable, std::string(noun) + " \"" + std::string(name) +
                                                      "\" does not exist, skipping");
}

}  // namespace tandem::catalog::errors
