#pragma once
// The variance and standard deviation aggregates, bound as arithmetic over
// accumulable sums (so maintained incrementally like sum and count):
// n = count(x), s1 = sum(x), s2 = sum(x * x) in numeric, and
//   var_pop  = (n * s2 - s1 * s1) / (n * n)        (NULL when n = 0)
//   var_samp = (n * s2 - s1 * s1) / (n * (n - 1))  (NULL when n < 2)
// with a numerator at or below zero answering 0, and the standard
// deviations the square root at the variance's own scale: PostgreSQL's
// numeric algorithm (numeric_stddev_internal), result scales included.
// Over real and double precision, the sum of squared deviations
// Sxx = (n * s2 - s1 * s1) / n is computed from exact numeric sums (the
// inputs through float8, 15 significant digits) and then divided, and its
// root taken, in double precision, as PostgreSQL's float8 aggregates do.
#include <functional>
#include <string_view>

#include "common/scalar_expr.hpp"
#include "common/status.hpp"
#include "compute/plan/aggregate.hpp"

namespace tandem::planner {

// True for stddev, stddev_pop, stddev_samp, variance, var_pop, var_samp.
bool is_variance_aggregate(std::string_view name);

// The value of `name`(x) over the aggregates `add` appends (it returns the
// column holding each). x is of a numeric type (integer, numeric, real or
// double precision).
Result<ScalarExpr> bind_variance(std::string_view name, ScalarExpr x,
                                 const std::function<ScalarExpr(compute::AggregateExpr)>& add);

}  // namespace tandem::planner
