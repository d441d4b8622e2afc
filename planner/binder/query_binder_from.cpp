// FROM clause binding: tables, views, CTEs, derived tables, generate_series
// and joins (ON, USING, NATURAL; inner, left, right, full, cross).
#include "common/func_resolve.hpp"
#include "planner/binder/query_binder.hpp"
#include "planner/parser/parser.hpp"

namespace tandem::planner {
namespace {

constexpr int kMaxViewDepth = 32;

hir::Rel unit_rel() { return hir::Rel{hir::Constant{{Row()}, {}}}; }

hir::Rel cross(hir::Rel l, hir::Rel r, ScalarExpr on, hir::JoinKind kind) {
  return hir::Rel{hir::Join{std::move(l), std::move(r), std::move(on), kind}};
}

}  // namespace

Status QueryBinder::apply_alias(FromItem& item, const std::optional<sql::TableAlias>& alias, const std::string& name) {
  std::string table = alias ? alias->name : name;
  for (auto& c : item.columns) {
    if (!c.unqualified_only) c.table = table;
  }
  if (alias && !alias->columns.empty()) {
    if (alias->columns.size() > item.star.size()) {
      return Status::error(sqlstate::kInvalidColumnReference,
                           "table \"" + table + "\" has " + std::to_string(item.star.size()) +
                               " columns available but " + std::to_string(alias->columns.size()) +
                               " columns specified");
    }
    for (size_t i = 0; i < alias->columns.size(); ++i) item.columns[item.star[i]].name = alias->columns[i];
  }
  return Status::ok();
}

Result<QueryBinder::FromItem> QueryBinder::bind_from(const std::vector<sql::TableRef>& from, const Scope& outer,
                                                     size_t level) {
  FromItem acc;
  if (from.empty()) return acc;
  for (size_t i = 0; i < from.size(); ++i) {
    if (auto* f = std::get_if<sql::TableFunction>(&from[i].node); f && i > 0) {
      // A function in FROM is implicitly LATERAL: its arguments see the
      // items before it, so it becomes a FlatMap over them (args over
      // outer ++ input, as hir::FlatMap says).
      Scope lateral = outer;
      for (const auto& c : acc.columns) lateral.columns.push_back(c);
      TANDEM_ASSIGN_OR_RETURN(FromItem item, bind_table_function(*f, lateral, level, from[i].pos));
      size_t offset = acc.columns.size();
      std::get<hir::FlatMap>(item.rel.node).input = std::move(acc.rel);
      acc.rel = std::move(item.rel);
      for (auto& c : item.columns) acc.columns.push_back(std::move(c));
      for (size_t s : item.star) acc.star.push_back(s + offset);
      continue;
    }
    TANDEM_ASSIGN_OR_RETURN(FromItem item, bind_table_ref(from[i], outer, level));
    if (i == 0) {
      acc = std::move(item);
      continue;
    }
    size_t offset = acc.columns.size();
    acc.rel = cross(std::move(acc.rel), std::move(item.rel),
                    ScalarExpr::literal(Datum::from_bool(true), ColumnType{TypeId::kBool, -1, false}),
                    hir::JoinKind::kInner);
    for (auto& c : item.columns) acc.columns.push_back(std::move(c));
    for (size_t s : item.star) acc.star.push_back(s + offset);
  }
  return acc;
}

Result<QueryBinder::FromItem> QueryBinder::bind_table_ref(const sql::TableRef& ref, const Scope& outer, size_t level) {
  return std::visit(
      [&](const auto& n) -> Result<FromItem> {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, sql::TableName>) {
          return bind_table_name(n, outer, level, ref.pos);
        } else if constexpr (std::is_same_v<T, sql::DerivedTable>) {
          if (n.lateral) return not_supported_at("LATERAL is", ref.pos);
          if (!n.alias) {
            return at_pos(Status::error(sqlstate::kSyntaxError, "subquery in FROM must have an alias")
                              .with_hint("For example, FROM (SELECT ...) [AS] foo."),
                          ref.pos);
          }
          TANDEM_ASSIGN_OR_RETURN(BoundQuery q, bind_relation(*n.query, outer));
          FromItem item{std::move(q.rel), {}, {}};
          for (size_t i = 0; i < q.columns.size(); ++i) {
            item.columns.push_back(ScopeColumn{"", q.columns[i].name, q.columns[i].type, level});
            item.star.push_back(i);
          }
          TANDEM_RETURN_IF_ERROR(apply_alias(item, n.alias, ""));
          return item;
        } else if constexpr (std::is_same_v<T, sql::TableFunction>) {
          return bind_table_function(n, outer, level, ref.pos);
        } else if constexpr (std::is_same_v<T, sql::Join>) {
          return bind_join(n, outer, level);
        } else {
          TANDEM_ASSIGN_OR_RETURN(FromItem item, bind_table_ref(*n.join, outer, level));
          if (n.alias) {
            TANDEM_RETURN_IF_ERROR(apply_alias(item, n.alias, ""));
          }
          return item;
        }
      },
      ref.node);
}

Result<QueryBinder::FromItem> QueryBinder::bind_table_name(const sql::TableName& t, const Scope& outer, size_t level,
                                                           sql::SourcePos pos) {
  const auto& parts = t.name.parts;
  FromItem item;
  if (parts.size() == 1) {
    for (size_t i = ctes_.size(); i-- > 0;) {
      auto it = ctes_[i].find(parts[0]);
      if (it == ctes_[i].end()) continue;
      const Cte& cte = it->second;
      item.rel = cte.rel;
      hir::shift_columns(item.rel, cte.bound_width,
                         static_cast<int64_t>(outer.columns.size()) - static_cast<int64_t>(cte.bound_width));
      for (size_t c = 0; c < cte.names.size(); ++c) {
        item.columns.push_back(ScopeColumn{"", cte.names[c], cte.types[c], level});
        item.star.push_back(c);
      }
      TANDEM_RETURN_IF_ERROR(apply_alias(item, t.alias, parts[0]));
      return item;
    }
  }
  const CatalogItem* found = catalog_.resolve(parts);
  if (found == nullptr) {
    std::string full;
    for (size_t i = 0; i < parts.size(); ++i) full += (i ? "." : "") + parts[i];
    return at_pos(Status::error(sqlstate::kUndefinedTable, "relation \"" + full + "\" does not exist"), pos);
  }
  if (found->kind == ItemKind::kIndex) {
    return at_pos(Status::error(sqlstate::kWrongObjectType, "\"" + parts.back() + "\" is an index"), pos);
  }
  // A view with an index is read through its arrangement (a Get that
  // lowering turns into an index import), as in Materialize; otherwise it is
  // inlined.
  if (found->kind == ItemKind::kView && catalog_.indexes_on(found->id).empty()) {
    if (view_depth_ >= kMaxViewDepth) return at_pos(Status::error(sqlstate::kInternalError, "views nest too deeply"), pos);
    auto parsed = sql::parse_query(found->view_sql);
    if (!parsed.ok()) return parsed.status();
    ++view_depth_;
    auto saved = std::move(ctes_);  // a view sees no CTE of the query using it
    ctes_.clear();
    Scope none;
    auto bound = bind_relation(*parsed, none);
    ctes_ = std::move(saved);
    --view_depth_;
    if (!bound.ok()) return bound.status();
    item.rel = std::move(bound->rel);
    hir::shift_columns(item.rel, 0, static_cast<int64_t>(outer.columns.size()));
  } else {
    std::vector<ColumnType> types;
    for (const auto& c : found->desc.columns) types.push_back(c.type);
    if (found->rows) {
      item.rel = hir::Rel{hir::Constant{*found->rows, types}};
    } else {
      item.rel = hir::Rel{hir::Get{found->id, found->name, types}};
    }
  }
  for (size_t c = 0; c < found->desc.columns.size(); ++c) {
    item.columns.push_back(ScopeColumn{"", found->desc.columns[c].name, found->desc.columns[c].type, level});
    item.star.push_back(c);
  }
  TANDEM_RETURN_IF_ERROR(apply_alias(item, t.alias, parts.back()));
  return item;
}

Result<QueryBinder::FromItem> QueryBinder::bind_table_function(const sql::TableFunction& f, const Scope& outer,
                                                               size_t level, sql::SourcePos pos) {
  const std::string& name = f.call.name.back();
  if (name == "unnest" && !f.with_ordinality) return bind_unnest(f, outer, level, pos);
  if (!f.with_ordinality) {
    if (auto jsonb = bind_jsonb_function(f, outer, level, pos)) return std::move(*jsonb);
  }
  if (name != "generate_series" || f.with_ordinality) {
    return not_supported_at("table function " + name + (f.with_ordinality ? " WITH ORDINALITY" : "") + " is", pos);
  }
  if (f.call.args.size() < 2 || f.call.args.size() > 3) {
    return at_pos(Status::error(sqlstate::kUndefinedFunction, "function generate_series does not exist"), pos);
  }
  ExprBinder binder(outer, param_types_, hir::kParamBase);
  binder.set_hook(make_hook(nullptr, nullptr, "functions in FROM"));
  std::vector<ScalarExpr> args;
  std::vector<ColumnType> types;
  for (const auto& a : f.call.args) {
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, binder.bind(a));
    types.push_back(e.type());
    args.push_back(std::move(e));
  }
  TANDEM_ASSIGN_OR_RETURN(ColumnType t, unify_types(types, "generate_series"));
  if (t.id == TypeId::kUnknown || t.id == TypeId::kInt2) t = ColumnType{TypeId::kInt4};
  if (t.id != TypeId::kInt4 && t.id != TypeId::kInt8) {
    return not_supported_at("generate_series over " + std::string(type_name(t.id)) + " is", pos);
  }
  for (auto& a : args) {
    TANDEM_ASSIGN_OR_RETURN(a, make_cast(std::move(a), t, CastContext::kImplicit));
  }
  FromItem item;
  item.rel = hir::Rel{hir::FlatMap{unit_rel(),
                                   t.id == TypeId::kInt4 ? compute::TableFunc::kGenerateSeriesInt4
                                                         : compute::TableFunc::kGenerateSeriesInt8,
                                   std::move(args)}};
  item.columns.push_back(ScopeColumn{"", "generate_series", ColumnType{t.id, -1, false}, level});
  item.star.push_back(0);
  std::optional<sql::TableAlias> alias = f.alias;
  if (alias && alias->columns.empty()) alias->columns.push_back(alias->name);  // FROM generate_series(..) AS g
  TANDEM_RETURN_IF_ERROR(apply_alias(item, alias, "generate_series"));
  return item;
}

// unnest(array) in FROM: one column named unnest (or the alias), one row
// per element.
Result<QueryBinder::FromItem> QueryBinder::bind_unnest(const sql::TableFunction& f, const Scope& outer, size_t level,
                                                       sql::SourcePos pos) {
  if (f.call.args.size() != 1) {
    return not_supported_at("unnest with " + std::to_string(f.call.args.size()) + " arguments is", pos);
  }
  ExprBinder binder(outer, param_types_, hir::kParamBase);
  binder.set_hook(make_hook(nullptr, nullptr, "functions in FROM"));
  TANDEM_ASSIGN_OR_RETURN(ScalarExpr array, binder.bind(f.call.args[0]));
  if (array.type().id == TypeId::kUnknown) {
    return at_pos(Status::error(sqlstate::kIndeterminateDatatype,
                                "could not determine polymorphic type because input has type unknown"), pos);
  }
  if (!is_array_type(array.type().id)) {
    return at_pos(Status::error(sqlstate::kUndefinedFunction,
                                "function unnest(" + std::string(type_name(array.type().id)) + ") does not exist"),
                  pos);
  }
  ColumnType element = array_element_column(array.type());
  FromItem item;
  item.rel = hir::Rel{hir::FlatMap{unit_rel(), compute::TableFunc::kUnnest, {std::move(array)}}};
  item.columns.push_back(ScopeColumn{"", "unnest", element, level});
  item.star.push_back(0);
  std::optional<sql::TableAlias> alias = f.alias;
  if (alias && alias->columns.empty()) alias->columns.push_back(alias->name);  // FROM unnest(a) AS x
  TANDEM_RETURN_IF_ERROR(apply_alias(item, alias, "unnest"));
  return item;
}

Result<QueryBinder::FromItem> QueryBinder::bind_join(const sql::Join& join, const Scope& outer, size_t level) {
  TANDEM_ASSIGN_OR_RETURN(FromItem left, bind_table_ref(*join.left, outer, level));
  TANDEM_ASSIGN_OR_RETURN(FromItem right, bind_table_ref(*join.right, outer, level));
  hir::JoinKind kind = join.kind == sql::Join::Kind::kLeft    ? hir::JoinKind::kLeft
                       : join.kind == sql::Join::Kind::kRight ? hir::JoinKind::kRight
                       : join.kind == sql::Join::Kind::kFull  ? hir::JoinKind::kFull
                                                              : hir::JoinKind::kInner;
  size_t ow = outer.columns.size();
  size_t lw = left.columns.size();
  FromItem out;
  out.columns = left.columns;
  for (const auto& c : right.columns) out.columns.push_back(c);
  Scope scope = outer;
  // The side an outer join NULL-extends has nullable columns above the join
  // (the ON condition still sees them as they are).
  auto outer_scope = out.columns;
  for (size_t i = 0; i < out.columns.size(); ++i) {
    bool right_side = i >= lw;
    bool extended = right_side ? (kind == hir::JoinKind::kLeft || kind == hir::JoinKind::kFull)
                               : (kind == hir::JoinKind::kRight || kind == hir::JoinKind::kFull);
    if (extended) outer_scope[i].type.nullable = true;
  }
  for (const auto& c : out.columns) scope.columns.push_back(c);

  std::vector<std::string> using_cols = join.using_columns;
  if (join.natural) {
    for (size_t li : left.star) {
      for (size_t ri : right.star) {
        if (left.columns[li].name == right.columns[ri].name) using_cols.push_back(left.columns[li].name);
      }
    }
  }
  ScalarExpr on = ScalarExpr::literal(Datum::from_bool(true), ColumnType{TypeId::kBool, -1, false});
  std::vector<ScalarExpr> merged;
  std::vector<size_t> used_left, used_right;
  if (!using_cols.empty()) {
    std::optional<ScalarExpr> cond;
    for (const auto& name : using_cols) {
      auto find = [&](const FromItem& side, const char* which) -> Result<size_t> {
        std::optional<size_t> found;
        for (size_t i : side.star) {
          if (side.columns[i].name != name) continue;
          if (found) {
            return Status::error(sqlstate::kAmbiguousColumn, "common column name \"" + name +
                                                                 "\" appears more than once in " + which + " table");
          }
          found = i;
        }
        if (!found) {
          return Status::error(sqlstate::kUndefinedColumn, "column \"" + name + "\" specified in USING clause does not exist in " + which + " table");
        }
        return *found;
      };
      TANDEM_ASSIGN_OR_RETURN(size_t li, find(left, "left"));
      TANDEM_ASSIGN_OR_RETURN(size_t ri, find(right, "right"));
      used_left.push_back(li);
      used_right.push_back(ri);
      ScalarExpr l = ScalarExpr::column(ow + li, left.columns[li].type);
      ScalarExpr r = ScalarExpr::column(ow + lw + ri, right.columns[ri].type);
      TANDEM_ASSIGN_OR_RETURN(ScalarExpr eq, resolve_operator("=", {l, r}));
      cond = cond ? *resolve_operator("AND", {std::move(*cond), std::move(eq)}) : std::move(eq);
      std::vector<ColumnType> ts{l.type(), r.type()};
      TANDEM_ASSIGN_OR_RETURN(ColumnType t, unify_types(ts, "JOIN/USING"));
      TANDEM_ASSIGN_OR_RETURN(l, make_cast(std::move(l), t, CastContext::kImplicit));
      TANDEM_ASSIGN_OR_RETURN(r, make_cast(std::move(r), t, CastContext::kImplicit));
      if (kind == hir::JoinKind::kFull) {
        TANDEM_ASSIGN_OR_RETURN(ScalarExpr m, resolve_function("coalesce", {std::move(l), std::move(r)}));
        merged.push_back(std::move(m));
      } else {
        merged.push_back(kind == hir::JoinKind::kRight ? std::move(r) : std::move(l));
      }
    }
    on = std::move(*cond);
  } else if (join.on) {
    ExprBinder binder(scope, param_types_, hir::kParamBase);
    binder.set_hook(make_hook(nullptr, nullptr, "JOIN conditions"));
    TANDEM_ASSIGN_OR_RETURN(on, binder.bind_condition(*join.on, "JOIN/ON"));
  }
  out.rel = cross(std::move(left.rel), std::move(right.rel), std::move(on), kind);
  out.columns = std::move(outer_scope);
  if (!merged.empty()) {
    size_t base = out.columns.size();
    size_t count = merged.size();
    for (size_t i = 0; i < count; ++i) {
      ColumnType t = merged[i].type();
      out.columns.push_back(ScopeColumn{"", using_cols[i], t, level, false, true});
      out.star.push_back(base + i);
    }
    // USING (...) AS j: j.k names the merged k (and j names nothing else).
    if (join.using_alias) {
      for (size_t i = 0; i < count; ++i) {
        out.columns.push_back(ScopeColumn{*join.using_alias, using_cols[i], merged[i].type(), level, true, false});
        merged.push_back(merged[i]);
      }
    }
    out.rel = hir::Rel{hir::Map{std::move(out.rel), std::move(merged)}};
    for (size_t li : used_left) out.columns[li].qualified_only = true;
    for (size_t ri : used_right) out.columns[lw + ri].qualified_only = true;
  }
  for (size_t li : left.star) {
    if (std::find(used_left.begin(), used_left.end(), li) == used_left.end()) out.star.push_back(li);
  }
  for (size_t ri : right.star) {
    if (std::find(used_right.begin(), used_right.end(), ri) == used_right.end()) out.star.push_back(lw + ri);
  }
  return out;
}

}  // namespace tandem::planner
