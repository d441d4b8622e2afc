// Printer: expressions, type names, identifiers and strings.

#include <cctype>
#include <set>
#include <vector>

#include "planner/parser/keywords.hpp"
#include "planner/parser/printer.hpp"
#include "planner/parser/printer_impl.hpp"

namespace tandem::sql {
namespace {

bool is_simple_word(std::string_view s) {
  if (s.empty() || !((s[0] >= 'a' && s[0] <= 'z') || s[0] == '_')) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '$')) return false;
  }
  return true;
}

bool is_value_function(const std::string& w) {
  return w == "current_date" || w == "current_time" || w == "current_timestamp" ||
         w == "localtime" || w == "localtimestamp" || w == "current_user" || w == "session_user" ||
         w == "current_role" || w == "current_catalog" || w == "current_schema";
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::string quote_ident(std::string_view id) {
  if (!ident_needs_quotes(id)) return std::string(id);
  std::string out = "\"";
  for (char c : id) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string quote_string(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  out += '\'';
  return out;
}

void Printer::ident(std::string_view id) { out_ += quote_ident(id); }

void Printer::idents(const std::vector<std::string>& ids) {
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i) out_ += ", ";
    ident(ids[i]);
  }
}

void Printer::name(const std::vector<std::string>& parts) {
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out_ += '.';
    ident(parts[i]);
  }
}

void Printer::string(std::string_view s) { out_ += quote_string(s); }

void Printer::type(const TypeName& t) {
  auto mods = [&] {
    if (t.modifiers.empty()) return;
    out_ += '(';
    for (size_t i = 0; i < t.modifiers.size(); ++i) {
      if (i) out_ += ", ";
      out_ += std::to_string(t.modifiers[i]);
    }
    out_ += ')';
  };
  const std::string first = t.name.empty() ? std::string() : t.name[0];
  if (t.name.size() == 1 && (first == "timestamp with time zone" || first == "time with time zone")) {
    out_ += first.substr(0, first.find(' '));
    mods();
    out_ += " with time zone";
  } else if (t.name.size() == 1 && (first == "double precision" || first == "character varying" ||
                                    first == "bit varying")) {
    out_ += first;
    mods();
  } else {
    for (size_t i = 0; i < t.name.size(); ++i) {
      if (i) out_ += '.';
      if (is_simple_word(t.name[i]) && !is_reserved_for_name(t.name[i])) out_ += t.name[i];
      else ident(t.name[i]);
    }
    mods();
  }
  for (int32_t i = 0; i < t.array_dims; ++i) out_ += "[]";
}

void Printer::exprs(const std::vector<Expr>& list) {
  for (size_t i = 0; i < list.size(); ++i) {
    if (i) out_ += ", ";
    expr(list[i]);
  }
}

void Printer::order_by(const std::vector<OrderByItem>& items) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out_ += ", ";
    expr(items[i].expr);
    if (items[i].desc) out_ += " DESC";
    if (items[i].nulls == OrderByItem::Nulls::kFirst) out_ += " NULLS FIRST";
    if (items[i].nulls == OrderByItem::Nulls::kLast) out_ += " NULLS LAST";
  }
}

void Printer::window(const WindowSpec& w) {
  if (!w.name.empty()) {
    ident(w.name);
    return;
  }
  out_ += '(';
  bool space = false;
  if (!w.base.empty()) {
    ident(w.base);
    space = true;
  }
  if (!w.partition_by.empty()) {
    if (space) out_ += ' ';
    out_ += "PARTITION BY ";
    exprs(w.partition_by);
    space = true;
  }
  if (!w.order_by.empty()) {
    if (space) out_ += ' ';
    out_ += "ORDER BY ";
    order_by(w.order_by);
    space = true;
  }
  if (w.has_frame) {
    if (space) out_ += ' ';
    const WindowFrame& f = w.frame;
    out_ += f.units == WindowFrame::Units::kRows    ? "ROWS "
            : f.units == WindowFrame::Units::kRange ? "RANGE "
                                                     : "GROUPS ";
    auto bound = [&](const WindowFrameBound& b) {
      switch (b.kind) {
        case WindowFrameBound::Kind::kUnboundedPreceding: out_ += "UNBOUNDED PRECEDING"; break;
        case WindowFrameBound::Kind::kUnboundedFollowing: out_ += "UNBOUNDED FOLLOWING"; break;
        case WindowFrameBound::Kind::kCurrentRow: out_ += "CURRENT ROW"; break;
        case WindowFrameBound::Kind::kPreceding:
          if (b.offset) expr(*b.offset);
          out_ += " PRECEDING";
          break;
        case WindowFrameBound::Kind::kFollowing:
          if (b.offset) expr(*b.offset);
          out_ += " FOLLOWING";
          break;
      }
    };
    if (f.has_end) {
      out_ += "BETWEEN ";
      bound(f.start);
      out_ += " AND ";
      bound(f.end);
    } else {
      bound(f.start);
    }
  }
  out_ += ')';
}

void Printer::call(const FunctionCall& c) {
  bool plain = c.name.size() == 1 && !c.distinct && !c.star && c.order_by.empty() && !c.filter && !c.over;
  if (plain && is_value_function(c.name[0])) {
    out_ += upper(c.name[0]);
    if (!c.args.empty()) {
      out_ += '(';
      exprs(c.args);
      out_ += ')';
    }
    return;
  }
  for (size_t i = 0; i < c.name.size(); ++i) {
    if (i) out_ += '.';
    const std::string& part = c.name[i];
    bool bare = is_simple_word(part) && !is_reserved_keyword(part) && part != "exists" &&
                part != "row" && !is_value_function(part) && part != "user";
    if (bare) out_ += part;
    else ident(part);
  }
  out_ += '(';
  if (c.star) {
    out_ += '*';
  } else {
    if (c.distinct) out_ += "DISTINCT ";
    exprs(c.args);
    if (!c.order_by.empty()) {
      out_ += " ORDER BY ";
      order_by(c.order_by);
    }
  }
  out_ += ')';
  if (c.filter) {
    out_ += " FILTER (WHERE ";
    expr(*c.filter);
    out_ += ')';
  }
  if (c.over) {
    out_ += " OVER ";
    window(*c.over);
  }
}

void Printer::expr(const Expr& e) {
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, NullLiteral>) {
          out_ += "NULL";
        } else if constexpr (std::is_same_v<T, BoolLiteral>) {
          out_ += n.value ? "TRUE" : "FALSE";
        } else if constexpr (std::is_same_v<T, NumberLiteral>) {
          out_ += n.text;
        } else if constexpr (std::is_same_v<T, StringLiteral>) {
          string(n.value);
        } else if constexpr (std::is_same_v<T, TypedLiteral>) {
          if (n.interval_fields.empty()) {
            type(n.type);
            out_ += ' ';
            string(n.value);
          } else {
            TypeName base = n.type;
            base.modifiers.clear();
            type(base);
            out_ += ' ';
            string(n.value);
            out_ += ' ';
            out_ += upper(n.interval_fields);
            if (!n.type.modifiers.empty()) {
              out_ += '(';
              out_ += std::to_string(n.type.modifiers[0]);
              out_ += ')';
            }
          }
        } else if constexpr (std::is_same_v<T, Parameter>) {
          out_ += '$' + std::to_string(n.index);
        } else if constexpr (std::is_same_v<T, ColumnRef>) {
          name(n.names);
        } else if constexpr (std::is_same_v<T, Star>) {
          for (const auto& q : n.qualifier) {
            ident(q);
            out_ += '.';
          }
          out_ += '*';
        } else if constexpr (std::is_same_v<T, UnaryOp>) {
          out_ += '(';
          out_ += n.op == "not" ? "NOT" : n.op;
          out_ += ' ';
          expr(*n.operand);
          out_ += ')';
        } else if constexpr (std::is_same_v<T, BinaryOp>) {
          // A left-deep chain of one left-associative operator prints flat,
          // `(a + b + c)`, which reparses to the same tree without nesting
          // (a long chain printed nested would not reparse).
          static const std::set<std::string> kLeftAssociative = {"+", "-", "*", "/", "%", "||", "and", "or"};
          std::vector<const BinaryOp*> spine{&n};
          if (kLeftAssociative.count(n.op) != 0) {
            while (auto* l = spine.back()->left->template as<BinaryOp>()) {
              if (l->op != n.op) break;
              spine.push_back(l);
            }
          }
          const std::string op = n.op == "and" ? "AND" : n.op == "or" ? "OR" : n.op;
          out_ += '(';
          expr(*spine.back()->left);
          for (auto it = spine.rbegin(); it != spine.rend(); ++it) {
            out_ += ' ';
            out_ += op;
            out_ += ' ';
            expr(*(*it)->right);
          }
          out_ += ')';
        } else if constexpr (std::is_same_v<T, Cast>) {
          out_ += "CAST(";
          expr(*n.expr);
          out_ += " AS ";
          type(n.type);
          out_ += ')';
        } else if constexpr (std::is_same_v<T, FunctionCall>) {
          call(n);
        } else if constexpr (std::is_same_v<T, Case>) {
          out_ += "CASE";
          if (n.operand) {
            out_ += ' ';
            expr(*n.operand);
          }
          for (const auto& w : n.whens) {
            out_ += " WHEN ";
            expr(w.condition);
            out_ += " THEN ";
            expr(w.result);
          }
          if (n.else_result) {
            out_ += " ELSE ";
            expr(*n.else_result);
          }
          out_ += " END";
        } else if constexpr (std::is_same_v<T, IsTest>) {
          out_ += '(';
          expr(*n.expr);
          out_ += n.negated ? " IS NOT " : " IS ";
          out_ += n.kind == IsTest::Kind::kNull   ? "NULL"
                  : n.kind == IsTest::Kind::kTrue ? "TRUE"
                  : n.kind == IsTest::Kind::kFalse ? "FALSE"
                                                   : "UNKNOWN";
          out_ += ')';
        } else if constexpr (std::is_same_v<T, IsDistinctFrom>) {
          out_ += '(';
          expr(*n.left);
          out_ += n.negated ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM ";
          expr(*n.right);
          out_ += ')';
        } else if constexpr (std::is_same_v<T, Between>) {
          out_ += '(';
          expr(*n.expr);
          out_ += n.negated ? " NOT BETWEEN " : " BETWEEN ";
          if (n.symmetric) out_ += "SYMMETRIC ";
          expr(*n.low);
          out_ += " AND ";
          expr(*n.high);
          out_ += ')';
        } else if constexpr (std::is_same_v<T, InList>) {
          out_ += '(';
          expr(*n.expr);
          out_ += n.negated ? " NOT IN (" : " IN (";
          exprs(n.list);
          out_ += "))";
        } else if constexpr (std::is_same_v<T, InSubquery>) {
          out_ += '(';
          expr(*n.expr);
          out_ += n.negated ? " NOT IN (" : " IN (";
          query(*n.query);
          out_ += "))";
        } else if constexpr (std::is_same_v<T, Like>) {
          out_ += '(';
          expr(*n.expr);
          if (n.negated) out_ += " NOT";
          out_ += n.kind == Like::Kind::kLike ? " LIKE " : n.kind == Like::Kind::kILike ? " ILIKE " : " SIMILAR TO ";
          expr(*n.pattern);
          if (n.escape) {
            out_ += " ESCAPE ";
            expr(*n.escape);
          }
          out_ += ')';
        } else if constexpr (std::is_same_v<T, Exists>) {
          out_ += "EXISTS (";
          query(*n.query);
          out_ += ')';
        } else if constexpr (std::is_same_v<T, Subquery>) {
          out_ += '(';
          query(*n.query);
          out_ += ')';
        } else if constexpr (std::is_same_v<T, ArraySubquery>) {
          out_ += "ARRAY(";
          query(*n.query);
          out_ += ')';
        } else if constexpr (std::is_same_v<T, Quantified>) {
          out_ += '(';
          expr(*n.left);
          out_ += ' ' + n.op + (n.all ? " ALL (" : " ANY (");
          if (n.subquery) query(*n.subquery);
          else if (n.array) expr(*n.array);
          out_ += "))";
        } else if constexpr (std::is_same_v<T, ArrayExpr>) {
          out_ += "ARRAY[";
          exprs(n.elements);
          out_ += ']';
        } else if constexpr (std::is_same_v<T, RowExpr>) {
          out_ += "ROW(";
          exprs(n.elements);
          out_ += ')';
        } else if constexpr (std::is_same_v<T, Collate>) {
          out_ += '(';
          expr(*n.expr);
          out_ += " COLLATE ";
          name(n.collation);
          out_ += ')';
        } else if constexpr (std::is_same_v<T, Subscript>) {
          out_ += '(';
          expr(*n.expr);
          out_ += ")[";
          if (n.index) expr(*n.index);
          if (n.slice) {
            out_ += ':';
            if (n.upper) expr(*n.upper);
          }
          out_ += ']';
        } else if constexpr (std::is_same_v<T, FieldAccess>) {
          out_ += '(';
          expr(*n.expr);
          out_ += ").";
          ident(n.field);
        }
      },
      e.node);
}

std::string print(const Expr& e) {
  Printer p;
  p.expr(e);
  return p.take();
}

std::string print(const TypeName& t) {
  Printer p;
  p.type(t);
  return p.take();
}

}  // namespace tandem::sql
