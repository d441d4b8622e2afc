// Printer: queries, set operations, SELECT blocks and FROM items.

#include "planner/parser/printer.hpp"
#include "planner/parser/printer_impl.hpp"

namespace tandem::sql {
namespace {

int set_prec(const SetOperation& op) { return op.op == SetOperation::Op::kIntersect ? 2 : 1; }

}  // namespace

void Printer::query(const Query& q) {
  if (!q.ctes.empty()) {
    *this << (q.recursive ? "WITH RECURSIVE " : "WITH ");
    for (size_t i = 0; i < q.ctes.size(); ++i) {
      if (i) *this << ", ";
      const Cte& cte = q.ctes[i];
      ident(cte.name);
      if (!cte.columns.empty()) {
        *this << " (";
        idents(cte.columns);
        *this << ")";
      }
      *this << " AS (";
      query(*cte.query);
      *this << ")";
    }
    *this << " ";
  }
  set_expr(q.body, 0, false);
  if (!q.order_by.empty()) {
    *this << " ORDER BY ";
    order_by(q.order_by);
  }
  if (q.limit) {
    *this << " LIMIT ";
    expr(*q.limit);
  }
  if (q.offset) {
    *this << " OFFSET ";
    expr(*q.offset);
  }
  if (q.as_of) as_of(*q.as_of);
}

void Printer::as_of(const AsOf& a) {
  *this << (a.at_least ? " AS OF AT LEAST " : " AS OF ");
  expr(a.time);
}

// Parenthesizes an operand only where precedence requires it; the parser
// never produces such operands (they come back as parenthesized queries).
void Printer::set_expr(const SetExpr& s, int parent_prec, bool right_side) {
  if (const auto* sel = std::get_if<Select>(&s.node)) {
    select(*sel);
  } else if (const auto* values = std::get_if<Values>(&s.node)) {
    *this << "VALUES ";
    for (size_t i = 0; i < values->rows.size(); ++i) {
      if (i) *this << ", ";
      *this << "(";
      exprs(values->rows[i]);
      *this << ")";
    }
  } else if (const auto* op = std::get_if<SetOperation>(&s.node)) {
    int prec = set_prec(*op);
    bool parens = prec < parent_prec || (right_side && prec == parent_prec);
    if (parens) *this << "(";
    set_expr(*op->left, prec, false);
    *this << (op->op == SetOperation::Op::kUnion       ? " UNION "
              : op->op == SetOperation::Op::kIntersect ? " INTERSECT "
                                                       : " EXCEPT ");
    if (op->all) *this << "ALL ";
    set_expr(*op->right, prec, true);
    if (parens) *this << ")";
  } else if (const auto* nested = std::get_if<Box<Query>>(&s.node)) {
    *this << "(";
    query(**nested);
    *this << ")";
  }
}

void Printer::select_items(const std::vector<SelectItem>& items) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) *this << ", ";
    expr(items[i].expr);
    if (items[i].alias) {
      *this << " AS ";
      ident(*items[i].alias);
    }
  }
}

void Printer::select(const Select& s) {
  *this << "SELECT ";
  if (s.distinct == Select::Distinct::kDistinct) *this << "DISTINCT ";
  if (s.distinct == Select::Distinct::kDistinctOn) {
    *this << "DISTINCT ON (";
    exprs(s.distinct_on);
    *this << ") ";
  }
  select_items(s.projection);
  if (!s.from.empty()) {
    *this << " FROM ";
    for (size_t i = 0; i < s.from.size(); ++i) {
      if (i) *this << ", ";
      table_ref(s.from[i]);
    }
  }
  if (s.where) {
    *this << " WHERE ";
    expr(*s.where);
  }
  if (!s.group_by.empty()) {
    *this << " GROUP BY ";
    exprs(s.group_by);
  }
  if (s.having) {
    *this << " HAVING ";
    expr(*s.having);
  }
  for (size_t i = 0; i < s.windows.size(); ++i) {
    *this << (i == 0 ? " WINDOW " : ", ");
    ident(s.windows[i].name);
    *this << " AS ";
    window(s.windows[i].spec);
  }
}

void Printer::alias(const std::optional<TableAlias>& a) {
  if (!a) return;
  *this << " AS ";
  ident(a->name);
  if (!a->columns.empty()) {
    *this << " (";
    idents(a->columns);
    *this << ")";
  }
}

void Printer::table_ref(const TableRef& t) {
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, TableName>) {
          name(n.name);
          alias(n.alias);
        } else if constexpr (std::is_same_v<T, DerivedTable>) {
          if (n.lateral) *this << "LATERAL ";
          *this << "(";
          query(*n.query);
          *this << ")";
          alias(n.alias);
        } else if constexpr (std::is_same_v<T, TableFunction>) {
          if (n.lateral) *this << "LATERAL ";
          call(n.call);
          if (n.with_ordinality) *this << " WITH ORDINALITY";
          alias(n.alias);
        } else if constexpr (std::is_same_v<T, Join>) {
          table_ref(*n.left);
          if (n.natural) *this << " NATURAL";
          switch (n.kind) {
            case Join::Kind::kInner: *this << " JOIN "; break;
            case Join::Kind::kLeft: *this << " LEFT JOIN "; break;
            case Join::Kind::kRight: *this << " RIGHT JOIN "; break;
            case Join::Kind::kFull: *this << " FULL JOIN "; break;
            case Join::Kind::kCross: *this << " CROSS JOIN "; break;
          }
          bool nest = std::holds_alternative<Join>(n.right->node);
          if (nest) *this << "(";
          table_ref(*n.right);
          if (nest) *this << ")";
          if (n.on) {
            *this << " ON ";
            expr(*n.on);
          } else if (!n.using_columns.empty()) {
            *this << " USING (";
            idents(n.using_columns);
            *this << ")";
            if (n.using_alias) {
              *this << " AS ";
              ident(*n.using_alias);
            }
          }
        } else if constexpr (std::is_same_v<T, NestedJoin>) {
          *this << "(";
          table_ref(*n.join);
          *this << ")";
          alias(n.alias);
        }
      },
      t.node);
}

std::string print(const Query& q) {
  Printer p;
  p.query(q);
  return p.take();
}

}  // namespace tandem::sql
