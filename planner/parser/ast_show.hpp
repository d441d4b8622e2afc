#pragma once
// AST of introspection statements: SHOW <objects>, SHOW COLUMNS,
// SHOW CREATE and EXPLAIN.

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "planner/parser/ast_ddl.hpp"

namespace tandem::sql {

// SHOW {OBJECTS|TABLES|...} [FROM s] [IN CLUSTER c] [ON obj]
//   [LIKE 'pat' | WHERE expr]
struct ShowObjects {
  enum class Kind : uint8_t {
    kObjects, kTables, kViews, kMaterializedViews, kIndexes, kSources, kSinks,
    kClusters, kClusterReplicas, kSchemas, kDatabases, kSecrets, kConnections,
  };
  Kind kind = Kind::kObjects;
  std::optional<ObjectName> from;
  std::string in_cluster;
  std::optional<ObjectName> on;
  std::optional<std::string> like;
  Box<Expr> where;
  bool operator==(const ShowObjects&) const = default;
};

// SHOW COLUMNS FROM t [LIKE 'pat' | WHERE expr]
struct ShowColumns {
  ObjectName table;
  std::optional<std::string> like;
  Box<Expr> where;
  bool operator==(const ShowColumns&) const = default;
};

// SHOW CREATE {TABLE|VIEW|MATERIALIZED VIEW|INDEX|CLUSTER} name
struct ShowCreate {
  ObjectType type = ObjectType::kTable;
  ObjectName name;
  bool operator==(const ShowCreate&) const = default;
};

// EXPLAIN INDEX i / EXPLAIN MATERIALIZED VIEW mv
struct ExplainObject {
  ObjectType type = ObjectType::kIndex;  // kIndex or kMaterializedView
  ObjectName name;
  bool operator==(const ExplainObject&) const = default;
};

// EXPLAIN [[RAW|DECORRELATED|[LOCALLY] OPTIMIZED|PHYSICAL] PLAN
//   [WITH (mods)] [AS TEXT|JSON] FOR] explainee
// EXPLAIN TIMESTAMP [AS TEXT|JSON] FOR query
// `EXPLAIN query` and `EXPLAIN PLAN FOR query` have stage kDefault: the
// planner chooses (Materialize shows the physical plan).
struct Explain {
  enum class Stage : uint8_t {
    kDefault, kRaw, kDecorrelated, kLocallyOptimized, kOptimized, kPhysical, kTimestamp,
  };
  enum class Format : uint8_t { kText, kJson };
  Stage stage = Stage::kDefault;
  Format format = Format::kText;
  std::vector<Option> modifiers;  // WITH (arity, join implementations)
  std::variant<Query, CreateIndex, CreateMaterializedView, ExplainObject> explainee;
  bool operator==(const Explain&) const = default;
};

}  // namespace tandem::sql
