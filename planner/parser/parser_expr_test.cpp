// Expression parsing: precedence (PostgreSQL's table 4.2), node shapes and
// the desugaring of special forms. The printer parenthesizes every compound
// expression (a left-deep chain of one left-associative operator as one
// group), so print() shows the tree.

#include <catch2/catch.hpp>

#include "planner/parser/parser.hpp"
#include "planner/parser/printer.hpp"

using namespace tandem::sql;

namespace {

std::string tree(std::string_view sql) {
  auto r = parse_expression(sql);
  INFO(sql);
  if (!r.ok()) FAIL(r.status().to_string());
  return print(*r);
}

Expr expr_ok(std::string_view sql) {
  auto r = parse_expression(sql);
  INFO(sql);
  if (!r.ok()) FAIL(r.status().to_string());
  return std::move(r).value();
}

}  // namespace

TEST_CASE("expr: arithmetic precedence and associativity", "[parser][expr]") {
  CHECK(tree("1 + 2 * 3") == "(1 + (2 * 3))");
  CHECK(tree("1 * 2 + 3") == "((1 * 2) + 3)");
  CHECK(tree("1 - 2 - 3") == "(1 - 2 - 3)");  // a chain of one operator prints flat
  CHECK(tree("1 - (2 - 3)") == "(1 - (2 - 3))");
  {
    Expr chain = expr_ok("1 - 2 - 3");
    const BinaryOp* top = chain.as<BinaryOp>();
    REQUIRE(top != nullptr);
    CHECK(top->left->as<BinaryOp>() != nullptr);  // ((1 - 2) - 3)
    CHECK(top->right->as<NumberLiteral>() != nullptr);
  }
  CHECK(tree("2 ^ 3 ^ 2") == "((2 ^ 3) ^ 2)");
  CHECK(tree("a % b * c / d") == "(((a % b) * c) / d)");
  CHECK(tree("(1 + 2) * 3") == "((1 + 2) * 3)");
}

TEST_CASE("expr: unary minus binds tighter than ^ but looser than ::", "[parser][expr]") {
  CHECK(tree("-2 ^ 2") == "((- 2) ^ 2)");
  CHECK(tree("- 2::int") == "(- CAST(2 AS int))");
  CHECK(tree("-a[1]") == "(- (a)[1])");
  CHECK(tree("- - 1") == "(- (- 1))");
  CHECK(tree("a=-1") == "(a = (- 1))");
  Expr e = expr_ok("-1");
  const UnaryOp* u = e.as<UnaryOp>();
  REQUIRE(u != nullptr);
  CHECK(u->op == "-");
  REQUIRE(u->operand->as<NumberLiteral>() != nullptr);
  CHECK(u->operand->as<NumberLiteral>()->text == "1");
}

TEST_CASE("expr: boolean precedence", "[parser][expr]") {
  CHECK(tree("a OR b AND NOT c") == "(a OR (b AND (NOT c)))");
  CHECK(tree("NOT a = b") == "(NOT (a = b))");
  CHECK(tree("NOT a AND b") == "((NOT a) AND b)");
  CHECK(tree("a AND b OR c AND d") == "((a AND b) OR (c AND d))");
  CHECK(tree("NOT NOT a") == "(NOT (NOT a))");
}

TEST_CASE("expr: IS binds looser than comparison", "[parser][expr]") {
  CHECK(tree("x IS NULL = false") == "((x IS NULL) = FALSE)");
  CHECK(tree("a = b IS NOT TRUE") == "((a = b) IS NOT TRUE)");
  CHECK(tree("a IS NOT DISTINCT FROM b + 1") == "(a IS NOT DISTINCT FROM (b + 1))");
  CHECK(tree("a ISNULL") == "(a IS NULL)");
  CHECK(tree("a NOTNULL") == "(a IS NOT NULL)");
  CHECK(tree("a IS UNKNOWN") == "(a IS UNKNOWN)");
  CHECK(tree("NOT a IS NULL") == "(NOT (a IS NULL))");
}

TEST_CASE("expr: BETWEEN, IN, LIKE sit between comparison and other operators", "[parser][expr]") {
  CHECK(tree("a BETWEEN 1 AND 2 AND b") == "((a BETWEEN 1 AND 2) AND b)");
  CHECK(tree("a NOT BETWEEN SYMMETRIC b + 1 AND c") == "(a NOT BETWEEN SYMMETRIC (b + 1) AND c)");
  CHECK(tree("a IN (1, 2) = true") == "((a IN (1, 2)) = TRUE)");
  CHECK(tree("a NOT IN (SELECT 1)") == "(a NOT IN (SELECT 1))");
  CHECK(tree("a || b LIKE 'x%' ESCAPE '!'") == "((a || b) LIKE 'x%' ESCAPE '!')");
  CHECK(tree("a NOT ILIKE b") == "(a NOT ILIKE b)");
  CHECK(tree("a SIMILAR TO b") == "(a SIMILAR TO b)");
  CHECK(tree("a < b || c") == "(a < (b || c))");
  CHECK(tree("a + b || c") == "((a + b) || c)");
}

TEST_CASE("expr: other operators", "[parser][expr]") {
  CHECK(tree("j -> 'a' ->> 'b'") == "((j -> 'a') ->> 'b')");
  CHECK(tree("a @> b AND c <@ d") == "((a @> b) AND (c <@ d))");
  CHECK(tree("~ a & b") == "((~ a) & b)");
  CHECK(tree("a ~~ b") == "(a ~~ b)");
  CHECK(tree("a != b") == "(a <> b)");
}

TEST_CASE("expr: literals", "[parser][expr]") {
  CHECK(expr_ok("NULL").as<NullLiteral>() != nullptr);
  CHECK(expr_ok("TRUE").as<BoolLiteral>()->value);
  CHECK(expr_ok("'a''b'").as<StringLiteral>()->value == "a'b");
  CHECK(expr_ok("1e10").as<NumberLiteral>()->text == "1e10");
  CHECK(expr_ok("$3").as<Parameter>()->index == 3);
  Expr d = expr_ok("DATE '2020-01-01'");
  REQUIRE(d.as<TypedLiteral>() != nullptr);
  CHECK(d.as<TypedLiteral>()->type.name == std::vector<std::string>{"date"});
  CHECK(d.as<TypedLiteral>()->value == "2020-01-01");
  Expr i = expr_ok("INTERVAL '1' DAY TO SECOND(3)");
  REQUIRE(i.as<TypedLiteral>() != nullptr);
  CHECK(i.as<TypedLiteral>()->interval_fields == "day to second");
  CHECK(i.as<TypedLiteral>()->type.modifiers == std::vector<int32_t>{3});
  Expr tz = expr_ok("TIMESTAMP WITH TIME ZONE '2020-01-01 00:00:00+00'");
  CHECK(tz.as<TypedLiteral>()->type.name == std::vector<std::string>{"timestamp with time zone"});
  CHECK(tree("INTERVAL '1 day'") == "interval '1 day'");
  // A quoted type name, as PostgreSQL allows and the printer writes one
  // that needs quotes; a quoted "interval" takes no fields.
  Expr q = expr_ok("\"int4\" '1'");
  REQUIRE(q.as<TypedLiteral>() != nullptr);
  CHECK(q.as<TypedLiteral>()->type.name == std::vector<std::string>{"int4"});
  CHECK_FALSE(parse_expression("\"interval\" '1' day").ok());
  // A type keyword used as a column name is still a column.
  CHECK(expr_ok("timestamp").as<ColumnRef>() != nullptr);
}

TEST_CASE("expr: type names are normalized", "[parser][expr]") {
  auto type = [](std::string_view sql) {
    auto r = parse_type(sql);
    if (!r.ok()) FAIL(r.status().to_string());
    return std::move(r).value();
  };
  CHECK(type("DOUBLE PRECISION").name == std::vector<std::string>{"double precision"});
  TypeName v = type("character varying(10)");
  CHECK(v.name == std::vector<std::string>{"character varying"});
  CHECK(v.modifiers == std::vector<int32_t>{10});
  CHECK(type("char(3)").name == std::vector<std::string>{"character"});
  CHECK(type("timestamp without time zone").name == std::vector<std::string>{"timestamp"});
  CHECK(type("time(3) with time zone").name == std::vector<std::string>{"time with time zone"});
  TypeName n = type("numeric(10, 2)");
  CHECK(n.name == std::vector<std::string>{"numeric"});
  CHECK(n.modifiers == std::vector<int32_t>{10, 2});
  TypeName a = type("int[][]");
  CHECK(a.array_dims == 2);
  CHECK(type("INT ARRAY").array_dims == 1);
  CHECK(type("pg_catalog.int4").name == std::vector<std::string>{"pg_catalog", "int4"});
}

TEST_CASE("expr: special forms desugar to calls", "[parser][expr]") {
  CHECK(tree("EXTRACT(YEAR FROM d)") == "extract('year', d)");
  CHECK(tree("extract('epoch', d)") == "extract('epoch', d)");
  CHECK(tree("POSITION('a' IN s)") == "position(s, 'a')");
  CHECK(tree("position(s, 'a')") == "position(s, 'a')");
  CHECK(tree("SUBSTRING(s FROM 2 FOR 3)") == "substring(s, 2, 3)");
  CHECK(tree("SUBSTRING(s FOR 3)") == "substring(s, 1, 3)");
  CHECK(tree("substring(s, 2)") == "substring(s, 2)");
  CHECK(tree("TRIM(BOTH 'x' FROM s)") == "btrim(s, 'x')");
  CHECK(tree("TRIM(LEADING FROM s)") == "ltrim(s)");
  CHECK(tree("trim(trailing 'x' from s)") == "rtrim(s, 'x')");
  CHECK(tree("trim(s)") == "btrim(s)");
  CHECK(tree("d AT TIME ZONE 'UTC'") == "timezone('UTC', d)");
  CHECK(tree("CURRENT_TIMESTAMP") == "CURRENT_TIMESTAMP");
  CHECK(tree("current_timestamp(3)") == "CURRENT_TIMESTAMP(3)");
  CHECK(tree("COALESCE(a, b)") == "coalesce(a, b)");
  CHECK(tree("left(s, 2)") == "left(s, 2)");
}

TEST_CASE("expr: calls with DISTINCT, ORDER BY, FILTER, OVER", "[parser][expr]") {
  Expr e = expr_ok("string_agg(DISTINCT a, ',' ORDER BY b DESC) FILTER (WHERE a > 0)");
  const FunctionCall* c = e.as<FunctionCall>();
  REQUIRE(c != nullptr);
  CHECK(c->distinct);
  CHECK(c->args.size() == 2);
  REQUIRE(c->order_by.size() == 1);
  CHECK(c->order_by[0].desc);
  CHECK(c->filter.has_value());
  CHECK(expr_ok("count(*)").as<FunctionCall>()->star);
  Expr w = expr_ok("sum(x) OVER (PARTITION BY a ORDER BY b RANGE BETWEEN 1 PRECEDING AND UNBOUNDED FOLLOWING)");
  const FunctionCall* wc = w.as<FunctionCall>();
  REQUIRE(wc->over.has_value());
  CHECK(wc->over->partition_by.size() == 1);
  CHECK(wc->over->has_frame);
  CHECK(wc->over->frame.start.kind == WindowFrameBound::Kind::kPreceding);
  CHECK(wc->over->frame.end.kind == WindowFrameBound::Kind::kUnboundedFollowing);
  CHECK(expr_ok("rank() OVER w").as<FunctionCall>()->over->name == "w");
}

TEST_CASE("expr: subqueries, arrays, rows, quantifiers", "[parser][expr]") {
  CHECK(expr_ok("(SELECT 1)").as<Subquery>() != nullptr);
  CHECK(expr_ok("((SELECT 1))").as<Subquery>() != nullptr);
  CHECK(expr_ok("((SELECT 1) UNION (SELECT 2))").as<Subquery>() != nullptr);
  CHECK(tree("((SELECT 1) + 1)") == "((SELECT 1) + 1)");
  CHECK(expr_ok("EXISTS (SELECT 1)").as<Exists>() != nullptr);
  CHECK(expr_ok("ARRAY(SELECT 1)").as<ArraySubquery>() != nullptr);
  CHECK(expr_ok("ARRAY[1, 2]").as<ArrayExpr>()->elements.size() == 2);
  CHECK(tree("ARRAY[[1], [2]]") == "ARRAY[ARRAY[1], ARRAY[2]]");
  CHECK(expr_ok("(1, 2)").as<RowExpr>()->elements.size() == 2);
  CHECK(expr_ok("ROW()").as<RowExpr>()->elements.empty());
  Expr q = expr_ok("a = SOME (SELECT 1)");
  REQUIRE(q.as<Quantified>() != nullptr);
  CHECK_FALSE(q.as<Quantified>()->all);
  CHECK(q.as<Quantified>()->subquery.has_value());
  Expr qa = expr_ok("a > ALL (ARRAY[1])");
  CHECK(qa.as<Quantified>()->all);
  CHECK(qa.as<Quantified>()->array.has_value());
  CHECK(tree("a[1][2:3]") == "((a)[1])[2:3]");
  CHECK(tree("a[:2]") == "(a)[:2]");
  CHECK(tree("(x).f") == "(x).f");
  CHECK(tree("s COLLATE \"C\" || t") == "((s COLLATE \"C\") || t)");
  CHECK(tree("CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END") ==
        "CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END");
}

TEST_CASE("expr: names and positions", "[parser][expr]") {
  Expr e = expr_ok("db.s.t.c");
  CHECK(e.as<ColumnRef>()->names == std::vector<std::string>{"db", "s", "t", "c"});
  Expr q = expr_ok("\"Foo\".\"Bar\"");
  CHECK(q.as<ColumnRef>()->names == std::vector<std::string>{"Foo", "Bar"});
  CHECK(expr_ok("t.*").as<Star>()->qualifier == std::vector<std::string>{"t"});
  Expr b = expr_ok("abc + def");
  CHECK(b.pos.offset == 4);  // operator nodes are blamed at the operator
  CHECK(b.as<BinaryOp>()->right->pos.offset == 6);
}
