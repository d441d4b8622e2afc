#pragma once
// UPDATE, DELETE and TRUNCATE: read-then-write statements. Each is bound at
// Parse into the read of the affected rows (a SELECT over the table with the
// statement's WHERE) and, for UPDATE, the new value of each assigned column
// as an expression over the old row followed by the parameters. Executed on
// the coordinator under its modification lock: read at the oracle's read
// timestamp, then retract the old rows (and insert the new ones) in one
// write, so two such statements never interleave.
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

struct BoundModify {
  enum class Kind : uint8_t { kUpdate, kDelete };
  Kind kind = Kind::kDelete;
  compute::GlobalId table = 0;
  std::string table_name;
  catalog::RelationDesc desc;
  std::vector<bool> not_null;
  sql::Query read;  // SELECT * FROM table [alias] [WHERE ...]
  // UPDATE: per column, its new value over (old row ++ parameters).
  std::vector<std::optional<ScalarExpr>> assignments;
  // UPDATE's new rows or DELETE's removed rows, when RETURNING is given.
  BoundReturning returning;
};

Result<std::shared_ptr<const BoundModify>> bind_update(const catalog::CatalogSnapshot& snapshot,
                                                       const catalog::SearchPath& path, const sql::Update& update,
                                                       std::vector<ColumnType>& param_types);
Result<std::shared_ptr<const BoundModify>> bind_delete(const catalog::CatalogSnapshot& snapshot,
                                                       const catalog::SearchPath& path, const sql::Delete& del,
                                                       std::vector<ColumnType>& param_types);
// TRUNCATE t: DELETE without WHERE.
Result<std::shared_ptr<const BoundModify>> bind_truncate(const catalog::CatalogSnapshot& snapshot,
                                                         const catalog::SearchPath& path, const sql::ObjectName& table);

// The write that applies the statement to `old_rows` (the read's result);
// `*affected` counts the rows updated or deleted.
// The statement's result: its tag (UPDATE n, DELETE n, TRUNCATE TABLE) and,
// with RETURNING, the items over `write`'s new (UPDATE) or removed (DELETE)
// rows.
Result<ExecResult> modify_result(const sql::Statement& s, const BoundModify& modify, const TableWrite& write,
                                 int64_t affected, const Row& params, EvalContext& ctx);

Result<TableWrite> apply_modify(const BoundModify& modify, const std::vector<std::pair<Row, Diff>>& old_rows,
                                const Row& params, EvalContext& ctx, int64_t* affected);

}  // namespace tandem::frontend
