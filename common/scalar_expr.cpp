#include "common/scalar_expr.hpp"

#include "common/value_io.hpp"

namespace tandem {

const ColumnType& ScalarExpr::type() const {
  return std::visit([](const auto& n) -> const ColumnType& { return n.type; }, node);
}

ScalarExpr ScalarExpr::literal(const Datum& d, ColumnType type) {
  type.nullable = d.is_null();
  return {Literal{Row::pack_one(d), type}};
}

namespace {

void print_to(const ScalarExpr& e, std::string* out);

void print_literal(const Literal& l, std::string* out) {
  const Datum d = l.datum();
  if (d.is_null()) {
    out->append("NULL");
    return;
  }
  std::string text;
  format_datum(d, l.type, &text);
  switch (l.type.id) {
    case TypeId::kBool:
      out->append(d.as_bool() ? "true" : "false");
      return;
    case TypeId::kInt2:
    case TypeId::kInt4:
    case TypeId::kInt8:
    case TypeId::kNumeric:
    case TypeId::kFloat8:
      if (text.find_first_not_of("0123456789.-e+") == std::string::npos && text[0] != '-') {
        out->append(text);
        return;
      }
      break;
    default:
      break;
  }
  out->push_back('\'');
  for (char c : text) {
    if (c == '\'') out->push_back('\'');
    out->push_back(c);
  }
  out->push_back('\'');
  if (l.type.id != TypeId::kText && l.type.id != TypeId::kUnknown) {
    out->append("::");
    out->append(format_type(l.type));
  }
}

void print_to(const ScalarExpr& e, std::string* out) {
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ColumnRef>) {
          out->push_back('#');
          out->append(std::to_string(n.index));
        } else if constexpr (std::is_same_v<T, Literal>) {
          print_literal(n, out);
        } else if constexpr (std::is_same_v<T, CallUnary>) {
          if (n.func == UnaryFunc::kCast || n.func == UnaryFunc::kCastAssign) {
            out->append(n.func == UnaryFunc::kCast ? "cast(" : "assignment_cast(");
            print_to(*n.arg, out);
            out->append(" as ");
            out->append(format_type(n.type));
            out->push_back(')');
            return;
          }
          const std::string_view name = func_name(n.func);
          if (name[0] == 'I') {  // IS NULL, IS TRUE, ...
            out->push_back('(');
            print_to(*n.arg, out);
            out->push_back(' ');
            out->append(name);
            out->push_back(')');
          } else if (name == "NOT" || name == "-") {
            out->append(name == "NOT" ? "NOT " : "-");
            print_to(*n.arg, out);
          } else {
            out->append(name);
            out->push_back('(');
            print_to(*n.arg, out);
            out->push_back(')');
          }
        } else if constexpr (std::is_same_v<T, CallBinary>) {
          if (func_is_operator(n.func)) {
            out->push_back('(');
            print_to(*n.lhs, out);
            out->push_back(' ');
            out->append(func_name(n.func));
            out->push_back(' ');
            print_to(*n.rhs, out);
            out->push_back(')');
          } else {
            out->append(func_name(n.func));
            out->push_back('(');
            print_to(*n.lhs, out);
            out->append(", ");
            print_to(*n.rhs, out);
            out->push_back(')');
          }
        } else if constexpr (std::is_same_v<T, CallVariadic>) {
          out->append(func_name(n.func));
          out->push_back('(');
          for (size_t i = 0; i < n.args.size(); ++i) {
            if (i) out->append(", ");
            print_to(n.args[i], out);
          }
          out->push_back(')');
        } else {
          out->append("CASE WHEN ");
          print_to(*n.cond, out);
          out->append(" THEN ");
          print_to(*n.then, out);
          out->append(" ELSE ");
          print_to(*n.els, out);
          out->append(" END");
        }
      },
      e.node);
}

}  // namespace

std::string print(const ScalarExpr& e) {
  std::string s;
  print_to(e, &s);
  return s;
}

}  // namespace tandem
