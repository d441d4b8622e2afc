#pragma once
// Planning and executing reads. plan_query binds a query AST into a
// QueryPlan (fixing parameter types, as PostgreSQL's Parse does);
// execute_query runs a plan with parameter values.
// Threading: pure functions; plans are immutable and shareable.

#include <memory>
#include <vector>

#include "common/eval_context.hpp"
#include "common/row.hpp"
#include "common/status.hpp"
#include "planner/parser/ast.hpp"
#include "planner/query_plan.hpp"

namespace tandem::planner {

// `param_types` holds the types the client gave (kUnknown = infer) and is
// extended/updated with the inferred ones.
Result<std::shared_ptr<const QueryPlan>> plan_query(const sql::Query& query, std::vector<ColumnType>& param_types);

// Rows of the result, in the plan's order. `params` holds one datum per
// parameter.
Result<std::vector<Row>> execute_query(const QueryPlan& plan, const Row& params, EvalContext& ctx);

}  // namespace tandem::planner
