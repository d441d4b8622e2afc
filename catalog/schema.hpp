#pragma once
// Schema: a namespace of items inside a database, or — for the system
// schemas — an *ambient* namespace that belongs to no database and resolves
// from every one (Materialize's rule). The database `materialize` with schema
// `public` exists by default; user schemas come from CREATE SCHEMA.
// Threading: plain values.

#include <array>
#include <string>
#include <string_view>

#include "catalog/global_id.hpp"

namespace tandem::catalog {

inline constexpr const char* kMzCatalogSchema = "mz_catalog";
inline constexpr const char* kPgCatalogSchema = "pg_catalog";
inline constexpr const char* kMzInternalSchema = "mz_internal";
inline constexpr const char* kMzIntrospectionSchema = "mz_introspection";
inline constexpr const char* kInformationSchema = "information_schema";

// The ambient system schemas, with their fixed system ids s1..s5 in this order.
inline constexpr std::array<const char*, 5> kSystemSchemas = {
    kMzCatalogSchema, kPgCatalogSchema, kMzInternalSchema, kMzIntrospectionSchema,
    kInformationSchema};

inline bool is_system_schema(std::string_view name) {
  for (const char* s : kSystemSchemas) {
    if (name == s) return true;
  }
  return false;
}

struct Schema {
  SchemaId id;
  std::string database;  // empty for ambient system schemas
  std::string name;

  bool is_system() const { return id.is_system(); }
  // "materialize.public" or "mz_catalog".
  std::string to_string() const { return database.empty() ? name : database + "." + name; }
  bool operator==(const Schema&) const = default;
};

}  // namespace tandem::catalog
