// Tree walk of scalar evaluation: control flow (AND/OR/CASE/COALESCE...),
// NULL handling for strict functions, casts, and dispatch of the function
// families to eval_arith.cpp, eval_string.cpp and eval_datetime.cpp.
#include "common/eval.hpp"

#include <algorithm>
#include <array>

#include "common/eval_internal.hpp"
#include "common/sqlstate.hpp"
#include "common/value_io.hpp"
#include "common/version.hpp"

namespace tandem {
namespace {

// Three-valued truth of a bool datum: 1 true, 0 false, -1 NULL.
int truth(const Datum& d) { return d.is_null() ? -1 : (d.as_bool() ? 1 : 0); }

Result<Datum> eval_unary(const CallUnary& c, std::span<const Datum> row, EvalContext& ctx) {
  TANDEM_ASSIGN_OR_RETURN(Datum a, eval(*c.arg, row, ctx));
  switch (c.func) {
    case UnaryFunc::kIsNull: return Datum::from_bool(a.is_null());
    case UnaryFunc::kIsNotNull: return Datum::from_bool(!a.is_null());
    case UnaryFunc::kIsTrue: return Datum::from_bool(truth(a) == 1);
    case UnaryFunc::kIsNotTrue: return Datum::from_bool(truth(a) != 1);
    case UnaryFunc::kIsFalse: return Datum::from_bool(truth(a) == 0);
    case UnaryFunc::kIsNotFalse: return Datum::from_bool(truth(a) != 0);
    default: break;
  }
  if (a.is_null()) return a;
  switch (c.func) {
    case UnaryFunc::kNot: return Datum::from_bool(!a.as_bool());
    case UnaryFunc::kCast:
    case UnaryFunc::kCastAssign:
      return cast_datum(a, c.arg->type(), c.type, c.func == UnaryFunc::kCast, ctx.arena);
    case UnaryFunc::kOutputText: {
      std::string text;
      format_datum(a, c.arg->type(), &text);
      return Datum::from_string(ctx.arena.push(text));
    }
    case UnaryFunc::kPgSleep: {
      if (!ctx.sleep) {
        return Status::error(sqlstate::kFeatureNotSupported, "pg_sleep is not supported in this context");
      }
      if (ctx.is_canceled && ctx.is_canceled()) {
        return Status::error(sqlstate::kQueryCanceled, "canceling statement due to user request");
      }
      TANDEM_RETURN_IF_ERROR(ctx.sleep(a.as_float64()));
      return Datum::null();  // pg_sleep returns void, shown as an empty value
    }
    case UnaryFunc::kCharLength:
    case UnaryFunc::kOctetLength:
    case UnaryFunc::kLower:
    case UnaryFunc::kUpper:
    case UnaryFunc::kBtrimSpaces:
    case UnaryFunc::kLtrimSpaces:
    case UnaryFunc::kRtrimSpaces:
    case UnaryFunc::kReverse:
    case UnaryFunc::kAscii:
    case UnaryFunc::kChr:
    case UnaryFunc::kMd5:
      return detail::eval_string_unary(c.func, a, ctx);
    case UnaryFunc::kArrayCardinality:
      return detail::eval_array_unary(c.func, a, ctx);
    default:
      if (func_is_json(c.func)) return detail::eval_json_unary(c.func, a, c.arg->type(), ctx);
      return detail::eval_math_unary(c.func, a, ctx);
  }
}

Result<Datum> eval_binary(const CallBinary& c, std::span<const Datum> row, EvalContext& ctx) {
  switch (c.func) {
    case BinaryFunc::kAnd: {
      TANDEM_ASSIGN_OR_RETURN(Datum a, eval(*c.lhs, row, ctx));
      if (truth(a) == 0) return a;
      TANDEM_ASSIGN_OR_RETURN(Datum b, eval(*c.rhs, row, ctx));
      if (truth(b) == 0) return b;
      return (truth(a) == 1 && truth(b) == 1) ? Datum::from_bool(true) : Datum::null();
    }
    case BinaryFunc::kOr: {
      TANDEM_ASSIGN_OR_RETURN(Datum a, eval(*c.lhs, row, ctx));
      if (truth(a) == 1) return a;
      TANDEM_ASSIGN_OR_RETURN(Datum b, eval(*c.rhs, row, ctx));
      if (truth(b) == 1) return b;
      return (truth(a) == 0 && truth(b) == 0) ? Datum::from_bool(false) : Datum::null();
    }
    case BinaryFunc::kError: {
      TANDEM_ASSIGN_OR_RETURN(Datum code, eval(*c.lhs, row, ctx));
      TANDEM_ASSIGN_OR_RETURN(Datum message, eval(*c.rhs, row, ctx));
      return Status::error(code.as_string(), std::string(message.as_string()));
    }
    default: break;
  }
  TANDEM_ASSIGN_OR_RETURN(Datum a, eval(*c.lhs, row, ctx));
  TANDEM_ASSIGN_OR_RETURN(Datum b, eval(*c.rhs, row, ctx));
  switch (c.func) {
    case BinaryFunc::kIsDistinctFrom:
      if (a.is_null() || b.is_null()) return Datum::from_bool(a.is_null() != b.is_null());
      return Datum::from_bool(compare_datums(a, b) != 0);
    case BinaryFunc::kIsNotDistinctFrom:
      if (a.is_null() || b.is_null()) return Datum::from_bool(a.is_null() == b.is_null());
      return Datum::from_bool(compare_datums(a, b) == 0);
    case BinaryFunc::kFormatType:
      // format_type(oid, NULL) prints the type without modifiers.
      if (a.is_null()) return a;
      return detail::eval_string_binary(c.func, a, b, ctx);
    case BinaryFunc::kNullIf:
      if (a.is_null() || b.is_null()) return a;
      return compare_datums(a, b) == 0 ? Datum::null() : a;
    default: break;
  }
  if (func_is_array(c.func)) return detail::eval_array_binary(c.func, a, b, ctx);
  if (a.is_null() || b.is_null()) return Datum::null();
  if (func_is_json(c.func)) return detail::eval_json_binary(c.func, a, b, ctx);
  return detail::eval_binary_strict(c.func, a, b, c.type, ctx);
}

Result<Datum> eval_variadic(const CallVariadic& c, std::span<const Datum> row, EvalContext& ctx) {
  switch (c.func) {
    case VariadicFunc::kInList: {
      // in(x, c1, ..., cn): the constants are distinct literals sorted by
      // compare_datums (a NULL last), so membership is a binary search.
      TANDEM_ASSIGN_OR_RETURN(Datum x, eval(c.args[0], row, ctx));
      if (x.is_null()) return Datum::null();
      auto first = c.args.begin() + 1;
      auto last = c.args.end();
      const bool has_null = last != first && std::get<Literal>((last - 1)->node).is_null();
      if (has_null) --last;
      auto it = std::lower_bound(first, last, x, [](const ScalarExpr& e, const Datum& v) {
        return compare_datums(std::get<Literal>(e.node).datum(), v) < 0;
      });
      if (it != last && compare_datums(std::get<Literal>(it->node).datum(), x) == 0) return Datum::from_bool(true);
      return has_null ? Datum::null() : Datum::from_bool(false);
    }
    case VariadicFunc::kCoalesce:
      for (const auto& arg : c.args) {
        TANDEM_ASSIGN_OR_RETURN(Datum d, eval(arg, row, ctx));
        if (!d.is_null()) return d;
      }
      return Datum::null();
    case VariadicFunc::kGreatest:
    case VariadicFunc::kLeast: {
      // NULLs are ignored; the result is NULL only if all are.
      Datum best;
      for (const auto& arg : c.args) {
        TANDEM_ASSIGN_OR_RETURN(Datum d, eval(arg, row, ctx));
        if (d.is_null()) continue;
        if (best.is_null()) {
          best = d;
          continue;
        }
        const int cmp = compare_datums(d, best);
        if (c.func == VariadicFunc::kGreatest ? cmp > 0 : cmp < 0) best = d;
      }
      return best;
    }
    case VariadicFunc::kNow:
      if (!ctx.statement_time) {
        return Status::error(sqlstate::kFeatureNotSupported, "now() is not available in this context");
      }
      return Datum::from_timestamptz(*ctx.statement_time);
    case VariadicFunc::kMzNow:
      if (!ctx.mz_now) return Status::error(sqlstate::kFeatureNotSupported, "mz_now() is not available in this context");
      return Datum::from_mz_timestamp(*ctx.mz_now);
    case VariadicFunc::kPi: return Datum::from_float64(3.14159265358979323846);
    case VariadicFunc::kVersion: return Datum::from_string(kVersionString);
    case VariadicFunc::kMzVersion: return Datum::from_string(kMzVersionString);
    case VariadicFunc::kCurrentUser:
    case VariadicFunc::kCurrentDatabase:
    case VariadicFunc::kCurrentSchema: {
      if (ctx.session == nullptr) {
        return Status::error(sqlstate::kFeatureNotSupported,
                             std::string(func_name(c.func)) + " is not available in this context");
      }
      const std::string& v = c.func == VariadicFunc::kCurrentUser       ? ctx.session->user
                             : c.func == VariadicFunc::kCurrentDatabase ? ctx.session->database
                                                                        : ctx.session->schema;
      return Datum::from_string(v);
    }
    case VariadicFunc::kParameter:
      // A generic plan's placeholder is replaced by its value before
      // evaluation (planner/prepared_lookup.hpp).
      return Status::error(sqlstate::kInternalError, "an unbound parameter was evaluated");
    default: break;
  }
  // Small argument lists stay on the stack.
  std::array<Datum, 8> small;
  std::array<ColumnType, 8> small_types;
  std::vector<Datum> big;
  std::vector<ColumnType> big_types;
  Datum* args = small.data();
  ColumnType* types = small_types.data();
  if (c.args.size() > small.size()) {
    big.resize(c.args.size());
    big_types.resize(c.args.size());
    args = big.data();
    types = big_types.data();
  }
  const bool strict = func_is_strict(c.func);
  for (size_t i = 0; i < c.args.size(); ++i) {
    TANDEM_ASSIGN_OR_RETURN(args[i], eval(c.args[i], row, ctx));
    types[i] = c.args[i].type();
    if (strict && args[i].is_null()) return Datum::null();
  }
  if (func_is_json(c.func)) {
    return detail::eval_json_variadic(c.func, std::span<const Datum>(args, c.args.size()),
                                      std::span<const ColumnType>(types, c.args.size()), ctx);
  }
  if (func_is_array(c.func)) return detail::eval_array_variadic(c.func, std::span<const Datum>(args, c.args.size()), ctx);
  return detail::eval_string_variadic(c.func, std::span<const Datum>(args, c.args.size()),
                                      std::span<const ColumnType>(types, c.args.size()), ctx);
}

}  // namespace

Result<Datum> eval(const ScalarExpr& expr, std::span<const Datum> row, EvalContext& ctx) {
  switch (expr.node.index()) {
    case 0: {
      const auto& c = std::get<ColumnRef>(expr.node);
      if (c.index >= row.size()) {
        return Status::error(sqlstate::kInternalError, "column reference #" + std::to_string(c.index) + " out of range");
      }
      return row[c.index];
    }
    case 1: return unpack_one(std::get<Literal>(expr.node).row, &ctx.arena);
    case 2: return eval_unary(std::get<CallUnary>(expr.node), row, ctx);
    case 3: return eval_binary(std::get<CallBinary>(expr.node), row, ctx);
    case 4: return eval_variadic(std::get<CallVariadic>(expr.node), row, ctx);
    default: {
      const auto& e = std::get<IfExpr>(expr.node);
      TANDEM_ASSIGN_OR_RETURN(Datum cond, eval(*e.cond, row, ctx));
      return eval(truth(cond) == 1 ? *e.then : *e.els, row, ctx);
    }
  }
}

}  // namespace tandem
