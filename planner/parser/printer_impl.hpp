#pragma once
// Printer: the state and helpers shared by printer_expr.cpp,
// printer_query.cpp and printer_statement.cpp. Internal to planner/parser.

#include <string>
#include <string_view>
#include <vector>

#include "planner/parser/ast.hpp"

namespace tandem::sql {

class Printer {
 public:
  std::string take() { return std::move(out_); }

  // printer_expr.cpp
  void expr(const Expr& e);
  void exprs(const std::vector<Expr>& list);  // a, b, c
  void type(const TypeName& t);
  void ident(std::string_view id);
  void idents(const std::vector<std::string>& ids);  // a, b
  void name(const std::vector<std::string>& parts);  // a.b.c
  void name(const ObjectName& n) { name(n.parts); }
  void string(std::string_view s);
  void order_by(const std::vector<OrderByItem>& items);
  void window(const WindowSpec& w);
  void call(const FunctionCall& c);

  // printer_query.cpp
  void query(const Query& q);
  void set_expr(const SetExpr& s, int parent_prec, bool right_side);
  void select(const Select& s);
  void select_items(const std::vector<SelectItem>& items);
  void table_ref(const TableRef& t);
  void alias(const std::optional<TableAlias>& a);
  void as_of(const AsOf& a);

  // printer_statement.cpp
  void statement(const Statement& s);
  void option_value(const OptionValue& v);
  void options(const std::vector<Option>& opts);  // (a = 1, b)
  void set_values(const std::vector<OptionValue>& values, bool to_default);
  void object_type(ObjectType t);
  void create_index(const CreateIndex& c);
  void create_mv(const CreateMaterializedView& c);
  void subscribe(const Subscribe& s);
  void transaction_modes(const TransactionModes& m);

  Printer& operator<<(std::string_view s) {
    out_ += s;
    return *this;
  }

 private:
  std::string out_;
};

}  // namespace tandem::sql
