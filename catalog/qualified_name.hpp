#pragma once
// Names of catalog items.
//   QualifiedName — where an item lives: (database, schema, item). Items in
//       the ambient system schemas (mz_catalog, pg_catalog, ...) have an
//       empty database: those schemas belong to no database and resolve from
//       every one, as in Materialize.
//   PartialName   — a name as written in SQL: 1, 2 or 3 parts, not yet
//       resolved. Parts are already case-folded by the planner.
//   SearchPath    — what unqualified names resolve against: the session's
//       current database and its search_path schema list.
// Threading: plain values.

#include <compare>
#include <optional>
#include <string>
#include <vector>

namespace tandem::catalog {

struct QualifiedName {
  std::string database;  // empty for ambient (system) schemas
  std::string schema;
  std::string item;

  // "materialize.public.t", or "mz_catalog.mz_tables" for ambient schemas.
  std::string to_string() const {
    if (database.empty()) return schema + "." + item;
    return database + "." + schema + "." + item;
  }

  friend auto operator<=>(const QualifiedName&, const QualifiedName&) = default;
  friend bool operator==(const QualifiedName&, const QualifiedName&) = default;
};

struct PartialName {
  std::optional<std::string> database;  // set only for 3-part names
  std::optional<std::string> schema;    // set for 2- and 3-part names
  std::string item;

  // The name as written, dot-separated: used in "unknown catalog item 'x'".
  std::string to_string() const {
    std::string s;
    if (database) s += *database + ".";
    if (schema) s += *schema + ".";
    return s + item;
  }

  friend bool operator==(const PartialName&, const PartialName&) = default;
};

inline constexpr const char* kDefaultDatabase = "materialize";
inline constexpr const char* kPublicSchema = "public";

struct SearchPath {
  std::string database = kDefaultDatabase;
  // Schemas searched, in order, for unqualified names. mz_catalog and
  // pg_catalog are searched first when not listed (Materialize's rule).
  std::vector<std::string> schemas = {kPublicSchema};
};

}  // namespace tandem::catalog
