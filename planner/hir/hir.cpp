#include "planner/hir/hir.hpp"

#include "planner/mir/mir.hpp"

namespace tandem::planner::hir {

ColumnType subquery_type(const Subquery& s) {
  if (s.kind == Subquery::Kind::kExists) return ColumnType{TypeId::kBool, -1, false};
  ColumnType t = column_types(*s.rel).at(0);
  t.nullable = true;
  return t;
}

bool at_most_one_row(const Rel& rel) {
  return std::visit(
      [](const auto& n) -> bool {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, Project> || std::is_same_v<T, Map> || std::is_same_v<T, Filter> ||
                      std::is_same_v<T, Distinct> || std::is_same_v<T, Apply>) {
          return at_most_one_row(*n.input);
        } else if constexpr (std::is_same_v<T, Reduce>) {
          return n.group_key.empty();
        } else if constexpr (std::is_same_v<T, TopK>) {
          return (n.group_key.empty() && n.limit && *n.limit <= 1) || at_most_one_row(*n.input);
        } else if constexpr (std::is_same_v<T, Constant>) {
          return n.rows.size() <= 1;
        } else {
          return false;
        }
      },
      rel.node);
}

std::vector<ColumnType> column_types(const Rel& rel) {
  return std::visit(
      [](const auto& n) -> std::vector<ColumnType> {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, Get> || std::is_same_v<T, Constant>) {
          return n.types;
        } else if constexpr (std::is_same_v<T, Project>) {
          auto in = column_types(*n.input);
          std::vector<ColumnType> out;
          for (size_t c : n.columns) out.push_back(in.at(c));
          return out;
        } else if constexpr (std::is_same_v<T, Map>) {
          auto out = column_types(*n.input);
          for (const auto& e : n.exprs) out.push_back(e.type());
          return out;
        } else if constexpr (std::is_same_v<T, Join>) {
          auto l = column_types(*n.left);
          auto r = column_types(*n.right);
          if (n.kind == JoinKind::kRight || n.kind == JoinKind::kFull) {
            for (auto& t : l) t.nullable = true;
          }
          if (n.kind == JoinKind::kLeft || n.kind == JoinKind::kFull) {
            for (auto& t : r) t.nullable = true;
          }
          l.insert(l.end(), r.begin(), r.end());
          return l;
        } else if constexpr (std::is_same_v<T, Reduce>) {
          std::vector<ColumnType> out;
          for (const auto& k : n.group_key) out.push_back(k.type());
          for (const auto& a : n.aggregates) out.push_back(mir::aggregate_type(a));
          return out;
        } else if constexpr (std::is_same_v<T, Union>) {
          std::vector<std::vector<ColumnType>> inputs;
          for (const auto& in : n.inputs) inputs.push_back(column_types(in));
          return mir::union_types(inputs);
        } else if constexpr (std::is_same_v<T, FlatMap>) {
          auto out = column_types(*n.input);
          for (const ColumnType& t : mir::table_func_types(n.func, n.args)) out.push_back(t);
          return out;
        } else if constexpr (std::is_same_v<T, Apply>) {
          auto out = column_types(*n.input);
          for (const auto& s : n.subqueries) out.push_back(subquery_type(s));
          return out;
        } else if constexpr (std::is_same_v<T, Window>) {
          auto out = column_types(*n.input);
          for (const auto& f : n.funcs) out.push_back(f.type);
          return out;
        } else {
          return column_types(*n.input);  // Filter, Distinct, Negate, Threshold, TopK
        }
      },
      rel.node);
}

bool references(const ScalarExpr& e, size_t lo, size_t hi) {
  return std::visit(
      [&](const auto& n) -> bool {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ColumnRef>) {
          return n.index >= lo && n.index < hi;
        } else if constexpr (std::is_same_v<T, Literal>) {
          return false;
        } else if constexpr (std::is_same_v<T, CallUnary>) {
          return references(*n.arg, lo, hi);
        } else if constexpr (std::is_same_v<T, CallBinary>) {
          return references(*n.lhs, lo, hi) || references(*n.rhs, lo, hi);
        } else if constexpr (std::is_same_v<T, CallVariadic>) {
          for (const auto& a : n.args) {
            if (references(a, lo, hi)) return true;
          }
          return false;
        } else {
          return references(*n.cond, lo, hi) || references(*n.then, lo, hi) || references(*n.els, lo, hi);
        }
      },
      e.node);
}

namespace {
bool any_references(const std::vector<ScalarExpr>& es, size_t lo, size_t hi) {
  for (const auto& e : es) {
    if (references(e, lo, hi)) return true;
  }
  return false;
}
}  // namespace

bool references(const Rel& rel, size_t lo, size_t hi) {
  return std::visit(
      [&](const auto& n) -> bool {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, Get> || std::is_same_v<T, Constant>) {
          return false;
        } else if constexpr (std::is_same_v<T, Map>) {
          return any_references(n.exprs, lo, hi) || references(*n.input, lo, hi);
        } else if constexpr (std::is_same_v<T, Filter>) {
          return any_references(n.predicates, lo, hi) || references(*n.input, lo, hi);
        } else if constexpr (std::is_same_v<T, Join>) {
          return references(n.on, lo, hi) || references(*n.left, lo, hi) || references(*n.right, lo, hi);
        } else if constexpr (std::is_same_v<T, Reduce>) {
          if (any_references(n.group_key, lo, hi)) return true;
          for (const auto& a : n.aggregates) {
            if (references(a.expr, lo, hi) || (a.separator && references(*a.separator, lo, hi))) return true;
            for (const auto& o : a.order_by) {
              if (references(o.expr, lo, hi)) return true;
            }
            if (a.filter && references(*a.filter, lo, hi)) return true;
          }
          return references(*n.input, lo, hi);
        } else if constexpr (std::is_same_v<T, Union>) {
          for (const auto& i : n.inputs) {
            if (references(i, lo, hi)) return true;
          }
          return false;
        } else if constexpr (std::is_same_v<T, FlatMap>) {
          return any_references(n.args, lo, hi) || references(*n.input, lo, hi);
        } else if constexpr (std::is_same_v<T, Apply>) {
          for (const auto& s : n.subqueries) {
            if (references(*s.rel, lo, hi)) return true;
          }
          return references(*n.input, lo, hi);
        } else {
          return references(*n.input, lo, hi);
        }
      },
      rel.node);
}

void for_each_expr(Rel& rel, const std::function<void(ScalarExpr&)>& f) {
  std::visit(
      [&](auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, Get> || std::is_same_v<T, Constant>) {
        } else if constexpr (std::is_same_v<T, Map>) {
          for (auto& e : n.exprs) f(e);
          for_each_expr(*n.input, f);
        } else if constexpr (std::is_same_v<T, Filter>) {
          for (auto& e : n.predicates) f(e);
          for_each_expr(*n.input, f);
        } else if constexpr (std::is_same_v<T, Join>) {
          f(n.on);
          for_each_expr(*n.left, f);
          for_each_expr(*n.right, f);
        } else if constexpr (std::is_same_v<T, Reduce>) {
          for (auto& e : n.group_key) f(e);
          for (auto& a : n.aggregates) {
            f(a.expr);
            if (a.separator) f(*a.separator);
            for (auto& o : a.order_by) f(o.expr);
            if (a.filter) f(*a.filter);
          }
          for_each_expr(*n.input, f);
        } else if constexpr (std::is_same_v<T, Union>) {
          for (auto& i : n.inputs) for_each_expr(i, f);
        } else if constexpr (std::is_same_v<T, FlatMap>) {
          for (auto& e : n.args) f(e);
          for_each_expr(*n.input, f);
        } else if constexpr (std::is_same_v<T, Apply>) {
          for (auto& s : n.subqueries) for_each_expr(*s.rel, f);
          for_each_expr(*n.input, f);
        } else {
          for_each_expr(*n.input, f);
        }
      },
      rel.node);
}

void shift_columns(Rel& rel, size_t from, int64_t delta) {
  if (delta == 0) return;
  for_each_expr(rel, [&](ScalarExpr& e) {
    mir::remap_columns(e, [&](size_t i) {
      return i >= from && i < kParamBase ? static_cast<size_t>(static_cast<int64_t>(i) + delta) : i;
    });
  });
}

}  // namespace tandem::planner::hir
