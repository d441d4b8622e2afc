#include "planner/lowering/decorrelate.hpp"

#include <functional>

namespace tandem::planner {
namespace {

using mir::Rel;

ColumnType kBool{TypeId::kBool, -1, false};

// The lowering context: the outer relation (a LocalGet; none at top level or
// when detached), the binding width of the outer scope, and how many
// binding columns the lowered layout omits at the front (detached scopes).
struct Ctx {
  std::optional<Rel> outer;
  size_t oa = 0;
  size_t shift = 0;
  size_t width() const { return outer ? oa - shift : 0; }
};

ScalarExpr col(const std::vector<ColumnType>& types, size_t i) { return ScalarExpr::column(i, types.at(i)); }

// A non-NULL value of `type` standing in for NULL in a NULL-safe join key
// (beside an IS NULL key column, so it never matches a real value); nullopt
// for types without one here.
std::optional<Datum> stand_in(const ColumnType& type) {
  switch (type.id) {
    case TypeId::kBool: return Datum::from_bool(false);
    case TypeId::kInt2: return Datum::from_int16(0);
    case TypeId::kInt4: return Datum::from_int32(0);
    case TypeId::kInt8: return Datum::from_int64(0);
    case TypeId::kFloat4: return Datum::from_float32(0);
    case TypeId::kFloat8: return Datum::from_float64(0);
    case TypeId::kNumeric: return Datum::from_numeric(Numeric::from_int(0));
    case TypeId::kText:
    case TypeId::kVarchar:
    case TypeId::kBpchar: return Datum::from_string("");
    case TypeId::kBytea: return Datum::from_bytes("");
    case TypeId::kDate: return Datum::from_date(0);
    case TypeId::kTime: return Datum::from_time(0);
    case TypeId::kTimestamp: return Datum::from_timestamp(0);
    case TypeId::kTimestampTz: return Datum::from_timestamptz(0);
    case TypeId::kInterval: return Datum::from_interval(Interval{});
    case TypeId::kOid: return Datum::from_oid(0);
    case TypeId::kMzTimestamp: return Datum::from_mz_timestamp(0);
    default: return std::nullopt;
  }
}

// Key expressions that compare equal exactly when the column values are
// equal or both NULL (join keys never match NULL). Values compare as join
// keys do (numerics by value, whatever their display scale): the two sides
// may hold one value in different forms (a Distinct's output keeps only the
// value).
std::vector<std::pair<ScalarExpr, ScalarExpr>> null_safe_keys(const std::vector<ColumnType>& lt,
                                                              const std::vector<ColumnType>& rt, size_t prefix) {
  std::vector<std::pair<ScalarExpr, ScalarExpr>> out;
  for (size_t c = 0; c < prefix; ++c) {
    ScalarExpr l = col(lt, c), r = col(rt, c);
    if (!lt[c].nullable && !rt[c].nullable) {
      out.emplace_back(std::move(l), std::move(r));
      continue;
    }
    auto is_null = [](ScalarExpr e) { return ScalarExpr::unary(UnaryFunc::kIsNull, std::move(e), kBool); };
    std::optional<Datum> fill = lt[c].id == rt[c].id ? stand_in(lt[c]) : std::nullopt;
    auto value = [&](ScalarExpr e) {
      ColumnType t = fill ? e.type() : ColumnType{TypeId::kText};
      t.nullable = false;
      if (!fill) e = ScalarExpr::unary(UnaryFunc::kOutputText, std::move(e), ColumnType{TypeId::kText});
      ScalarExpr stand = ScalarExpr::literal(fill ? *fill : Datum::from_string(""), t);
      return ScalarExpr::variadic(VariadicFunc::kCoalesce, {std::move(e), std::move(stand)}, t);
    };
    out.emplace_back(is_null(l), is_null(r));
    out.emplace_back(value(std::move(l)), value(std::move(r)));
  }
  return out;
}

std::vector<size_t> range(size_t begin, size_t end) {
  std::vector<size_t> v;
  for (size_t i = begin; i < end; ++i) v.push_back(i);
  return v;
}

class Decorrelator {
 public:
  Result<Rel> lower(const hir::Rel& rel, const Ctx& ctx) {
    if (ctx.outer && !hir::references(rel, ctx.shift, ctx.oa)) {
      TANDEM_ASSIGN_OR_RETURN(Rel detached, lower(rel, Ctx{std::nullopt, ctx.oa, ctx.oa}));
      return mir::join(*ctx.outer, std::move(detached), {});
    }
    return std::visit([&](const auto& n) { return visit(n, ctx); }, rel.node);
  }

 private:
  ScalarExpr remap(ScalarExpr e, const Ctx& ctx) { return mir::shift_columns(std::move(e), -static_cast<int64_t>(ctx.shift)); }

  Rel let(Rel value, const std::function<Rel(const Rel&)>& body) {
    uint64_t id = next_id_++;
    Rel get{mir::LocalGet{id, mir::column_types(value)}};
    Rel b = body(get);
    return Rel{mir::Let{id, std::move(value), std::move(b)}};
  }

  // Joins a and b (both starting with the same `prefix` columns) on the
  // prefix, NULL-safe; the row is a ++ b's columns after the prefix.
  Rel join_on_prefix(Rel a, Rel b, size_t prefix) {
    auto at = mir::column_types(a), bt = mir::column_types(b);
    auto keys = null_safe_keys(at, bt, prefix);
    std::vector<size_t> cols = range(0, at.size());
    for (size_t c = prefix; c < bt.size(); ++c) cols.push_back(at.size() + c);
    return mir::project(mir::join(std::move(a), std::move(b), keys), std::move(cols));
  }

  // The rows of `x` whose first `prefix` columns match no row of `keys`
  // (keys: distinct rows of exactly those columns).
  Rel anti_join(const Rel& x, Rel keys, size_t prefix) {
    size_t xa = mir::arity(x);
    Rel semi = join_on_prefix(x, std::move(keys), prefix);
    return mir::union_all({x, mir::negate(mir::project(std::move(semi), range(0, xa)))});
  }

  // cur ++ lookup's value columns, where lookup (prefix ++ values) has at
  // most one row per prefix (else `several_per_key`: each is matched);
  // unmatched rows get `defaults`.
  Rel left_join_lookup(Rel cur, Rel lookup, size_t prefix, std::vector<ScalarExpr> defaults,
                       bool several_per_key = false) {
    return let(std::move(cur), [&](const Rel& c) {
      return let(std::move(lookup), [&](const Rel& l) {
        Rel matched = join_on_prefix(c, l, prefix);
        Rel keys = mir::project(l, range(0, prefix));
        if (several_per_key) keys = mir::distinct(std::move(keys));
        Rel unmatched = anti_join(c, std::move(keys), prefix);
        return mir::union_all({std::move(matched), mir::map(std::move(unmatched), defaults)});
      });
    });
  }

  // A scalar subquery's rows (prefix ++ value) plus, per prefix with more
  // than one row, a row whose value is error(21000, ...): evaluating it
  // puts "more than one record produced in subquery" into the dataflow's
  // error collection (Materialize's guard), which a read then reports.
  Rel guard_one_row(Rel rows, size_t prefix, const ColumnType& value_type) {
    return let(std::move(rows), [&](const Rel& r) {
      auto types = mir::column_types(r);
      ColumnType int8{TypeId::kInt8, -1, false};
      compute::AggregateExpr count_all;
      count_all.func = compute::AggregateFunc::kCountAll;
      mir::Reduce count{r, {}, {std::move(count_all)}};
      for (size_t c = 0; c < prefix; ++c) count.group_key.push_back(col(types, c));
      Rel too_many = mir::filter(Rel{std::move(count)},
                                 {ScalarExpr::binary(BinaryFunc::kGt, ScalarExpr::column(prefix, int8),
                                                     ScalarExpr::literal(Datum::from_int64(1), int8), kBool)});
      ColumnType text{TypeId::kText, -1, false};
      ScalarExpr error = ScalarExpr::binary(
          BinaryFunc::kError, ScalarExpr::literal(Datum::from_string(sqlstate::kCardinalityViolation), text),
          ScalarExpr::literal(Datum::from_string("more than one record produced in subquery"), text), value_type);
      std::vector<size_t> cols = range(0, prefix);
      cols.push_back(prefix + 1);
      Rel errors = mir::project(mir::map(std::move(too_many), {std::move(error)}), std::move(cols));
      return mir::union_all({r, std::move(errors)});
    });
  }

  Result<Rel> visit(const hir::Get& n, const Ctx& ctx) {
    Rel get{mir::Get{n.id, n.name, n.types, {}}};
    return ctx.outer ? mir::join(*ctx.outer, std::move(get), {}) : get;
  }
  Result<Rel> visit(const hir::Constant& n, const Ctx& ctx) {
    mir::Constant c{{}, n.types};
    for (const auto& r : n.rows) c.rows.emplace_back(r, 1);
    Rel k{std::move(c)};
    return ctx.outer ? mir::join(*ctx.outer, std::move(k), {}) : k;
  }
  Result<Rel> visit(const hir::Project& n, const Ctx& ctx) {
    TANDEM_ASSIGN_OR_RETURN(Rel in, lower(*n.input, ctx));
    size_t w = ctx.width();
    std::vector<size_t> cols = range(0, w);
    for (size_t c : n.columns) cols.push_back(w + c);
    return mir::project(std::move(in), std::move(cols));
  }
  Result<Rel> visit(const hir::Map& n, const Ctx& ctx) {
    TANDEM_ASSIGN_OR_RETURN(Rel in, lower(*n.input, ctx));
    std::vector<ScalarExpr> es;
    for (const auto& e : n.exprs) es.push_back(remap(e, ctx));
    return mir::map(std::move(in), std::move(es));
  }
  Result<Rel> visit(const hir::Filter& n, const Ctx& ctx) {
    TANDEM_ASSIGN_OR_RETURN(Rel in, lower(*n.input, ctx));
    std::vector<ScalarExpr> es;
    for (const auto& e : n.predicates) es.push_back(remap(e, ctx));
    return mir::filter(std::move(in), std::move(es));
  }
  Result<Rel> visit(const hir::Join& n, const Ctx& ctx) {
    size_t w = ctx.width();
    TANDEM_ASSIGN_OR_RETURN(Rel l, lower(*n.left, ctx));
    // The right side's own columns start after the left's in the binding.
    size_t la = hir::arity(*n.left);
    // Both sides are bound over the same outer scope; ON sees outer ++ l ++ r.
    TANDEM_ASSIGN_OR_RETURN(Rel r, lower(*n.right, ctx));
    size_t ra = hir::arity(*n.right);
    Rel product = w > 0 ? join_on_prefix(l, r, w) : mir::join(l, r, {});
    Rel inner = mir::filter(std::move(product), {remap(n.on, ctx)});
    if (n.kind == hir::JoinKind::kInner) return inner;
    auto lt = mir::column_types(l), rt = mir::column_types(r);
    return let(std::move(l), [&](const Rel& lg) {
      return let(std::move(r), [&](const Rel& rg) {
        return let(std::move(inner), [&](const Rel& ig) {
          std::vector<Rel> parts{ig};
          if (n.kind == hir::JoinKind::kLeft || n.kind == hir::JoinKind::kFull) {
            Rel keys = mir::distinct(mir::project(ig, range(0, w + la)));
            std::vector<ScalarExpr> nulls;
            for (size_t c = w; c < rt.size(); ++c) {
              ColumnType t = rt[c];
              t.nullable = true;
              nulls.push_back(ScalarExpr::null(t));
            }
            parts.push_back(mir::map(anti_join(lg, std::move(keys), w + la), std::move(nulls)));
          }
          if (n.kind == hir::JoinKind::kRight || n.kind == hir::JoinKind::kFull) {
            std::vector<size_t> rcols = range(0, w);
            for (size_t c = 0; c < ra; ++c) rcols.push_back(w + la + c);
            Rel keys = mir::distinct(mir::project(ig, rcols));
            std::vector<ScalarExpr> nulls;
            for (size_t c = w; c < lt.size(); ++c) {
              ColumnType t = lt[c];
              t.nullable = true;
              nulls.push_back(ScalarExpr::null(t));
            }
            Rel padded = mir::map(anti_join(rg, std::move(keys), w + ra), std::move(nulls));
            std::vector<size_t> order = range(0, w);
            for (size_t c = 0; c < la; ++c) order.push_back(w + ra + c);
            for (size_t c = 0; c < ra; ++c) order.push_back(w + c);
            parts.push_back(mir::project(std::move(padded), std::move(order)));
          }
          return mir::union_all(std::move(parts));
        });
      });
    });
  }
  Result<Rel> visit(const hir::Reduce& n, const Ctx& ctx) {
    TANDEM_ASSIGN_OR_RETURN(Rel in, lower(*n.input, ctx));
    size_t w = ctx.width();
    auto it = mir::column_types(in);
    mir::Reduce r{std::move(in), {}, {}};
    for (size_t c = 0; c < w; ++c) r.group_key.push_back(col(it, c));
    for (const auto& k : n.group_key) r.group_key.push_back(remap(k, ctx));
    for (auto a : n.aggregates) {
      a.expr = remap(std::move(a.expr), ctx);
      if (a.separator) a.separator = remap(std::move(*a.separator), ctx);
      for (auto& o : a.order_by) o.expr = remap(std::move(o.expr), ctx);
      if (a.filter) a.filter = remap(std::move(*a.filter), ctx);
      r.aggregates.push_back(std::move(a));
    }
    std::vector<ScalarExpr> defaults;
    for (const auto& a : r.aggregates) {
      bool count = a.func == compute::AggregateFunc::kCount || a.func == compute::AggregateFunc::kCountAll;
      defaults.push_back(count ? ScalarExpr::literal(Datum::from_int64(0), ColumnType{TypeId::kInt8, -1, false})
                               : ScalarExpr::null(mir::aggregate_type(a)));
    }
    if (!n.group_key.empty()) return with_key_display(std::move(r), w);
    Rel reduced{std::move(r)};
    // A global aggregate: one row per outer row, also without input rows.
    Rel outer = ctx.outer ? *ctx.outer : mir::unit();
    return let(std::move(reduced), [&](const Rel& g) {
      Rel missing = mir::union_all({outer, mir::negate(mir::project(g, range(0, w)))});
      return mir::union_all({g, mir::map(std::move(missing), defaults)});
    });
  }
  // A grouped Reduce whose output shows each numeric group key as one of
  // its group's values (3.0, not the key-mode 3), as PostgreSQL does: such
  // a key is also aggregated with max (which keeps a member's display
  // scale) and the aggregate shown in its place. The `w` outer columns are
  // matched by value and left as they are.
  Rel with_key_display(mir::Reduce r, size_t w) {
    const size_t keys = r.group_key.size();
    const size_t aggs = r.aggregates.size();
    std::vector<size_t> cols = range(0, keys + aggs);
    for (size_t k = w; k < keys; ++k) {
      // numeric(p,s) keys need nothing: every value has scale s, and the
      // output shows the column's scale (format_datum).
      const ColumnType& t = r.group_key[k].type();
      if (t.id != TypeId::kNumeric || t.typmod >= 4) continue;
      compute::AggregateExpr shown;
      shown.func = compute::AggregateFunc::kMax;
      shown.expr = r.group_key[k];
      cols[k] = keys + r.aggregates.size();
      r.aggregates.push_back(std::move(shown));
    }
    if (r.aggregates.size() == aggs) return Rel{std::move(r)};
    return mir::project(Rel{std::move(r)}, std::move(cols));
  }
  Result<Rel> visit(const hir::Distinct& n, const Ctx& ctx) {
    TANDEM_ASSIGN_OR_RETURN(Rel in, lower(*n.input, ctx));
    return mir::distinct(std::move(in));
  }
  Result<Rel> visit(const hir::Negate& n, const Ctx& ctx) {
    TANDEM_ASSIGN_OR_RETURN(Rel in, lower(*n.input, ctx));
    return mir::negate(std::move(in));
  }
  Result<Rel> visit(const hir::Threshold& n, const Ctx& ctx) {
    TANDEM_ASSIGN_OR_RETURN(Rel in, lower(*n.input, ctx));
    return Rel{mir::Threshold{std::move(in)}};
  }
  Result<Rel> visit(const hir::Union& n, const Ctx& ctx) {
    std::vector<Rel> ins;
    for (const auto& i : n.inputs) {
      TANDEM_ASSIGN_OR_RETURN(Rel r, lower(i, ctx));
      ins.push_back(std::move(r));
    }
    return mir::union_all(std::move(ins));
  }
  Result<Rel> visit(const hir::TopK& n, const Ctx& ctx) {
    TANDEM_ASSIGN_OR_RETURN(Rel in, lower(*n.input, ctx));
    size_t w = ctx.width();
    mir::TopK t{std::move(in), range(0, w), n.order, n.limit, n.offset};
    for (auto& o : t.order) o.column += w;
    for (size_t k : n.group_key) t.group_key.push_back(k + w);
    return Rel{std::move(t)};
  }
  Result<Rel> visit(const hir::Window& n, const Ctx& ctx) {
    TANDEM_ASSIGN_OR_RETURN(Rel in, lower(*n.input, ctx));
    size_t w = ctx.width();
    // Each outer row's rows are their own partitions.
    mir::Window win{std::move(in), range(0, w), n.order_by, n.funcs};
    for (size_t c : n.partition_by) win.partition_by.push_back(c + w);
    for (auto& o : win.order_by) o.column += w;
    for (auto& f : win.funcs) {
      for (auto& a : f.args) a += w;
    }
    return Rel{std::move(win)};
  }
  Result<Rel> visit(const hir::FlatMap& n, const Ctx& ctx) {
    TANDEM_ASSIGN_OR_RETURN(Rel in, lower(*n.input, ctx));
    std::vector<ScalarExpr> args;
    for (const auto& a : n.args) args.push_back(remap(a, ctx));
    return Rel{mir::FlatMap{std::move(in), n.func, std::move(args)}};
  }
  Result<Rel> visit(const hir::Apply& n, const Ctx& ctx) {
    TANDEM_ASSIGN_OR_RETURN(Rel cur, lower(*n.input, ctx));
    size_t w = ctx.width();
    size_t ia = hir::arity(*n.input);
    size_t prefix = w + ia;
    for (const auto& s : n.subqueries) {
      Status failed;
      cur = let(std::move(cur), [&](const Rel& c) -> Rel {
        return let(mir::distinct(mir::project(c, range(0, prefix))), [&](const Rel& keys) -> Rel {
          auto sub = lower(*s.rel, Ctx{keys, ctx.oa + ia, ctx.shift});
          if (!sub.ok()) {
            failed = sub.status();
            return c;
          }
          if (s.kind == hir::Subquery::Kind::kExists) {
            Rel found = mir::map(mir::distinct(mir::project(std::move(*sub), range(0, prefix))),
                                 {ScalarExpr::literal(Datum::from_bool(true), kBool)});
            return left_join_lookup(c, std::move(found), prefix, {ScalarExpr::literal(Datum::from_bool(false), kBool)});
          }
          ScalarExpr null = ScalarExpr::null(hir::subquery_type(s));
          if (hir::at_most_one_row(*s.rel)) return left_join_lookup(c, std::move(*sub), prefix, {null});
          return left_join_lookup(c, guard_one_row(std::move(*sub), prefix, null.type()), prefix, {null}, true);
        });
      });
      if (!failed.is_ok()) return failed;
    }
    return cur;
  }

  uint64_t next_id_ = 1;
};

}  // namespace

Result<mir::Rel> decorrelate(const hir::Rel& rel) {
  Decorrelator d;
  return d.lower(rel, Ctx{});
}

}  // namespace tandem::planner
