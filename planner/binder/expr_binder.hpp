#pragma once
// ExprBinder: SQL expression AST -> typed ScalarExpr (common/scalar_expr.hpp)
// with PostgreSQL's type inference, implicit casts and overload resolution
// (common/func_resolve.hpp).
//
// Name resolution goes through a Scope: the columns visible to the
// expression, each with its qualifier, name and type. A column reference
// binds to ColumnRef{index into the scope's row}. Parameters ($n) bind to
// ColumnRef{param_base + n - 1}: the caller lays the parameter values out
// after the scope's columns in the row it evaluates over. A parameter whose
// type was not given is inferred from its first use (`$1 + 1` makes $1 an
// integer), as PostgreSQL's Parse does; the inferred types are written back
// to `param_types`.
//
// Errors carry the 1-based position of the offending expression.
// Threading: one binder per statement; not thread-safe.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/func_resolve.hpp"
#include "common/scalar_expr.hpp"
#include "common/status.hpp"
#include "planner/parser/ast.hpp"

namespace tandem::planner {

// A column visible to expressions. `level` orders nested query scopes
// (0 = outermost): a name resolves at the innermost level where it exists,
// and is ambiguous only within one level (PostgreSQL's rule). A column
// hidden by JOIN ... USING/NATURAL is reachable only qualified
// (`qualified_only`); the merged column only unqualified (`unqualified_only`).
struct ScopeColumn {
  std::string table;  // qualifier ("" for none)
  std::string name;
  ColumnType type;
  size_t level = 0;
  bool qualified_only = false;
  bool unqualified_only = false;
};

// Scope::columns are laid out as the row expressions are evaluated over.
// `ungrouped` lists, in a grouped query, the FROM columns that are not
// group keys: naming one is 42803 (they are not part of the row).
struct Scope {
  std::vector<ScopeColumn> columns;
  std::vector<ScopeColumn> ungrouped;
};

// IN lists at least this long whose items are constants bind as one in()
// call searched by bisection (PostgreSQL hashes IN lists from 9 items).
inline constexpr std::size_t kInListMinConstants = 9;

class ExprBinder {
 public:
  // Consulted before each (sub)expression is bound: returns a bound
  // expression (or an error) to take the node over, or nullopt to bind it
  // normally. The query binder uses it for subqueries, aggregates and GROUP
  // BY expressions; without a hook these are 0A000.
  using Hook = std::function<std::optional<Result<ScalarExpr>>(const sql::Expr&, ExprBinder&)>;

  // `scope` may be empty; `param_types` is read (given types) and extended
  // (inferred ones).
  ExprBinder(const Scope& scope, std::vector<ColumnType>* param_types, size_t param_base);

  Result<ScalarExpr> bind(const sql::Expr& expr);
  // Binds and coerces to boolean (WHERE, HAVING, CASE WHEN); `context` names
  // the clause in the error: "argument of WHERE must be type boolean, not type integer".
  Result<ScalarExpr> bind_condition(const sql::Expr& expr, std::string_view context);

  // The column name PostgreSQL gives a select-list expression with no alias
  // (FigureColname): a column's name, a function's name, a cast's type name,
  // "case", else "?column?".
  static std::string column_name(const sql::Expr& expr);

  void set_hook(Hook hook) { hook_ = std::move(hook); }
  const Scope& scope() const { return scope_; }
  std::vector<ColumnType>* param_types() const { return param_types_; }
  size_t param_base() const { return param_base_; }

  // True if a bound expression may wait (calls pg_sleep).
  static bool may_block(const ScalarExpr& expr);

  // Resolves an unknown-typed output expression to text (PostgreSQL resolves
  // unknown select-list columns and VALUES columns to text).
  Result<ScalarExpr> resolve_unknown_as_text(ScalarExpr expr);

 private:
  Result<ScalarExpr> bind_node(const sql::Expr& expr);
  Result<ScalarExpr> bind_number(const sql::NumberLiteral& n);
  Result<ScalarExpr> bind_typed_literal(const sql::TypedLiteral& lit);
  Result<ScalarExpr> bind_column(const sql::ColumnRef& ref, const sql::Expr& at);
  Result<ScalarExpr> bind_parameter(const sql::Parameter& p);
  Result<ScalarExpr> bind_unary(const sql::UnaryOp& op);
  Result<ScalarExpr> bind_binary(const sql::BinaryOp& op);
  Result<ScalarExpr> bind_cast(const sql::Cast& cast);
  Result<ScalarExpr> bind_call(const sql::FunctionCall& call, const sql::Expr& at);
  Result<ScalarExpr> bind_case(const sql::Case& c);
  Result<ScalarExpr> bind_is(const sql::IsTest& t);
  Result<ScalarExpr> bind_between(const sql::Between& b);
  Result<ScalarExpr> bind_in_list(const sql::InList& in);
  // x IN (constants...) as one in() call (scalar_func.hpp), when every item
  // folds to a constant of a type searchable in compare_datums order; else
  // nullopt (the list binds as an OR of comparisons).
  std::optional<ScalarExpr> bind_in_constants(const ScalarExpr& x, const std::vector<ScalarExpr>& items,
                                              const ColumnType& common);
  Result<ScalarExpr> bind_like(const sql::Like& like);
  Result<ScalarExpr> operator_call(std::string_view op, std::vector<ScalarExpr> args);
  // Records types the resolver chose for parameters of unknown type.
  ScalarExpr settle_parameters(ScalarExpr expr);
  bool is_parameter(const ScalarExpr& e, size_t* index) const;

  const Scope& scope_;
  std::vector<ColumnType>* param_types_;
  size_t param_base_;
  Hook hook_;
};

// "int4" for integer, "numeric", "timestamptz", ...: pg_type.typname.
std::string_view internal_type_name(TypeId id);

}  // namespace tandem::planner
