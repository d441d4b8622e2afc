#pragma once
// Binding-time typing of scalar expressions with PostgreSQL's rules
// (PostgreSQL docs "Type Conversion", 10.2-10.5):
//  * casts: pg_cast's contexts (implicit < assignment < explicit); unknown
//    literals coerce to anything; every type casts to text by assignment
//    (I/O conversion) and from text explicitly;
//  * operator and function overload resolution: exact match, then
//    implicit-coercible candidates ranked by exact matches, preferred types,
//    and the category of unknown-typed arguments;
//  * unify_types for CASE/COALESCE/UNION/VALUES (select_common_type);
//  * fold: constant folding of calls over literals.
// Errors: 42883 operator/function does not exist (with PostgreSQL's hint),
// 42725 not unique, 42846 cannot cast, 42804 types cannot be matched.
// Threading: pure functions over static catalogs.

#include <span>
#include <string_view>
#include <vector>

#include "common/scalar_expr.hpp"
#include "common/status.hpp"

namespace tandem {

enum class CastContext { kImplicit, kAssignment, kExplicit };

bool can_cast(TypeId from, TypeId to, CastContext context);

// Coerces `expr` to `target` (with its typmod). A literal is converted now,
// so a bad literal fails here as it does at parse time in PostgreSQL
// ('abc'::int -> 22P02). Explicit context gives SQL cast semantics
// (varchar(n) truncates); the others give assignment semantics.
Result<ScalarExpr> make_cast(ScalarExpr expr, ColumnType target, CastContext context);

// `op` as spelled in SQL: + - * / % ^ || = <> != < <= > >= ~~ !~~ ~~* !~~*,
// also AND, OR, NOT (case-insensitive). One argument: prefix operator.
Result<ScalarExpr> resolve_operator(std::string_view op, std::vector<ScalarExpr> args);

// `name` lower-case, unqualified (pg_catalog./mz_catalog. prefixes accepted).
// Includes coalesce, greatest, least, nullif, concat, concat_ws, extract
// (first argument the field name as text), and like_escape.
Result<ScalarExpr> resolve_function(std::string_view name, std::vector<ScalarExpr> args);

// Arrays (common/array_resolve.cpp). ARRAY[e1, e2, ...]: the elements
// unified as by select_common_type (unknown -> text); nested arrays are
// 0A000, an empty list 42P18 unless `element` gives the type (ARRAY[]::int[]).
Result<ScalarExpr> make_array(std::vector<ScalarExpr> elements, TypeId element = TypeId::kUnknown);
// a[i]: i coerced to integer; 42804 when `array` is not an array.
Result<ScalarExpr> make_subscript(ScalarExpr array, ScalarExpr index);
// x op ANY|ALL (array) for the comparison operators; an unknown literal
// array takes x's array type ('{1,2}').
Result<ScalarExpr> make_quantified(std::string_view op, bool all, ScalarExpr x, ScalarExpr array);

// select_common_type: the result type of CASE/COALESCE/UNION/VALUES
// branches. `context` names the construct in the error
// ("CASE types integer and boolean cannot be matched").
Result<ColumnType> unify_types(std::span<const ColumnType> types, std::string_view context);

// Evaluates every call whose arguments are all literals (except volatile
// functions: now, pg_sleep), bottom-up. An evaluation error is returned as
// the error (the caller decides whether to raise it now or at run time).
Result<ScalarExpr> fold(ScalarExpr expr);

// A call of a strict function one of whose arguments is a NULL constant (a
// NULL literal, or casts of one) is that NULL: PostgreSQL's planner folds it
// so, without evaluating the other arguments (`x * y = NULL` never raises
// the product's overflow). Looks at `expr`'s own node only (the binder
// applies it as it builds each node).
ScalarExpr fold_strict_null_call(ScalarExpr expr);

}  // namespace tandem
