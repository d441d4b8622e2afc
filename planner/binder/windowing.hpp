#pragma once
// QueryBinder::Windowing: the window functions of one SELECT (internal to
// planner/binder). Window functions are computed after WHERE, GROUP BY and
// HAVING, before the select list, as PostgreSQL does:
//
//   rel -> Map(partition, order and argument expressions that are not
//          already own columns) -> one hir::Window per distinct
//          (PARTITION BY, ORDER BY), each appending its functions' columns
//
// The select list and ORDER BY are then bound over `post` = the pre-window
// scope ++ the mapped columns ++ the function columns; a window call (matched
// structurally) binds to `values[i]` (a function column, or sum / count for
// avg). Frames, arguments and result types follow PostgreSQL 15;
// everything tandem does not compute is 0A000 naming it.
#include <vector>

#include "planner/binder/query_binder.hpp"

namespace tandem::planner {

struct QueryBinder::Windowing {
  std::vector<sql::Expr> asts;      // window calls, deduplicated
  std::vector<ScalarExpr> values;   // over the post-window row
  hir::Rel rel{hir::Constant{{Row()}, {}}};
  size_t own = 0;                   // own columns of `rel`
  Scope post;
};

// The window calls (function calls with OVER) in `e`, not descending into
// subqueries or into the window calls themselves.
void collect_window_calls(const sql::Expr& e, std::vector<const sql::Expr*>* out);
// True if the select list or the query's ORDER BY calls a window function.
bool has_window_calls(const sql::Select& select, const sql::Query* query);

}  // namespace tandem::planner
