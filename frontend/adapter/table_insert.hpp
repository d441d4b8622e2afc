#pragma once
// INSERT: binding (at Parse, fixing parameter types, as PostgreSQL does) and
// evaluation (at Execute) of the rows to add to a table. Each value is
// coerced to its column's type with assignment-cast rules; omitted columns
// take their DEFAULT (or NULL); NOT NULL is enforced here (23502), unique
// keys by the coordinator when it sequences the write (23505).
// Threading: pure over an immutable catalog snapshot.

#include <memory>
#include <optional>
#include <vector>

#include "catalog/catalog_snapshot.hpp"
#include "common/eval_context.hpp"
#include "common/scalar_expr.hpp"
#include "frontend/adapter/returning.hpp"
#include "frontend/coord/coordinator.hpp"
#include "planner/parser/ast.hpp"

namespace tandem::frontend {

struct BoundInsert {
  compute::GlobalId table = 0;
  std::string table_name;
  catalog::RelationDesc desc;
  std::vector<bool> not_null;
  // One full-width row of expressions per inserted row, evaluated over the
  // statement's parameters.
  std::vector<std::vector<ScalarExpr>> rows;
  bool may_block = false;
  // INSERT ... SELECT: the query whose rows are inserted (into `targets`),
  // with its output types; `defaults` fill the other columns.
  std::optional<sql::Query> source;
  std::vector<ColumnType> source_types;
  std::vector<size_t> targets;
  std::vector<ScalarExpr> defaults;
  BoundReturning returning;
};

Result<std::shared_ptr<BoundInsert>> bind_insert(const catalog::CatalogSnapshot& snapshot,
                                                       const catalog::SearchPath& path, const sql::Insert& insert,
                                                       std::vector<ColumnType>& param_types);

Result<TableWrite> evaluate_insert(const BoundInsert& insert, const Row& params, EvalContext& ctx);

// INSERT ... SELECT: the write adding `rows` (the query's result).
Result<TableWrite> evaluate_insert_select(const BoundInsert& insert, const std::vector<Row>& rows, const Row& params,
                                          EvalContext& ctx);

}  // namespace tandem::frontend
