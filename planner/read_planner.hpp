#pragma once
// Planning reads, indexes and views over collections:
//   SQL AST -> HIR (binder) -> MIR (decorrelate) -> optimized MIR -> a
//   ReadPlan (fast path or peek dataflow) / a DataflowDescription.
// Parameters are bound as literals before optimization (a prepared
// statement is planned per execution, as Materialize does).
// Threading: pure functions over the CatalogReader.
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "catalog/relation_desc.hpp"
#include "common/eval_context.hpp"
#include "common/timestamp.hpp"
#include "planner/catalog_reader.hpp"
#include "planner/optimizer/optimizer.hpp"
#include "planner/parser/ast.hpp"
#include "planner/read_plan.hpp"

namespace tandem::planner {

struct PlanTrace;

struct PlanContext {
  std::function<compute::GlobalId()> allocate_id;  // transient ids for dataflows/objects
  Timestamp as_of = kMinTimestamp;
  OptimizerOptions optimizer;
  // EXPLAIN: when set, planning records its intermediate plans here
  // (planner/explain/plan_trace.hpp).
  PlanTrace* trace = nullptr;
  // The value of mz_now() in plan_read (the query's timestamp). mz_now()
  // anywhere else (views, indexes, materialized views) is 0A000: temporal
  // filters are not supported.
  std::optional<Timestamp> mz_now;
  // The values of now() (microseconds since 2000-01-01 UTC) and of the
  // session functions (current_user, current_database(), current_schema)
  // in plan_read. Anywhere else (indexes, materialized views, the dataflows
  // that maintain them) these calls are 0A000: compute has no statement or
  // session to take them from.
  std::optional<int64_t> statement_time;
  const SessionValues* session = nullptr;
  // plan_read in a transaction with uncommitted writes: per table, its
  // consolidated updates (row, diff). The read sees each listed table as its
  // contents at the read's timestamp plus these.
  const std::map<compute::GlobalId, std::vector<std::pair<Row, Diff>>>* pending_writes = nullptr;
};

// `param_types` as for plan_query; `params` one datum per parameter.
Result<ReadPlan> plan_read(const sql::Query& query, const CatalogReader& catalog, std::vector<ColumnType>& param_types,
                           const std::vector<Datum>& params, const PlanContext& ctx);

// CREATE INDEX: the dataflow that imports the item and exports `index_id`
// keyed by the index expressions (DEFAULT INDEX: a unique key, else all
// columns).
Result<compute::DataflowDescription> plan_index(const sql::CreateIndex& index, compute::GlobalId index_id,
                                                const CatalogReader& catalog, const PlanContext& ctx);

// CREATE VIEW: validates the definition; the view's RelationDesc.
Result<catalog::RelationDesc> plan_view(const sql::Query& query, const std::vector<std::string>& column_names,
                                        const CatalogReader& catalog);

// CREATE MATERIALIZED VIEW: the dataflow computing it, exported (for now) as
// an index `export_id` on all columns. The sink to a shard is the
// coordinator's part.
Result<compute::DataflowDescription> plan_materialized_view(const sql::Query& query, compute::GlobalId export_id,
                                                            const CatalogReader& catalog, const PlanContext& ctx);

}  // namespace tandem::planner
