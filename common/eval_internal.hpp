#pragma once
// Internal to the eval_*.cpp files of common/: the per-family evaluators that
// common/eval.cpp dispatches to. All take non-NULL arguments for strict
// functions. Not for use outside common/.

#include <optional>
#include <span>

#include "common/datum.hpp"
#include "common/eval_context.hpp"
#include "common/jsonb.hpp"
#include "common/scalar_func.hpp"
#include "common/status.hpp"
#include "common/types.hpp"

namespace tandem::detail {

// eval_arith.cpp: comparisons, arithmetic, numeric/float math.
Result<Datum> eval_binary_strict(BinaryFunc f, const Datum& a, const Datum& b, const ColumnType& out,
                                 EvalContext& ctx);
Result<Datum> eval_math_unary(UnaryFunc f, const Datum& a, EvalContext& ctx);

// eval_string.cpp: text functions, LIKE, md5.
Result<Datum> eval_string_unary(UnaryFunc f, const Datum& a, EvalContext& ctx);
Result<Datum> eval_string_binary(BinaryFunc f, const Datum& a, const Datum& b, EvalContext& ctx);
Result<Datum> eval_string_variadic(VariadicFunc f, std::span<const Datum> args, std::span<const ColumnType> types,
                                   EvalContext& ctx);
bool like_match(std::string_view text, std::string_view pattern, bool case_insensitive, char escape,
                bool has_escape, Status* error);

// eval_datetime.cpp: date_trunc, extract/date_part, date/time arithmetic.
Result<Datum> eval_datetime_binary(BinaryFunc f, const Datum& a, const Datum& b, EvalContext& ctx);

// eval_array.cpp: array functions and operators; they see NULL arguments
// and apply PostgreSQL's NULL rules themselves.
Result<Datum> eval_array_unary(UnaryFunc f, const Datum& a, EvalContext& ctx);
Result<Datum> eval_array_binary(BinaryFunc f, const Datum& a, const Datum& b, EvalContext& ctx);
Result<Datum> eval_array_variadic(VariadicFunc f, std::span<const Datum> args, EvalContext& ctx);

// jsonb_funcs.cpp: the json/jsonb operators and functions. Unary and
// binary ones take non-NULL arguments; `type` is the argument's type; the
// variadic builders see NULLs. cast_json: casts from json/jsonb (nullopt
// for pairs it does not handle, which take the generic path).
Result<Datum> eval_json_unary(UnaryFunc f, const Datum& a, const ColumnType& type, EvalContext& ctx);
Result<Datum> eval_json_binary(BinaryFunc f, const Datum& a, const Datum& b, EvalContext& ctx);
Result<Datum> eval_json_variadic(VariadicFunc f, std::span<const Datum> args, std::span<const ColumnType> types,
                                 EvalContext& ctx);
std::optional<Result<Datum>> cast_json(const Datum& d, const ColumnType& from, const ColumnType& to, RowArena& arena);
// to_jsonb's conversion of a value of `type` (NULL -> JSON null).
Result<JsonValue> datum_to_json_value(const Datum& d, const ColumnType& type, RowArena& arena);

}  // namespace tandem::detail
