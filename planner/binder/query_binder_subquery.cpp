// The ExprBinder hook of the query binder: subqueries (scalar, EXISTS, IN,
// ANY/ALL, ARRAY) become pending hir::Subquery columns of the clause's Apply;
// GROUP BY expressions and aggregates bind to the grouped row.
#include "common/func_resolve.hpp"
#include "planner/binder/grouping.hpp"

namespace tandem::planner {
namespace {

ScalarExpr bool_lit(bool v) { return ScalarExpr::literal(Datum::from_bool(v), ColumnType{TypeId::kBool, -1, false}); }

}  // namespace

hir::Rel QueryBinder::apply_site(hir::Rel rel, SubquerySite& site) {
  if (site.pending.empty()) return rel;
  return hir::Rel{hir::Apply{std::move(rel), std::move(site.pending)}};
}

ExprBinder::Hook QueryBinder::make_hook(SubquerySite* site, const Grouping* grouping, std::string clause) {
  return [this, site, grouping, clause](const sql::Expr& e, ExprBinder& b) -> std::optional<Result<ScalarExpr>> {
    if (grouping) {
      for (size_t i = 0; i < grouping->key_asts.size(); ++i) {
        if (grouping->key_asts[i] == e) {
          return Result<ScalarExpr>(ScalarExpr::column(grouping->base + i, grouping->keys[i].type()));
        }
      }
      for (size_t i = 0; i < grouping->agg_asts.size(); ++i) {
        if (grouping->agg_asts[i] == e) return Result<ScalarExpr>(grouping->agg_values[i]);
      }
    }
    if (auto* call = e.as<sql::FunctionCall>(); call && call->over) {
      // The select list binds its window calls before this hook sees them.
      if (clause == "aggregate function calls") {
        return Result<ScalarExpr>(
            Status::error(sqlstate::kGroupingError, "aggregate function calls cannot contain window function calls"));
      }
      return Result<ScalarExpr>(Status::error("42P20", "window functions are not allowed in " + clause));
    }
    if (auto* call = e.as<sql::FunctionCall>(); call && !call->over && is_aggregate_name(call->name.back())) {
      if (clause == "aggregate function calls") {
        return Result<ScalarExpr>(Status::error(sqlstate::kGroupingError, "aggregate function calls cannot be nested"));
      }
      return Result<ScalarExpr>(
          Status::error(sqlstate::kGroupingError, "aggregate functions are not allowed in " + clause));
    }
    if (auto catalog = bind_catalog_expr(e, b)) return catalog;
    bool subquery = e.as<sql::Subquery>() || e.as<sql::Exists>() || e.as<sql::InSubquery>() ||
                    e.as<sql::ArraySubquery>() ||
                    (e.as<sql::Quantified>() && e.as<sql::Quantified>()->subquery);
    if (!subquery) return std::nullopt;
    if (site == nullptr) {
      return Result<ScalarExpr>(Status::error(sqlstate::kFeatureNotSupported,
                                              "subqueries in " + clause + " are not supported yet"));
    }
    return bind_subquery_expr(e, b, *site);
  };
}

Result<ScalarExpr> QueryBinder::bind_subquery_expr(const sql::Expr& e, ExprBinder& b, SubquerySite& site) {
  const Scope& scope = b.scope();
  const size_t width = scope.columns.size();
  auto push = [&](hir::Subquery::Kind kind, hir::Rel rel) {
    hir::Subquery s{kind, std::move(rel)};
    ColumnType t = hir::subquery_type(s);
    size_t col = width + site.pending.size();
    site.pending.push_back(std::move(s));
    return ScalarExpr::column(col, t);
  };
  if (auto* s = e.as<sql::Subquery>()) {
    TANDEM_ASSIGN_OR_RETURN(BoundQuery q, bind_relation(*s->query, scope));
    if (q.columns.size() != 1) return Status::error(sqlstate::kSyntaxError, "subquery must return only one column");
    return push(hir::Subquery::Kind::kScalar, std::move(q.rel));
  }
  if (auto* s = e.as<sql::ArraySubquery>()) {
    // ARRAY(q) is (SELECT coalesce(array_agg(x), '{}') FROM (q) AS _array(x)).
    // array_agg collects in the column's ascending order (NULLs last), so
    // an ORDER BY of q is honoured only when it asks for that order.
    TANDEM_ASSIGN_OR_RETURN(BoundQuery q, bind_relation(*s->query, scope));
    if (q.columns.size() != 1) return Status::error(sqlstate::kSyntaxError, "subquery must return only one column");
    for (const SortKey& k : q.order_by) {
      if (k.column != 0 || k.desc || k.nulls_first) {
        return Status::error(sqlstate::kFeatureNotSupported,
                             "ARRAY(subquery) ordered other than by its column ascending is not supported");
      }
    }
    sql::FunctionCall agg;
    agg.name = {"array_agg"};
    agg.args.push_back(sql::Expr{sql::ColumnRef{{"_array", "x"}}, e.pos});
    sql::FunctionCall coalesce;
    coalesce.name = {"coalesce"};
    coalesce.args.push_back(sql::Expr{std::move(agg), e.pos});
    coalesce.args.push_back(sql::Expr{sql::StringLiteral{"{}"}, e.pos});
    sql::Select select;
    select.projection.push_back(sql::SelectItem{sql::Expr{std::move(coalesce), e.pos}, std::nullopt});
    sql::DerivedTable derived{false, *s->query, sql::TableAlias{"_array", {"x"}}};
    select.from.push_back(sql::TableRef{std::move(derived), e.pos});
    sql::Query outer;
    outer.body = sql::SetExpr{std::move(select)};
    outer.pos = e.pos;
    TANDEM_ASSIGN_OR_RETURN(BoundQuery array, bind_relation(outer, scope));
    return push(hir::Subquery::Kind::kScalar, std::move(array.rel));
  }
  if (auto* s = e.as<sql::Exists>()) {
    TANDEM_ASSIGN_OR_RETURN(BoundQuery q, bind_relation(*s->query, scope));
    return push(hir::Subquery::Kind::kExists, std::move(q.rel));
  }
  // x IN (subquery), x op ANY|ALL (subquery): three-valued, via two EXISTS.
  const sql::Expr* left;
  const sql::Query* query;
  std::string op = "=";
  bool all = false;
  bool negated = false;
  if (auto* in = e.as<sql::InSubquery>()) {
    left = &*in->expr;
    query = &*in->query;
    negated = in->negated;
  } else {
    auto* q = e.as<sql::Quantified>();
    left = &*q->left;
    query = &*q->subquery;
    op = q->op;
    all = q->all;
  }
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr x, b.bind(*left));
  if (hir::references(x, width, hir::kParamBase)) {
    return Status::error(sqlstate::kFeatureNotSupported, "subqueries on both sides of IN are not supported yet");
  }
  TANDEM_ASSIGN_OR_RETURN(BoundQuery q, bind_relation(*query, scope));
  if (q.columns.size() != 1) {
    return Status::error(sqlstate::kSyntaxError,
                         q.columns.size() > 1 ? "subquery has too many columns" : "subquery has too few columns");
  }
  ScalarExpr y = ScalarExpr::column(width, q.columns[0].type);
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr cmp, resolve_operator(op, {x, y}));
  if (cmp.type().id != TypeId::kBool) {
    return Status::error(sqlstate::kDatatypeMismatch, "op ANY/ALL (array) requires operator to yield boolean");
  }
  ColumnType boolean{TypeId::kBool, -1, false};
  ScalarExpr decisive = all ? ScalarExpr::unary(UnaryFunc::kIsFalse, cmp, boolean) : cmp;
  ScalarExpr unknown = ScalarExpr::unary(UnaryFunc::kIsNull, cmp, boolean);
  ScalarExpr c1 = push(hir::Subquery::Kind::kExists, hir::Rel{hir::Filter{q.rel, {std::move(decisive)}}});
  ScalarExpr c2 = push(hir::Subquery::Kind::kExists, hir::Rel{hir::Filter{std::move(q.rel), {std::move(unknown)}}});
  ColumnType nullable_bool{TypeId::kBool, -1, true};
  ScalarExpr result = ScalarExpr::if_then_else(
      std::move(c1), bool_lit(!all),
      ScalarExpr::if_then_else(std::move(c2), ScalarExpr::null(nullable_bool), bool_lit(all), nullable_bool),
      nullable_bool);
  if (negated) return resolve_operator("NOT", {std::move(result)});
  return result;
}

}  // namespace tandem::planner
