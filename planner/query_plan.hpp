#pragma once
// QueryPlan: a planned read (SELECT / VALUES) as plain data (STYLE #4).
//
// Today every plan is a *constant* relation: rows of expressions with no
// input but the statement's parameters (SELECT without FROM, VALUES),
// optionally filtered, then finished outside any dataflow the way
// Materialize finishes peeks: DISTINCT, ORDER BY, OFFSET, LIMIT, and the
// projection that drops ORDER BY's hidden columns. Queries over
// collections are planned by plan_read (planner/read_planner.hpp).
//
// Evaluation row: the parameters, in order ($1 is column 0).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/scalar_expr.hpp"
#include "common/types.hpp"

namespace tandem::planner {

struct OutputColumn {
  std::string name;
  ColumnType type;
};

struct SortKey {
  size_t column = 0;  // index into the evaluated row (hidden columns included)
  bool desc = false;
  bool nulls_first = false;
};

struct ConstantRelation {
  std::vector<std::vector<ScalarExpr>> rows;
  std::optional<ScalarExpr> filter;  // SELECT ... WHERE without FROM
};

struct QueryPlan {
  std::vector<OutputColumn> columns;  // the visible result columns
  ConstantRelation relation;          // each row: visible then hidden columns
  bool distinct = false;
  std::vector<SortKey> order_by;
  std::optional<ScalarExpr> limit;   // evaluated over the parameters
  std::optional<ScalarExpr> offset;
  bool may_block = false;            // calls pg_sleep: run off the I/O thread
  bool uses_session = false;         // calls current_user, current_database(), ...
};

}  // namespace tandem::planner
