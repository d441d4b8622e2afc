// Window function binding (windowing.hpp): OVER (PARTITION BY ... ORDER BY
// ... frame) calls of the select list and ORDER BY become hir::Window nodes.
#include <algorithm>
#include <map>

#include "common/eval.hpp"
#include "common/eval_context.hpp"
#include "common/func_resolve.hpp"
#include "planner/binder/grouping.hpp"
#include "planner/binder/windowing.hpp"
#include "planner/mir/mir.hpp"

namespace tandem::planner {
namespace {

constexpr const char* kWindowingError = "42P20";

Status windowing_error(std::string message) { return Status::error(kWindowingError, std::move(message)); }

void collect_in(const std::vector<sql::Expr>& es, std::vector<const sql::Expr*>* out) {
  for (const auto& x : es) collect_window_calls(x, out);
}

bool uses_frame(compute::WindowFuncKind k) {
  using K = compute::WindowFuncKind;
  return k == K::kFirstValue || k == K::kLastValue || k == K::kNthValue || k == K::kAggregate;
}

// The window `ws` refers to, with named windows (WINDOW w AS ...) among
// defs[0, upto) substituted, by PostgreSQL's copy rules.
Result<sql::WindowSpec> resolve_window(const sql::WindowSpec& ws, const std::vector<sql::NamedWindow>& defs,
                                       size_t upto) {
  const std::string& ref = ws.name.empty() ? ws.base : ws.name;
  if (ref.empty()) return ws;
  size_t i = 0;
  while (i < upto && defs[i].name != ref) ++i;
  if (i == upto) return Status::error(sqlstate::kUndefinedObject, "window \"" + ref + "\" does not exist");
  TANDEM_ASSIGN_OR_RETURN(sql::WindowSpec base, resolve_window(defs[i].spec, defs, i));
  if (!ws.name.empty()) return base;  // OVER w
  if (!ws.partition_by.empty()) return windowing_error("cannot override PARTITION BY clause of window \"" + ref + "\"");
  if (!ws.order_by.empty() && !base.order_by.empty()) {
    return windowing_error("cannot override ORDER BY clause of window \"" + ref + "\"");
  }
  if (base.has_frame) return windowing_error("cannot copy window \"" + ref + "\" because it has a frame clause");
  sql::WindowSpec out = ws;
  out.base.clear();
  out.partition_by = base.partition_by;
  if (out.order_by.empty()) out.order_by = base.order_by;
  return out;
}

}  // namespace

void collect_window_calls(const sql::Expr& e, std::vector<const sql::Expr*>* out) {
  auto rec = [&](const sql::Expr& c) { collect_window_calls(c, out); };
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, sql::FunctionCall>) {
          if (n.over) {
            out->push_back(&e);
            return;
          }
          collect_in(n.args, out);
          if (n.filter) rec(*n.filter);
        } else if constexpr (std::is_same_v<T, sql::UnaryOp>) {
          rec(*n.operand);
        } else if constexpr (std::is_same_v<T, sql::BinaryOp> || std::is_same_v<T, sql::IsDistinctFrom>) {
          rec(*n.left);
          rec(*n.right);
        } else if constexpr (std::is_same_v<T, sql::Cast> || std::is_same_v<T, sql::IsTest> ||
                             std::is_same_v<T, sql::Collate> || std::is_same_v<T, sql::FieldAccess>) {
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
          collect_in(n.list, out);
        } else if constexpr (std::is_same_v<T, sql::InSubquery>) {
          rec(*n.expr);
        } else if constexpr (std::is_same_v<T, sql::Like>) {
          rec(*n.expr);
          rec(*n.pattern);
          if (n.escape) rec(*n.escape);
        } else if constexpr (std::is_same_v<T, sql::Quantified>) {
          rec(*n.left);
          if (n.array) rec(*n.array);
        } else if constexpr (std::is_same_v<T, sql::ArrayExpr> || std::is_same_v<T, sql::RowExpr>) {
          collect_in(n.elements, out);
        } else if constexpr (std::is_same_v<T, sql::Subscript>) {
          rec(*n.expr);
          if (n.index) rec(*n.index);
          if (n.upper) rec(*n.upper);
        }
      },
      e.node);
}

bool has_window_calls(const sql::Select& select, const sql::Query* query) {
  std::vector<const sql::Expr*> calls;
  for (const auto& p : select.projection) collect_window_calls(p.expr, &calls);
  if (query) {
    for (const auto& o : query->order_by) collect_window_calls(o.expr, &calls);
  }
  return !calls.empty();
}

ExprBinder::Hook QueryBinder::window_hook(const Windowing& w, ExprBinder::Hook base) {
  return [&w, base](const sql::Expr& e, ExprBinder& b) -> std::optional<Result<ScalarExpr>> {
    if (auto* c = e.as<sql::FunctionCall>(); c && c->over) {
      for (size_t i = 0; i < w.asts.size(); ++i) {
        if (w.asts[i] == e) return Result<ScalarExpr>(w.values[i]);
      }
    }
    return base(e, b);
  };
}

Result<QueryBinder::Windowing> QueryBinder::bind_windows(const sql::Select& select, const sql::Query* query,
                                                         const Scope& scope, const Grouping* grouping, hir::Rel rel,
                                                         size_t own) {
  std::vector<const sql::Expr*> calls;
  for (const auto& p : select.projection) collect_window_calls(p.expr, &calls);
  if (query) {
    for (const auto& o : query->order_by) collect_window_calls(o.expr, &calls);
  }
  const size_t ow = scope.columns.size() - own;
  ExprBinder binder(scope, param_types_, hir::kParamBase);
  {
    ExprBinder::Hook base = make_hook(nullptr, grouping, "window functions");
    binder.set_hook([base](const sql::Expr& e, ExprBinder& b) -> std::optional<Result<ScalarExpr>> {
      if (auto* c = e.as<sql::FunctionCall>(); c && c->over) {
        return Result<ScalarExpr>(windowing_error("window function calls cannot be nested"));
      }
      return base(e, b);
    });
  }

  // Expressions that are not own columns are mapped after the input's.
  std::vector<ScalarExpr> maps;
  auto column_of = [&](const ScalarExpr& e) -> size_t {
    if (auto* c = std::get_if<ColumnRef>(&e.node); c && c->index >= ow && c->index < ow + own) return c->index - ow;
    for (size_t i = 0; i < maps.size(); ++i) {
      if (maps[i] == e) return own + i;
    }
    maps.push_back(e);
    return own + maps.size() - 1;
  };
  struct Spec {
    std::vector<size_t> partition_by;
    std::vector<compute::ColumnOrder> order_by;
    std::vector<compute::WindowFunc> funcs;
  };
  std::vector<Spec> specs;
  // Per call: its spec and the functions whose columns make its value.
  struct Pending {
    size_t spec = 0;
    std::vector<size_t> funcs;
    bool avg = false;
    TypeId avg_input = TypeId::kInt4;
  };
  std::vector<Pending> pending;
  Windowing w;
  for (size_t i = 0; i < select.windows.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (select.windows[j].name == select.windows[i].name) {
        return at_pos(windowing_error("window \"" + select.windows[i].name + "\" is already defined"), select.pos);
      }
    }
  }

  for (const sql::Expr* call_expr : calls) {
    bool seen = false;
    for (const auto& a : w.asts) seen = seen || a == *call_expr;
    if (seen) continue;
    const auto& call = *call_expr->as<sql::FunctionCall>();
    const std::string name = call.name.back();
    auto fail = [&](Status s) { return at_pos(std::move(s), call_expr->pos); };
    auto resolved = resolve_window(*call.over, select.windows, select.windows.size());
    if (!resolved.ok()) return fail(resolved.status());
    const sql::WindowSpec& ws = *resolved;
    Spec spec;
    for (const auto& p : ws.partition_by) {
      TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, binder.bind(p));
      TANDEM_ASSIGN_OR_RETURN(e, binder.resolve_unknown_as_text(std::move(e)));
      spec.partition_by.push_back(column_of(e));
    }
    for (const auto& o : ws.order_by) {
      TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, binder.bind(o.expr));
      TANDEM_ASSIGN_OR_RETURN(e, binder.resolve_unknown_as_text(std::move(e)));
      const bool nulls_first =
          o.nulls == sql::OrderByItem::Nulls::kDefault ? o.desc : o.nulls == sql::OrderByItem::Nulls::kFirst;
      spec.order_by.push_back(compute::ColumnOrder{column_of(e), o.desc, !nulls_first});
    }
    TANDEM_ASSIGN_OR_RETURN(compute::WindowFrame frame, bind_window_frame(ws, binder));

    // The function.
    if (call.distinct) return fail(Status::error(sqlstate::kFeatureNotSupported, "DISTINCT is not implemented for window functions"));
    if (!call.order_by.empty()) {
      return fail(Status::error(sqlstate::kFeatureNotSupported, "aggregate ORDER BY is not implemented for window functions"));
    }
    const bool aggregate = is_aggregate_name(name);
    if (call.filter && !aggregate) {
      return fail(Status::error(sqlstate::kFeatureNotSupported, "FILTER is not implemented for non-aggregate window functions"));
    }
    std::optional<ScalarExpr> cond;
    if (call.filter) {
      TANDEM_ASSIGN_OR_RETURN(ScalarExpr f, binder.bind_condition(*call.filter, "FILTER"));
      cond = std::move(f);
    }
    std::vector<ScalarExpr> args;
    for (const auto& a : call.args) {
      TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, binder.bind(a));
      args.push_back(std::move(e));
    }
    auto no_function = [&]() {
      std::string sig = name + "(";
      for (size_t i = 0; i < args.size(); ++i) sig += (i ? ", " : "") + std::string(type_name(args[i].type().id));
      return fail(Status::error(sqlstate::kUndefinedFunction, "function " + sig + ") does not exist")
                      .with_hint("No function matches the given name and argument types. You might need to add explicit type casts."));
    };
    auto to_int4 = [&](ScalarExpr& e) -> Status {
      auto cast = make_cast(e, ColumnType{TypeId::kInt4}, CastContext::kImplicit);
      if (!cast.ok()) return no_function();
      e = std::move(*cast);
      return Status::ok();
    };
    // anyelement arguments (lag/lead without a default, first/last/nth_value).
    auto polymorphic_arg = [&](const ScalarExpr& e) -> Status {
      if (e.type().id != TypeId::kUnknown) return Status::ok();
      return fail(Status::error(sqlstate::kDatatypeMismatch,
                                "could not determine polymorphic type because input has type unknown"));
    };
    auto value_arg = [&](ScalarExpr& e) -> Status {
      if (e.type().id == TypeId::kUnknown) {
        TANDEM_ASSIGN_OR_RETURN(e, make_cast(std::move(e), ColumnType{TypeId::kText}, CastContext::kImplicit));
      }
      return Status::ok();
    };
    using K = compute::WindowFuncKind;
    compute::WindowFunc f;
    f.type = ColumnType{TypeId::kInt8, -1, false};
    Pending p;
    if (name == "row_number" || name == "rank" || name == "dense_rank" || name == "percent_rank" || name == "cume_dist") {
      if (!args.empty()) {
        if (name == "row_number") return no_function();
        return fail(Status::error(sqlstate::kWrongObjectType, "WITHIN GROUP is required for ordered-set aggregate " + name));
      }
      f.kind = name == "row_number" ? K::kRowNumber
               : name == "rank"     ? K::kRank
               : name == "dense_rank" ? K::kDenseRank
               : name == "percent_rank" ? K::kPercentRank
                                        : K::kCumeDist;
      if (f.kind == K::kPercentRank || f.kind == K::kCumeDist) f.type = ColumnType{TypeId::kFloat8, -1, false};
    } else if (name == "ntile") {
      if (args.size() != 1) return no_function();
      TANDEM_RETURN_IF_ERROR(to_int4(args[0]));
      f.kind = K::kNtile;
      f.type = ColumnType{TypeId::kInt4, -1, true};
    } else if (name == "lag" || name == "lead") {
      if (args.empty() || args.size() > 3) return no_function();
      f.kind = name == "lag" ? K::kLag : K::kLead;
      if (args.size() > 1) TANDEM_RETURN_IF_ERROR(to_int4(args[1]));
      if (args.size() == 3) {
        // lag(anycompatible, integer, anycompatible): value and default unify.
        std::vector<ColumnType> both{args[0].type(), args[2].type()};
        auto unified = unify_types(both, name);
        if (!unified.ok()) return fail(unified.status());
        ColumnType t = *unified;
        if (t.id == TypeId::kUnknown) t = ColumnType{TypeId::kText};
        TANDEM_ASSIGN_OR_RETURN(args[0], make_cast(std::move(args[0]), t, CastContext::kImplicit));
        TANDEM_ASSIGN_OR_RETURN(args[2], make_cast(std::move(args[2]), t, CastContext::kImplicit));
      }
      TANDEM_RETURN_IF_ERROR(polymorphic_arg(args[0]));
      f.type = args[0].type();
      f.type.nullable = true;
    } else if (name == "first_value" || name == "last_value" || name == "nth_value") {
      if (args.size() != (name == "nth_value" ? 2u : 1u)) return no_function();
      f.kind = name == "first_value" ? K::kFirstValue : name == "last_value" ? K::kLastValue : K::kNthValue;
      if (f.kind == K::kNthValue) TANDEM_RETURN_IF_ERROR(to_int4(args[1]));
      TANDEM_RETURN_IF_ERROR(polymorphic_arg(args[0]));
      f.type = args[0].type();
      f.type.nullable = true;
    } else if (aggregate) {
      f.kind = K::kAggregate;
      if (call.star) {
        if (name != "count") return fail(Status::error(sqlstate::kSyntaxError, name + "(*) is not allowed"));
        if (cond) {
          args.push_back(ScalarExpr::literal(Datum::from_int32(1), ColumnType{TypeId::kInt4, -1, false}));
          f.aggregate = compute::AggregateFunc::kCount;
        } else {
          f.aggregate = compute::AggregateFunc::kCountAll;
        }
      } else {
        static constexpr std::string_view kSupported[] = {"count", "sum", "avg", "min", "max", "bool_and", "bool_or", "every"};
        if (std::find(std::begin(kSupported), std::end(kSupported), name) == std::end(kSupported)) {
          return not_supported_at("aggregate function " + name + " as a window function is", call_expr->pos);
        }
        if (args.size() != 1) return no_function();
        TANDEM_RETURN_IF_ERROR(value_arg(args[0]));
        const TypeId t = args[0].type().id;
        const bool numeric_input = is_integer_type(t) || t == TypeId::kNumeric || t == TypeId::kFloat4 || t == TypeId::kFloat8;
        const auto sum_func = (t == TypeId::kInt2 || t == TypeId::kInt4) ? compute::AggregateFunc::kSumInt
                              : t == TypeId::kInt8                         ? compute::AggregateFunc::kSumInt8
                              : t == TypeId::kNumeric                      ? compute::AggregateFunc::kSumNumeric
                                                                           : compute::AggregateFunc::kSumFloat;
        if (name == "count") {
          f.aggregate = compute::AggregateFunc::kCount;
        } else if (name == "sum" || name == "avg") {
          if (!numeric_input) return no_function();
          f.aggregate = sum_func;
          p.avg = name == "avg";
          p.avg_input = t;
        } else if (name == "min" || name == "max") {
          if (!min_max_accepts(t)) return no_function();
          f.aggregate = name == "min" ? compute::AggregateFunc::kMin : compute::AggregateFunc::kMax;
        } else if (name == "bool_and" || name == "bool_or" || name == "every") {
          if (t != TypeId::kBool) return no_function();
          f.aggregate = name == "bool_or" ? compute::AggregateFunc::kMax : compute::AggregateFunc::kMin;
        } else {
          return not_supported_at("aggregate function " + name + " as a window function is", call_expr->pos);
        }
      }
      if (cond) {
        ColumnType t = args[0].type();
        t.nullable = true;
        args[0] = ScalarExpr::if_then_else(*cond, std::move(args[0]), ScalarExpr::null(t), t);
      }
      compute::AggregateExpr typed{f.aggregate,
                                   args.empty() ? ScalarExpr::null(ColumnType{TypeId::kInt8}) : args[0], false,
                                   std::nullopt};
      f.type = mir::aggregate_type(typed);
      // A frame may hold no rows (or only NULLs): every aggregate but count may be NULL.
      f.type.nullable = f.aggregate != compute::AggregateFunc::kCount && f.aggregate != compute::AggregateFunc::kCountAll;
    } else {
      return fail(Status::error(sqlstate::kWrongObjectType,
                                "OVER specified, but " + name + " is not a window function nor an aggregate function"));
    }
    if (uses_frame(f.kind)) {
      if (frame.units == compute::WindowFrame::Units::kGroups && spec.order_by.empty()) {
        return fail(windowing_error("GROUPS mode requires an ORDER BY clause"));
      }
      f.frame = frame;
    }
    for (const auto& a : args) f.args.push_back(column_of(a));

    // The spec this call belongs to.
    size_t s = 0;
    for (; s < specs.size(); ++s) {
      if (specs[s].partition_by == spec.partition_by && specs[s].order_by == spec.order_by) break;
    }
    if (s == specs.size()) specs.push_back(std::move(spec));
    p.spec = s;
    p.funcs.push_back(specs[s].funcs.size());
    specs[s].funcs.push_back(f);
    if (p.avg) {
      compute::WindowFunc count = f;
      count.aggregate = compute::AggregateFunc::kCount;
      count.type = ColumnType{TypeId::kInt8, -1, false};
      p.funcs.push_back(specs[s].funcs.size());
      specs[s].funcs.push_back(count);
    }
    w.asts.push_back(*call_expr);
    pending.push_back(std::move(p));
  }

  // Layout: own columns, the maps, then each spec's functions in order.
  w.post = scope;
  const size_t level = own > 0 ? scope.columns[ow].level : max_level(scope) + 1;
  hir::Rel out = std::move(rel);
  if (!maps.empty()) {
    for (const auto& m : maps) w.post.columns.push_back(ScopeColumn{"", "", m.type(), level});
    out = hir::Rel{hir::Map{std::move(out), maps}};
  }
  std::vector<size_t> spec_base;
  size_t next = own + maps.size();
  for (auto& spec : specs) {
    spec_base.push_back(next);
    for (const auto& f : spec.funcs) w.post.columns.push_back(ScopeColumn{"", "", f.type, level});
    next += spec.funcs.size();
    out = hir::Rel{hir::Window{std::move(out), spec.partition_by, spec.order_by, spec.funcs}};
  }
  for (const Pending& p : pending) {
    auto column = [&](size_t j) {
      const size_t c = spec_base[p.spec] + p.funcs[j];
      return ScalarExpr::column(ow + c, specs[p.spec].funcs[p.funcs[j]].type);
    };
    if (!p.avg) {
      w.values.push_back(column(0));
      continue;
    }
    // avg = sum / count, as numeric (float8 for float input); count = 0
    // only when sum is NULL, and the strict division is then NULL.
    const bool floating = p.avg_input == TypeId::kFloat4 || p.avg_input == TypeId::kFloat8;
    ColumnType target{floating ? TypeId::kFloat8 : TypeId::kNumeric};
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr sum, make_cast(column(0), target, CastContext::kImplicit));
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr count, make_cast(column(1), target, CastContext::kImplicit));
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr value, resolve_operator("/", {std::move(sum), std::move(count)}));
    w.values.push_back(std::move(value));
  }
  w.rel = std::move(out);
  w.own = next;
  return w;
}

Result<compute::WindowFrame> QueryBinder::bind_window_frame(const sql::WindowSpec& ws, ExprBinder& binder) {
  compute::WindowFrame frame;
  if (!ws.has_frame) return frame;
  using U = compute::WindowFrame::Units;
  using BK = compute::WindowFrameBound::Kind;
  const sql::WindowFrame& f = ws.frame;
  frame.units = f.units == sql::WindowFrame::Units::kRows ? U::kRows
                : f.units == sql::WindowFrame::Units::kGroups ? U::kGroups
                                                              : U::kRange;
  const char* units = frame.units == U::kRows ? "ROWS" : frame.units == U::kGroups ? "GROUPS" : "RANGE";
  auto bound = [&](const sql::WindowFrameBound& b, bool start) -> Result<compute::WindowFrameBound> {
    compute::WindowFrameBound out;
    switch (b.kind) {
      case sql::WindowFrameBound::Kind::kUnboundedPreceding: out.kind = BK::kUnboundedPreceding; return out;
      case sql::WindowFrameBound::Kind::kUnboundedFollowing: out.kind = BK::kUnboundedFollowing; return out;
      case sql::WindowFrameBound::Kind::kCurrentRow: out.kind = BK::kCurrentRow; return out;
      case sql::WindowFrameBound::Kind::kPreceding: out.kind = BK::kPreceding; break;
      case sql::WindowFrameBound::Kind::kFollowing: out.kind = BK::kFollowing; break;
    }
    if (frame.units == U::kRange) {
      if (ws.order_by.size() != 1) {
        return at_pos(windowing_error("RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column"),
                      b.offset->pos);
      }
      return not_supported_at("RANGE with offset PRECEDING/FOLLOWING is", b.offset->pos);
    }
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, binder.bind(*b.offset));
    if (hir::references(e, 0, hir::kParamBase)) {
      return at_pos(Status::error(sqlstate::kInvalidColumnReference,
                                  std::string("argument of ") + units + " must not contain variables"),
                    b.offset->pos);
    }
    if (hir::references(e, hir::kParamBase, SIZE_MAX)) {
      return not_supported_at("parameters in window frame offsets are", b.offset->pos);
    }
    auto cast = make_cast(e, ColumnType{TypeId::kInt8}, CastContext::kImplicit);
    if (!cast.ok()) {
      if (!e.is_literal() || e.type().id != TypeId::kUnknown) {
        return at_pos(Status::error(sqlstate::kDatatypeMismatch, std::string("argument of ") + units +
                                                                     " must be type bigint, not type " +
                                                                     std::string(type_name(e.type().id))),
                      b.offset->pos);
      }
      return at_pos(cast.status(), b.offset->pos);
    }
    EvalContext ctx;
    std::vector<Datum> none;
    auto v = eval(*cast, none, ctx);
    if (!v.ok()) return at_pos(v.status(), b.offset->pos);
    const std::string which = start ? "starting" : "ending";
    if (v->is_null()) return Status::error(sqlstate::kNullValueNotAllowed, "frame " + which + " offset must not be null");
    if (v->as_integer() < 0) return Status::error("22013", "frame " + which + " offset must not be negative");
    out.offset = v->as_integer();
    return out;
  };
  if (f.start.kind == sql::WindowFrameBound::Kind::kUnboundedFollowing) {
    return windowing_error("frame start cannot be UNBOUNDED FOLLOWING");
  }
  if (f.has_end && f.end.kind == sql::WindowFrameBound::Kind::kUnboundedPreceding) {
    return windowing_error("frame end cannot be UNBOUNDED PRECEDING");
  }
  TANDEM_ASSIGN_OR_RETURN(frame.start, bound(f.start, true));
  if (f.has_end) {
    TANDEM_ASSIGN_OR_RETURN(frame.end, bound(f.end, false));
  } else {
    frame.end = compute::WindowFrameBound{BK::kCurrentRow, 0};
  }
  if (frame.start.kind == BK::kCurrentRow && frame.end.kind == BK::kPreceding) {
    return windowing_error("frame starting from current row cannot have preceding rows");
  }
  if (frame.start.kind == BK::kFollowing && (frame.end.kind == BK::kPreceding || frame.end.kind == BK::kCurrentRow)) {
    return windowing_error("frame starting from following row cannot have preceding rows");
  }
  return frame;
}

}  // namespace tandem::planner
