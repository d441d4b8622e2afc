// Scalar expressions and predicates of QueryGen. Every generator returns an
// expression of exactly the requested type (as PostgreSQL resolves it), so
// that operands, CASE branches and set-operation columns line up.

#include <algorithm>

#include "tests/difftest/query_gen.hpp"

namespace tandem::difftest {

namespace {

std::vector<ColRef> of_type(const std::vector<ColRef>& cols, Type t) {
  std::vector<ColRef> out;
  for (const auto& c : cols) {
    if (!c.ref.empty() && c.type == t) out.push_back(c);
  }
  return out;
}

std::vector<ColRef> usable(const std::vector<ColRef>& cols) {
  std::vector<ColRef> out;
  for (const auto& c : cols) {
    if (!c.ref.empty()) out.push_back(c);
  }
  return out;
}

}  // namespace

std::vector<Type> QueryGen::number_types() const {
  std::vector<Type> out = {Type::kInt, Type::kBigint};
  if (f_.on("numeric")) out.push_back(Type::kNumeric);
  if (f_.on("floats")) out.push_back(Type::kDouble);
  return out;
}

NodePtr QueryGen::literal(Type t, bool allow_null) { return node(expr_literal(rng_, t, allow_null)); }

Type QueryGen::random_type(const std::vector<ColRef>& scope) {
  auto cols = usable(scope);
  if (!cols.empty() && rng_.chance(0.8)) return rng_.pick(cols).type;
  std::vector<Type> types = {Type::kInt, Type::kBigint, Type::kText, Type::kBool};
  if (f_.on("numeric")) types.push_back(Type::kNumeric);
  if (f_.on("floats")) types.push_back(Type::kDouble);
  if (f_.on("dates")) types.push_back(Type::kDate);
  if (f_.on("jsonb")) types.push_back(Type::kJsonb);
  return rng_.pick(types);
}

Ctx QueryGen::inner_outer(const Ctx& c) {
  Ctx out;
  if (!f_.on("correlated")) return out;
  out.cols = c.grouped ? c.keys : c.cols;
  for (const auto& o : c.outer) out.cols.push_back(o);
  // Keys that are expressions cannot be referenced from inside a subquery.
  // Nor, in PostgreSQL, a grouped USING column of a FULL JOIN (it reports
  // the join's input column as ungrouped, 42803): leave merged columns out.
  const bool grouped = c.grouped;
  std::erase_if(out.cols, [grouped](const ColRef& r) {
    return r.ref.empty() || r.ref.find('(') != std::string::npos || (grouped && r.ref == r.name);
  });
  return out;
}

NodePtr QueryGen::leaf(Type t, const Ctx& c) {
  if (c.windows && f_.on("window-functions") && rng_.chance(0.15)) return window_call(t, c);
  auto own = of_type(c.grouped ? c.keys : c.cols, t);
  auto outer = of_type(c.outer, t);
  if (c.grouped && f_.on("aggregates") && t != Type::kBool && rng_.chance(own.empty() ? 0.7 : 0.4)) {
    return aggregate(t, c);
  }
  if (!outer.empty() && rng_.chance(0.25)) return node(rng_.pick(outer).ref);
  if (!own.empty() && rng_.chance(0.8)) return node(rng_.pick(own).ref);
  // A column of another number type, cast.
  if (is_number(t) && f_.on("casts") && rng_.chance(0.5)) {
    for (Type other : number_types()) {
      auto cols = of_type(c.grouped ? c.keys : c.cols, other);
      if (!cols.empty()) {
        return with_simpler(node("CAST(", node(rng_.pick(cols).ref), " AS ", type_sql(t), ")"), {literal(t, false)});
      }
    }
  }
  return literal(t);
}

NodePtr QueryGen::aggregate(Type t, const Ctx& c, bool simplifiable) {
  // Aggregate arguments are row expressions over the FROM clause only.
  Ctx row;
  row.cols = c.cols;
  row.qdepth = 0;
  auto arg = [&](Type at) { return expr(at, row, 1); };
  std::vector<NodePtr> options;
  const NodePtr simple = literal(t, false);
  switch (t) {
    case Type::kBigint:
      options.push_back(node("count(*)"));
      options.push_back(node("count(", arg(random_type(c.cols)), ")"));
      if (f_.on("count-distinct")) options.push_back(node("count(DISTINCT ", arg(random_type(c.cols)), ")"));
      options.push_back(node("sum(", arg(Type::kInt), ")"));
      break;
    case Type::kNumeric: {
      options.push_back(node("sum(", arg(rng_.chance(0.5) ? Type::kNumeric : Type::kBigint), ")"));
      const Type at = rng_.pick(std::vector<Type>{Type::kInt, Type::kBigint, Type::kNumeric});
      options.push_back(node("avg(", arg(at), ")"));
      break;
    }
    case Type::kDouble:
      options.push_back(node("sum(", arg(Type::kDouble), ")"));
      options.push_back(node("avg(", arg(Type::kDouble), ")"));
      break;
    case Type::kJsonb:
      // PostgreSQL has no min/max over jsonb; jsonb_agg's order is the input's.
      options.push_back(node("to_jsonb(count(", arg(random_type(c.cols)), "))"));
      options.push_back(node("jsonb_build_object('n', sum(", arg(Type::kInt), "))"));
      return simplifiable ? with_simpler(rng_.pick(options), {simple}) : rng_.pick(options);
    default: break;
  }
  if (f_.on("variance") && (t == Type::kNumeric || t == Type::kDouble)) {
    static const std::vector<const char*> kNames = {"var_samp(", "var_pop(", "variance(",
                                                    "stddev_samp(", "stddev_pop(", "stddev("};
    const Type at = t == Type::kDouble ? Type::kDouble
                                       : rng_.pick(std::vector<Type>{Type::kInt, Type::kBigint, Type::kNumeric});
    options.push_back(node(rng_.pick(kNames), arg(at), ")"));
  }
  if (t != Type::kBool) {
    options.push_back(node(rng_.chance(0.5) ? "min(" : "max(", arg(t), ")"));
  } else {
    return predicate(c, 0);
  }
  // The aggregate that makes a GROUP BY "with aggregates" stays one.
  return simplifiable ? with_simpler(rng_.pick(options), {simple}) : rng_.pick(options);
}

NodePtr QueryGen::number_expr(Type t, const Ctx& c, int depth) {
  const int d = depth - 1;
  switch (rng_.weighted({6, 2, 2, 1, 2, 1, 2})) {
    case 0: {  // + - *
      Type a = t, b = t;
      if (t == Type::kBigint) b = rng_.chance(0.5) ? Type::kInt : Type::kBigint;
      if (t == Type::kNumeric) b = rng_.pick(std::vector<Type>{Type::kInt, Type::kBigint, Type::kNumeric});
      if (t == Type::kDouble && f_.on("casts")) b = rng_.pick(number_types());
      if (rng_.chance(0.5)) std::swap(a, b);
      const char* op = rng_.pick(std::vector<const char*>{" + ", " - ", " * ", " + "});
      NodePtr x = expr(a, c, d), y = expr(b, c, d);
      return with_simpler(node("(", x, op, y, ")"), {literal(t, false), a == t ? x : nullptr, b == t ? y : nullptr});
    }
    case 1: {  // / and %
      if (!f_.on("numeric-division")) return leaf(t, c);
      NodePtr x = expr(t, c, d), y = expr(t, c, d);
      const bool mod = t != Type::kDouble && rng_.chance(0.3);
      // Mostly guarded: a division by zero is an error only one engine
      // may reach (see CompareOptions::strict_errors).
      if (rng_.chance(0.8)) y = with_simpler(node("NULLIF(", y, ", 0)"), {y});
      return with_simpler(node("(", x, mod ? " % " : " / ", y, ")"), {literal(t, false), x});
    }
    case 2: {  // CASE / COALESCE / NULLIF
      if (rng_.chance(0.5) && f_.on("case")) {
        NodePtr x = expr(t, c, d), y = expr(t, c, d);
        if (rng_.chance(0.2)) return with_simpler(node("CASE WHEN ", predicate(c, d), " THEN ", x, " END"), {x});
        return with_simpler(node("CASE WHEN ", predicate(c, d), " THEN ", x, " ELSE ", y, " END"), {x, y});
      }
      if (!f_.on("coalesce-nullif")) return leaf(t, c);
      NodePtr x = expr(t, c, d), y = expr(t, c, d);
      if (rng_.chance(0.6)) return with_simpler(node("COALESCE(", x, ", ", y, ")"), {x, y});
      return with_simpler(node("NULLIF(", x, ", ", y, ")"), {x});
    }
    case 3: {  // casts from another number type (and from text for int)
      if (!f_.on("casts")) return leaf(t, c);
      const Type from = rng_.pick(number_types());
      NodePtr x = expr(from, c, d);
      return with_simpler(node("CAST(", x, " AS ", type_sql(t), ")"), {literal(t, false), from == t ? x : nullptr});
    }
    case 4: {  // functions
      if ((t == Type::kInt || t == Type::kBigint) && f_.on("bitwise") && rng_.chance(0.3)) {
        NodePtr x = expr(t, c, d);
        if (rng_.chance(0.2)) return with_simpler(node("(~", x, ")"), {x});
        if (rng_.chance(0.3)) {
          const char* shift = rng_.chance(0.5) ? " << " : " >> ";
          return with_simpler(node("(", x, shift, std::to_string(rng_.range(0, 40)), ")"), {x});
        }
        const char* op = rng_.pick(std::vector<const char*>{" & ", " | ", " # "});
        NodePtr y = expr(t, c, d);
        return with_simpler(node("(", x, op, y, ")"), {x, y});
      }
      if (!f_.on("functions")) return leaf(t, c);
      NodePtr x = expr(t, c, d);
      if (t == Type::kNumeric && rng_.chance(0.5)) {
        return with_simpler(node("round(", x, ", ", std::to_string(rng_.range(0, 2)), ")"), {x});
      }
      if (t == Type::kInt && rng_.chance(0.4)) {
        NodePtr s = expr(Type::kText, c, d);
        return with_simpler(node("length(", s, ")"), {literal(t, false)});
      }
      if (t == Type::kInt && f_.on("dates") && rng_.chance(0.3)) {
        NodePtr a = expr(Type::kDate, c, d), b = expr(Type::kDate, c, d);
        return with_simpler(node("(", a, " - ", b, ")"), {literal(t, false)});
      }
      return with_simpler(node("abs(", x, ")"), {x});
    }
    case 5: {  // unary minus
      NodePtr x = expr(t, c, d);
      return with_simpler(node("(- ", x, ")"), {x});
    }
    default:
      if (c.qdepth > 0 && f_.on("scalar-subquery") && rng_.chance(0.5)) return scalar_subquery(t, c);
      return leaf(t, c);
  }
}

NodePtr QueryGen::expr(Type t, const Ctx& c, int depth) {
  if (depth <= 0 || rng_.chance(0.4)) return leaf(t, c);
  if (is_number(t)) return number_expr(t, c, depth);
  const int d = depth - 1;
  switch (t) {
    case Type::kBool: return predicate(c, depth);
    case Type::kText:
      switch (rng_.weighted({3, 2, 2, 2, 1})) {
        case 0: {
          NodePtr x = expr(Type::kText, c, d), y = expr(Type::kText, c, d);
          return with_simpler(node("(", x, " || ", y, ")"), {x, y});
        }
        case 1: {
          if (!f_.on("functions")) break;
          NodePtr x = expr(Type::kText, c, d);
          const char* fn = rng_.pick(std::vector<const char*>{"upper(", "lower("});
          if (rng_.chance(0.3)) return with_simpler(node("substr(", x, ", 1, 2)"), {x});
          return with_simpler(node(fn, x, ")"), {x});
        }
        case 2: {
          if (!f_.on("casts")) break;
          const Type from = rng_.pick(std::vector<Type>{Type::kInt, Type::kBigint, Type::kBool});
          return with_simpler(node("CAST(", expr(from, c, d), " AS text)"), {literal(t, false)});
        }
        case 3: {
          if (!f_.on("case")) break;
          NodePtr x = expr(t, c, d), y = expr(t, c, d);
          return with_simpler(node("CASE WHEN ", predicate(c, d), " THEN ", x, " ELSE ", y, " END"), {x, y});
        }
        default: {
          if (f_.on("jsonb") && rng_.chance(0.3)) {
            NodePtr j = expr(Type::kJsonb, c, d);
            if (rng_.chance(0.3)) return with_simpler(node("jsonb_typeof(", j, ")"), {literal(t, false)});
            const char* key = rng_.pick(std::vector<const char*>{"'a'", "'b'", "0"});
            return with_simpler(node("(", j, " ->> ", key, ")"), {literal(t, false)});
          }
          if (!f_.on("coalesce-nullif")) break;
          NodePtr x = expr(t, c, d), y = expr(t, c, d);
          return with_simpler(node("COALESCE(", x, ", ", y, ")"), {x, y});
        }
      }
      return leaf(t, c);
    case Type::kJsonb: {
      if (!f_.on("jsonb")) return leaf(t, c);
      NodePtr x = expr(Type::kJsonb, c, d);
      switch (rng_.weighted({3, 2, 2, 1, 1})) {
        case 0: {
          const char* key = rng_.pick(std::vector<const char*>{"'a'", "'b'", "0", "1"});
          return with_simpler(node("(", x, " -> ", key, ")"), {x});
        }
        case 1: {
          NodePtr y = expr(Type::kJsonb, c, d);
          return with_simpler(node("(", x, " || ", y, ")"), {x, y});
        }
        case 2: return with_simpler(node("to_jsonb(", expr(Type::kInt, c, d), ")"), {literal(t, false)});
        case 3:
          return with_simpler(node("jsonb_build_object('k', ", expr(Type::kText, c, d), ", 'v', ", x, ")"), {x});
        default:
          if (f_.on("coalesce-nullif")) return with_simpler(node("COALESCE(", x, ", ", expr(t, c, d), ")"), {x});
          return x;
      }
    }
    case Type::kDate: {
      NodePtr x = expr(Type::kDate, c, d);
      if (rng_.chance(0.5)) return with_simpler(node("(", x, " + ", expr(Type::kInt, c, d), ")"), {x});
      if (f_.on("coalesce-nullif")) return with_simpler(node("COALESCE(", x, ", ", expr(t, c, d), ")"), {x});
      return x;
    }
    default: return leaf(t, c);
  }
}

NodePtr QueryGen::comparison(const Ctx& c, int depth) {
  const Type t = random_type(c.grouped ? c.keys : c.cols);
  Type u = t;
  if (is_number(t) && rng_.chance(0.3)) u = rng_.pick(number_types());
  NodePtr x = expr(t, c, depth - 1);
  static const std::vector<const char*> ops = {" = ", " <> ", " < ", " <= ", " > ", " >= ", " = "};
  NodePtr y = (c.qdepth > 0 && f_.on("scalar-subquery") && rng_.chance(0.12)) ? scalar_subquery(u, c)
                                                                               : expr(u, c, depth - 1);
  return with_simpler(node("(", x, rng_.pick(ops), y, ")"), {node("true"), node("false")});
}

NodePtr QueryGen::predicate(const Ctx& c, int depth) {
  const int d = depth - 1;
  if (depth <= 0) {
    auto bools = of_type(c.grouped ? c.keys : c.cols, Type::kBool);
    if (!bools.empty() && rng_.chance(0.3)) return node(rng_.pick(bools).ref);
    return comparison(c, 1);
  }
  switch (rng_.weighted({6, 2, 2, 2, 2, 2, 2, 1})) {
    case 0: return comparison(c, depth);
    case 1: {
      NodePtr x = predicate(c, d), y = predicate(c, d);
      return with_simpler(node("(", x, rng_.chance(0.6) ? " AND " : " OR ", y, ")"), {x, y});
    }
    case 2: {
      NodePtr x = predicate(c, d);
      return with_simpler(node("(NOT ", x, ")"), {x});
    }
    case 3: {
      const Type t = random_type(c.grouped ? c.keys : c.cols);
      return with_simpler(node("(", expr(t, c, d), rng_.chance(0.5) ? " IS NULL)" : " IS NOT NULL)"),
                          {node("true")});
    }
    case 4: {
      const Type t = random_type(c.grouped ? c.keys : c.cols);
      if (t == Type::kBool) break;
      if (f_.on("between") && rng_.chance(0.5)) {
        return with_simpler(node("(", expr(t, c, d), rng_.chance(0.7) ? " BETWEEN " : " NOT BETWEEN ",
                                 expr(t, c, 0), " AND ", expr(t, c, 0), ")"),
                            {node("true")});
      }
      if (!f_.on("in-list")) break;
      NodePtr list = node(literal(t, rng_.chance(0.2)));
      for (int i = rng_.range(1, 3); i > 0; --i) list->parts.emplace_back(std::string(", ")), list->parts.emplace_back(literal(t, false));
      return with_simpler(node("(", expr(t, c, d), rng_.chance(0.7) ? " IN (" : " NOT IN (", list, "))"),
                          {node("true")});
    }
    case 5: {
      if (!f_.on("like")) break;
      static const std::vector<std::string> patterns = {"'a%'", "'%b'", "'_'", "'a_'", "'%'", "''", "'%a%'", "'B%'"};
      return with_simpler(node("(", expr(Type::kText, c, d), rng_.chance(0.8) ? " LIKE " : " NOT LIKE ",
                               rng_.pick(patterns), ")"),
                          {node("true")});
    }
    case 6:
      if (c.qdepth > 0) return subquery_predicate(c);
      if (f_.on("jsonb") && rng_.chance(0.5)) {
        NodePtr j = expr(Type::kJsonb, c, d);
        if (rng_.chance(0.5)) {
          const char* key = rng_.pick(std::vector<const char*>{"'a'", "'b'", "'x'"});
          return with_simpler(node("(", j, " ? ", key, ")"), {node("true")});
        }
        return with_simpler(node("(", j, " @> ", literal(Type::kJsonb, false), ")"), {node("true")});
      }
      break;
    default: {
      auto bools = of_type(c.grouped ? c.keys : c.cols, Type::kBool);
      if (!bools.empty()) return node(rng_.pick(bools).ref);
      break;
    }
  }
  return comparison(c, depth);
}

NodePtr QueryGen::subquery_predicate(const Ctx& c) {
  Ctx outer = inner_outer(c);
  outer.qdepth = c.qdepth - 1;
  std::vector<int> weights = {f_.on("in-subquery") ? 3 : 0, f_.on("exists-subquery") ? 3 : 0};
  if (weights[0] + weights[1] == 0) return comparison(c, 1);
  if (rng_.weighted(weights) == 0) {
    const Type t = random_type(c.grouped ? c.keys : c.cols);
    std::vector<Type> want = {t};
    // branch() may parenthesise the core: `e IN ((SELECT ...))`.
    Query q = branch(outer, &want, f_.on("in-paren-subquery"));
    const bool negated = rng_.chance(0.35);
    return with_simpler(node("(", expr(t, c, 1), negated ? " NOT IN (" : " IN (", q.node, "))"), {node("true")});
  }
  CoreSpec spec;
  spec.star_ok = rng_.chance(0.3);
  Query q = select_core(outer, spec);
  return with_simpler(node(rng_.chance(0.7) ? "(EXISTS (" : "(NOT EXISTS (", q.node, "))"), {node("true")});
}

NodePtr QueryGen::scalar_subquery(Type t, const Ctx& c) {
  Ctx outer = inner_outer(c);
  outer.qdepth = c.qdepth - 1;
  if (t == Type::kBool) return predicate(c, 0);
  std::vector<Type> want = {t};
  CoreSpec spec;
  spec.want = &want;
  spec.scalar = true;
  spec.items_removable = false;
  Query q = select_core(outer, spec);
  return with_simpler(node("(", q.node, ")"), {literal(t, false)});
}

}  // namespace tandem::difftest
