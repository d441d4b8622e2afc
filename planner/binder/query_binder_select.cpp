// SELECT binding: WHERE, GROUP BY/HAVING with aggregates, the select list
// (with `*`), DISTINCT and ORDER BY's hidden columns.
#include <algorithm>

#include "common/func_resolve.hpp"
#include "common/jsonb.hpp"
#include "planner/binder/grouping.hpp"
#include "planner/binder/variance.hpp"
#include "planner/binder/windowing.hpp"
#include "planner/mir/mir.hpp"

namespace tandem::planner {
namespace {

hir::Rel project_range(hir::Rel rel, size_t begin, size_t end) {
  std::vector<size_t> cols;
  for (size_t i = begin; i < end; ++i) cols.push_back(i);
  return hir::Rel{hir::Project{std::move(rel), std::move(cols)}};
}

std::optional<size_t> ordinal(const sql::Expr& e, size_t n, Status* error) {
  auto* num = e.as<sql::NumberLiteral>();
  if (!num) return std::nullopt;
  size_t k = num->text.size() < 10 && num->text.find_first_not_of("0123456789") == std::string::npos
                 ? std::stoul(num->text)
                 : 0;
  if (k < 1 || k > n) {
    *error = at_pos(Status::error(sqlstate::kInvalidColumnReference,
                                  "ORDER BY position " + num->text + " is not in select list"),
                    e.pos);
    return std::nullopt;
  }
  return k - 1;
}

}  // namespace

bool min_max_accepts(TypeId t) { return t != TypeId::kBytea && t != TypeId::kJson && t != TypeId::kJsonb; }

bool is_aggregate_name(const std::string& name) {
  static const char* kNames[] = {"count", "sum", "avg", "min", "max", "string_agg", "bool_and", "bool_or", "every",
                                 "array_agg", "stddev", "variance", "stddev_pop", "stddev_samp", "var_pop",
                                 "var_samp", "jsonb_agg", "jsonb_object_agg", "json_agg", "json_object_agg", "list_agg"};
  for (const char* n : kNames) {
    if (name == n) return true;
  }
  return false;
}

void collect_aggregates(const sql::Expr& e, std::vector<const sql::Expr*>* out) {
  auto rec = [&](const sql::Expr& c) { collect_aggregates(c, out); };
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, sql::FunctionCall>) {
          if (!n.over && is_aggregate_name(n.name.back())) {
            out->push_back(&e);
            return;
          }
          for (const auto& a : n.args) rec(a);
          if (n.over) {
            for (const auto& p : n.over->partition_by) rec(p);
            for (const auto& o : n.over->order_by) rec(o.expr);
          }
        } else if constexpr (std::is_same_v<T, sql::UnaryOp>) {
          rec(*n.operand);
        } else if constexpr (std::is_same_v<T, sql::BinaryOp> || std::is_same_v<T, sql::IsDistinctFrom>) {
          rec(*n.left);
          rec(*n.right);
        } else if constexpr (std::is_same_v<T, sql::Cast> || std::is_same_v<T, sql::IsTest> ||
                             std::is_same_v<T, sql::Collate>) {
          rec(*n.expr);
        } else if constexpr (std::is_same_v<T, sql::Case>) {
          if (n.operand) rec(*n.operand);
          for (const auto& w : n.whens) {
            rec(w.condition);
            rec(w.result);
          }
          if (n.else_result) rec(*n.else_result);
        } else if constexpr (std::is_same_v<T, sql::Between>) {
          rec(*n.expr);
          rec(*n.low);
          rec(*n.high);
        } else if constexpr (std::is_same_v<T, sql::InList>) {
          rec(*n.expr);
          for (const auto& x : n.list) rec(x);
        } else if constexpr (std::is_same_v<T, sql::InSubquery>) {
          rec(*n.expr);
        } else if constexpr (std::is_same_v<T, sql::Like>) {
          rec(*n.expr);
          rec(*n.pattern);
        } else if constexpr (std::is_same_v<T, sql::Quantified>) {
          rec(*n.left);
        }
      },
      e.node);
}

Result<QueryBinder::Grouping> QueryBinder::bind_grouping(const sql::Select& select, const sql::Query* query,
                                                         const Scope& from_scope, size_t ow) {
  Grouping g;
  g.base = ow;
  // GROUP BY items: an input column name first, then an output name or position.
  {
    ExprBinder binder(from_scope, param_types_, hir::kParamBase);
    binder.set_hook(make_hook(nullptr, nullptr, "GROUP BY"));
    for (const auto& item : select.group_by) {
      const sql::Expr* ast = &item;
      Status error;
      if (auto k = ordinal(item, select.projection.size(), &error)) {
        ast = &select.projection[*k].expr;
      } else if (!error.is_ok()) {
        return error;
      } else if (auto* c = item.as<sql::ColumnRef>(); c && c->names.size() == 1) {
        bool input_column = false;
        for (size_t i = ow; i < from_scope.columns.size(); ++i) {
          input_column = input_column || (from_scope.columns[i].name == c->names[0] && !from_scope.columns[i].qualified_only);
        }
        if (!input_column) {
          for (const auto& p : select.projection) {
            if (p.alias && *p.alias == c->names[0]) ast = &p.expr;
          }
        }
      }
      TANDEM_ASSIGN_OR_RETURN(ScalarExpr key, binder.bind(*ast));
      // A repeated key groups nothing further (and would make its column
      // ambiguous in the grouped scope).
      if (std::find(g.keys.begin(), g.keys.end(), key) != g.keys.end()) continue;
      g.key_asts.push_back(*ast);
      g.keys.push_back(std::move(key));
    }
  }
  // The post-grouping scope: outer ++ keys ++ aggregates.
  g.post.columns.assign(from_scope.columns.begin(), from_scope.columns.begin() + static_cast<long>(ow));
  size_t level = from_scope.columns.size() > ow ? from_scope.columns[ow].level : max_level(from_scope) + 1;
  std::vector<bool> grouped(from_scope.columns.size(), false);
  for (const auto& k : g.keys) {
    auto* c = std::get_if<ColumnRef>(&k.node);
    if (c && c->index >= ow && c->index < from_scope.columns.size()) {
      ScopeColumn sc = from_scope.columns[c->index];
      sc.type = k.type();
      g.post.columns.push_back(sc);
      grouped[c->index] = true;
    } else {
      g.post.columns.push_back(ScopeColumn{"", "", k.type(), level, false, false});
    }
  }
  for (size_t i = ow; i < from_scope.columns.size(); ++i) {
    if (!grouped[i]) g.post.ungrouped.push_back(from_scope.columns[i]);
  }
  // Aggregates of the select list, HAVING and ORDER BY.
  std::vector<const sql::Expr*> calls;
  for (const auto& p : select.projection) collect_aggregates(p.expr, &calls);
  if (select.having) collect_aggregates(*select.having, &calls);
  if (query) {
    for (const auto& o : query->order_by) collect_aggregates(o.expr, &calls);
  }
  size_t agg_base = ow + g.keys.size();
  ExprBinder arg_binder(from_scope, param_types_, hir::kParamBase);
  arg_binder.set_hook(make_hook(nullptr, nullptr, "aggregate function calls"));
  for (const sql::Expr* call_expr : calls) {
    bool seen = false;
    for (const auto& a : g.agg_asts) seen = seen || a == *call_expr;
    if (seen) continue;
    const auto& call = *call_expr->as<sql::FunctionCall>();
    std::string name = call.name.back();
    std::optional<ScalarExpr> cond;
    if (call.filter) {
      TANDEM_ASSIGN_OR_RETURN(ScalarExpr f, arg_binder.bind_condition(*call.filter, "FILTER"));
      cond = std::move(f);
    }
    auto filtered = [&](ScalarExpr x) {
      if (!cond) return x;
      ColumnType t = x.type();
      t.nullable = true;
      return ScalarExpr::if_then_else(*cond, std::move(x), ScalarExpr::null(t), t);
    };
    auto add = [&](compute::AggregateExpr agg) {
      g.aggregates.push_back(std::move(agg));
      size_t col = agg_base + g.aggregates.size() - 1;
      ColumnType t = mir::aggregate_type(g.aggregates.back());
      g.post.columns.push_back(ScopeColumn{"", "", t, level});
      return ScalarExpr::column(col, t);
    };
    ScalarExpr value = ScalarExpr::null(ColumnType{});
    if (call.star) {
      if (name != "count") return at_pos(Status::error(sqlstate::kSyntaxError, name + "(*) is not allowed"), call_expr->pos);
      if (cond) {
        value = add({compute::AggregateFunc::kCount,
                     filtered(ScalarExpr::literal(Datum::from_int32(1), ColumnType{TypeId::kInt4, -1, false})), false,
                     std::nullopt});
      } else {
        value = add({compute::AggregateFunc::kCountAll, ScalarExpr::null(ColumnType{TypeId::kInt8}), false, std::nullopt});
      }
    } else {
      std::vector<ScalarExpr> args;
      for (const auto& a : call.args) {
        TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, arg_binder.bind(a));
        args.push_back(std::move(e));
      }
      auto no_function = [&]() {
        std::string sig = name + "(";
        for (size_t i = 0; i < args.size(); ++i) sig += (i ? ", " : "") + std::string(type_name(args[i].type().id));
        return at_pos(Status::error(sqlstate::kUndefinedFunction, "function " + sig + ") does not exist")
                          .with_hint("No function matches the given name and argument types. You might need to add explicit type casts."),
                      call_expr->pos);
      };
      size_t want = name == "string_agg" || name == "jsonb_object_agg" ? 2 : 1;
      if (args.size() != want) return no_function();
      // The aggregate's own ORDER BY: the order string_agg, array_agg,
      // jsonb_agg and jsonb_object_agg take their values in; the others'
      // value does not depend on it.
      std::vector<compute::AggregateOrder> order;
      for (const auto& item : call.order_by) {
        TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, arg_binder.bind(item.expr));
        TANDEM_ASSIGN_OR_RETURN(e, arg_binder.resolve_unknown_as_text(std::move(e)));
        if (call.distinct && !(e == args[0])) {
          return at_pos(Status::error(sqlstate::kInvalidColumnReference,
                                      "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list"),
                        item.expr.pos);
        }
        const bool nulls_first = item.nulls == sql::OrderByItem::Nulls::kDefault ? item.desc
                                                                                  : item.nulls == sql::OrderByItem::Nulls::kFirst;
        order.push_back(compute::AggregateOrder{std::move(e), item.desc, !nulls_first});
      }
      if (args[0].type().id == TypeId::kUnknown) {
        TANDEM_ASSIGN_OR_RETURN(args[0], make_cast(std::move(args[0]), ColumnType{TypeId::kText}, CastContext::kImplicit));
      }
      TypeId t = args[0].type().id;
      ScalarExpr x = filtered(args[0]);
      bool numeric_input = is_integer_type(t) || t == TypeId::kNumeric || t == TypeId::kFloat4 || t == TypeId::kFloat8;
      auto sum_of = [&](ScalarExpr v) -> Result<compute::AggregateExpr> {
        compute::AggregateFunc f = (t == TypeId::kInt2 || t == TypeId::kInt4) ? compute::AggregateFunc::kSumInt
                                   : t == TypeId::kInt8                         ? compute::AggregateFunc::kSumInt8
                                   : t == TypeId::kNumeric                      ? compute::AggregateFunc::kSumNumeric
                                                                                : compute::AggregateFunc::kSumFloat;
        return compute::AggregateExpr{f, std::move(v), call.distinct, std::nullopt};
      };
      if (name == "count") {
        value = add({compute::AggregateFunc::kCount, x, call.distinct, std::nullopt});
      } else if (name == "sum") {
        if (!numeric_input) return no_function();
        TANDEM_ASSIGN_OR_RETURN(auto agg, sum_of(x));
        value = add(std::move(agg));
      } else if (name == "avg") {
        if (!numeric_input) return no_function();
        TANDEM_ASSIGN_OR_RETURN(auto agg, sum_of(x));
        ScalarExpr sum = add(std::move(agg));
        ScalarExpr count = add({compute::AggregateFunc::kCount, x, call.distinct, std::nullopt});
        ColumnType target{t == TypeId::kFloat4 || t == TypeId::kFloat8 ? TypeId::kFloat8 : TypeId::kNumeric};
        TANDEM_ASSIGN_OR_RETURN(sum, make_cast(std::move(sum), target, CastContext::kImplicit));
        TANDEM_ASSIGN_OR_RETURN(count, make_cast(std::move(count), target, CastContext::kImplicit));
        // count = 0 only when sum is NULL; the strict division is then NULL.
        TANDEM_ASSIGN_OR_RETURN(value, resolve_operator("/", {std::move(sum), std::move(count)}));
      } else if (name == "min" || name == "max") {
        if (!min_max_accepts(t)) return no_function();
        value = add({name == "min" ? compute::AggregateFunc::kMin : compute::AggregateFunc::kMax, x, false, std::nullopt});
      } else if (name == "bool_and" || name == "bool_or" || name == "every") {
        if (t != TypeId::kBool) return no_function();
        value = add({name == "bool_or" ? compute::AggregateFunc::kMax : compute::AggregateFunc::kMin, x, false,
                     std::nullopt});
      } else if (name == "array_agg") {
        if (array_type_of(t) == TypeId::kUnknown) {
          return not_supported_at("array_agg over " + std::string(type_name(t)) + " is", call_expr->pos);
        }
        value = add({compute::AggregateFunc::kArrayAgg, args[0], call.distinct, std::nullopt, std::move(order), cond});
      } else if (name == "jsonb_agg" || name == "jsonb_object_agg") {
        // Each row's value is converted to a jsonb that is never NULL (a
        // NULL input is JSON null); a row FILTER drops gives NULL, which
        // the reduce skips.
        std::vector<ScalarExpr> conv_args{args[0]};
        if (name == "jsonb_object_agg") conv_args.push_back(args[1]);
        TANDEM_ASSIGN_OR_RETURN(ScalarExpr doc,
                                resolve_function(name == "jsonb_agg" ? "to_jsonb" : "jsonb_build_object",
                                                 std::move(conv_args)));
        if (name == "jsonb_object_agg") {
          // PostgreSQL's message for a NULL key, rather than jsonb_build_object's.
          const ColumnType jt{TypeId::kJsonb, -1, true};
          ScalarExpr raise = ScalarExpr::binary(
              BinaryFunc::kError, ScalarExpr::literal(Datum::from_string("22023"), ColumnType{TypeId::kText}),
              ScalarExpr::literal(Datum::from_string("field name must not be null"), ColumnType{TypeId::kText}), jt);
          ScalarExpr is_null = ScalarExpr::unary(UnaryFunc::kIsNull, args[0], ColumnType{TypeId::kBool, -1, false});
          doc = ScalarExpr::if_then_else(std::move(is_null), std::move(raise), std::move(doc), jt);
        }
        if (name == "jsonb_agg") {
          RowArena arena;
          const ColumnType jt{TypeId::kJsonb, -1, false};
          ScalarExpr null_json = ScalarExpr::literal(make_jsonb(JsonValue::null(), arena), jt);
          doc = ScalarExpr::variadic(VariadicFunc::kCoalesce, {std::move(doc), std::move(null_json)}, jt);
        }
        if (cond) {
          ColumnType t = doc.type();
          t.nullable = true;
          doc = ScalarExpr::if_then_else(*cond, std::move(doc), ScalarExpr::null(t), t);
        }
        const auto f = name == "jsonb_agg" ? compute::AggregateFunc::kJsonbAgg : compute::AggregateFunc::kJsonbObjectAgg;
        value = add({f, std::move(doc), call.distinct, std::nullopt, std::move(order)});
      } else if (name == "string_agg") {
        if (!is_string_type(t) || !args[1].is_literal()) {
          if (!is_string_type(t)) return no_function();
          return not_supported_at("string_agg with a non-constant delimiter is", call_expr->pos);
        }
        TANDEM_ASSIGN_OR_RETURN(ScalarExpr text, make_cast(x, ColumnType{TypeId::kText}, CastContext::kImplicit));
        TANDEM_ASSIGN_OR_RETURN(ScalarExpr sep, make_cast(args[1], ColumnType{TypeId::kText}, CastContext::kImplicit));
        value = add({compute::AggregateFunc::kStringAgg, std::move(text), call.distinct, std::move(sep), std::move(order)});
      } else if (is_variance_aggregate(name)) {
        if (!numeric_input) return no_function();
        if (call.distinct) return not_supported_at(name + "(DISTINCT ...) is", call_expr->pos);
        TANDEM_ASSIGN_OR_RETURN(value, bind_variance(name, x, add));
      } else {
        return not_supported_at("aggregate function " + name + " is", call_expr->pos);
      }
    }
    g.agg_asts.push_back(*call_expr);
    g.agg_values.push_back(std::move(value));
  }
  return g;
}

Result<BoundQuery> QueryBinder::bind_select(const sql::Select& select, const Scope& outer, const sql::Query* query) {
  if (auto lifted = lift_select_list_srf(select)) {
    if (!lifted->ok()) return lifted->status();
    return bind_select(**lifted, outer, query);
  }
  size_t level = outer.columns.empty() ? 0 : max_level(outer) + 1;
  TANDEM_ASSIGN_OR_RETURN(FromItem from, bind_from(select.from, outer, level));
  size_t ow = outer.columns.size();
  size_t fw = from.columns.size();
  Scope from_scope = outer;
  for (const auto& c : from.columns) from_scope.columns.push_back(c);
  hir::Rel rel = std::move(from.rel);

  if (select.where) {
    SubquerySite site;
    ExprBinder binder(from_scope, param_types_, hir::kParamBase);
    binder.set_hook(make_hook(&site, nullptr, "WHERE"));
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr pred, binder.bind_condition(*select.where, "WHERE"));
    bool applied = !site.pending.empty();
    rel = hir::Rel{hir::Filter{apply_site(std::move(rel), site), {std::move(pred)}}};
    if (applied) rel = project_range(std::move(rel), 0, fw);
  }

  bool grouped = !select.group_by.empty() || select.having;
  {
    std::vector<const sql::Expr*> calls;
    for (const auto& p : select.projection) collect_aggregates(p.expr, &calls);
    if (query) {
      for (const auto& o : query->order_by) collect_aggregates(o.expr, &calls);
    }
    grouped = grouped || !calls.empty();
  }
  std::optional<Grouping> grouping;
  const Scope* scope = &from_scope;
  size_t own = fw;
  if (grouped) {
    TANDEM_ASSIGN_OR_RETURN(Grouping g, bind_grouping(select, query, from_scope, ow));
    grouping = std::move(g);
    own = grouping->keys.size() + grouping->aggregates.size();
    rel = hir::Rel{hir::Reduce{std::move(rel), grouping->keys, grouping->aggregates}};
    scope = &grouping->post;
    if (select.having) {
      SubquerySite site;
      ExprBinder binder(*scope, param_types_, hir::kParamBase);
      binder.set_hook(make_hook(&site, &*grouping, "HAVING"));
      TANDEM_ASSIGN_OR_RETURN(ScalarExpr pred, binder.bind_condition(*select.having, "HAVING"));
      bool applied = !site.pending.empty();
      rel = hir::Rel{hir::Filter{apply_site(std::move(rel), site), {std::move(pred)}}};
      if (applied) rel = project_range(std::move(rel), 0, own);
    }
  }

  std::optional<Windowing> windowing;
  if (has_window_calls(select, query)) {
    TANDEM_ASSIGN_OR_RETURN(Windowing w, bind_windows(select, query, *scope, grouping ? &*grouping : nullptr,
                                                      std::move(rel), own));
    windowing = std::move(w);
    rel = std::move(windowing->rel);
    own = windowing->own;
    scope = &windowing->post;
  }

  SubquerySite site;
  ExprBinder binder(*scope, param_types_, hir::kParamBase);
  binder.set_hook(make_hook(&site, grouping ? &*grouping : nullptr, "SELECT"));
  if (windowing) binder.set_hook(window_hook(*windowing, make_hook(&site, grouping ? &*grouping : nullptr, "SELECT")));
  BoundQuery out;
  std::vector<ScalarExpr> exprs;
  std::vector<const sql::Expr*> item_asts;
  for (const auto& item : select.projection) {
    if (auto* star = item.expr.as<sql::Star>()) {
      if (select.from.empty()) {
        return at_pos(Status::error(sqlstate::kSyntaxError, "SELECT * with no tables specified is not valid"),
                      item.expr.pos);
      }
      bool any = false;
      for (size_t i : from.star) {
        const ScopeColumn& c = from.columns[i];
        if (!star->qualifier.empty() && (c.unqualified_only || c.table != star->qualifier.back())) continue;
        any = true;
        ScalarExpr e = ScalarExpr::column(ow + i, c.type);
        if (grouping) {
          std::optional<size_t> key;
          for (size_t k = 0; k < grouping->keys.size(); ++k) {
            if (grouping->keys[k] == e) key = k;
          }
          if (!key) {
            std::string full = c.table.empty() ? c.name : c.table + "." + c.name;
            return at_pos(Status::error(sqlstate::kGroupingError,
                                        "column \"" + full +
                                            "\" must appear in the GROUP BY clause or be used in an aggregate function"),
                          item.expr.pos);
          }
          e = ScalarExpr::column(ow + *key, c.type);
        }
        exprs.push_back(std::move(e));
        item_asts.push_back(nullptr);
        out.columns.push_back({c.name, c.type});
      }
      if (!any && !star->qualifier.empty()) {
        return at_pos(Status::error(sqlstate::kUndefinedTable,
                                    "missing FROM-clause entry for table \"" + star->qualifier.back() + "\""),
                      item.expr.pos);
      }
      continue;
    }
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, binder.bind(item.expr));
    // An untyped literal in a set operation's operand (`SELECT x ... UNION
    // SELECT NULL`) takes its type from the other operands, as in PostgreSQL.
    bool set_operand = query == nullptr;
    if (!(set_operand && e.is_literal())) {
      TANDEM_ASSIGN_OR_RETURN(e, binder.resolve_unknown_as_text(std::move(e)));
    }
    out.columns.push_back({item.alias ? *item.alias : ExprBinder::column_name(item.expr), e.type()});
    exprs.push_back(std::move(e));
    item_asts.push_back(&item.expr);
  }
  size_t visible = exprs.size();
  bool distinct = select.distinct == sql::Select::Distinct::kDistinct;
  if (distinct && visible == 0) {
    return at_pos(Status::error(sqlstate::kSyntaxError, "SELECT DISTINCT must have at least one column"), select.pos);
  }
  // An ORDER BY or DISTINCT ON expression: an output position, an output
  // name, a select-list expression, or any expression over the FROM row
  // (then computed as a hidden column after the visible ones).
  auto sort_column = [&](const sql::Expr& expr) -> Result<size_t> {
    Status error;
    std::optional<size_t> column = ordinal(expr, visible, &error);
    if (!error.is_ok()) return error;
    if (!column) {
      if (auto* c = expr.as<sql::ColumnRef>(); c && c->names.size() == 1) {
        for (size_t i = 0; i < visible; ++i) {
          if (out.columns[i].name != c->names[0]) continue;
          if (column && !(exprs[*column] == exprs[i])) {
            return at_pos(Status::error(sqlstate::kAmbiguousColumn, "ORDER BY \"" + c->names[0] + "\" is ambiguous"),
                          expr.pos);
          }
          if (!column) column = i;
        }
      }
    }
    if (!column) {
      for (size_t i = 0; i < visible && !column; ++i) {
        if (item_asts[i] && *item_asts[i] == expr) column = i;
      }
    }
    if (!column) {
      TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, binder.bind(expr));
      TANDEM_ASSIGN_OR_RETURN(e, binder.resolve_unknown_as_text(std::move(e)));
      for (size_t i = 0; i < exprs.size() && !column; ++i) {
        if (exprs[i] == e) column = i;
      }
      if (!column) {
        if (distinct) {
          return at_pos(Status::error(sqlstate::kInvalidColumnReference,
                                      "for SELECT DISTINCT, ORDER BY expressions must appear in select list"),
                        expr.pos);
        }
        column = exprs.size();
        exprs.push_back(std::move(e));
      }
    }
    return *column;
  };
  if (query) {
    for (const auto& item : query->order_by) {
      TANDEM_ASSIGN_OR_RETURN(size_t column, sort_column(item.expr));
      bool nulls_first = item.nulls == sql::OrderByItem::Nulls::kDefault ? item.desc
                                                                          : item.nulls == sql::OrderByItem::Nulls::kFirst;
      out.order_by.push_back(SortKey{column, item.desc, nulls_first});
    }
  }
  // DISTINCT ON (e, ...): the first row of each group of equal e under the
  // ORDER BY, whose leading items must be the DISTINCT ON expressions (as
  // PostgreSQL requires); a TopK of one row per group.
  struct FirstPerGroup {
    std::vector<size_t> group_key;
    std::vector<compute::ColumnOrder> order;
  };
  std::optional<FirstPerGroup> distinct_on;
  if (select.distinct == sql::Select::Distinct::kDistinctOn) {
    FirstPerGroup first;
    std::vector<const sql::Expr*> on_asts;
    for (const auto& e : select.distinct_on) {
      TANDEM_ASSIGN_OR_RETURN(size_t column, sort_column(e));
      first.group_key.push_back(column);
      on_asts.push_back(&e);
    }
    bool skipped = false;
    for (const SortKey& k : out.order_by) {
      auto on = std::find(first.group_key.begin(), first.group_key.end(), k.column);
      if (on == first.group_key.end()) {
        skipped = true;
        continue;
      }
      if (skipped) {
        return at_pos(Status::error(sqlstate::kInvalidColumnReference,
                                    "SELECT DISTINCT ON expressions must match initial ORDER BY expressions"),
                      on_asts[static_cast<size_t>(on - first.group_key.begin())]->pos);
      }
    }
    // An item left out of the ORDER BY may follow it only if no ORDER BY
    // item was skipped.
    for (size_t i = 0; i < first.group_key.size() && skipped; ++i) {
      auto in_order = [&](const SortKey& k) { return k.column == first.group_key[i]; };
      if (std::none_of(out.order_by.begin(), out.order_by.end(), in_order)) {
        return at_pos(Status::error(sqlstate::kInvalidColumnReference,
                                    "SELECT DISTINCT ON expressions must match initial ORDER BY expressions"),
                      on_asts[i]->pos);
      }
    }
    for (const SortKey& k : out.order_by) first.order.push_back(compute::ColumnOrder{k.column, k.desc, !k.nulls_first});
    distinct_on = std::move(first);
  }
  size_t width = own + site.pending.size();
  size_t n = exprs.size();
  rel = hir::Rel{hir::Map{apply_site(std::move(rel), site), std::move(exprs)}};
  rel = project_range(std::move(rel), width, width + n);
  if (distinct) rel = hir::Rel{hir::Distinct{std::move(rel)}};
  if (distinct_on) {
    rel = hir::Rel{hir::TopK{std::move(rel), std::move(distinct_on->order), 1, 0, std::move(distinct_on->group_key)}};
  }
  out.rel = std::move(rel);
  return out;
}

}  // namespace tandem::planner
