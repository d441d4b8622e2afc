#pragma once
// RETURNING: the items of INSERT, UPDATE or DELETE ... RETURNING, bound over
// the written table's row (its columns, qualified by the table's name or
// alias) followed by the statement's parameters, and evaluated over the
// rows the statement wrote: the inserted rows, an UPDATE's new rows, a
// DELETE's removed rows, in the order the write holds them. The rows are
// the statement's result only once its write has committed (or joined the
// transaction).
// Threading: pure.

#include <string>
#include <vector>

#include "catalog/catalog_snapshot.hpp"
#include "common/eval_context.hpp"
#include "common/scalar_expr.hpp"
#include "frontend/adapter/exec_result.hpp"
#include "frontend/coord/coordinator.hpp"
#include "planner/parser/ast.hpp"

namespace tandem::frontend {

struct BoundReturning {
  std::vector<ScalarExpr> exprs;  // over (table row ++ parameters)
  std::vector<ResultColumn> columns;
  bool empty() const { return exprs.empty(); }
};

// Binds `items` (`*` and `qualifier.*` expand to the table's columns).
// Aggregates and subqueries are refused as in a select list without FROM
// context (0A000 / 42803).
Result<BoundReturning> bind_returning(const std::vector<sql::SelectItem>& items, const catalog::RelationDesc& desc,
                                      const std::string& qualifier, std::vector<ColumnType>& param_types);

// The statement's result: `tag`, and with RETURNING the items over each
// row of `write` whose diff has the sign `sign` (+1: rows added, -1: rows
// removed), repeated by multiplicity.
Result<ExecResult> returning_result(const BoundReturning& returning, const TableWrite& write, int sign,
                                    const Row& params, EvalContext& ctx, std::string tag);

}  // namespace tandem::frontend
