#pragma once
// The expression AST: plain data (STYLE #4). Every node is a struct with
// value semantics (copy = deep clone, `==` = structural equality ignoring
// source positions, see box.hpp) held in the `Expr` variant.
//
// Conventions the binder can rely on:
//  * identifiers are already case-folded (unquoted -> lower case);
//  * operators are kept as their spelling (`+`, `||`, `->>`, `<>`, `~~*`);
//    `!=` arrives as `<>`;
//  * SQL special forms are desugared into FunctionCall the way PostgreSQL's
//    grammar does it: EXTRACT(f FROM x) -> extract('f', x),
//    POSITION(a IN b) -> position(b, a), SUBSTRING(x FROM a FOR b) ->
//    substring(x, a, b) (FOR only: substring(x, 1, b)), TRIM(BOTH c FROM s)
//    -> btrim(s, c) (ltrim/rtrim for LEADING/TRAILING), x AT TIME ZONE z ->
//    timezone(z, x), CURRENT_TIMESTAMP & co. -> current_timestamp();
//    COALESCE/NULLIF/GREATEST/LEAST are ordinary calls;
//  * unary minus on a literal is NOT folded: `-1` is UnaryOp("-", 1).
// Expr::pos is where PostgreSQL would point an error at: the operator
// token for operator nodes (BinaryOp, UnaryOp, Cast via ::, IS, IN, LIKE,
// BETWEEN, subscripts), the first token otherwise.
// This header forward-declares Query; a translation unit that copies or
// destroys expressions must include planner/parser/ast.hpp.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "planner/parser/box.hpp"

namespace tandem::sql {

struct Expr;
struct Query;

// A possibly qualified name: {"db", "schema", "item"}, case-folded.
struct ObjectName {
  std::vector<std::string> parts;
  SourcePos pos;
  bool operator==(const ObjectName&) const = default;
};

// A type as written. Multi-word SQL type names are normalized to one
// canonical lower-case string: "double precision", "character varying",
// "character", "bit varying", "timestamp with time zone",
// "time with time zone"; "timestamp without time zone" becomes "timestamp"
// and "time without time zone" becomes "time". Other names (int, integer,
// int4, varchar, text, my_schema.my_type) are kept as written, case-folded;
// the binder resolves synonyms. `modifiers` are the typmods in parentheses
// (numeric(10,2) -> {10,2}); `array_dims` counts [] suffixes (int[] -> 1).
struct TypeName {
  std::vector<std::string> name;
  std::vector<int32_t> modifiers;
  int32_t array_dims = 0;
  SourcePos pos;
  bool operator==(const TypeName&) const = default;
};

struct NullLiteral {
  bool operator==(const NullLiteral&) const = default;
};
struct BoolLiteral {
  bool value = false;
  bool operator==(const BoolLiteral&) const = default;
};
// Source spelling: "1", "1.5", ".5", "1e10". Never negative.
struct NumberLiteral {
  std::string text;
  bool operator==(const NumberLiteral&) const = default;
};
// Unescaped string value.
struct StringLiteral {
  std::string value;
  bool operator==(const StringLiteral&) const = default;
};
// `DATE '2020-01-01'`, `int4 '1'`, `INTERVAL '1' DAY TO SECOND`.
// interval_fields is "" or a lower-case qualifier ("day", "day to second",
// "second"); a fractional-seconds precision goes in type.modifiers.
struct TypedLiteral {
  TypeName type;
  std::string value;
  std::string interval_fields;
  bool operator==(const TypedLiteral&) const = default;
};
// `$n` (1-based).
struct Parameter {
  int32_t index = 0;
  bool operator==(const Parameter&) const = default;
};
// a, t.a, s.t.a, db.s.t.a
struct ColumnRef {
  std::vector<std::string> names;
  bool operator==(const ColumnRef&) const = default;
};
// `*` (empty qualifier) or `t.*`; valid in select lists and count(*).
struct Star {
  std::vector<std::string> qualifier;
  bool operator==(const Star&) const = default;
};
struct UnaryOp {
  std::string op;
  Box<Expr> operand;
  bool operator==(const UnaryOp&) const = default;
};
struct BinaryOp {
  std::string op;
  Box<Expr> left;
  Box<Expr> right;
  bool operator==(const BinaryOp&) const = default;
};
// AND/OR/NOT are BinaryOp/UnaryOp with op "and"/"or"/"not".

// CAST(x AS t) and x::t.
struct Cast {
  Box<Expr> expr;
  TypeName type;
  bool operator==(const Cast&) const = default;
};

struct OrderByItem;
struct WindowFrameBound {
  enum class Kind : uint8_t { kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing };
  Kind kind = Kind::kCurrentRow;
  Box<Expr> offset;  // for kPreceding / kFollowing
  bool operator==(const WindowFrameBound&) const = default;
};
struct WindowFrame {
  enum class Units : uint8_t { kRows, kRange, kGroups };
  Units units = Units::kRange;
  WindowFrameBound start;
  bool has_end = false;  // BETWEEN start AND end
  WindowFrameBound end;
  bool operator==(const WindowFrame&) const = default;
};
struct WindowSpec {
  std::string name;  // OVER w (then the lists below are empty)
  std::string base;  // OVER (w ORDER BY ...): the named window it extends
  std::vector<Expr> partition_by;
  std::vector<OrderByItem> order_by;
  bool has_frame = false;
  WindowFrame frame;
  bool operator==(const WindowSpec&) const = default;
};

struct FunctionCall {
  std::vector<std::string> name;  // possibly schema-qualified
  std::vector<Expr> args;
  bool distinct = false;
  bool star = false;  // count(*)
  std::vector<OrderByItem> order_by;  // string_agg(x, ',' ORDER BY y)
  Box<Expr> filter;                   // FILTER (WHERE ...)
  Box<WindowSpec> over;               // OVER (...)
  bool operator==(const FunctionCall&) const = default;
};

struct CaseWhen;
struct Case {
  Box<Expr> operand;  // CASE x WHEN ... (null for searched CASE)
  std::vector<CaseWhen> whens;
  Box<Expr> else_result;
  bool operator==(const Case&) const = default;
};

// x IS [NOT] NULL|TRUE|FALSE|UNKNOWN (ISNULL/NOTNULL map to NULL tests).
struct IsTest {
  enum class Kind : uint8_t { kNull, kTrue, kFalse, kUnknown };
  Box<Expr> expr;
  Kind kind = Kind::kNull;
  bool negated = false;
  bool operator==(const IsTest&) const = default;
};
struct IsDistinctFrom {
  Box<Expr> left;
  Box<Expr> right;
  bool negated = false;  // IS NOT DISTINCT FROM
  bool operator==(const IsDistinctFrom&) const = default;
};
struct Between {
  Box<Expr> expr;
  Box<Expr> low;
  Box<Expr> high;
  bool negated = false;
  bool symmetric = false;
  bool operator==(const Between&) const = default;
};
struct InList {
  Box<Expr> expr;
  std::vector<Expr> list;
  bool negated = false;
  bool operator==(const InList&) const = default;
};
struct InSubquery {
  Box<Expr> expr;
  Box<Query> query;
  bool negated = false;
  bool operator==(const InSubquery&) const = default;
};
// LIKE, ILIKE and SIMILAR TO.
struct Like {
  enum class Kind : uint8_t { kLike, kILike, kSimilar };
  Box<Expr> expr;
  Box<Expr> pattern;
  Box<Expr> escape;
  Kind kind = Kind::kLike;
  bool negated = false;
  bool operator==(const Like&) const = default;
};
struct Exists {
  Box<Query> query;
  bool operator==(const Exists&) const = default;
};
// A scalar subquery `(SELECT ...)`.
struct Subquery {
  Box<Query> query;
  bool operator==(const Subquery&) const = default;
};
// ARRAY(SELECT ...)
struct ArraySubquery {
  Box<Query> query;
  bool operator==(const ArraySubquery&) const = default;
};
// left op ANY|ALL (subquery) or left op ANY|ALL (array expression); SOME = ANY.
struct Quantified {
  Box<Expr> left;
  std::string op;
  bool all = false;
  Box<Query> subquery;  // exactly one of subquery / array is set
  Box<Expr> array;
  bool operator==(const Quantified&) const = default;
};
// ARRAY[a, b] (nested ARRAY[[1,2],[3,4]] has ArrayExpr elements).
struct ArrayExpr {
  std::vector<Expr> elements;
  bool operator==(const ArrayExpr&) const = default;
};
// ROW(a, b) and (a, b).
struct RowExpr {
  std::vector<Expr> elements;
  bool operator==(const RowExpr&) const = default;
};
// x COLLATE name
struct Collate {
  Box<Expr> expr;
  std::vector<std::string> collation;
  bool operator==(const Collate&) const = default;
};
// x[i] or the slice x[lo:hi] (either bound may be absent in a slice).
struct Subscript {
  Box<Expr> expr;
  Box<Expr> index;  // the lower bound for slices
  Box<Expr> upper;
  bool slice = false;
  bool operator==(const Subscript&) const = default;
};
// (x).field
struct FieldAccess {
  Box<Expr> expr;
  std::string field;
  bool operator==(const FieldAccess&) const = default;
};

struct Expr {
  using Node = std::variant<NullLiteral, BoolLiteral, NumberLiteral, StringLiteral, TypedLiteral,
                            Parameter, ColumnRef, Star, UnaryOp, BinaryOp, Cast, FunctionCall, Case,
                            IsTest, IsDistinctFrom, Between, InList, InSubquery, Like, Exists,
                            Subquery, ArraySubquery, Quantified, ArrayExpr, RowExpr, Collate,
                            Subscript, FieldAccess>;
  Node node;
  SourcePos pos;
  bool operator==(const Expr&) const = default;

  template <class T>
  const T* as() const { return std::get_if<T>(&node); }
  template <class T>
  T* as() { return std::get_if<T>(&node); }
};

struct CaseWhen {
  Expr condition;
  Expr result;
  bool operator==(const CaseWhen&) const = default;
};

struct OrderByItem {
  Expr expr;
  bool desc = false;
  // NULLS FIRST / NULLS LAST when written; unset means the default
  // (PostgreSQL: NULLS LAST for ASC, NULLS FIRST for DESC).
  enum class Nulls : uint8_t { kDefault, kFirst, kLast };
  Nulls nulls = Nulls::kDefault;
  bool operator==(const OrderByItem&) const = default;
};

}  // namespace tandem::sql
