// Statements, FROM clauses and select lists of QueryGen.

#include <algorithm>
#include <map>

#include "tests/difftest/query_gen.hpp"

namespace tandem::difftest {

namespace {

// An unqualified reference (a USING / NATURAL column) is ambiguous once
// another column of the same name is in scope: it then may not be used.
void disambiguate(std::vector<ColRef>& cols) {
  std::map<std::string, int> count;
  for (const auto& c : cols) ++count[c.name];
  for (auto& c : cols) {
    if (c.ref == c.name && count[c.name] > 1) c.ref.clear();
  }
}

std::vector<ColRef> concat(std::vector<ColRef> a, const std::vector<ColRef>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

int count_name(const std::vector<ColRef>& cols, const std::string& name) {
  return static_cast<int>(std::count_if(cols.begin(), cols.end(), [&](const ColRef& c) { return c.name == name; }));
}

const ColRef* find_name(const std::vector<ColRef>& cols, const std::string& name) {
  for (const auto& c : cols) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

}  // namespace

std::vector<Type> QueryGen::random_types(const std::vector<ColRef>& scope, int n) {
  std::vector<Type> out;
  for (int i = 0; i < n; ++i) out.push_back(random_type(scope));
  return out;
}

QueryGen::FromOut QueryGen::from_item(const Ctx& outer) {
  const std::string a = alias();
  if (outer.qdepth > 0 && f_.on("derived-tables") && rng_.chance(0.15)) {
    Ctx inner = rng_.chance(0.2) ? outer : Ctx{};
    inner.qdepth = outer.qdepth - 1;
    Query q = rng_.chance(0.25) && f_.on("paren-limit") ? parenthesised(select_core(inner, CoreSpec{}))
                                                        : query(inner, nullptr, false);
    FromOut out{node("(", q.node, ") AS ", a), {}};
    for (const auto& c : q.columns) out.cols.push_back({a + "." + c.name, c.name, c.type});
    return out;
  }
  const Relation& r = rng_.pick(relations_);
  FromOut out{node(r.name, " AS ", a), {}};
  for (const auto& c : r.columns) out.cols.push_back({a + "." + c.name, c.name, c.type});
  return out;
}

QueryGen::FromOut QueryGen::join_tree(const Ctx& outer, int items) {
  FromOut left = from_item(outer);
  for (int i = 1; i < items; ++i) {
    FromOut right = from_item(outer);
    std::vector<int> weights = {f_.on("inner-join") ? 4 : 0, f_.on("left-join") ? 3 : 0,
                                f_.on("right-join") ? 2 : 0, f_.on("full-join") ? 2 : 0,
                                f_.on("cross-join") ? 1 : 0};
    if (std::all_of(weights.begin(), weights.end(), [](int w) { return w == 0; })) weights[0] = 1;
    static const std::vector<const char*> kinds = {" JOIN ", " LEFT JOIN ", " RIGHT JOIN ", " FULL JOIN ",
                                                   " CROSS JOIN "};
    const std::size_t kind = rng_.weighted(weights);
    NodePtr kind_node = node(kinds[kind]);
    if (kind >= 1 && kind <= 3) kind_node = with_simpler(kind_node, {node(" JOIN ")});
    if (kind == 4) {
      left = {node(left.node, kind_node, right.node), concat(left.cols, right.cols)};
      disambiguate(left.cols);
      continue;
    }
    // Names that occur once on each side with comparable types can be
    // joined USING; NATURAL needs every common name to be such a name.
    std::vector<std::string> common;
    bool natural_ok = true;
    for (const auto& c : right.cols) {
      const ColRef* l = find_name(left.cols, c.name);
      if (l == nullptr) continue;
      if (count_name(left.cols, c.name) == 1 && count_name(right.cols, c.name) == 1 && comparable(l->type, c.type)) {
        if (std::find(common.begin(), common.end(), c.name) == common.end()) common.push_back(c.name);
      } else {
        natural_ok = false;
      }
    }
    const int how = static_cast<int>(rng_.weighted({5, !common.empty() && f_.on("using") ? 3 : 0,
                                                    natural_ok && f_.on("natural") ? 1 : 0}));
    if (how == 0) {
      Ctx on;
      on.cols = concat(left.cols, right.cols);
      disambiguate(on.cols);
      on.outer = outer.cols;
      on.qdepth = 0;
      NodePtr cond;
      // Mostly an equi-join between the two sides, sometimes with more.
      std::vector<std::pair<ColRef, ColRef>> pairs;
      for (const auto& l : left.cols) {
        for (const auto& r : right.cols) {
          if (!l.ref.empty() && !r.ref.empty() && comparable(l.type, r.type)) pairs.push_back({l, r});
        }
      }
      // PostgreSQL runs a FULL JOIN only on merge- or hash-joinable
      // conditions: an equality of columns, nothing more.
      if (kind == 3 && pairs.empty()) kind_node = node(" LEFT JOIN ");
      if (!pairs.empty() && (kind == 3 || rng_.chance(0.75))) {
        const auto& [l, r] = rng_.pick(pairs);
        cond = node(l.ref, " = ", r.ref);
        if (kind != 3 && rng_.chance(0.3)) cond = with_simpler(node(cond, " AND ", predicate(on, 1)), {cond});
      } else {
        cond = predicate(on, 1);
      }
      left = {node(left.node, kind_node, right.node, " ON ", cond), concat(left.cols, right.cols)};
      disambiguate(left.cols);
      continue;
    }
    std::vector<std::string> names;
    if (how == 1) {
      std::shuffle(common.begin(), common.end(), rng_.engine());
      names.assign(common.begin(), common.begin() + rng_.range(1, static_cast<int>(common.size())));
    } else {
      names = common;
    }
    std::vector<ColRef> cols;
    for (const auto& n : names) {
      const ColRef* l = find_name(left.cols, n);
      const ColRef* r = find_name(right.cols, n);
      Type t = l->type;
      if (is_number(l->type) && is_number(r->type)) t = wider(l->type, r->type);
      cols.push_back({n, n, t});
    }
    auto merged = [&](const ColRef& c) { return std::find(names.begin(), names.end(), c.name) != names.end(); };
    for (const auto& c : left.cols) {
      if (!merged(c)) cols.push_back(c);
    }
    for (const auto& c : right.cols) {
      if (!merged(c)) cols.push_back(c);
    }
    NodePtr joined;
    if (how == 1) {
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      joined = node(left.node, kind_node, right.node, " USING (", list, ")");
    } else {
      joined = node(left.node, " NATURAL", kind_node, right.node);
    }
    left = {joined, cols};
    disambiguate(left.cols);
  }
  return left;
}

QueryGen::FromOut QueryGen::from_clause(const Ctx& outer) {
  const int items = static_cast<int>(rng_.weighted({5, 4, 1}));  // 1, 2 or 3 relations
  if (items >= 1 && f_.on("comma-join") && rng_.chance(0.25)) {
    FromOut a = join_tree(outer, items);
    FromOut b = join_tree(outer, 1);
    FromOut out{node(a.node, ", ", b.node), concat(a.cols, b.cols)};
    disambiguate(out.cols);
    return out;
  }
  return join_tree(outer, items + 1);
}

NodePtr QueryGen::order_all(const std::vector<Column>& cols) {
  std::string out = " ORDER BY ";
  for (std::size_t i = 0; i < cols.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(i + 1);
    if (rng_.chance(0.3)) out += " DESC";
    if (rng_.chance(0.15)) out += rng_.chance(0.5) ? " NULLS FIRST" : " NULLS LAST";
  }
  return node(out);
}

// The first row, under an ORDER BY over every column, of each group of
// equal leading columns: a total order, so one answer is right.
Query QueryGen::distinct_on(Query q) {
  const std::size_t keys = static_cast<std::size_t>(rng_.range(1, static_cast<int>(std::min<std::size_t>(q.columns.size(), 2))));
  std::string on;
  for (std::size_t i = 0; i < keys; ++i) on += (i ? ", " : "") + std::to_string(i + 1);
  NodePtr wrapped = node("SELECT DISTINCT ON (", on, ") * FROM (", q.node, ") AS don", order_all(q.columns));
  q.node = with_simpler(wrapped, {q.node});
  q.total_order = true;
  return q;
}

Query QueryGen::parenthesised(Query q) {
  if (q.columns.empty()) return q;
  NodePtr limit = node(" LIMIT ", std::to_string(rng_.range(0, 4)));
  NodePtr offset = rng_.chance(0.5) ? node(" OFFSET ", std::to_string(rng_.range(0, 3))) : node();
  NodePtr n = node("(", q.node, order_all(q.columns), with_simpler(limit, {node()}), with_simpler(offset, {node()}), ")");
  q.node = with_simpler(n, {q.node});
  q.total_order = true;
  return q;
}

Query QueryGen::select_core(const Ctx& outer, const CoreSpec& spec) {
  FromOut from = from_clause(outer);
  Ctx row;
  row.cols = from.cols;
  row.outer = outer.cols;
  for (const auto& o : outer.outer) row.outer.push_back(o);
  row.qdepth = outer.qdepth;

  NodePtr where = node();
  if (rng_.chance(0.5)) {
    where = with_simpler(node(" WHERE ", predicate(row, static_cast<int>(rng_.weighted({2, 3, 1})))), {node()});
  }
  // A correlated subquery usually joins to the outer query by equality.
  if (!outer.cols.empty() && rng_.chance(0.6)) {
    std::vector<std::pair<ColRef, ColRef>> pairs;
    for (const auto& i : row.cols) {
      for (const auto& o : outer.cols) {
        if (!i.ref.empty() && comparable(i.type, o.type)) pairs.push_back({i, o});
      }
    }
    if (!pairs.empty()) {
      const auto& [i, o] = rng_.pick(pairs);
      NodePtr eq = node(i.ref, " = ", o.ref);
      where = where->parts.empty() ? with_simpler(node(" WHERE ", eq), {node()})
                                   : with_simpler(node(where, " AND ", eq), {where});
    }
  }

  // plain, grouped, or one global aggregate row.
  int mode = 0;
  if (spec.scalar) {
    mode = 2;
  } else {
    mode = static_cast<int>(rng_.weighted({6, f_.on("group-by") ? 3 : 0, f_.on("aggregates") ? 1 : 0}));
  }
  Ctx sel = row;
  NodePtr group_by = node();
  if (mode == 1) {
    sel.grouped = true;
    std::vector<ColRef> cand;
    for (const auto& c : row.cols) {
      if (!c.ref.empty()) cand.push_back(c);
    }
    std::shuffle(cand.begin(), cand.end(), rng_.engine());
    const int nkeys = std::min(static_cast<int>(cand.size()), rng_.range(1, 2));
    std::string keys;
    for (int i = 0; i < nkeys; ++i) {
      sel.keys.push_back(cand[static_cast<std::size_t>(i)]);
      keys += (i ? ", " : "") + cand[static_cast<std::size_t>(i)].ref;
    }
    if (!cand.empty() && rng_.chance(0.15)) {  // an expression over a column as a key
      const ColRef& c = rng_.pick(cand);
      std::string e;
      switch (c.type) {
        case Type::kText: e = "upper(" + c.ref + ")"; break;
        case Type::kBool: e = "(NOT " + c.ref + ")"; break;
        case Type::kDate: e = "(" + c.ref + " + 1)"; break;
        case Type::kJsonb: e = "(" + c.ref + " -> 'a')"; break;
        default: e = "(" + c.ref + " * 2)"; break;
      }
      sel.keys.push_back({e, "k" + std::to_string(sel.keys.size()), c.type});
      keys += (keys.empty() ? "" : ", ") + e;
    }
    group_by = node(" GROUP BY ", keys);
  }
  if (mode == 2 || (mode == 1 && sel.keys.empty())) {
    mode = 2;
    sel.grouped = true;
    group_by = node();
  }

  std::vector<Type> types = spec.want ? *spec.want : random_types(row.cols, rng_.range(1, 3));
  sel.windows = mode == 0;
  struct PositionalScope {  // this select list's own count of positional windows
    int& count;
    int saved;
    explicit PositionalScope(int& c) : count(c), saved(c) { count = 0; }
    ~PositionalScope() { count = saved; }
  } positional_scope(positional_windows_);
  NodePtr items = node();
  Query out;
  const bool need_agg = mode == 1 && !f_.on("group-by-no-agg");
  bool star = spec.star_ok && mode == 0 && f_.on("select-star") && rng_.chance(0.07);
  if (star) {
    items->parts.emplace_back(std::string("*"));
    for (const auto& c : from.cols) out.columns.push_back({c.name, c.type});
  } else {
    for (std::size_t i = 0; i < types.size(); ++i) {
      NodePtr e;
      if ((need_agg || spec.scalar) && i == 0 && types[0] != Type::kBool && f_.on("aggregates")) {
        e = aggregate(types[0], sel, !need_agg);
      } else {
        e = expr(types[i], sel, static_cast<int>(rng_.weighted({3, 4, 2})));
      }
      std::string name = "c" + std::to_string(i);
      const std::string text = render(e);
      for (const auto& c : sel.grouped ? sel.keys : sel.cols) {
        const bool taken = std::any_of(out.columns.begin(), out.columns.end(),
                                       [&](const Column& o) { return o.name == c.name; });
        if (c.ref == text && !taken && c.name.size() == 1) name = c.name;
      }
      NodePtr item = node(i ? ", " : "", e, " AS ", name);
      if (i > 0 && spec.items_removable && !spec.want) item = with_simpler(item, {node()});
      items->parts.emplace_back(item);
      out.columns.push_back({name, types[i]});
    }
    if (need_agg && (types[0] == Type::kBool || !f_.on("aggregates"))) {
      items->parts.emplace_back(std::string(", count(*) AS cnt"));
      out.columns.push_back({"cnt", Type::kBigint});
      if (spec.want) out.columns.clear();  // cannot honour `want`: make it plain
    }
  }
  if (need_agg && spec.want && out.columns.size() != spec.want->size()) {
    return select_core(outer, spec);  // a grouped core could not give these types; try again
  }

  NodePtr having = node();
  if (sel.grouped && f_.on("having") && rng_.chance(0.3)) {
    having = with_simpler(node(" HAVING ", predicate(sel, 1)), {node()});
  }
  NodePtr distinct = node();
  if (f_.on("distinct") && rng_.chance(0.15)) distinct = with_simpler(node("DISTINCT "), {node()});
  out.node = node("SELECT ", distinct, items, " FROM ", from.node, where, group_by, having);
  return out;
}

Query QueryGen::branch(const Ctx& outer, const std::vector<Type>* want, bool paren_ok) {
  CoreSpec spec;
  spec.want = want;
  spec.items_removable = want == nullptr;
  Query q = select_core(outer, spec);
  if (paren_ok && f_.on("paren-limit") && rng_.chance(0.15)) q = parenthesised(q);
  return q;
}

Query QueryGen::query(const Ctx& outer, const std::vector<Type>* want, bool star_ok) {
  if (f_.on("set-ops") && rng_.chance(0.2)) {
    Query left = branch(outer, want);
    std::vector<Type> types;
    for (const auto& c : left.columns) types.push_back(c.type);
    Query right = branch(outer, &types);
    static const std::vector<const char*> ops = {" UNION ", " INTERSECT ", " EXCEPT ", " UNION "};
    std::string op = rng_.pick(ops);
    const bool union_op = op == " UNION ";
    if (f_.on("set-ops-all") && (union_op || f_.on("intersect-except-all")) && rng_.chance(0.4)) op += "ALL ";
    Query out;
    out.columns = left.columns;
    out.node = with_simpler(node(left.node, op, right.node), {left.node});
    return out;
  }
  CoreSpec spec;
  spec.want = want;
  spec.items_removable = want == nullptr;
  spec.star_ok = star_ok;
  return select_core(outer, spec);
}

Query QueryGen::top_query() {
  aliases_ = 0;
  const std::size_t base = relations_.size();
  NodePtr with = node();
  if (f_.on("ctes") && rng_.chance(0.15)) {
    std::string prefix = "WITH ";
    NodePtr list = node();
    for (int i = rng_.range(1, 2); i > 0; --i) {
      Ctx none;
      none.qdepth = 1;
      Query q = query(none, nullptr, false);
      const std::string name = "w" + std::to_string(++ctes_);
      list->parts.emplace_back(std::string(list->parts.empty() ? "" : ", ") + name + " AS (");
      list->parts.emplace_back(q.node);
      list->parts.emplace_back(std::string(")"));
      relations_.push_back({name, q.columns});
    }
    with = with_simpler(node("WITH ", list, " "), {node()});
  }
  Ctx top;
  top.qdepth = 2;
  Query q;
  if (f_.on("paren-limit") && rng_.chance(0.08)) {
    q = parenthesised(select_core(top, CoreSpec{}));
  } else {
    q = query(top, nullptr, true);
    if (!q.columns.empty() && f_.on("distinct-on") && rng_.chance(0.08)) {
      q = distinct_on(q);
    } else if (!q.columns.empty() && rng_.chance(0.35)) {
      NodePtr tail = order_all(q.columns);
      if (f_.on("order-limit") && rng_.chance(0.5)) {
        tail = node(tail, with_simpler(node(" LIMIT ", std::to_string(rng_.range(0, 5))), {node()}));
        if (rng_.chance(0.4)) tail = node(tail, with_simpler(node(" OFFSET ", std::to_string(rng_.range(1, 3))), {node()}));
      }
      q.node = node(q.node, tail);
      q.total_order = true;
    }
  }
  q.node = node(with, q.node);
  relations_.resize(base);
  return q;
}

Query QueryGen::view_query() {
  aliases_ = 0;
  Ctx top;
  top.qdepth = 2;
  Query q = query(top, nullptr, false);
  if (f_.on("order-limit") && !q.columns.empty() && rng_.chance(0.1)) {
    q.node = node(q.node, order_all(q.columns), " LIMIT ", std::to_string(rng_.range(1, 4)));
  } else if (f_.on("distinct-on") && !q.columns.empty() && rng_.chance(0.08)) {
    q = distinct_on(q);
  }
  // Column names of a view must be unique: a set operation keeps its
  // left branch's names, which select_core made unique.
  q.total_order = false;
  return q;
}

}  // namespace tandem::difftest
