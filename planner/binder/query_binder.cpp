#include "planner/binder/query_binder.hpp"

#include "common/func_resolve.hpp"

namespace tandem::planner {

size_t max_level(const Scope& scope) {
  size_t level = 0;
  for (const auto& c : scope.columns) level = std::max(level, c.level);
  return level;
}

Status at_pos(Status s, sql::SourcePos pos) {
  if (s.position() == 0) s.set_position(static_cast<int>(pos.offset) + 1);
  return s;
}

Status not_supported_at(const std::string& what, sql::SourcePos pos) {
  return at_pos(Status::error(sqlstate::kFeatureNotSupported, what + " not supported yet"), pos);
}

namespace {

hir::Rel project_rel(hir::Rel rel, std::vector<size_t> cols) {
  return hir::Rel{hir::Project{std::move(rel), std::move(cols)}};
}

// Casts the own columns of `rel` (at outer width `ow`) to `targets`.
Result<hir::Rel> cast_columns(hir::Rel rel, size_t ow, const std::vector<ColumnType>& targets) {
  auto types = hir::column_types(rel);
  bool same = true;
  for (size_t c = 0; c < types.size(); ++c) same = same && types[c].same_type(targets[c]);
  if (same) return rel;
  std::vector<ScalarExpr> exprs;
  std::vector<size_t> cols;
  for (size_t c = 0; c < types.size(); ++c) {
    ScalarExpr e = ScalarExpr::column(ow + c, types[c]);
    if (!types[c].same_type(targets[c])) {
      TANDEM_ASSIGN_OR_RETURN(e, make_cast(std::move(e), targets[c], CastContext::kImplicit));
    }
    exprs.push_back(std::move(e));
    cols.push_back(types.size() + c);
  }
  return project_rel(hir::Rel{hir::Map{std::move(rel), std::move(exprs)}}, std::move(cols));
}

Result<int64_t> constant_count(const ScalarExpr& e, const char* what) {
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr folded, fold(e));
  if (!folded.is_literal()) {
    return Status::error(sqlstate::kFeatureNotSupported,
                         std::string("non-constant ") + what + " in a subquery is not supported yet");
  }
  Datum d = std::get<Literal>(folded.node).datum();
  if (d.is_null()) return int64_t{-1};
  if (d.as_int64() < 0) {
    return Status::error(std::string(what) == "LIMIT" ? "2201W" : "2201X", std::string(what) + " must not be negative");
  }
  return d.as_int64();
}

}  // namespace

Result<BoundQuery> QueryBinder::bind_query(const sql::Query& query, const Scope& outer) {
  if (query.as_of) return not_supported_at("AS OF is", query.pos);
  if (query.recursive) return not_supported_at("WITH RECURSIVE is", query.pos);
  bool pushed = false;
  if (!query.ctes.empty()) {
    ctes_.emplace_back();
    pushed = true;
    for (const auto& cte : query.ctes) {
      auto bound = bind_relation(*cte.query, outer);
      if (!bound.ok()) {
        ctes_.pop_back();
        return bound.status();
      }
      Cte def{std::move(bound->rel), {}, {}, outer.columns.size()};
      for (size_t i = 0; i < bound->columns.size(); ++i) {
        def.names.push_back(i < cte.columns.size() ? cte.columns[i] : bound->columns[i].name);
        def.types.push_back(bound->columns[i].type);
      }
      if (cte.columns.size() > bound->columns.size()) {
        ctes_.pop_back();
        return at_pos(Status::error(sqlstate::kInvalidColumnReference,
                                    "WITH query \"" + cte.name + "\" has " + std::to_string(bound->columns.size()) +
                                        " columns available but " + std::to_string(cte.columns.size()) +
                                        " columns specified"),
                      cte.pos);
      }
      ctes_.back()[cte.name] = std::move(def);
    }
  }
  auto result = [&]() -> Result<BoundQuery> {
    TANDEM_ASSIGN_OR_RETURN(BoundQuery bound, bind_set_expr(query.body, outer, &query));
    // `(SELECT ... ORDER BY ... LIMIT ...)` with no finishing of its own
    // keeps the parenthesised query's (bind_set_expr bound it unwrapped).
    bool own_finishing = !query.order_by.empty() || query.limit || query.offset;
    if (!own_finishing && std::holds_alternative<sql::Box<sql::Query>>(query.body.node)) return bound;
    if (!std::holds_alternative<sql::Select>(query.body.node)) {
      TANDEM_RETURN_IF_ERROR(bind_output_order(query, bound));
    }
    TANDEM_RETURN_IF_ERROR(bind_limit(query, bound));
    return bound;
  }();
  if (pushed) ctes_.pop_back();
  return result;
}

Result<BoundQuery> QueryBinder::bind_relation(const sql::Query& query, const Scope& outer) {
  TANDEM_ASSIGN_OR_RETURN(BoundQuery bound, bind_query(query, outer));
  if (bound.limit || bound.offset) {
    hir::TopK topk{std::move(bound.rel), {}, std::nullopt, 0};
    for (const SortKey& k : bound.order_by) topk.order.push_back(compute::ColumnOrder{k.column, k.desc, !k.nulls_first});
    if (bound.limit) {
      TANDEM_ASSIGN_OR_RETURN(int64_t limit, constant_count(*bound.limit, "LIMIT"));
      if (limit >= 0) topk.limit = limit;
    }
    if (bound.offset) {
      TANDEM_ASSIGN_OR_RETURN(int64_t offset, constant_count(*bound.offset, "OFFSET"));
      topk.offset = std::max<int64_t>(offset, 0);
    }
    bound.rel = hir::Rel{std::move(topk)};
  }
  size_t visible = bound.columns.size();
  if (hir::arity(bound.rel) != visible) {
    std::vector<size_t> cols;
    for (size_t i = 0; i < visible; ++i) cols.push_back(i);
    bound.rel = project_rel(std::move(bound.rel), std::move(cols));
  }
  bound.order_by.clear();
  bound.limit.reset();
  bound.offset.reset();
  return bound;
}

Result<BoundQuery> QueryBinder::bind_set_expr(const sql::SetExpr& body, const Scope& outer, const sql::Query* query) {
  if (auto* select = std::get_if<sql::Select>(&body.node)) return bind_select(*select, outer, query);
  if (auto* values = std::get_if<sql::Values>(&body.node)) return bind_values(*values, outer);
  if (auto* op = std::get_if<sql::SetOperation>(&body.node)) return bind_set_operation(*op, outer);
  const sql::Query& inner = *std::get<sql::Box<sql::Query>>(body.node);
  // Its ORDER BY/LIMIT/OFFSET are the enclosing query's when that has none;
  // otherwise (an operand of a set operation, or finished again outside)
  // they apply to the parenthesised query alone.
  bool outer_finishing = query == nullptr || !query->order_by.empty() || query->limit || query->offset;
  if (!outer_finishing) return bind_query(inner, outer);
  return bind_relation(inner, outer);
}

Result<BoundQuery> QueryBinder::bind_values(const sql::Values& values, const Scope& outer) {
  Scope scope = outer;
  ExprBinder binder(scope, param_types_, hir::kParamBase);
  binder.set_hook(make_hook(nullptr, nullptr, "VALUES"));
  size_t width = values.rows.front().size();
  std::vector<std::vector<ScalarExpr>> rows;
  for (const auto& r : values.rows) {
    if (r.size() != width) {
      return at_pos(Status::error(sqlstate::kSyntaxError, "VALUES lists must all be the same length"), r.front().pos);
    }
    std::vector<ScalarExpr> row;
    for (const auto& e : r) {
      TANDEM_ASSIGN_OR_RETURN(ScalarExpr bound, binder.bind(e));
      row.push_back(std::move(bound));
    }
    rows.push_back(std::move(row));
  }
  BoundQuery out;
  std::vector<ColumnType> types;
  for (size_t c = 0; c < width; ++c) {
    std::vector<ColumnType> ts;
    for (const auto& row : rows) ts.push_back(row[c].type());
    auto type = unify_types(ts, "VALUES");
    if (!type.ok()) return at_pos(type.status(), values.rows[0][c].pos);
    ColumnType t = type->id == TypeId::kUnknown ? ColumnType{TypeId::kText} : *type;
    bool nullable = false;
    for (auto& row : rows) {
      TANDEM_ASSIGN_OR_RETURN(row[c], make_cast(std::move(row[c]), t, CastContext::kImplicit));
      TANDEM_ASSIGN_OR_RETURN(row[c], fold(std::move(row[c])));
      nullable = nullable || row[c].type().nullable || row[c].is_literal_null();
    }
    t.nullable = nullable;
    types.push_back(t);
    out.columns.push_back({"column" + std::to_string(c + 1), t});
  }
  bool all_literal = true;
  for (const auto& row : rows) {
    for (const auto& e : row) all_literal = all_literal && e.is_literal();
  }
  if (all_literal) {
    hir::Constant k{{}, types};
    for (const auto& row : rows) {
      std::vector<Datum> ds;
      for (const auto& e : row) ds.push_back(std::get<Literal>(e.node).datum());
      k.rows.push_back(Row::pack(ds));
    }
    out.rel = hir::Rel{std::move(k)};
    return out;
  }
  hir::Union u;
  for (auto& row : rows) {
    std::vector<size_t> cols;
    for (size_t c = 0; c < width; ++c) cols.push_back(c);
    u.inputs.push_back(project_rel(hir::Rel{hir::Map{hir::Rel{hir::Constant{{Row()}, {}}}, std::move(row)}}, cols));
  }
  out.rel = u.inputs.size() == 1 ? std::move(u.inputs[0]) : hir::Rel{std::move(u)};
  return out;
}

Result<BoundQuery> QueryBinder::bind_set_operation(const sql::SetOperation& op, const Scope& outer) {
  TANDEM_ASSIGN_OR_RETURN(BoundQuery left, bind_set_expr(*op.left, outer, nullptr));
  TANDEM_ASSIGN_OR_RETURN(BoundQuery right, bind_set_expr(*op.right, outer, nullptr));
  const char* name = op.op == sql::SetOperation::Op::kUnion       ? "UNION"
                     : op.op == sql::SetOperation::Op::kIntersect ? "INTERSECT"
                                                                  : "EXCEPT";
  if (left.columns.size() != right.columns.size()) {
    return Status::error(sqlstate::kSyntaxError,
                         std::string("each ") + name + " query must have the same number of columns");
  }
  size_t ow = outer.columns.size();
  std::vector<ColumnType> targets;
  for (size_t c = 0; c < left.columns.size(); ++c) {
    std::vector<ColumnType> ts{left.columns[c].type, right.columns[c].type};
    TANDEM_ASSIGN_OR_RETURN(ColumnType t, unify_types(ts, name));
    if (t.id == TypeId::kUnknown) t = ColumnType{TypeId::kText};
    t.nullable = left.columns[c].type.nullable || right.columns[c].type.nullable;
    targets.push_back(t);
  }
  TANDEM_ASSIGN_OR_RETURN(hir::Rel l, cast_columns(std::move(left.rel), ow, targets));
  TANDEM_ASSIGN_OR_RETURN(hir::Rel r, cast_columns(std::move(right.rel), ow, targets));
  auto neg = [](hir::Rel x) { return hir::Rel{hir::Negate{std::move(x)}}; };
  auto uni = [](hir::Rel a, hir::Rel b) {
    hir::Union u;
    u.inputs.push_back(std::move(a));
    u.inputs.push_back(std::move(b));
    return hir::Rel{std::move(u)};
  };
  auto dist = [](hir::Rel x) { return hir::Rel{hir::Distinct{std::move(x)}}; };
  auto thresh = [](hir::Rel x) { return hir::Rel{hir::Threshold{std::move(x)}}; };
  BoundQuery out;
  switch (op.op) {
    case sql::SetOperation::Op::kUnion:
      out.rel = op.all ? uni(std::move(l), std::move(r)) : dist(uni(std::move(l), std::move(r)));
      break;
    case sql::SetOperation::Op::kExcept:
      out.rel = op.all ? thresh(uni(std::move(l), neg(std::move(r))))
                       : thresh(uni(dist(std::move(l)), neg(dist(std::move(r)))));
      break;
    case sql::SetOperation::Op::kIntersect: {
      // min(l, r) = l - max(l - r, 0)
      hir::Rel lcopy = l;
      hir::Rel both = uni(std::move(lcopy), neg(thresh(uni(std::move(l), neg(std::move(r))))));
      out.rel = op.all ? std::move(both) : dist(std::move(both));
      break;
    }
  }
  for (size_t c = 0; c < targets.size(); ++c) out.columns.push_back({left.columns[c].name, targets[c]});
  return out;
}

// ORDER BY over a non-SELECT body: output column positions and names only.
Status QueryBinder::bind_output_order(const sql::Query& query, BoundQuery& bound) {
  for (const auto& item : query.order_by) {
    std::optional<size_t> column;
    if (auto* n = item.expr.as<sql::NumberLiteral>()) {
      size_t k = n->text.size() < 10 && n->text.find_first_not_of("0123456789") == std::string::npos
                     ? std::stoul(n->text)
                     : 0;
      if (k < 1 || k > bound.columns.size()) {
        return at_pos(Status::error(sqlstate::kInvalidColumnReference,
                                    "ORDER BY position " + n->text + " is not in select list"),
                      item.expr.pos);
      }
      column = k - 1;
    } else if (auto* c = item.expr.as<sql::ColumnRef>(); c && c->names.size() == 1) {
      for (size_t i = 0; i < bound.columns.size(); ++i) {
        if (bound.columns[i].name == c->names[0]) {
          column = i;
          break;
        }
      }
    }
    if (!column) {
      return not_supported_at("ORDER BY expressions over UNION, INTERSECT, EXCEPT and VALUES are", item.expr.pos);
    }
    bool nulls_first = item.nulls == sql::OrderByItem::Nulls::kDefault ? item.desc
                                                                        : item.nulls == sql::OrderByItem::Nulls::kFirst;
    bound.order_by.push_back(SortKey{*column, item.desc, nulls_first});
  }
  return Status::ok();
}

Status QueryBinder::bind_limit(const sql::Query& query, BoundQuery& bound) {
  Scope empty;
  ExprBinder binder(empty, param_types_, hir::kParamBase);
  auto one = [&](const sql::Box<sql::Expr>& e) -> Result<std::optional<ScalarExpr>> {
    if (!e) return std::optional<ScalarExpr>();
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr b, binder.bind(*e));
    auto cast = make_cast(std::move(b), ColumnType{TypeId::kInt8}, CastContext::kAssignment);
    if (!cast.ok()) return at_pos(cast.status(), e->pos);
    return std::optional<ScalarExpr>(std::move(*cast));
  };
  TANDEM_ASSIGN_OR_RETURN(bound.limit, one(query.limit));
  TANDEM_ASSIGN_OR_RETURN(bound.offset, one(query.offset));
  return Status::ok();
}

}  // namespace tandem::planner
