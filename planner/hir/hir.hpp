#pragma once
// HIR: the bound relational plan (Materialize's HirRelationExpr) as plain
// data. The binder produces it; planner/lowering/decorrelate.hpp turns it
// into MIR.
//
// Column layout ("binding layout"). Every expression inside a relation is
// bound over the row `outer ++ own`: the columns of all enclosing scopes (for
// a subquery: the full row of the relation it is applied to), followed by the
// relation's own input columns. Scopes only ever extend their enclosing
// layout, so a ColumnRef whose index is below a relation's outer width is a
// correlated (outer) reference, at any depth. A relation's *output* is its own
// columns only; the lowering prefixes the outer columns (the apply).
//
// Nodes:
//   Get        a catalog collection (table, materialized view, ...).
//   Constant   literal rows.
//   Project    own output columns by index (into the input's own columns).
//   Map        appends one column per expression (over outer ++ input).
//   Filter     keeps rows where every predicate is true.
//   Join       left ++ right, ON over outer ++ left ++ right; inner, left,
//              right or full outer (outer joins pad with NULLs).
//   Reduce     group key expressions then aggregates; a global aggregate
//              (no key) yields exactly one row, also for an empty input.
//   Distinct, Negate, Threshold, Union: as in MIR.
//   TopK       ORDER BY/LIMIT/OFFSET of a subquery (order over own columns).
//   FlatMap    input ++ generate_series(args) (args over outer ++ input).
//   Window     input ++ one column per window function
//              (compute/plan/window.hpp); partition, order and argument
//              columns are own input columns.
//   Apply      input ++ one column per subquery: a scalar subquery's single
//              value (NULL for no row; several rows for one outer row are
//              the evaluation error 21000 "more than one record produced in
//              subquery", raised in the dataflow) or EXISTS's bool.
//              The subqueries are bound over outer ++ input.
// Threading: plain values.

#include <cstdint>
#include <functional>
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
#include "compute/plan/table_func.hpp"

namespace tandem::planner::hir {

struct Rel;

struct Get {
  compute::GlobalId id = 0;
  std::string name;
  std::vector<ColumnType> types;
};
struct Constant {
  std::vector<Row> rows;
  std::vector<ColumnType> types;
};
struct Project {
  Box<Rel> input;
  std::vector<size_t> columns;
};
struct Map {
  Box<Rel> input;
  std::vector<ScalarExpr> exprs;
};
struct Filter {
  Box<Rel> input;
  std::vector<ScalarExpr> predicates;
};
enum class JoinKind : uint8_t { kInner, kLeft, kRight, kFull };
struct Join {
  Box<Rel> left;
  Box<Rel> right;
  ScalarExpr on = ScalarExpr::literal(Datum::from_bool(true), ColumnType{TypeId::kBool, -1, false});
  JoinKind kind = JoinKind::kInner;
};
struct Reduce {
  Box<Rel> input;
  std::vector<ScalarExpr> group_key;
  std::vector<compute::AggregateExpr> aggregates;
};
struct Distinct {
  Box<Rel> input;
};
struct Negate {
  Box<Rel> input;
};
struct Threshold {
  Box<Rel> input;
};
struct Union {
  std::vector<Rel> inputs;
};
struct TopK {
  Box<Rel> input;
  std::vector<compute::ColumnOrder> order;  // own columns
  std::optional<int64_t> limit;
  int64_t offset = 0;
  std::vector<size_t> group_key;  // own columns: limit and offset apply per group
};
struct FlatMap {
  Box<Rel> input;
  compute::TableFunc func = compute::TableFunc::kGenerateSeriesInt4;
  std::vector<ScalarExpr> args;
};
struct Window {
  Box<Rel> input;
  std::vector<size_t> partition_by;
  std::vector<compute::ColumnOrder> order_by;
  std::vector<compute::WindowFunc> funcs;
};
struct Subquery {
  enum class Kind : uint8_t { kScalar, kExists };
  Kind kind = Kind::kExists;
  Box<Rel> rel;
};
struct Apply {
  Box<Rel> input;
  std::vector<Subquery> subqueries;
};

struct Rel {
  using Node = std::variant<Get, Constant, Project, Map, Filter, Join, Reduce, Distinct, Negate, Threshold, Union,
                            TopK, FlatMap, Apply, Window>;
  Node node;
};

// Parameters ($n) bind to ColumnRef{kParamBase + n - 1}; the read planner
// replaces them by literals before lowering.
inline constexpr size_t kParamBase = size_t{1} << 24;

// Calls f(ScalarExpr&) on every expression of `rel`, nested subqueries
// included.
void for_each_expr(Rel& rel, const std::function<void(ScalarExpr&)>& f);
// Adds `delta` to every column reference in [from, kParamBase): re-roots a
// relation bound at outer width `from` (a CTE or view) under a wider scope.
void shift_columns(Rel& rel, size_t from, int64_t delta);

// The own output column types of `rel`, whose outer width is `outer` (the
// types of outer columns are not needed: expressions carry theirs).
std::vector<ColumnType> column_types(const Rel& rel);
inline size_t arity(const Rel& rel) { return column_types(rel).size(); }

// True if some expression in `rel` (at any depth, subqueries included)
// references a binding column in [lo, hi).
bool references(const Rel& rel, size_t lo, size_t hi);
bool references(const ScalarExpr& e, size_t lo, size_t hi);

// True when `rel` provably yields at most one row per outer row (a global
// aggregate, LIMIT 1, a constant of one row, through Project, Map, Filter,
// Distinct and Apply).
bool at_most_one_row(const Rel& rel);

// The type of a subquery's value column for Apply (scalar: its only column,
// nullable; exists: non-null bool).
ColumnType subquery_type(const Subquery& s);

}  // namespace tandem::planner::hir
