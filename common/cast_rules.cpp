// can_cast and make_cast (declared in common/func_resolve.hpp): pg_cast's
// table for the supported types.
#include "common/eval.hpp"
#include "common/func_resolve.hpp"
#include "common/sqlstate.hpp"

namespace tandem {
namespace {

// 0 implicit, 1 assignment, 2 explicit, 3 impossible.
int cast_level(TypeId from, TypeId to) {
  using T = TypeId;
  if (from == to) return 0;
  if (from == T::kUnknown) return 0;
  if (to == T::kUnknown) return 3;
  const bool to_str = to == T::kText || to == T::kVarchar || to == T::kBpchar;
  if (to_str) return is_string_type(from) ? 0 : 1;
  if (is_string_type(from)) return 2;
  if (is_array_type(from) || is_array_type(to)) {
    // Array coercions take their elements' cast context.
    if (!is_array_type(from) || !is_array_type(to)) return 3;
    return cast_level(array_element_type(from), array_element_type(to));
  }
  switch (from) {
    case T::kInt2:
      if (to == T::kInt4 || to == T::kInt8 || to == T::kFloat4 || to == T::kFloat8 || to == T::kNumeric ||
          to == T::kOid || to == T::kMzTimestamp) return 0;
      break;
    case T::kInt4:
      if (to == T::kInt8 || to == T::kFloat4 || to == T::kFloat8 || to == T::kNumeric || to == T::kOid ||
          to == T::kMzTimestamp) return 0;
      if (to == T::kInt2) return 1;
      if (to == T::kBool) return 2;
      break;
    case T::kInt8:
      if (to == T::kFloat4 || to == T::kFloat8 || to == T::kNumeric || to == T::kOid || to == T::kMzTimestamp) return 0;
      if (to == T::kInt2 || to == T::kInt4) return 1;
      break;
    case T::kFloat4:
      if (to == T::kFloat8) return 0;
      if (to == T::kInt2 || to == T::kInt4 || to == T::kInt8 || to == T::kNumeric) return 1;
      break;
    case T::kFloat8:
      if (to == T::kFloat4 || to == T::kInt2 || to == T::kInt4 || to == T::kInt8 || to == T::kNumeric) return 1;
      break;
    case T::kNumeric:
      if (to == T::kFloat4 || to == T::kFloat8 || to == T::kMzTimestamp) return 0;
      if (to == T::kInt2 || to == T::kInt4 || to == T::kInt8) return 1;
      break;
    case T::kBool:
      if (to == T::kInt4) return 2;
      break;
    case T::kOid:
      if (to == T::kInt4 || to == T::kInt8) return 1;
      break;
    case T::kDate:
      if (to == T::kTimestamp || to == T::kTimestampTz || to == T::kMzTimestamp) return 0;
      break;
    case T::kTimestamp:
      if (to == T::kTimestampTz || to == T::kMzTimestamp) return 0;
      if (to == T::kDate || to == T::kTime) return 1;
      break;
    case T::kTimestampTz:
      if (to == T::kMzTimestamp) return 0;
      if (to == T::kTimestamp || to == T::kDate || to == T::kTime) return 1;
      break;
    case T::kTime:
      if (to == T::kInterval) return 0;
      break;
    case T::kInterval:
      if (to == T::kTime) return 1;
      break;
    case T::kMzTimestamp:
      if (to == T::kTimestamp || to == T::kTimestampTz) return 2;
      break;
    case T::kJson:
      if (to == T::kJsonb) return 1;
      break;
    case T::kJsonb:
      if (to == T::kJson) return 1;
      if (to == T::kBool || to == T::kNumeric || to == T::kInt2 || to == T::kInt4 || to == T::kInt8 ||
          to == T::kFloat4 || to == T::kFloat8) return 2;
      break;
    default:
      break;
  }
  return 3;
}

}  // namespace

bool can_cast(TypeId from, TypeId to, CastContext context) {
  return cast_level(from, to) <= static_cast<int>(context);
}

Result<ScalarExpr> make_cast(ScalarExpr expr, ColumnType target, CastContext context) {
  const ColumnType from = expr.type();
  target.nullable = from.nullable;
  if (from.same_type(target)) return expr;
  // Typmod-only changes of the same type are always allowed.
  if (from.id != target.id && !can_cast(from.id, target.id, context)) {
    return Status::error(sqlstate::kCannotCoerce,
                         "cannot cast type " + format_type(from) + " to " + format_type(target));
  }
  const UnaryFunc f = context == CastContext::kExplicit ? UnaryFunc::kCast : UnaryFunc::kCastAssign;
  if (expr.is_literal()) {
    const Literal& lit = std::get<Literal>(expr.node);
    RowArena arena;
    const Datum d = unpack_one(lit.row, &arena);
    TANDEM_ASSIGN_OR_RETURN(Datum out, cast_datum(d, from, target, f == UnaryFunc::kCast, arena));
    return ScalarExpr::literal(out, target);
  }
  return ScalarExpr::unary(f, std::move(expr), target);
}

}  // namespace tandem
