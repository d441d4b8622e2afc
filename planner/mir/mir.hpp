#pragma once
// MIR: the optimizable relational plan (Materialize's MirRelationExpr) as
// plain data (STYLE #4). Produced by planner/lowering/decorrelate.hpp,
// rewritten by planner/optimizer/, lowered to LIR by
// planner/lowering/lir_lowering.hpp.
//
// Every node's output is a multiset of rows of fixed arity. Expressions are
// ScalarExprs over the node's input row:
//   Constant   rows with multiplicities.
//   Get        a catalog collection by id (read from its index when one
//              exists, else from its source).
//   LocalGet   the value of an enclosing Let.
//   Let        binds `value` to `id` within `body` (the value is computed
//              once: a shared sub-plan).
//   Project    columns by index.
//   Map        appends one column per scalar (each may use earlier ones).
//   Filter     keeps rows where every predicate is true.
//   Join       the concatenation of the inputs' rows, restricted to rows
//              where, per equivalence class, all expressions (over the
//              concatenated row) are equal and non-NULL. `order` is filled
//              by join planning: the order in which inputs are joined
//              (empty: input order).
//   Reduce     group key values then one column per aggregate (no row for
//              an empty group: global aggregates get their default row from
//              the decorrelation).
//   Distinct   each row once.  Negate: diffs negated.
//   Threshold  rows with positive multiplicity.  Union: the sum.
//   TopK       per group of columns, rows [offset, offset + limit) in order.
//   FlatMap    input ++ the table function's columns.
//   Window     input ++ one column per window function, per partition of
//              columns (compute/plan/window.hpp).
// Threading: plain values.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/box.hpp"
#include "common/row.hpp"
#include "common/scalar_expr.hpp"
#include "compute/plan/aggregate.hpp"
#include "compute/plan/global_id.hpp"
#include "compute/plan/lir.hpp"

namespace tandem::planner::mir {

struct Rel;
using RelBox = Box<Rel>;

struct Constant {
  std::vector<std::pair<Row, Diff>> rows;
  std::vector<ColumnType> types;
};
struct Get {
  compute::GlobalId id = 0;
  std::string name;
  std::vector<ColumnType> types;
  std::vector<std::vector<size_t>> keys;  // known unique keys
};
struct LocalGet {
  uint64_t id = 0;
  std::vector<ColumnType> types;
};
struct Let {
  uint64_t id = 0;
  RelBox value;
  RelBox body;
};
struct Project {
  RelBox input;
  std::vector<size_t> outputs;
};
struct Map {
  RelBox input;
  std::vector<ScalarExpr> scalars;
};
struct Filter {
  RelBox input;
  std::vector<ScalarExpr> predicates;
};
struct Join {
  std::vector<Rel> inputs;
  std::vector<std::vector<ScalarExpr>> equivalences;
  std::vector<size_t> order;
};
struct Reduce {
  RelBox input;
  std::vector<ScalarExpr> group_key;
  std::vector<compute::AggregateExpr> aggregates;
};
struct Distinct {
  RelBox input;
};
struct Negate {
  RelBox input;
};
struct Threshold {
  RelBox input;
};
struct Union {
  std::vector<Rel> inputs;
};
struct TopK {
  RelBox input;
  std::vector<size_t> group_key;
  std::vector<compute::ColumnOrder> order;
  std::optional<int64_t> limit;
  int64_t offset = 0;
};
struct FlatMap {
  RelBox input;
  compute::TableFunc func = compute::TableFunc::kGenerateSeriesInt4;
  std::vector<ScalarExpr> args;
};

struct Window {
  RelBox input;
  std::vector<size_t> partition_by;
  std::vector<compute::ColumnOrder> order_by;
  std::vector<compute::WindowFunc> funcs;
};

struct Rel {
  using Node = std::variant<Constant, Get, LocalGet, Let, Project, Map, Filter, Join, Reduce, Distinct, Negate,
                            Threshold, Union, TopK, FlatMap, Window>;
  Node node;
};

// Output type of an aggregate (compute/plan/aggregate.hpp's rules).
ColumnType aggregate_type(const compute::AggregateExpr& agg);
// A union's column types: the first input's, nullable where any input is.
std::vector<ColumnType> union_types(const std::vector<std::vector<ColumnType>>& inputs);
// The column a table function appends.
// The output columns a table function appends to its input row.
std::vector<ColumnType> table_func_types(compute::TableFunc func, const std::vector<ScalarExpr>& args);

// Output column types (nullability inferred: outer-join padding, NOT NULL
// columns, filters on IS NOT NULL and on strict predicates).
std::vector<ColumnType> column_types(const Rel& rel);
size_t arity(const Rel& rel);
// Known unique keys of the output, each a sorted set of columns (a Reduce's
// group key, Distinct's whole row, a Get's catalog keys, through Project,
// Map, Filter, TopK with limit 1 per group, and Join's combinations).
std::vector<std::vector<size_t>> unique_keys(const Rel& rel);

// The canonical empty-row relation: one row with no columns.
Rel unit();
Rel empty(std::vector<ColumnType> types);
bool is_unit(const Rel& rel);
bool is_empty_constant(const Rel& rel);

// Builders that keep trivial nodes out of the plan.
Rel project(Rel input, std::vector<size_t> outputs);
Rel map(Rel input, std::vector<ScalarExpr> scalars);
Rel filter(Rel input, std::vector<ScalarExpr> predicates);
Rel negate(Rel input);
Rel distinct(Rel input);
Rel union_all(std::vector<Rel> inputs);
// A binary join with equivalences given as pairs of (lhs column, rhs column)
// over the lhs and rhs rows.
Rel join(Rel lhs, Rel rhs, const std::vector<std::pair<ScalarExpr, ScalarExpr>>& equal);

// Rewrites every ColumnRef through `f` (index -> new index).
template <class F>
void remap_columns(ScalarExpr& e, const F& f);
ScalarExpr shift_columns(ScalarExpr e, int64_t delta);

// Visits every direct child relation.
template <class F>
void for_each_child(Rel& rel, const F& f);
template <class F>
void for_each_child(const Rel& rel, const F& f);

// Multi-line EXPLAIN text, two spaces per level.
std::string explain(const Rel& rel, int indent = 0);

}  // namespace tandem::planner::mir

#include "planner/mir/mir_inl.hpp"
