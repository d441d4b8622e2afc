#include "planner/binder/variance.hpp"

#include "common/func_resolve.hpp"

namespace tandem::planner {

bool is_variance_aggregate(std::string_view name) {
  return name == "stddev" || name == "stddev_pop" || name == "stddev_samp" || name == "variance" ||
         name == "var_pop" || name == "var_samp";
}

Result<ScalarExpr> bind_variance(std::string_view name, ScalarExpr x,
                                 const std::function<ScalarExpr(compute::AggregateExpr)>& add) {
  const TypeId input = x.type().id;
  const bool floating = input == TypeId::kFloat4 || input == TypeId::kFloat8;
  const bool sample = name != "var_pop" && name != "stddev_pop";
  const bool root = name.starts_with("stddev");
  const ColumnType numeric{TypeId::kNumeric};
  if (input == TypeId::kFloat4) {
    TANDEM_ASSIGN_OR_RETURN(x, make_cast(std::move(x), ColumnType{TypeId::kFloat8}, CastContext::kImplicit));
  }
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr xn, make_cast(x, numeric, CastContext::kExplicit));
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr square, resolve_operator("*", {xn, xn}));
  const ScalarExpr n = add({compute::AggregateFunc::kCount, x, false, std::nullopt});
  const ScalarExpr s1 = add({compute::AggregateFunc::kSumNumeric, xn, false, std::nullopt});
  const ScalarExpr s2 = add({compute::AggregateFunc::kSumNumeric, std::move(square), false, std::nullopt});

  TANDEM_ASSIGN_OR_RETURN(ScalarExpr nn, make_cast(n, numeric, CastContext::kImplicit));
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr n_s2, resolve_operator("*", {nn, s2}));
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr s1_s1, resolve_operator("*", {s1, s1}));
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr numerator, resolve_operator("-", {std::move(n_s2), std::move(s1_s1)}));
  const ScalarExpr zero = ScalarExpr::literal(Datum::from_numeric(Numeric::from_int(0)), numeric);
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr not_positive, resolve_operator("<=", {numerator, zero}));
  ScalarExpr value = ScalarExpr::null(ColumnType{});
  if (floating) {
    // PostgreSQL's float8 path: Sxx / N or Sxx / (N - 1), the root taken
    // in double precision; here Sxx = (n * s2 - s1 * s1) / n, exact up to
    // the division.
    const ColumnType f8{TypeId::kFloat8};
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr fn, make_cast(n, f8, CastContext::kImplicit));
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr fnum, make_cast(numerator, f8, CastContext::kExplicit));
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr sxx, resolve_operator("/", {std::move(fnum), fn}));
    ScalarExpr divisor = fn;
    if (sample) {
      TANDEM_ASSIGN_OR_RETURN(divisor, resolve_operator("-", {fn, ScalarExpr::literal(Datum::from_float64(1), f8)}));
    }
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr var, resolve_operator("/", {std::move(sxx), std::move(divisor)}));
    ColumnType type = f8;
    type.nullable = true;
    value = ScalarExpr::if_then_else(std::move(not_positive), ScalarExpr::literal(Datum::from_float64(0), f8),
                                     std::move(var), type);
    if (root) value = ScalarExpr::unary(UnaryFunc::kSqrtFloat8, std::move(value), type);
  } else {
    // numeric_stddev_internal: (n * s2 - s1 * s1) / (n * n) or
    // / (n * (n - 1)) at the division's scale, the root at the same scale.
    ScalarExpr other = nn;
    if (sample) {
      TANDEM_ASSIGN_OR_RETURN(
          other, resolve_operator("-", {nn, ScalarExpr::literal(Datum::from_numeric(Numeric::from_int(1)), numeric)}));
    }
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr denominator, resolve_operator("*", {nn, std::move(other)}));
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr quotient, resolve_operator("/", {std::move(numerator), std::move(denominator)}));
    ColumnType type = numeric;
    type.nullable = true;
    value = ScalarExpr::if_then_else(std::move(not_positive), zero, std::move(quotient), type);
    if (root) value = ScalarExpr::unary(UnaryFunc::kSqrtNumericOwnScale, std::move(value), type);
  }
  // Too few rows: NULL (the division is not reached).
  ColumnType result_type = value.type();
  const ScalarExpr least = ScalarExpr::literal(Datum::from_int64(sample ? 2 : 1), ColumnType{TypeId::kInt8});
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr enough, resolve_operator(">=", {n, least}));
  value = ScalarExpr::if_then_else(std::move(enough), std::move(value), ScalarExpr::null(result_type), result_type);
  return value;
}

}  // namespace tandem::planner
