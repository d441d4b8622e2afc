#pragma once
// The query AST: SELECT blocks, set operations, VALUES, FROM items, CTEs and
// Materialize's AS OF. Plain data, like ast_expr.hpp.
//
// Shape: Query = [WITH ctes] body [ORDER BY] [LIMIT] [OFFSET] [AS OF]; the
// body is a SetExpr tree whose leaves are Select, Values or a parenthesized
// Query (which may carry its own ORDER BY/LIMIT). `TABLE t` is desugared to
// `SELECT * FROM t`; FETCH FIRST n ROWS ONLY is stored as LIMIT n.

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "planner/parser/ast_expr.hpp"

namespace tandem::sql {

// [AS] name [(col, ...)]
struct TableAlias {
  std::string name;
  std::vector<std::string> columns;
  bool operator==(const TableAlias&) const = default;
};

struct TableRef;

// schema.table [AS a (cols)]
struct TableName {
  ObjectName name;
  std::optional<TableAlias> alias;
  bool operator==(const TableName&) const = default;
};
// [LATERAL] (query) [AS] a
struct DerivedTable {
  bool lateral = false;
  Box<Query> query;
  std::optional<TableAlias> alias;
  bool operator==(const DerivedTable&) const = default;
};
// [LATERAL] generate_series(1, 10) [WITH ORDINALITY] [AS] g(x)
struct TableFunction {
  bool lateral = false;
  FunctionCall call;
  bool with_ordinality = false;
  std::optional<TableAlias> alias;
  bool operator==(const TableFunction&) const = default;
};
struct Join {
  enum class Kind : uint8_t { kInner, kLeft, kRight, kFull, kCross };
  Kind kind = Kind::kInner;
  bool natural = false;
  Box<TableRef> left;
  Box<TableRef> right;
  Box<Expr> on;                     // ON expr
  std::vector<std::string> using_columns;  // USING (a, b)
  std::optional<std::string> using_alias;  // USING (a, b) AS j: j.a names the merged a
  bool operator==(const Join&) const = default;
};
// (a JOIN b ...) [AS alias]: a parenthesized join tree.
struct NestedJoin {
  Box<TableRef> join;
  std::optional<TableAlias> alias;
  bool operator==(const NestedJoin&) const = default;
};

struct TableRef {
  std::variant<TableName, DerivedTable, TableFunction, Join, NestedJoin> node;
  SourcePos pos;
  bool operator==(const TableRef&) const = default;
};

// One select-list entry; wildcards are Star expressions.
struct SelectItem {
  Expr expr;
  std::optional<std::string> alias;
  bool operator==(const SelectItem&) const = default;
};

// WINDOW name AS (spec)
struct NamedWindow {
  std::string name;
  WindowSpec spec;
  bool operator==(const NamedWindow&) const = default;
};

struct Select {
  enum class Distinct : uint8_t { kNone, kDistinct, kDistinctOn };
  Distinct distinct = Distinct::kNone;  // SELECT ALL is kNone
  std::vector<Expr> distinct_on;
  std::vector<SelectItem> projection;
  std::vector<TableRef> from;  // comma-separated items (implicit cross joins)
  Box<Expr> where;
  std::vector<Expr> group_by;
  Box<Expr> having;
  std::vector<NamedWindow> windows;  // WINDOW w AS (...), ...
  SourcePos pos;
  bool operator==(const Select&) const = default;
};

struct Values {
  std::vector<std::vector<Expr>> rows;
  SourcePos pos;
  bool operator==(const Values&) const = default;
};

struct SetExpr;
// UNION / INTERSECT / EXCEPT. `all` is false for the default DISTINCT.
struct SetOperation {
  enum class Op : uint8_t { kUnion, kIntersect, kExcept };
  Op op = Op::kUnion;
  bool all = false;
  Box<SetExpr> left;
  Box<SetExpr> right;
  bool operator==(const SetOperation&) const = default;
};

struct SetExpr {
  std::variant<Select, Values, SetOperation, Box<Query>> node;
  bool operator==(const SetExpr&) const = default;
};

struct Cte {
  std::string name;
  std::vector<std::string> columns;
  Box<Query> query;
  SourcePos pos;
  bool operator==(const Cte&) const = default;
};

// Materialize: AS OF [AT LEAST] expr.
struct AsOf {
  bool at_least = false;
  Expr time;
  bool operator==(const AsOf&) const = default;
};

struct Query {
  bool recursive = false;
  std::vector<Cte> ctes;
  SetExpr body;
  std::vector<OrderByItem> order_by;
  Box<Expr> limit;   // null: no LIMIT (or LIMIT ALL)
  Box<Expr> offset;  // null: no OFFSET
  std::optional<AsOf> as_of;
  SourcePos pos;
  bool operator==(const Query&) const = default;
};

}  // namespace tandem::sql
