#include "planner/query_planner.hpp"

#include <algorithm>

#include "common/eval.hpp"
#include "common/func_resolve.hpp"
#include "planner/binder/catalog_functions.hpp"
#include "planner/binder/expr_binder.hpp"
#include "planner/read_plan.hpp"

namespace tandem::planner {
namespace {

Status not_supported(const std::string& what, sql::SourcePos pos) {
  return Status::error(sqlstate::kFeatureNotSupported, what + " not supported yet")
      .with_position(static_cast<int>(pos.offset) + 1);
}

// True when `pred` holds for an expression of the plan's rows or filter.
template <class Pred>
bool plan_has(const QueryPlan& plan, const Pred& pred) {
  for (const auto& row : plan.relation.rows) {
    for (const auto& e : row) {
      if (pred(e)) return true;
    }
  }
  return plan.relation.filter && pred(*plan.relation.filter);
}

bool calls_session_function(const ScalarExpr& e) {
  if (auto* u = std::get_if<CallUnary>(&e.node)) return calls_session_function(*u->arg);
  if (auto* b = std::get_if<CallBinary>(&e.node)) return calls_session_function(*b->lhs) || calls_session_function(*b->rhs);
  if (auto* v = std::get_if<CallVariadic>(&e.node)) {
    if (func_is_session(v->func)) return true;
    for (const auto& a : v->args) {
      if (calls_session_function(a)) return true;
    }
    return false;
  }
  if (auto* f = std::get_if<IfExpr>(&e.node)) {
    return calls_session_function(*f->cond) || calls_session_function(*f->then) || calls_session_function(*f->els);
  }
  return false;
}

// SELECT list ... [WHERE] with no FROM: one row.
Status plan_select(const sql::Select& select, ExprBinder& binder, QueryPlan& plan) {
  if (!select.from.empty()) return not_supported("queries over tables, views and functions are", select.pos);
  if (!select.group_by.empty() || select.having) return not_supported("GROUP BY and HAVING are", select.pos);
  if (select.distinct == sql::Select::Distinct::kDistinctOn) return not_supported("DISTINCT ON is", select.pos);
  plan.distinct = select.distinct == sql::Select::Distinct::kDistinct;
  std::vector<ScalarExpr> row;
  for (const auto& item : select.projection) {
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, binder.bind(item.expr));
    TANDEM_ASSIGN_OR_RETURN(e, binder.resolve_unknown_as_text(std::move(e)));
    plan.columns.push_back({item.alias ? *item.alias : ExprBinder::column_name(item.expr), e.type()});
    row.push_back(std::move(e));
  }
  plan.relation.rows.push_back(std::move(row));
  if (select.where) {
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr where, binder.bind_condition(*select.where, "WHERE"));
    plan.relation.filter = std::move(where);
  }
  return Status::ok();
}

Status plan_values(const sql::Values& values, ExprBinder& binder, QueryPlan& plan) {
  size_t width = values.rows.front().size();
  std::vector<std::vector<ScalarExpr>> rows;
  for (const auto& r : values.rows) {
    if (r.size() != width) {
      return Status::error(sqlstate::kSyntaxError, "VALUES lists must all be the same length")
          .with_position(static_cast<int>(r.front().pos.offset) + 1);
    }
    std::vector<ScalarExpr> row;
    for (const auto& e : r) {
      TANDEM_ASSIGN_OR_RETURN(ScalarExpr bound, binder.bind(e));
      row.push_back(std::move(bound));
    }
    rows.push_back(std::move(row));
  }
  for (size_t c = 0; c < width; ++c) {
    std::vector<ColumnType> types;
    for (const auto& row : rows) types.push_back(row[c].type());
    auto type = unify_types(types, "VALUES");
    if (!type.ok()) return Status(type.status()).with_position(static_cast<int>(values.rows[0][c].pos.offset) + 1);
    ColumnType t = type->id == TypeId::kUnknown ? ColumnType{TypeId::kText} : *type;
    bool nullable = false;
    for (auto& row : rows) {
      TANDEM_ASSIGN_OR_RETURN(row[c], make_cast(std::move(row[c]), t, CastContext::kImplicit));
      nullable = nullable || row[c].type().nullable;
    }
    t.nullable = nullable;
    plan.columns.push_back({"column" + std::to_string(c + 1), t});
  }
  plan.relation.rows = std::move(rows);
  return Status::ok();
}

// Finds the output column an ORDER BY item names: a position, an output
// column name, or an expression equal to a select-list item.
std::optional<size_t> order_target(const sql::OrderByItem& item, const QueryPlan& plan,
                                   const std::vector<const sql::Expr*>& select_exprs, Status* error) {
  if (auto* n = item.expr.as<sql::NumberLiteral>()) {
    size_t k = 0;
    bool ok = !n->text.empty() && n->text.find_first_not_of("0123456789") == std::string::npos &&
              n->text.size() < 10;
    if (ok) k = std::stoul(n->text);
    if (!ok || k < 1 || k > plan.columns.size()) {
      *error = Status::error(sqlstate::kInvalidColumnReference, "ORDER BY position " + n->text + " is not in select list")
                   .with_position(static_cast<int>(item.expr.pos.offset) + 1);
      return std::nullopt;
    }
    return k - 1;
  }
  if (auto* c = item.expr.as<sql::ColumnRef>(); c && c->names.size() == 1) {
    std::optional<size_t> found;
    for (size_t i = 0; i < plan.columns.size(); ++i) {
      if (plan.columns[i].name != c->names[0]) continue;
      if (found) {
        *error = Status::error(sqlstate::kAmbiguousColumn, "ORDER BY \"" + c->names[0] + "\" is ambiguous")
                     .with_position(static_cast<int>(item.expr.pos.offset) + 1);
        return std::nullopt;
      }
      found = i;
    }
    if (found) return found;
  }
  for (size_t i = 0; i < select_exprs.size(); ++i) {
    if (*select_exprs[i] == item.expr) return i;
  }
  return std::nullopt;
}

Status plan_order_by(const sql::Query& query, ExprBinder& binder, QueryPlan& plan) {
  std::vector<const sql::Expr*> select_exprs;
  const auto* select = std::get_if<sql::Select>(&query.body.node);
  if (select) {
    for (const auto& item : select->projection) select_exprs.push_back(&item.expr);
  }
  for (const auto& item : query.order_by) {
    Status error;
    std::optional<size_t> column = order_target(item, plan, select_exprs, &error);
    if (!error.is_ok()) return error;
    if (!column) {
      // An expression that is not an output column: a hidden column, which
      // only a SELECT without FROM can compute (it has no input row).
      if (!select) return not_supported("ORDER BY expressions over VALUES are", item.expr.pos);
      if (plan.distinct) {
        return Status::error(sqlstate::kInvalidColumnReference,
                             "for SELECT DISTINCT, ORDER BY expressions must appear in select list")
            .with_position(static_cast<int>(item.expr.pos.offset) + 1);
      }
      TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, binder.bind(item.expr));
      TANDEM_ASSIGN_OR_RETURN(e, binder.resolve_unknown_as_text(std::move(e)));
      column = plan.relation.rows.front().size();
      plan.relation.rows.front().push_back(std::move(e));
    }
    bool nulls_first = item.nulls == sql::OrderByItem::Nulls::kDefault ? item.desc
                                                                        : item.nulls == sql::OrderByItem::Nulls::kFirst;
    plan.order_by.push_back(SortKey{*column, item.desc, nulls_first});
  }
  return Status::ok();
}

Result<std::optional<ScalarExpr>> plan_limit(const sql::Box<sql::Expr>& e, ExprBinder& binder) {
  if (!e) return std::optional<ScalarExpr>();
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr bound, binder.bind(*e));
  auto cast = make_cast(std::move(bound), ColumnType{TypeId::kInt8}, CastContext::kAssignment);
  if (!cast.ok()) return Status(cast.status()).with_position(static_cast<int>(e->pos.offset) + 1);
  return std::optional<ScalarExpr>(std::move(*cast));
}

Result<int64_t> eval_limit(const std::optional<ScalarExpr>& e, std::span<const Datum> params, EvalContext& ctx,
                           const char* what, const char* code, int64_t unset) {
  if (!e) return unset;
  TANDEM_ASSIGN_OR_RETURN(Datum d, eval(*e, params, ctx));
  if (d.is_null()) return unset;
  if (d.as_int64() < 0) return Status::error(code, std::string(what) + " must not be negative");
  return d.as_int64();
}

}  // namespace

Result<std::shared_ptr<const QueryPlan>> plan_query(const sql::Query& query, std::vector<ColumnType>& param_types) {
  if (!query.ctes.empty()) return not_supported("WITH is", query.pos);
  if (query.as_of) return not_supported("AS OF is", query.pos);
  auto plan = std::make_shared<QueryPlan>();
  Scope scope;
  ExprBinder binder(scope, &param_types, 0);
  // Catalog functions and reg* casts read the catalog: such a query is
  // planned by the read planner (0A000 here hands it over).
  binder.set_hook([](const sql::Expr& e, ExprBinder&) -> std::optional<Result<ScalarExpr>> {
    auto* call = e.as<sql::FunctionCall>();
    auto* cast = e.as<sql::Cast>();
    if ((call && catalog_function_sql(call->name, call->args.size())) || (cast && !reg_type_name(cast->type).empty())) {
      return Result<ScalarExpr>(Status::error(sqlstate::kFeatureNotSupported, "catalog functions need the catalog"));
    }
    return std::nullopt;
  });
  const sql::SetExpr& body = query.body;
  if (auto* select = std::get_if<sql::Select>(&body.node)) {
    TANDEM_RETURN_IF_ERROR(plan_select(*select, binder, *plan));
  } else if (auto* values = std::get_if<sql::Values>(&body.node)) {
    TANDEM_RETURN_IF_ERROR(plan_values(*values, binder, *plan));
  } else if (auto* nested = std::get_if<sql::Box<sql::Query>>(&body.node)) {
    TANDEM_ASSIGN_OR_RETURN(auto inner, plan_query(**nested, param_types));
    bool inner_finishing = !inner->order_by.empty() || inner->limit || inner->offset;
    bool outer_finishing = !query.order_by.empty() || query.limit || query.offset;
    if (!(inner_finishing && outer_finishing)) {
      *plan = *inner;
    } else {
      return not_supported("nested ORDER BY/LIMIT is", query.pos);
    }
  } else {
    return not_supported("UNION, INTERSECT and EXCEPT are", query.pos);
  }
  TANDEM_RETURN_IF_ERROR(plan_order_by(query, binder, *plan));
  if (query.limit || query.offset) {
    TANDEM_ASSIGN_OR_RETURN(plan->limit, plan_limit(query.limit, binder));
    TANDEM_ASSIGN_OR_RETURN(plan->offset, plan_limit(query.offset, binder));
  }
  plan->may_block = plan_has(*plan, [](const ScalarExpr& e) { return ExprBinder::may_block(e); });
  plan->uses_session = plan_has(*plan, calls_session_function);
  return std::shared_ptr<const QueryPlan>(std::move(plan));
}

Result<std::vector<Row>> execute_query(const QueryPlan& plan, const Row& params, EvalContext& ctx) {
  RowArena param_arena;
  std::vector<Datum> param_datums = unpack(params.ref(), &param_arena);
  std::vector<std::vector<Datum>> rows;
  rows.reserve(plan.relation.rows.size());
  for (const auto& exprs : plan.relation.rows) {
    if (plan.relation.filter) {
      TANDEM_ASSIGN_OR_RETURN(Datum keep, eval(*plan.relation.filter, param_datums, ctx));
      if (keep.is_null() || !keep.as_bool()) continue;
    }
    std::vector<Datum> row;
    row.reserve(exprs.size());
    for (const auto& e : exprs) {
      TANDEM_ASSIGN_OR_RETURN(Datum d, eval(e, param_datums, ctx));
      row.push_back(d);
    }
    rows.push_back(std::move(row));
  }
  size_t visible = plan.columns.size();
  auto compare_visible = [&](const std::vector<Datum>& a, const std::vector<Datum>& b) {
    for (size_t i = 0; i < visible; ++i) {
      int c = compare_datums(a[i], b[i]);
      if (c != 0) return c;
    }
    return 0;
  };
  if (plan.distinct) {
    std::stable_sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) { return compare_visible(a, b) < 0; });
    rows.erase(std::unique(rows.begin(), rows.end(), [&](const auto& a, const auto& b) { return compare_visible(a, b) == 0; }),
               rows.end());
  }
  TANDEM_ASSIGN_OR_RETURN(int64_t offset, eval_limit(plan.offset, param_datums, ctx, "OFFSET", "2201X", 0));
  TANDEM_ASSIGN_OR_RETURN(int64_t limit, eval_limit(plan.limit, param_datums, ctx, "LIMIT", "2201W", -1));
  // ORDER BY, OFFSET, LIMIT and dropping hidden columns: the same finishing
  // as reads over collections.
  Finishing finishing;
  finishing.order_by = plan.order_by;
  if (limit >= 0) finishing.limit = limit;
  finishing.offset = offset;
  finishing.visible = visible;
  std::vector<std::pair<Row, Diff>> packed;
  packed.reserve(rows.size());
  for (const auto& row : rows) packed.emplace_back(Row::pack(row), 1);
  return finishing.apply(packed);
}

}  // namespace tandem::planner
