#pragma once
// EXPLAIN ... PLAN in the adapter: resolves the target cluster and, for
// EXPLAIN INDEX / MATERIALIZED VIEW <name>, the item's stored CREATE
// statement, then renders the plan with planner/explain/explain.hpp. Nothing
// is created or run.
// Threading: any thread (reads an immutable catalog snapshot).

#include <functional>
#include <memory>
#include <utility>
#include <string>
#include <vector>

#include "catalog/catalog_snapshot.hpp"
#include "frontend/adapter/exec_result.hpp"
#include "planner/parser/ast.hpp"

namespace tandem::frontend {

// How a cluster routes reads (its runtimes, read when it was created):
// (interactive runtime on, interactive dataflows on).
using ReadRouting = std::function<std::pair<bool, bool>(catalog::ClusterId)>;

// `cluster`: the session's cluster; `columns`: the prepared result column.
Result<ExecResult> explain_plan_statement(std::shared_ptr<const catalog::CatalogSnapshot> snapshot,
                                          const catalog::SearchPath& path, const std::string& cluster,
                                          const sql::Explain& explain, const std::vector<ColumnType>& param_types,
                                          std::vector<ResultColumn> columns, const ReadRouting& routing);

}  // namespace tandem::frontend
