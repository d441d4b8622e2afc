#pragma once
// QueryBinder::Grouping: the GROUP BY context of one SELECT (internal to
// planner/binder). Expressions after grouping are bound over the row
// outer ++ group keys ++ aggregate columns: a GROUP BY expression (matched
// structurally, as PostgreSQL does) binds to its key column, an aggregate
// call to its value (a column, or sum/count for avg).
#include <vector>

#include "planner/binder/query_binder.hpp"

namespace tandem::planner {

struct QueryBinder::Grouping {
  std::vector<sql::Expr> key_asts;
  std::vector<ScalarExpr> keys;        // over outer ++ FROM
  size_t base = 0;                     // outer width
  std::vector<sql::Expr> agg_asts;     // aggregate calls, deduplicated
  std::vector<ScalarExpr> agg_values;  // over the post-grouping row
  std::vector<compute::AggregateExpr> aggregates;
  Scope post;
};

// True when PostgreSQL has min() and max() over `t` (not bytea, json or
// jsonb: there they are 42883, "function max(jsonb) does not exist").
bool min_max_accepts(TypeId t);
// True for the aggregate function names tandem knows (supported or not).
bool is_aggregate_name(const std::string& name);
// The aggregate calls in `e`, not descending into subqueries or aggregates.
void collect_aggregates(const sql::Expr& e, std::vector<const sql::Expr*>* out);

}  // namespace tandem::planner
