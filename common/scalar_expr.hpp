#pragma once
// ScalarExpr: a typed scalar expression as PLAIN DATA (STYLE #4): a variant of
// column reference, literal, unary/binary/variadic call (functions named by
// enum, see common/scalar_func.hpp) and If (CASE). Casts are the unary
// functions kCast (explicit-cast semantics) and kCastAssign (assignment
// semantics, e.g. varchar(n) overflow is an error), from the argument's type
// to the node's type. Every node carries its output ColumnType.
// Expressions are built by the binder through common/func_resolve.hpp, which
// guarantees argument types match the function; evaluation
// (common/eval.hpp) relies on that.
// Threading: immutable once built; safe to share read-only between threads.

#include <cstddef>
#include <string>
#include <variant>
#include <vector>

#include "common/box.hpp"
#include "common/datum.hpp"
#include "common/row.hpp"
#include "common/scalar_func.hpp"
#include "common/types.hpp"

namespace tandem {

struct ScalarExpr;

struct ColumnRef {
  size_t index;
  ColumnType type;
  bool operator==(const ColumnRef&) const = default;
};

// The value lives in `row` (one datum), so borrowed bytes stay valid for the
// expression's lifetime.
struct Literal {
  Row row;
  ColumnType type;
  Datum datum() const { return unpack_one(row); }
  bool is_null() const { return !row.bytes().empty() && static_cast<uint8_t>(row.bytes()[0]) == 0xFF; }
  bool operator==(const Literal&) const = default;
};

struct CallUnary {
  UnaryFunc func;
  Box<ScalarExpr> arg;
  ColumnType type;
  bool operator==(const CallUnary&) const = default;
};

struct CallBinary {
  BinaryFunc func;
  Box<ScalarExpr> lhs;
  Box<ScalarExpr> rhs;
  ColumnType type;
  bool operator==(const CallBinary&) const = default;
};

struct CallVariadic {
  VariadicFunc func;
  std::vector<ScalarExpr> args;
  ColumnType type;
  bool operator==(const CallVariadic&) const;
};

// CASE WHEN cond THEN then ELSE els END: cond NULL counts as false.
struct IfExpr {
  Box<ScalarExpr> cond;
  Box<ScalarExpr> then;
  Box<ScalarExpr> els;
  ColumnType type;
  bool operator==(const IfExpr&) const = default;
};

struct ScalarExpr {
  using Node = std::variant<ColumnRef, Literal, CallUnary, CallBinary, CallVariadic, IfExpr>;
  Node node;

  const ColumnType& type() const;
  bool operator==(const ScalarExpr& o) const { return node == o.node; }

  bool is_literal() const { return std::holds_alternative<Literal>(node); }
  bool is_literal_null() const { return is_literal() && std::get<Literal>(node).is_null(); }

  static ScalarExpr column(size_t index, ColumnType type) { return {ColumnRef{index, type}}; }
  // Copies the datum's bytes into the literal.
  static ScalarExpr literal(const Datum& d, ColumnType type);
  static ScalarExpr null(ColumnType type) { return literal(Datum::null(), type); }
  static ScalarExpr unary(UnaryFunc f, ScalarExpr arg, ColumnType type) {
    return {CallUnary{f, std::move(arg), type}};
  }
  static ScalarExpr binary(BinaryFunc f, ScalarExpr lhs, ScalarExpr rhs, ColumnType type) {
    return {CallBinary{f, std::move(lhs), std::move(rhs), type}};
  }
  static ScalarExpr variadic(VariadicFunc f, std::vector<ScalarExpr> args, ColumnType type) {
    return {CallVariadic{f, std::move(args), type}};
  }
  static ScalarExpr if_then_else(ScalarExpr cond, ScalarExpr then, ScalarExpr els, ColumnType type) {
    return {IfExpr{std::move(cond), std::move(then), std::move(els), type}};
  }
};

inline bool CallVariadic::operator==(const CallVariadic& o) const {
  return func == o.func && args == o.args && type == o.type;
}

// Human-readable form for EXPLAIN and debugging: "(#0 + 1)", "abs(#1)",
// "cast(#0 as bigint)", "CASE WHEN ... THEN ... ELSE ... END", literals as
// SQL literals ('abc', 1.50, NULL).
std::string print(const ScalarExpr& e);

}  // namespace tandem
