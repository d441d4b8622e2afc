#pragma once
// PreparedLookup: a prepared statement's fast-path read planned once for any
// parameter values (PostgreSQL's "generic plan"), so that executing it again
// costs no binding or optimization.
//
// plan_prepared_lookup binds the query with each parameter $i+1 left as an
// opaque placeholder (VariadicFunc::kParameter, never constant-folded) and
// optimizes it once. When the result is a peek of an existing index whose
// key columns are all compared, by `key = value` predicates (or an IN
// list's OR of them), with values computed from parameters and literals
// only, the plan is kept with those value expressions; at each execution
// `keys(params)` evaluates them and packs the literal lookup keys. Anything
// else (a peek dataflow, a scan, parameters in the residual filter, in
// LIMIT/OFFSET, mz_now()) is not a prepared lookup: such statements are
// planned per execution as before.
//
// Semantics match planning with the values bound as literals: a NULL value
// matches no row (`key = NULL` is never true); a value that fails to
// evaluate (a cast error) is that error; duplicate keys of an IN list are
// looked up once (compute's read_peek deduplicates keys).
//
// A PreparedLookup is valid for the catalog it was planned against (the
// caller keys it by the catalog version, search path and cluster: see
// frontend/adapter/prepared_statement.hpp).
// Threading: a plain value; keys() is a const pure function.
#include <optional>
#include <span>
#include <vector>

#include "common/row.hpp"
#include "common/scalar_expr.hpp"
#include "common/status.hpp"
#include "compute/plan/map_filter_project.hpp"
#include "planner/catalog_reader.hpp"
#include "planner/parser/ast.hpp"
#include "planner/read_plan.hpp"

namespace tandem::planner {

struct PlanContext;

struct PreparedLookup {
  compute::GlobalId collection = 0;
  compute::GlobalId index_id = 0;
  // Applied to the looked-up rows; free of parameters.
  compute::MapFilterProject mfp;
  // key_values[k]: the alternatives for the index's key column k, each an
  // expression over the parameters only (ColumnRef i is parameter $i+1).
  std::vector<std::vector<ScalarExpr>> key_values;
  Finishing finishing;
  std::vector<OutputColumn> columns;

  // The lookup keys for `params` (one datum per parameter), packed in the
  // index's key order; a NULL value contributes no key.
  Result<std::vector<Row>> keys(std::span<const Datum> params) const;
};

// The cross product of each key column's values, packed in key order
// (numerics normalized, as arrangement keys are).
std::vector<Row> pack_lookup_keys(const std::vector<std::vector<Datum>>& values);

// nullopt when the query is not a prepared lookup (see above); an error
// when it does not bind (an unknown relation, ...). `param_types` as for
// plan_read.
Result<std::optional<PreparedLookup>> plan_prepared_lookup(const sql::Query& query, const CatalogReader& catalog,
                                                           std::vector<ColumnType>& param_types,
                                                           const PlanContext& ctx);

}  // namespace tandem::planner
