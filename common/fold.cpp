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

}  // namespace

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
