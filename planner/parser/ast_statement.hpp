#pragma once
// Statement: the root of the AST, a variant over every statement kind the
// parser recognises. Statement kinds that are recognised by their leading
// keywords but not supported by tandem parse to Unsupported{what}, so the
// executor answers 0A000 "<what> not supported" instead of a syntax error.

#include <string>
#include <variant>
#include <vector>

#include "planner/parser/ast_dml.hpp"
#include "planner/parser/ast_role.hpp"
#include "planner/parser/ast_session.hpp"
#include "planner/parser/ast_show.hpp"

namespace tandem::sql {

struct Statement;

struct SelectStatement {
  Query query;
  bool operator==(const SelectStatement&) const = default;
};

// DECLARE c CURSOR [WITH HOLD|WITHOUT HOLD] FOR {query | SUBSCRIBE ...}
struct Declare {
  std::string name;
  bool hold = false;
  Box<Statement> statement;
  bool operator==(const Declare&) const = default;
};

// PREPARE p [(types)] AS statement
struct Prepare {
  std::string name;
  std::vector<TypeName> param_types;
  Box<Statement> statement;
  bool operator==(const Prepare&) const = default;
};

// e.g. what = "CREATE TRIGGER", "GRANT", "ALTER TABLE ADD COLUMN".
struct Unsupported {
  std::string what;
  bool operator==(const Unsupported&) const = default;
};

struct Statement {
  using Node = std::variant<
      SelectStatement,
      // session
      SetVariable, ResetVariable, ShowVariable, StartTransaction, SetTransaction, Commit,
      Rollback, Discard, Maintenance,
      // DDL
      CreateTable, CreateView, CreateMaterializedView, CreateIndex, CreateCluster,
      CreateClusterReplica, CreateSchema, DropObjects, AlterRename, AlterTableAddConstraint, AlterSystemSet,
      AlterSystemReset,
      // roles and privileges
      CreateRole, AlterRole, DropRole, GrantPrivileges, GrantRole, AlterOwner,
      // DML
      Insert, Update, Delete, Truncate, Copy, Subscribe,
      // cursors and prepared statements
      Declare, Fetch, Close, Prepare, Execute, Deallocate, Savepoint,
      // introspection
      ShowObjects, ShowColumns, ShowCreate, Explain, Unsupported>;
  Node node;
  SourcePos pos;
  bool operator==(const Statement&) const = default;

  template <class T>
  const T* as() const { return std::get_if<T>(&node); }
  template <class T>
  T* as() { return std::get_if<T>(&node); }
};

// A statement with its slice of the original text: `sql` is used as an
// item's create_sql and for logging. AST positions are byte offsets into the
// whole text passed to parse_statements; `offset` is where `sql` starts.
struct ParsedStatement {
  Statement statement;
  std::string sql;
  uint32_t offset = 0;
};

}  // namespace tandem::sql
