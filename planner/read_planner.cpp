#include "planner/read_planner.hpp"

#include "common/eval.hpp"
#include "common/func_resolve.hpp"
#include "planner/binder/query_binder.hpp"
#include "planner/explain/plan_trace.hpp"
#include "planner/lowering/decorrelate.hpp"
#include "planner/lowering/lir_lowering.hpp"
#include "planner/prepared_lookup.hpp"

namespace tandem::planner {
namespace {

// Calls `f` on `e` and then on each of its subexpressions (those of what
// `f` left in place of `e`). `Expr` is ScalarExpr or const ScalarExpr.
template <class Expr, class F>
void walk_scalar(Expr& e, const F& f) {
  f(e);
  if (auto* u = std::get_if<CallUnary>(&e.node)) walk_scalar(*u->arg, f);
  if (auto* b = std::get_if<CallBinary>(&e.node)) {
    walk_scalar(*b->lhs, f);
    walk_scalar(*b->rhs, f);
  }
  if (auto* v = std::get_if<CallVariadic>(&e.node)) {
    for (auto& a : v->args) walk_scalar(a, f);
  }
  if (auto* i = std::get_if<IfExpr>(&e.node)) {
    walk_scalar(*i->cond, f);
    walk_scalar(*i->then, f);
    walk_scalar(*i->els, f);
  }
}

// Calls `f` on every scalar expression of `rel`, subexpressions included.
void for_each_scalar(hir::Rel& rel, const std::function<void(ScalarExpr&)>& f) {
  hir::for_each_expr(rel, [&](ScalarExpr& e) { walk_scalar(e, f); });
}

// Replaces parameter references by their values (typed literals).
Status bind_parameters(hir::Rel& rel, const std::vector<ColumnType>& types, const std::vector<Datum>& params) {
  Status st;
  for_each_scalar(rel, [&](ScalarExpr& x) {
    auto* c = std::get_if<ColumnRef>(&x.node);
    if (c == nullptr || c->index < hir::kParamBase) return;
    size_t i = c->index - hir::kParamBase;
    if (i >= params.size()) {
      st = Status::error(sqlstate::kUndefinedParameter, "there is no parameter $" + std::to_string(i + 1));
      return;
    }
    x = ScalarExpr::literal(params[i], types.at(i));
  });
  return st;
}

bool is_mz_now(const ScalarExpr& e) {
  auto* v = std::get_if<CallVariadic>(&e.node);
  return v != nullptr && v->func == VariadicFunc::kMzNow;
}

// now() or a session function: a value of the statement, not of the data.
const CallVariadic* statement_call(const ScalarExpr& e) {
  auto* v = std::get_if<CallVariadic>(&e.node);
  return v != nullptr && (v->func == VariadicFunc::kNow || func_is_session(v->func)) ? v : nullptr;
}

// now() and the session functions become literals of the statement's
// values, where the context gives them.
void substitute_statement_calls(hir::Rel& rel, const PlanContext& ctx) {
  for_each_scalar(rel, [&](ScalarExpr& e) {
    const CallVariadic* v = statement_call(e);
    if (v == nullptr) return;
    if (v->func == VariadicFunc::kNow) {
      if (ctx.statement_time) {
        e = ScalarExpr::literal(Datum::from_timestamptz(*ctx.statement_time),
                                ColumnType{TypeId::kTimestampTz, -1, false});
      }
      return;
    }
    if (ctx.session == nullptr) return;
    const std::string& value = v->func == VariadicFunc::kCurrentUser       ? ctx.session->user
                               : v->func == VariadicFunc::kCurrentDatabase ? ctx.session->database
                                                                           : ctx.session->schema;
    e = ScalarExpr::literal(Datum::from_string(value), ColumnType{TypeId::kText, -1, false});
  });
}

// mz_now() becomes the query's timestamp (substituted
// before optimization, so no plan compute sees is temporal).
bool substitute_mz_now(hir::Rel& rel, Timestamp ts) {
  bool found = false;
  for_each_scalar(rel, [&](ScalarExpr& e) {
    if (!is_mz_now(e)) return;
    e = ScalarExpr::literal(Datum::from_mz_timestamp(ts), ColumnType{TypeId::kMzTimestamp, -1, false});
    found = true;
  });
  return found;
}

Result<int64_t> eval_count(const std::optional<ScalarExpr>& e, const std::vector<Datum>& params, const char* what,
                           const char* code, int64_t unset) {
  if (!e) return unset;
  EvalContext ctx;
  ScalarExpr x = *e;
  mir::remap_columns(x, [](size_t i) { return i - hir::kParamBase; });
  TANDEM_ASSIGN_OR_RETURN(Datum d, eval(x, params, ctx));
  if (d.is_null()) return unset;
  if (d.as_int64() < 0) return Status::error(code, std::string(what) + " must not be negative");
  return d.as_int64();
}

// The optimized MIR of a bound relation whose parameters are already
// replaced (by literals, or by placeholders for a generic plan).
Result<mir::Rel> optimize_bound(hir::Rel rel, const OptimizerOptions& options, PlanTrace* trace) {
  bool temporal = false;
  for_each_scalar(rel, [&](ScalarExpr& e) { temporal = temporal || is_mz_now(e); });
  if (temporal) {
    return Status::error(sqlstate::kFeatureNotSupported,
                         "mz_now() is supported only in a SELECT (temporal filters in views, indexes and "
                         "materialized views are not supported yet)");
  }
  const CallVariadic* unmaterializable = nullptr;
  for_each_scalar(rel, [&](ScalarExpr& e) {
    if (unmaterializable == nullptr) unmaterializable = statement_call(e);
  });
  if (unmaterializable != nullptr) {
    return Status::error(sqlstate::kFeatureNotSupported,
                         "cannot materialize call to " + std::string(func_name(unmaterializable->func)) +
                             ": it is supported only in a SELECT, not in an index or materialized view");
  }
  if (trace != nullptr) trace->raw = rel;
  TANDEM_ASSIGN_OR_RETURN(mir::Rel m, decorrelate(rel));
  if (trace != nullptr) trace->decorrelated = m;
  TANDEM_ASSIGN_OR_RETURN(mir::Rel optimized, optimize(std::move(m), options));
  if (trace != nullptr) trace->optimized = optimized;
  return optimized;
}

// The optimized MIR of a bound relation.
Result<mir::Rel> to_mir(hir::Rel rel, const std::vector<ColumnType>& types, const std::vector<Datum>& params,
                        const OptimizerOptions& options, PlanTrace* trace = nullptr) {
  TANDEM_RETURN_IF_ERROR(bind_parameters(rel, types, params));
  return optimize_bound(std::move(rel), options, trace);
}

std::vector<ScalarExpr> default_key(const mir::Rel& rel) {
  auto types = mir::column_types(rel);
  auto keys = mir::unique_keys(rel);
  std::vector<ScalarExpr> key;
  if (!keys.empty() && !keys.front().empty()) {
    for (size_t c : keys.front()) key.push_back(ScalarExpr::column(c, types[c]));
  } else {
    for (size_t c = 0; c < types.size(); ++c) key.push_back(ScalarExpr::column(c, types[c]));
  }
  return key;
}

// Peels Project/Map/Filter off `rel` into an MFP over what remains.
const mir::Rel* peel_mfp(const mir::Rel& rel, compute::MapFilterProject* mfp) {
  std::vector<const mir::Rel*> chain;
  const mir::Rel* cur = &rel;
  while (std::holds_alternative<mir::Project>(cur->node) || std::holds_alternative<mir::Map>(cur->node) ||
         std::holds_alternative<mir::Filter>(cur->node)) {
    chain.push_back(cur);
    cur = std::visit(
        [](const auto& n) -> const mir::Rel* {
          if constexpr (requires { n.input; }) return &*n.input;
          return nullptr;
        },
        cur->node);
  }
  *mfp = compute::MapFilterProject::identity(mir::arity(*cur));
  for (size_t i = chain.size(); i-- > 0;) {
    const mir::Rel& r = *chain[i];
    if (auto* p = std::get_if<mir::Project>(&r.node)) {
      std::vector<size_t> np;
      for (size_t o : p->outputs) np.push_back(mfp->projection.at(o));
      mfp->projection = std::move(np);
    } else if (auto* m = std::get_if<mir::Map>(&r.node)) {
      for (auto e : m->scalars) {
        mir::remap_columns(e, [&](size_t c) { return mfp->projection.at(c); });
        if (auto* copy = std::get_if<ColumnRef>(&e.node)) {
          mfp->projection.push_back(copy->index);  // a column copy needs no evaluation
          continue;
        }
        mfp->expressions.push_back(std::move(e));
        mfp->projection.push_back(mfp->input_arity + mfp->expressions.size() - 1);
      }
    } else if (auto* f = std::get_if<mir::Filter>(&r.node)) {
      for (auto e : f->predicates) {
        mir::remap_columns(e, [&](size_t c) { return mfp->projection.at(c); });
        mfp->predicates.push_back(std::move(e));
      }
    }
  }
  return cur;
}

bool is_parameter(const ScalarExpr& e) {
  auto* v = std::get_if<CallVariadic>(&e.node);
  return v != nullptr && v->func == VariadicFunc::kParameter;
}

// A lookup value: a literal other than NULL or, for a generic plan, an
// expression over parameter placeholders and literals only (no columns, no
// now()/mz_now()).
bool is_lookup_value(const ScalarExpr& e, bool allow_parameters) {
  if (auto* lit = std::get_if<Literal>(&e.node)) return !lit->is_null();
  if (!allow_parameters) return false;
  bool ok = true;
  bool parameter = false;
  walk_scalar(e, [&](const ScalarExpr& x) {
    if (std::holds_alternative<ColumnRef>(x.node)) ok = false;
    if (auto* v = std::get_if<CallVariadic>(&x.node)) {
      if (v->func == VariadicFunc::kParameter) parameter = true;
      if (v->func == VariadicFunc::kNow || v->func == VariadicFunc::kMzNow) ok = false;
    }
  });
  return ok && parameter;
}

// Lookups: predicates `key_i = value` (or an IN list's OR of them) over
// every key column of the index. Removes them from `mfp` and returns each
// key column's values (see is_lookup_value).
std::optional<std::vector<std::vector<ScalarExpr>>> key_values(const IndexInfo& index,
                                                                compute::MapFilterProject* mfp,
                                                                bool allow_parameters) {
  std::vector<std::vector<ScalarExpr>> values(index.key.size());
  std::vector<size_t> consumed;
  for (size_t p = 0; p < mfp->predicates.size(); ++p) {
    const ScalarExpr& pred = mfp->predicates[p];
    std::vector<const ScalarExpr*> disjuncts;
    std::function<void(const ScalarExpr&)> split = [&](const ScalarExpr& e) {
      auto* b = std::get_if<CallBinary>(&e.node);
      if (b && b->func == BinaryFunc::kOr) {
        split(*b->lhs);
        split(*b->rhs);
      } else {
        disjuncts.push_back(&e);
      }
    };
    split(pred);
    std::optional<size_t> key_col;
    std::vector<ScalarExpr> lits;
    bool ok = true;
    for (const ScalarExpr* d : disjuncts) {
      // in(x, c1, ..., cn) looks up each non-NULL constant (a NULL one
      // matches nothing).
      std::vector<const ScalarExpr*> rhs_values;
      const ScalarExpr* lhs = nullptr;
      if (auto* in = std::get_if<CallVariadic>(&d->node); in && in->func == VariadicFunc::kInList) {
        lhs = &in->args[0];
        for (size_t i = 1; i < in->args.size(); ++i) {
          if (is_lookup_value(in->args[i], false)) rhs_values.push_back(&in->args[i]);
        }
      } else if (auto* b = std::get_if<CallBinary>(&d->node); b && b->func == BinaryFunc::kEq) {
        lhs = &*b->lhs;
        const ScalarExpr* rhs = &*b->rhs;
        if (is_lookup_value(*lhs, allow_parameters)) std::swap(lhs, rhs);
        if (!is_lookup_value(*rhs, allow_parameters)) {
          ok = false;
          break;
        }
        rhs_values.push_back(rhs);
      } else {
        ok = false;
        break;
      }
      std::optional<size_t> k;
      for (size_t i = 0; i < index.key.size(); ++i) {
        if (index.key[i] == *lhs || (std::holds_alternative<ColumnRef>(lhs->node) &&
                                     std::holds_alternative<ColumnRef>(index.key[i].node) &&
                                     std::get<ColumnRef>(lhs->node).index == std::get<ColumnRef>(index.key[i].node).index &&
                                     lhs->type().same_type(index.key[i].type()))) {
          k = i;
        }
      }
      if (!k || (key_col && *key_col != *k)) {
        ok = false;
        break;
      }
      key_col = k;
      for (const ScalarExpr* v : rhs_values) lits.push_back(*v);
    }
    if (!ok || !key_col || !values[*key_col].empty()) continue;
    values[*key_col] = std::move(lits);
    consumed.push_back(p);
  }
  for (const auto& v : values) {
    if (v.empty()) return std::nullopt;
  }
  for (size_t i = consumed.size(); i-- > 0;) mfp->predicates.erase(mfp->predicates.begin() + static_cast<long>(consumed[i]));
  return values;
}

// Literal lookups (key_values without parameters), packed in key order.
std::optional<std::vector<Row>> literal_keys(const IndexInfo& index, compute::MapFilterProject* mfp) {
  auto values = key_values(index, mfp, /*allow_parameters=*/false);
  if (!values) return std::nullopt;
  std::vector<std::vector<Datum>> datums;
  for (const auto& column : *values) {
    datums.emplace_back();
    for (const ScalarExpr& v : column) datums.back().push_back(std::get<Literal>(v.node).datum());
  }
  return pack_lookup_keys(datums);
}

// Replaces every read of a table with pending writes by the table plus
// them: Get(t) becomes Get(t) UNION ALL inserted rows UNION ALL
// NEGATE(retracted rows).
void add_pending_writes(hir::Rel& rel,
                        const std::map<compute::GlobalId, std::vector<std::pair<Row, Diff>>>& pending) {
  if (auto* get = std::get_if<hir::Get>(&rel.node)) {
    auto it = pending.find(get->id);
    if (it == pending.end() || it->second.empty()) return;
    hir::Constant inserted{{}, get->types};
    hir::Constant retracted{{}, get->types};
    for (const auto& [row, diff] : it->second) {
      auto& into = diff > 0 ? inserted.rows : retracted.rows;
      for (Diff n = diff > 0 ? diff : -diff; n > 0; --n) into.push_back(row);
    }
    hir::Union u;
    u.inputs.push_back(hir::Rel{std::move(*get)});
    u.inputs.push_back(hir::Rel{std::move(inserted)});
    u.inputs.push_back(hir::Rel{hir::Negate{hir::Rel{std::move(retracted)}}});
    rel.node = std::move(u);
    return;
  }
  std::visit(
      [&](auto& n) {
        using N = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<N, hir::Join>) {
          add_pending_writes(*n.left, pending);
          add_pending_writes(*n.right, pending);
        } else if constexpr (std::is_same_v<N, hir::Union>) {
          for (auto& input : n.inputs) add_pending_writes(input, pending);
        } else if constexpr (std::is_same_v<N, hir::Apply>) {
          add_pending_writes(*n.input, pending);
          for (auto& subquery : n.subqueries) add_pending_writes(*subquery.rel, pending);
        } else if constexpr (requires { n.input; }) {
          add_pending_writes(*n.input, pending);
        }
      },
      rel.node);
}

}  // namespace

Result<ReadPlan> plan_read(const sql::Query& query, const CatalogReader& catalog, std::vector<ColumnType>& param_types,
                           const std::vector<Datum>& params, const PlanContext& ctx) {
  QueryBinder binder(catalog, &param_types);
  Scope none;
  TANDEM_ASSIGN_OR_RETURN(BoundQuery bound, binder.bind_query(query, none));
  ReadPlan plan;
  plan.columns = bound.columns;
  plan.finishing.order_by = bound.order_by;
  plan.finishing.visible = bound.columns.size();
  TANDEM_ASSIGN_OR_RETURN(int64_t limit, eval_count(bound.limit, params, "LIMIT", "2201W", -1));
  if (limit >= 0) plan.finishing.limit = limit;
  TANDEM_ASSIGN_OR_RETURN(plan.finishing.offset, eval_count(bound.offset, params, "OFFSET", "2201X", 0));
  if (ctx.mz_now) plan.uses_mz_now = substitute_mz_now(bound.rel, *ctx.mz_now);
  substitute_statement_calls(bound.rel, ctx);
  if (ctx.pending_writes != nullptr) add_pending_writes(bound.rel, *ctx.pending_writes);
  TANDEM_ASSIGN_OR_RETURN(mir::Rel rel, to_mir(std::move(bound.rel), param_types, params, ctx.optimizer, ctx.trace));

  if (auto* k = std::get_if<mir::Constant>(&rel.node)) {
    plan.plan = FastPathConstant{k->rows};
    return plan;
  }
  compute::MapFilterProject mfp;
  const mir::Rel* base = peel_mfp(rel, &mfp);
  if (auto* get = std::get_if<mir::Get>(&base->node)) {
    auto indexes = catalog.indexes_on(get->id);
    if (!indexes.empty()) {
      PeekExisting peek{get->id, indexes.front().index_id, std::nullopt, mfp};
      for (const auto& index : indexes) {
        compute::MapFilterProject candidate = mfp;
        if (auto keys = literal_keys(index, &candidate)) {
          peek = PeekExisting{get->id, index.index_id, std::move(keys), std::move(candidate)};
          break;
        }
      }
      plan.plan = std::move(peek);
      return plan;
    }
  }
  PeekDataflow df;
  df.desc.debug_name = "oneshot-select";
  df.desc.as_of = ctx.as_of;
  df.desc.until = ctx.as_of + 1;
  LirBuilder builder{catalog, ctx.allocate_id};
  TANDEM_ASSIGN_OR_RETURN(compute::GlobalId object, lower_to_lir(rel, builder, &df.desc));
  df.index_id = ctx.allocate_id();
  df.arity = mir::arity(rel);
  df.desc.index_exports.push_back({df.index_id, object, default_key(rel)});
  plan.plan = std::move(df);
  return plan;
}

namespace {

bool contains_parameter(const ScalarExpr& e) {
  bool found = false;
  walk_scalar(e, [&](const ScalarExpr& x) { found = found || is_parameter(x); });
  return found;
}

// parameter(i) placeholders become ColumnRef i, so that the expression
// evaluates over the parameter values.
void placeholders_to_columns(ScalarExpr& e) {
  walk_scalar(e, [](ScalarExpr& x) {
    if (!is_parameter(x)) return;
    const auto& call = std::get<CallVariadic>(x.node);
    size_t i = static_cast<size_t>(std::get<Literal>(call.args.at(0).node).datum().as_int64());
    x = ScalarExpr::column(i, call.type);
  });
}

}  // namespace

Result<std::optional<PreparedLookup>> plan_prepared_lookup(const sql::Query& query, const CatalogReader& catalog,
                                                           std::vector<ColumnType>& param_types,
                                                           const PlanContext& ctx) {
  QueryBinder binder(catalog, &param_types);
  Scope none;
  TANDEM_ASSIGN_OR_RETURN(BoundQuery bound, binder.bind_query(query, none));
  constexpr size_t kNoEnd = ~size_t{0};
  for (const auto* count : {&bound.limit, &bound.offset}) {
    if (*count && hir::references(**count, hir::kParamBase, kNoEnd)) return std::optional<PreparedLookup>();
  }
  bool temporal = false;
  for_each_scalar(bound.rel, [&](ScalarExpr& e) { temporal = temporal || is_mz_now(e) || statement_call(e); });
  if (temporal) return std::optional<PreparedLookup>();
  PreparedLookup lookup;
  lookup.columns = bound.columns;
  lookup.finishing.order_by = bound.order_by;
  lookup.finishing.visible = bound.columns.size();
  TANDEM_ASSIGN_OR_RETURN(int64_t limit, eval_count(bound.limit, {}, "LIMIT", "2201W", -1));
  if (limit >= 0) lookup.finishing.limit = limit;
  TANDEM_ASSIGN_OR_RETURN(lookup.finishing.offset, eval_count(bound.offset, {}, "OFFSET", "2201X", 0));
  // $i+1 becomes the opaque parameter(i), which the optimizer keeps as is.
  Status unbound;
  for_each_scalar(bound.rel, [&](ScalarExpr& x) {
    auto* c = std::get_if<ColumnRef>(&x.node);
    if (c == nullptr || c->index < hir::kParamBase) return;
    size_t i = c->index - hir::kParamBase;
    if (i >= param_types.size()) {
      unbound = Status::error(sqlstate::kUndefinedParameter, "there is no parameter $" + std::to_string(i + 1));
      return;
    }
    std::vector<ScalarExpr> index;
    index.push_back(ScalarExpr::literal(Datum::from_int64(static_cast<int64_t>(i)), ColumnType{TypeId::kInt8}));
    x = ScalarExpr::variadic(VariadicFunc::kParameter, std::move(index), param_types[i]);
  });
  TANDEM_RETURN_IF_ERROR(unbound);
  TANDEM_ASSIGN_OR_RETURN(mir::Rel rel, optimize_bound(std::move(bound.rel), ctx.optimizer, nullptr));

  compute::MapFilterProject mfp;
  const mir::Rel* base = peel_mfp(rel, &mfp);
  auto* get = std::get_if<mir::Get>(&base->node);
  if (get == nullptr) return std::optional<PreparedLookup>();
  for (const auto& index : catalog.indexes_on(get->id)) {
    compute::MapFilterProject candidate = mfp;
    auto values = key_values(index, &candidate, /*allow_parameters=*/true);
    if (!values) continue;
    // The residual MFP runs in compute, which knows no parameters.
    for (const auto* exprs : {&candidate.expressions, &candidate.predicates}) {
      for (const ScalarExpr& e : *exprs) {
        if (contains_parameter(e)) return std::optional<PreparedLookup>();
      }
    }
    for (auto& column : *values) {
      for (ScalarExpr& v : column) placeholders_to_columns(v);
    }
    lookup.collection = get->id;
    lookup.index_id = index.index_id;
    lookup.mfp = std::move(candidate);
    lookup.key_values = std::move(*values);
    return std::optional<PreparedLookup>(std::move(lookup));
  }
  return std::optional<PreparedLookup>();
}

Result<compute::DataflowDescription> plan_index(const sql::CreateIndex& index, compute::GlobalId index_id,
                                                const CatalogReader& catalog, const PlanContext& ctx) {
  const CatalogItem* item = catalog.resolve(index.on.parts);
  if (item == nullptr) {
    return Status::error(sqlstate::kUndefinedTable, "relation \"" + index.on.parts.back() + "\" does not exist");
  }
  Scope scope;
  for (const auto& c : item->desc.columns) scope.columns.push_back(ScopeColumn{index.on.parts.back(), c.name, c.type});
  std::vector<ColumnType> no_params;
  ExprBinder binder(scope, &no_params, hir::kParamBase);
  std::vector<ScalarExpr> key;
  for (const auto& part : index.key_parts) {
    TANDEM_ASSIGN_OR_RETURN(ScalarExpr e, binder.bind(part));
    key.push_back(std::move(e));
  }
  // An index reads its item from the source, never from another index on it
  // (so an indexed view is inlined here, not read through its index).
  struct NoIndexes : CatalogReader {
    const CatalogReader& inner;
    explicit NoIndexes(const CatalogReader& c) : inner(c) {}
    const CatalogItem* resolve(const std::vector<std::string>& n) const override { return inner.resolve(n); }
    std::vector<IndexInfo> indexes_on(compute::GlobalId) const override { return {}; }
  } sources_only(catalog);
  // The item's rows, as a query would read them (views are inlined).
  sql::Query q;
  sql::Select select;
  select.projection.push_back(sql::SelectItem{sql::Expr{sql::Star{}, {}}, std::nullopt});
  select.from.push_back(sql::TableRef{sql::TableName{index.on, std::nullopt}, {}});
  q.body.node = std::move(select);
  QueryBinder qb(sources_only, &no_params);
  Scope none;
  TANDEM_ASSIGN_OR_RETURN(BoundQuery bound, qb.bind_relation(q, none));
  TANDEM_ASSIGN_OR_RETURN(mir::Rel rel, to_mir(std::move(bound.rel), no_params, {}, ctx.optimizer, ctx.trace));
  if (key.empty()) key = default_key(rel);
  compute::DataflowDescription desc;
  desc.debug_name = "index";
  desc.as_of = ctx.as_of;
  LirBuilder builder{sources_only, ctx.allocate_id};
  TANDEM_ASSIGN_OR_RETURN(compute::GlobalId object, lower_to_lir(rel, builder, &desc));
  desc.index_exports.push_back({index_id, object, std::move(key)});
  return desc;
}

Result<catalog::RelationDesc> plan_view(const sql::Query& query, const std::vector<std::string>& column_names,
                                        const CatalogReader& catalog) {
  std::vector<ColumnType> params;
  QueryBinder binder(catalog, &params);
  Scope none;
  TANDEM_ASSIGN_OR_RETURN(BoundQuery bound, binder.bind_relation(query, none));
  if (!params.empty()) return Status::error(sqlstate::kUndefinedParameter, "there is no parameter $1");
  if (column_names.size() > bound.columns.size()) {
    return Status::error(sqlstate::kSyntaxError, "CREATE VIEW specifies more column names than columns");
  }
  catalog::RelationDesc desc;
  for (size_t i = 0; i < bound.columns.size(); ++i) {
    desc.columns.push_back({i < column_names.size() ? column_names[i] : bound.columns[i].name, bound.columns[i].type});
  }
  // A view is planned again where it is read: now() and the session
  // functions take the reading statement's values then; any values do for
  // its keys here.
  const SessionValues any_session;
  PlanContext any;
  any.statement_time = 0;
  any.session = &any_session;
  substitute_statement_calls(bound.rel, any);
  TANDEM_ASSIGN_OR_RETURN(mir::Rel rel, to_mir(std::move(bound.rel), params, {}, OptimizerOptions{}));
  desc.keys = mir::unique_keys(rel);
  std::erase_if(desc.keys, [](const auto& k) { return k.empty(); });
  return desc;
}

Result<compute::DataflowDescription> plan_materialized_view(const sql::Query& query, compute::GlobalId export_id,
                                                            const CatalogReader& catalog, const PlanContext& ctx) {
  std::vector<ColumnType> params;
  QueryBinder binder(catalog, &params);
  Scope none;
  TANDEM_ASSIGN_OR_RETURN(BoundQuery bound, binder.bind_relation(query, none));
  TANDEM_ASSIGN_OR_RETURN(mir::Rel rel, to_mir(std::move(bound.rel), params, {}, ctx.optimizer, ctx.trace));
  compute::DataflowDescription desc;
  desc.debug_name = "materialized-view";
  desc.as_of = ctx.as_of;
  LirBuilder builder{catalog, ctx.allocate_id};
  TANDEM_ASSIGN_OR_RETURN(compute::GlobalId object, lower_to_lir(rel, builder, &desc));
  desc.index_exports.push_back({export_id, object, default_key(rel)});
  return desc;
}

}  // namespace tandem::planner
