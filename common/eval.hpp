#pragma once
// Scalar evaluation over a row of datums. Errors (division by zero, overflow,
// bad casts) are values: Status with PostgreSQL's SQLSTATE and message.
// Semantics are PostgreSQL's: strict functions return NULL on NULL input,
// AND/OR are three-valued, CASE evaluates only the taken branch.
// Results that own bytes borrow from `ctx.arena`, the row, or the expression's
// literals. Threading: eval is reentrant; ctx is per thread.

#include <span>

#include "common/datum.hpp"
#include "common/eval_context.hpp"
#include "common/scalar_expr.hpp"

namespace tandem {

Result<Datum> eval(const ScalarExpr& expr, std::span<const Datum> row, EvalContext& ctx);

// A cast of a non-null datum between two types, as kCast (explicit = true) or
// kCastAssign (explicit = false) evaluate it. 42846 for impossible casts.
Result<Datum> cast_datum(const Datum& d, const ColumnType& from, const ColumnType& to, bool explicit_cast,
                         RowArena& arena);

}  // namespace tandem
