#pragma once
// AST of DDL: CREATE TABLE/VIEW/MATERIALIZED VIEW/INDEX/CLUSTER/CLUSTER
// REPLICA/SCHEMA, DROP, ALTER ... RENAME TO, ALTER SYSTEM SET/RESET.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "planner/parser/ast_option.hpp"
#include "planner/parser/ast_query.hpp"

namespace tandem::sql {

enum class ObjectType : uint8_t {
  kTable,
  kView,
  kMaterializedView,
  kIndex,
  kCluster,
  kClusterReplica,
  kSchema,
};

// col type [NOT NULL | NULL | DEFAULT expr | PRIMARY KEY | UNIQUE]...
struct ColumnDef {
  std::string name;
  TypeName type;
  bool not_null = false;  // NOT NULL or PRIMARY KEY
  Box<Expr> default_value;
  bool primary_key = false;
  bool unique = false;
  SourcePos pos;
  bool operator==(const ColumnDef&) const = default;
};

// [CONSTRAINT name] PRIMARY KEY (cols) | UNIQUE (cols)
struct TableConstraint {
  std::string name;
  bool primary_key = false;  // otherwise UNIQUE
  std::vector<std::string> columns;
  SourcePos pos;
  bool operator==(const TableConstraint&) const = default;
};

struct CreateTable {
  ObjectName name;
  bool if_not_exists = false;
  bool temporary = false;
  std::vector<ColumnDef> columns;
  std::vector<TableConstraint> constraints;
  // WITH (fillfactor = 100, ...): PostgreSQL storage parameters, accepted
  // and ignored.
  std::vector<Option> with_options;
  bool operator==(const CreateTable&) const = default;
};

// CREATE [OR REPLACE] [TEMP] VIEW [IF NOT EXISTS] v [(cols)] AS query
struct CreateView {
  ObjectName name;
  bool or_replace = false;
  bool temporary = false;
  bool if_not_exists = false;
  std::vector<std::string> columns;
  Query query;
  bool operator==(const CreateView&) const = default;
};

// CREATE [OR REPLACE] MATERIALIZED VIEW [IF NOT EXISTS] mv [(cols)]
//   [IN CLUSTER c] AS query
struct CreateMaterializedView {
  ObjectName name;
  bool or_replace = false;
  bool if_not_exists = false;
  std::vector<std::string> columns;
  std::string in_cluster;  // "" = the session's cluster
  Query query;
  bool operator==(const CreateMaterializedView&) const = default;
};

// CREATE [UNIQUE] INDEX [IF NOT EXISTS] [name] [IN CLUSTER c] ON obj
//   [USING method] (exprs)
// CREATE DEFAULT INDEX [IF NOT EXISTS] [name] [IN CLUSTER c] ON obj
//   (default_index: key_parts empty; the planner picks the key)
struct CreateIndex {
  std::string name;  // "" = generated
  std::string in_cluster;
  ObjectName on;
  std::string using_method;  // "" or e.g. "arrangement"
  std::vector<Expr> key_parts;
  bool default_index = false;
  bool unique = false;
  bool if_not_exists = false;
  bool operator==(const CreateIndex&) const = default;
};

// r1 (SIZE '1', ...)
struct ReplicaDefinition {
  std::string name;
  std::vector<Option> options;
  bool operator==(const ReplicaDefinition&) const = default;
};
// CREATE CLUSTER c [(]SIZE [=] '..', REPLICATION FACTOR [=] n[)]
// CREATE CLUSTER c REPLICAS (r1 (SIZE '1'), ...)
struct CreateCluster {
  std::string name;
  std::vector<Option> options;
  std::vector<ReplicaDefinition> replicas;
  bool has_replicas = false;  // REPLICAS (...) was written (possibly empty)
  bool operator==(const CreateCluster&) const = default;
};
// CREATE CLUSTER REPLICA c.r [(]SIZE [=] '1'[, ...][)]
struct CreateClusterReplica {
  std::string cluster;
  std::string replica;
  std::vector<Option> options;
  bool operator==(const CreateClusterReplica&) const = default;
};
struct CreateSchema {
  ObjectName name;
  bool if_not_exists = false;
  bool operator==(const CreateSchema&) const = default;
};

// DROP type [IF EXISTS] name, ... [CASCADE|RESTRICT].
// For kClusterReplica each name is {cluster, replica}.
struct DropObjects {
  ObjectType type = ObjectType::kTable;
  bool if_exists = false;
  std::vector<ObjectName> names;
  bool cascade = false;
  bool operator==(const DropObjects&) const = default;
};

// ALTER type [IF EXISTS] name RENAME TO new_name
struct AlterRename {
  ObjectType type = ObjectType::kTable;
  bool if_exists = false;
  ObjectName name;
  std::string new_name;
  bool operator==(const AlterRename&) const = default;
};

// ALTER TABLE [IF EXISTS] [ONLY] name ADD [CONSTRAINT c] PRIMARY KEY (cols)
// | UNIQUE (cols)
struct AlterTableAddConstraint {
  bool if_exists = false;
  ObjectName name;
  TableConstraint constraint;
  bool operator==(const AlterTableAddConstraint&) const = default;
};

// ALTER SYSTEM SET name {=|TO} value[, ...] | DEFAULT
struct AlterSystemSet {
  std::string name;
  std::vector<OptionValue> values;
  bool to_default = false;
  bool operator==(const AlterSystemSet&) const = default;
};
// ALTER SYSTEM RESET name | ALL
struct AlterSystemReset {
  std::string name;
  bool all = false;
  bool operator==(const AlterSystemReset&) const = default;
};

}  // namespace tandem::sql
