#include "planner/parser/name_rewrite.hpp"

#include <set>
#include <type_traits>

namespace tandem::sql {
namespace {

// One walk over a query. CTE scoping follows the binder
// (planner/binder/query_binder.cpp): a WITH pushes a level that its body and
// all nested subqueries see; each CTE body sees the CTEs defined before it.
class NameWalker {
 public:
  // `map` may be null: then the walk changes nothing and only collects
  // references and column qualifiers.
  explicit NameWalker(const ObjectNameMapper* map) : map_(map) {}

  const std::vector<std::vector<std::string>>& references() const { return references_; }
  size_t replaced() const { return replaced_; }

  void query(Query& q) {
    ctes_.emplace_back();
    if (q.recursive) {
      for (const Cte& c : q.ctes) ctes_.back().insert(c.name);
    }
    for (Cte& c : q.ctes) {
      if (c.query) query(*c.query);
      ctes_.back().insert(c.name);
    }
    if (auto* s = std::get_if<Select>(&q.body.node)) {
      select(*s, &q.order_by);  // ORDER BY may qualify by the SELECT's FROM items
    } else {
      set_expr(q.body);
    }
    for (OrderByItem& o : q.order_by) expr(o.expr);
    opt(q.limit);
    opt(q.offset);
    if (q.as_of) expr(q.as_of->time);
    ctes_.pop_back();
  }

 private:
  bool is_cte(const std::vector<std::string>& parts) const {
    if (parts.size() != 1) return false;
    for (const auto& level : ctes_) {
      if (level.count(parts[0])) return true;
    }
    return false;
  }

  void table_name(TableName& t) {
    std::vector<std::string>& parts = t.name.parts;
    if (is_cte(parts)) return;
    references_.push_back(parts);
    if (map_ == nullptr) return;
    std::optional<std::vector<std::string>> replacement = (*map_)(parts);
    if (!replacement || *replacement == parts) return;
    // Keep the implicit qualifier of an unaliased reference (see header).
    if (!t.alias && !parts.empty() && !replacement->empty() && replacement->back() != parts.back() &&
        qualifiers_.count(parts.back())) {
      t.alias = TableAlias{parts.back(), {}};
    }
    parts = std::move(*replacement);
    ++replaced_;
  }

  void set_expr(SetExpr& s) {
    std::visit(
        [&](auto& n) {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, Select>) {
            select(n, nullptr);
          } else if constexpr (std::is_same_v<T, Values>) {
            for (auto& row : n.rows) exprs(row);
          } else if constexpr (std::is_same_v<T, SetOperation>) {
            if (n.left) set_expr(*n.left);
            if (n.right) set_expr(*n.right);
          } else {
            if (n) query(*n);
          }
        },
        s.node);
  }

  // `order_by`: the ORDER BY of the query whose body this SELECT is.
  void select(Select& s, std::vector<OrderByItem>* order_by) {
    exprs(s.distinct_on);
    for (SelectItem& item : s.projection) expr(item.expr);
    if (map_ == nullptr) {
      for (TableRef& ref : s.from) table_ref(ref);
    } else {
      // The column qualifiers that could mean this SELECT's FROM items: those
      // used anywhere in it (nested subqueries included: they may be
      // correlated) and in its ORDER BY. Conservative, never too few.
      NameWalker collect(nullptr);
      collect.select(s, nullptr);
      if (order_by != nullptr) {
        for (OrderByItem& o : *order_by) collect.expr(o.expr);
      }
      std::swap(qualifiers_, collect.qualifiers_);
      for (TableRef& ref : s.from) table_ref(ref);
      std::swap(qualifiers_, collect.qualifiers_);
    }
    opt(s.where);
    exprs(s.group_by);
    opt(s.having);
    for (NamedWindow& w : s.windows) window(w.spec);
  }

  void table_ref(TableRef& ref) {
    std::visit(
        [&](auto& n) {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, TableName>) {
            table_name(n);
          } else if constexpr (std::is_same_v<T, DerivedTable>) {
            if (n.query) query(*n.query);
          } else if constexpr (std::is_same_v<T, TableFunction>) {
            function_call(n.call);
          } else if constexpr (std::is_same_v<T, Join>) {
            if (n.left) table_ref(*n.left);
            if (n.right) table_ref(*n.right);
            opt(n.on);
          } else {
            if (n.join) table_ref(*n.join);
          }
        },
        ref.node);
  }

  void function_call(FunctionCall& f) {
    exprs(f.args);
    for (OrderByItem& o : f.order_by) expr(o.expr);
    opt(f.filter);
    if (f.over) window(*f.over);
  }

  void window(WindowSpec& w) {
    exprs(w.partition_by);
    for (OrderByItem& o : w.order_by) expr(o.expr);
    if (w.has_frame) {
      opt(w.frame.start.offset);
      opt(w.frame.end.offset);
    }
  }

  void opt(Box<Expr>& e) {
    if (e) expr(*e);
  }
  void exprs(std::vector<Expr>& es) {
    for (Expr& e : es) expr(e);
  }

  void expr(Expr& e) {
    std::visit(
        [&](auto& n) {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, ColumnRef>) {
            if (map_ == nullptr && n.names.size() >= 2) qualifiers_.insert(n.names[n.names.size() - 2]);
          } else if constexpr (std::is_same_v<T, Star>) {
            if (map_ == nullptr && !n.qualifier.empty()) qualifiers_.insert(n.qualifier.back());
          } else if constexpr (std::is_same_v<T, UnaryOp>) {
            opt(n.operand);
          } else if constexpr (std::is_same_v<T, BinaryOp> || std::is_same_v<T, IsDistinctFrom>) {
            opt(n.left);
            opt(n.right);
          } else if constexpr (std::is_same_v<T, Cast> || std::is_same_v<T, IsTest> || std::is_same_v<T, Collate> ||
                               std::is_same_v<T, FieldAccess>) {
            opt(n.expr);
          } else if constexpr (std::is_same_v<T, FunctionCall>) {
            function_call(n);
          } else if constexpr (std::is_same_v<T, Case>) {
            opt(n.operand);
            for (CaseWhen& w : n.whens) {
              expr(w.condition);
              expr(w.result);
            }
            opt(n.else_result);
          } else if constexpr (std::is_same_v<T, Between>) {
            opt(n.expr);
            opt(n.low);
            opt(n.high);
          } else if constexpr (std::is_same_v<T, InList>) {
            opt(n.expr);
            exprs(n.list);
          } else if constexpr (std::is_same_v<T, InSubquery>) {
            opt(n.expr);
            if (n.query) query(*n.query);
          } else if constexpr (std::is_same_v<T, Like>) {
            opt(n.expr);
            opt(n.pattern);
            opt(n.escape);
          } else if constexpr (std::is_same_v<T, Exists> || std::is_same_v<T, Subquery> ||
                               std::is_same_v<T, ArraySubquery>) {
            if (n.query) query(*n.query);
          } else if constexpr (std::is_same_v<T, Quantified>) {
            opt(n.left);
            if (n.subquery) query(*n.subquery);
            opt(n.array);
          } else if constexpr (std::is_same_v<T, ArrayExpr> || std::is_same_v<T, RowExpr>) {
            exprs(n.elements);
          } else if constexpr (std::is_same_v<T, Subscript>) {
            opt(n.expr);
            opt(n.index);
            opt(n.upper);
          } else {
            // Literals and parameters: no names inside.
            static_assert(std::is_same_v<T, NullLiteral> || std::is_same_v<T, BoolLiteral> ||
                              std::is_same_v<T, NumberLiteral> || std::is_same_v<T, StringLiteral> ||
                              std::is_same_v<T, TypedLiteral> || std::is_same_v<T, Parameter>,
                          "a new Expr node must be walked by name_rewrite.cpp");
          }
        },
        e.node);
  }

  const ObjectNameMapper* map_;
  std::vector<std::set<std::string>> ctes_;
  // Collecting: every qualifier seen. Rewriting: those that may mean the
  // FROM items of the SELECT being rewritten.
  std::set<std::string> qualifiers_;
  std::vector<std::vector<std::string>> references_;
  size_t replaced_ = 0;
};

}  // namespace

size_t rewrite_object_names(Query& query, const ObjectNameMapper& map) {
  NameWalker rewrite(&map);
  rewrite.query(query);
  return rewrite.replaced();
}

std::vector<std::vector<std::string>> object_references(const Query& query) {
  Query copy = query;
  NameWalker collect(nullptr);
  collect.query(copy);
  return collect.references();
}

}  // namespace tandem::sql
