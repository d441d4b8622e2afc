// Aggregates of a Reduce, as plain data, with PostgreSQL's semantics:
//   count(*)            int8, counts rows (kCountAll; `expr` unused)
//   count(x)            int8, counts non-NULL x
//   sum(int2|int4)      int8          sum(int8) numeric
//   sum(numeric)        numeric       sum(float4|float8) float8
//   min(x), max(x)      type of x, any ordered type
//   string_agg(x, sep)  text; values in ascending byte order of x (the
//                       planner adds an ORDER BY-less deterministic order),
//                       separated by the value of `separator` (a literal)
//   array_agg(x)        x[]; NULL inputs included, values in ascending order
//                       of x with NULLs last (the planner adds that order)
// string_agg and array_agg with `order_by` (an aggregate's own ORDER BY)
// take their values in that order instead, values tied under it in the
// order above.
// NULL inputs are ignored (but by array_agg); over no non-NULL input every aggregate but count
// is NULL. `distinct` aggregates over the set of distinct non-NULL values
// (count(DISTINCT x)). avg is planned as sum and count followed by a Map
// that divides (as PostgreSQL's numeric avg). Overflow is an error value
// (22003) in the reduce's error collection, never a crash.
// Threading: plain value.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "common/scalar_expr.hpp"

namespace tandem::compute {

enum class AggregateFunc : std::uint8_t {
  kCountAll,
  kCount,
  kSumInt,      // int2/int4 input -> int8
  kSumInt8,     // int8 input -> numeric
  kSumNumeric,  // numeric -> numeric
  kSumFloat,    // float4/float8 -> float8
  kMin,
  kMax,
  kStringAgg,
  kArrayAgg,
};

// One item of an aggregate's own ORDER BY, evaluated over its input row.
struct AggregateOrder {
  ScalarExpr expr = ScalarExpr::null(ColumnType{TypeId::kInt8});
  bool desc = false;
  bool nulls_last = true;
  bool operator==(const AggregateOrder&) const = default;
};

struct AggregateExpr {
  AggregateFunc func = AggregateFunc::kCountAll;
  ScalarExpr expr = ScalarExpr::null(ColumnType{TypeId::kInt8});
  bool distinct = false;
  // kStringAgg only: the separator (evaluated per group on the first row).
  std::optional<ScalarExpr> separator;
  // kStringAgg, kArrayAgg only: the order of the values.
  std::vector<AggregateOrder> order_by;
  // kArrayAgg only (which keeps NULL values, so a FILTER cannot turn a
  // row's value into NULL as it does for the others): the rows whose
  // filter is not true are left out.
  std::optional<ScalarExpr> filter;
  bool operator==(const AggregateExpr&) const = default;
};

}  // namespace tandem::compute
