// fold (declared in common/func_resolve.hpp): bottom-up constant folding.
#include "common/eval.hpp"
#include "common/func_resolve.hpp"

namespace tandem {
namespace {

Result<ScalarExpr> eval_to_literal(const ScalarExpr& e) {
  EvalContext ctx;
  TANDEM_ASSIGN_OR_RETURN(Datum d, eval(e, {}, ctx));
  return ScalarExpr::literal(d, e.type());
}

bool is_null_constant(const ScalarExpr& e) {
  if (e.is_literal_null()) return true;
  const auto* cast = std::get_if<CallUnary>(&e.node);
  return cast != nullptr && func_is_strict(cast->func) && is_null_constant(*cast->arg);
}

}  // namespace

ScalarExpr fold_strict_null_call(ScalarExpr expr) {
  bool null_in = false;
  if (const auto* c = std::get_if<CallUnary>(&expr.node)) {
    null_in = func_is_strict(c->func) && is_null_constant(*c->arg);
  } else if (const auto* c = std::get_if<CallBinary>(&expr.node)) {
    null_in = func_is_strict(c->func) && (is_null_constant(*c->lhs) || is_null_constant(*c->rhs));
  } else if (const auto* c = std::get_if<CallVariadic>(&expr.node)) {
    if (func_is_strict(c->func)) {
      for (const auto& a : c->args) null_in = null_in || is_null_constant(a);
    }
  }
  if (!null_in) return expr;
  ColumnType type = expr.type();
  type.nullable = true;
  return ScalarExpr::null(type);
}

Result<ScalarExpr> fold(ScalarExpr expr) {
  switch (expr.node.index()) {
    case 2: {
      auto& c = std::get<CallUnary>(expr.node);
      TANDEM_ASSIGN_OR_RETURN(*c.arg, fold(std::move(*c.arg)));
      if (c.arg->is_literal() && func_is_foldable(c.func)) return eval_to_literal(expr);
      return expr;
    }
    case 3: {
      auto& c = std::get<CallBinary>(expr.node);
      TANDEM_ASSIGN_OR_RETURN(*c.lhs, fold(std::move(*c.lhs)));
      TANDEM_ASSIGN_OR_RETURN(*c.rhs, fold(std::move(*c.rhs)));
      if (c.lhs->is_literal() && c.rhs->is_literal() && func_is_foldable(c.func)) return eval_to_literal(expr);
      return expr;
    }
    case 4: {
      auto& c = std::get<CallVariadic>(expr.node);
      bool all = true;
      for (auto& a : c.args) {
        TANDEM_ASSIGN_OR_RETURN(a, fold(std::move(a)));
        all &= a.is_literal();
      }
      if (all && func_is_foldable(c.func)) return eval_to_literal(expr);
      return expr;
    }
    case 5: {
      auto& c = std::get<IfExpr>(expr.node);
      TANDEM_ASSIGN_OR_RETURN(*c.cond, fold(std::move(*c.cond)));
      TANDEM_ASSIGN_OR_RETURN(*c.then, fold(std::move(*c.then)));
      TANDEM_ASSIGN_OR_RETURN(*c.els, fold(std::move(*c.els)));
      if (c.cond->is_literal()) {
        const Datum d = std::get<Literal>(c.cond->node).datum();
        ScalarExpr taken = (!d.is_null() && d.as_bool()) ? std::move(*c.then) : std::move(*c.els);
        return taken;
      }
      return expr;
    }
    default:
      return expr;
  }
}

}  // namespace tandem
