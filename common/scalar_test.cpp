// Overload resolution and evaluation, checked against PostgreSQL 15
// (expected values from psql on a PG 15 cluster).
#include <catch2/catch.hpp>

#include "common/eval.hpp"
#include "common/func_resolve.hpp"
#include "common/value_io.hpp"

using namespace tandem;

namespace {

ScalarExpr lit_unknown(const char* s) { return ScalarExpr::literal(Datum::from_string(s), ColumnType{TypeId::kUnknown}); }
ScalarExpr lit_int(int32_t v) { return ScalarExpr::literal(Datum::from_int32(v), ColumnType{TypeId::kInt4}); }
ScalarExpr lit_num(const char* s) {
  return ScalarExpr::literal(Datum::from_numeric(*Numeric::parse(s)), ColumnType{TypeId::kNumeric});
}
ScalarExpr lit_f8(double v) { return ScalarExpr::literal(Datum::from_float64(v), ColumnType{TypeId::kFloat8}); }
ScalarExpr lit_bool(bool b) { return ScalarExpr::literal(Datum::from_bool(b), ColumnType{TypeId::kBool}); }

ScalarExpr op(const char* o, ScalarExpr a, ScalarExpr b) {
  auto r = resolve_operator(o, {std::move(a), std::move(b)});
  INFO(o);
  if (!r.ok()) FAIL(r.status().to_string());
  return std::move(r).value();
}
ScalarExpr fn(const char* name, std::vector<ScalarExpr> args) {
  auto r = resolve_function(name, std::move(args));
  INFO(name);
  if (!r.ok()) FAIL(r.status().to_string());
  return std::move(r).value();
}
ScalarExpr cast(ScalarExpr e, const char* type) {
  auto t = type_from_name(type);
  REQUIRE(t.ok());
  auto r = make_cast(std::move(e), *t, CastContext::kExplicit);
  if (!r.ok()) FAIL(r.status().to_string());
  return std::move(r).value();
}

// Evaluates over `row` and renders as PostgreSQL text, or "ERR <sqlstate> <message>".
std::string run(const ScalarExpr& e, std::vector<Datum> row = {}) {
  EvalContext ctx;
  auto r = eval(e, row, ctx);
  if (!r.ok()) return "ERR " + r.status().sqlstate() + " " + r.status().message();
  if (r->is_null()) return "NULL";
  return datum_to_text(*r, e.type());
}

std::string ttext(const char* s) {
  auto t = type_from_name(s);
  return t.ok() ? format_type(*t) : "ERR " + t.status().message();
}

}  // namespace

TEST_CASE("type names", "[types]") {
  CHECK(ttext("int") == "integer");
  CHECK(ttext("INT8") == "bigint");
  CHECK(ttext("double   precision") == "double precision");
  CHECK(ttext("float4") == "real");
  CHECK(ttext("string") == "text");
  CHECK(ttext("timestamptz") == "timestamp with time zone");
  CHECK(ttext("timestamp without time zone") == "timestamp without time zone");
  CHECK(ttext("boolean") == "boolean");
  CHECK(format_type(*type_from_name("varchar", std::vector<int32_t>{10})) == "character varying(10)");
  CHECK(format_type(*type_from_name("decimal", std::vector<int32_t>{10, 2})) == "numeric(10,2)");
  CHECK(format_type(*type_from_name("char", std::vector<int32_t>{3})) == "character(3)");
  CHECK(type_from_name("float", std::vector<int32_t>{10})->id == TypeId::kFloat4);
  CHECK(type_from_name("float", std::vector<int32_t>{30})->id == TypeId::kFloat8);
  auto bad = type_from_name("foo");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().sqlstate() == "42704");
  CHECK(bad.status().message() == "type \"foo\" does not exist");
  CHECK(type_oid(TypeId::kMzTimestamp) == 16552);
  CHECK(type_oid(TypeId::kInt4) == 23);
  CHECK(type_len(TypeId::kInterval) == 16);
}

TEST_CASE("operator resolution picks PostgreSQL's types", "[resolve]") {
  CHECK(op("+", lit_int(1), lit_num("1.5")).type().id == TypeId::kNumeric);
  CHECK(op("+", lit_int(1), lit_f8(1.5)).type().id == TypeId::kFloat8);
  CHECK(op("+", lit_unknown("1"), lit_int(1)).type().id == TypeId::kInt4);
  CHECK(op("||", lit_unknown("a"), lit_int(1)).type().id == TypeId::kText);
  CHECK(op("=", lit_int(1), lit_unknown("1")).type().id == TypeId::kBool);
  CHECK(fn("round", {lit_int(1)}).type().id == TypeId::kFloat8);
  CHECK(op("+", ScalarExpr::column(0, {TypeId::kInt4}), ScalarExpr::column(1, {TypeId::kInt8})).type().id ==
        TypeId::kInt8);
  CHECK(op("=", ScalarExpr::column(0, {TypeId::kVarchar}), ScalarExpr::column(1, {TypeId::kVarchar})).type().id ==
        TypeId::kBool);
  CHECK(fn("date_trunc", {lit_unknown("day"), ScalarExpr::column(0, {TypeId::kDate})}).type().id ==
        TypeId::kTimestampTz);

  auto e = resolve_operator("+", {lit_int(1), lit_bool(true)});
  REQUIRE_FALSE(e.ok());
  CHECK(e.status().sqlstate() == "42883");
  CHECK(e.status().message() == "operator does not exist: integer + boolean");
  CHECK(e.status().hint() ==
        "No operator matches the given name and argument types. You might need to add explicit type casts.");
  auto f = resolve_function("foo", {lit_int(1)});
  REQUIRE_FALSE(f.ok());
  CHECK(f.status().message() == "function foo(integer) does not exist");
  CHECK(f.status().hint() ==
        "No function matches the given name and argument types. You might need to add explicit type casts.");
  auto amb = resolve_operator("+", {lit_unknown("1"), lit_unknown("2")});
  REQUIRE_FALSE(amb.ok());
  CHECK(amb.status().sqlstate() == "42725");

  std::vector<ColumnType> ts = {{TypeId::kBool}, {TypeId::kInt4}};
  auto u = unify_types(ts, "CASE");
  REQUIRE_FALSE(u.ok());
  CHECK(u.status().sqlstate() == "42804");
  CHECK(u.status().message() == "CASE types boolean and integer cannot be matched");
  std::vector<ColumnType> ns = {{TypeId::kInt4}, {TypeId::kNumeric}, {TypeId::kUnknown}};
  CHECK(unify_types(ns, "COALESCE")->id == TypeId::kNumeric);
  std::vector<ColumnType> us = {{TypeId::kUnknown}, {TypeId::kUnknown}};
  CHECK(unify_types(us, "UNION")->id == TypeId::kText);
}

TEST_CASE("evaluation matches PostgreSQL", "[eval]") {
  CHECK(run(op("+", lit_int(1), lit_num("1.5"))) == "2.5");
  CHECK(run(op("||", lit_unknown("a"), lit_bool(true))) == "atrue");
  CHECK(run(op("||", lit_unknown("a"), lit_int(1))) == "a1");
  CHECK(run(cast(lit_num("3.7"), "int")) == "4");
  CHECK(run(cast(lit_num("2.5"), "int")) == "3");
  CHECK(run(cast(lit_f8(2.5), "int")) == "2");
  CHECK(run(cast(lit_f8(3.5), "int")) == "4");
  CHECK(run(cast(lit_bool(true), "text")) == "true");
  CHECK(run(fn("concat", {lit_unknown("a"), lit_int(1), lit_bool(true), ScalarExpr::null({TypeId::kUnknown})})) ==
        "a1t");
  CHECK(run(fn("substr", {lit_unknown("hello"), lit_int(2), lit_int(3)})) == "ell");
  CHECK(run(fn("substring", {lit_unknown("hello"), lit_int(0), lit_int(3)})) == "he");
  CHECK(run(fn("left", {lit_unknown("hello"), lit_int(-2)})) == "hel");
  CHECK(run(fn("right", {lit_unknown("hello"), lit_int(2)})) == "lo");
  CHECK(run(fn("lpad", {lit_unknown("hi"), lit_int(5), lit_unknown("xy")})) == "xyxhi");
  CHECK(run(fn("rpad", {lit_unknown("hi"), lit_int(1)})) == "h");
  CHECK(run(fn("split_part", {lit_unknown("a,b,c"), lit_unknown(","), lit_int(-1)})) == "c");
  CHECK(run(fn("md5", {lit_unknown("abc")})) == "900150983cd24fb0d6963f7d28e17f72");
  CHECK(run(fn("ascii", {lit_unknown("\xC3\xA9")})) == "233");
  CHECK(run(fn("chr", {lit_int(233)})) == "\xC3\xA9");
  CHECK(run(fn("reverse", {lit_unknown("abc")})) == "cba");
  CHECK(run(fn("strpos", {lit_unknown("hello"), lit_unknown("l")})) == "3");
  CHECK(run(fn("replace", {lit_unknown("aaa"), lit_unknown("a"), lit_unknown("bb")})) == "bbbbbb");
  CHECK(run(fn("btrim", {lit_unknown("xxhixx"), lit_unknown("x")})) == "hi");
  CHECK(run(op("~~", lit_unknown("abc"), lit_unknown("a%"))) == "t");
  CHECK(run(op("~~", lit_unknown("abc"), lit_unknown("a\\_c"))) == "f");
  CHECK(run(op("~~", lit_unknown("a_c"), lit_unknown("a\\_c"))) == "t");
  CHECK(run(op("~~*", lit_unknown("ABC"), lit_unknown("a%"))) == "t");
  CHECK(run(op("!~~", lit_unknown("abc"), lit_unknown("a%"))) == "f");
  CHECK(run(fn("like_escape", {lit_unknown("a%"), lit_unknown("a#%"), lit_unknown("#")})) == "t");
  CHECK(run(fn("greatest", {lit_int(1), lit_num("2.5"), ScalarExpr::null({TypeId::kUnknown})})) == "2.5");
  CHECK(run(fn("nullif", {lit_int(1), lit_int(1)})) == "NULL");
  CHECK(run(op("^", lit_int(2), lit_int(10))) == "1024");
}

TEST_CASE("date/time evaluation matches PostgreSQL", "[eval]") {
  auto ts = [](const char* s) { return cast(lit_unknown(s), "timestamp"); };
  CHECK(run(fn("date_trunc", {lit_unknown("month"), ts("2024-02-15 10:00")})) == "2024-02-01 00:00:00");
  CHECK(run(fn("extract", {lit_unknown("second"), ts("2024-01-31 12:34:56.5")})) == "56.500000");
  CHECK(run(fn("extract", {lit_unknown("epoch"), ts("2024-01-31 12:34:56.5")})) == "1706704496.500000");
  CHECK(run(fn("date_part", {lit_unknown("dow"), cast(lit_unknown("2024-01-31"), "date")})) == "3");
  CHECK(run(fn("extract", {lit_unknown("week"), cast(lit_unknown("2024-01-01"), "date")})) == "1");
  CHECK(run(fn("extract", {lit_unknown("epoch"), cast(lit_unknown("1 year 1 day"), "interval")})) ==
        "31644000.000000");
  CHECK(run(op("+", cast(lit_unknown("2024-01-31"), "date"), cast(lit_unknown("1 month"), "interval"))) ==
        "2024-02-29 00:00:00");
  CHECK(run(op("-", ts("2024-03-01"), ts("2024-01-31 12:00"))) == "29 days 12:00:00");
  CHECK(run(op("-", cast(lit_unknown("2024-03-01"), "date"), cast(lit_unknown("2024-02-01"), "date"))) == "29");
  CHECK(run(op("*", cast(lit_unknown("1 day"), "interval"), lit_num("1.5"))) == "1 day 12:00:00");
  CHECK(run(op("/", cast(lit_unknown("1 mon"), "interval"), lit_int(3))) == "10 days");
  CHECK(run(op("+", cast(lit_unknown("23:00"), "time"), cast(lit_unknown("2 hours"), "interval"))) == "01:00:00");
  EvalContext ctx;
  ctx.statement_time = 0;
  auto now = eval(fn("now", {}), {}, ctx);
  REQUIRE(now.ok());
  CHECK(datum_to_text(*now, {TypeId::kTimestampTz}) == "2000-01-01 00:00:00+00");
}

TEST_CASE("evaluation errors are values with SQLSTATEs", "[eval]") {
  CHECK(run(op("+", lit_int(2147483647), lit_int(1))) == "ERR 22003 integer out of range");
  CHECK(run(op("/", lit_int(1), lit_int(0))) == "ERR 22012 division by zero");
  CHECK(run(op("%", lit_int(1), lit_int(0))) == "ERR 22012 division by zero");
  CHECK(run(op("*", lit_f8(1e308), lit_int(10))) == "ERR 22003 value out of range: overflow");
  auto i2 = ScalarExpr::column(0, {TypeId::kInt2});
  CHECK(run(op("/", i2, cast(lit_int(-1), "int2")), {Datum::from_int16(-32768)}) == "ERR 22003 smallint out of range");
  auto i8 = ScalarExpr::column(0, {TypeId::kInt8});
  CHECK(run(op("*", i8, i8), {Datum::from_int64(INT64_MAX)}) == "ERR 22003 bigint out of range");
  auto bad = make_cast(lit_unknown("1.5"), {TypeId::kInt4}, CastContext::kExplicit);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().sqlstate() == "22P02");
  CHECK(bad.status().message() == "invalid input syntax for type integer: \"1.5\"");
  CHECK(run(cast(ScalarExpr::column(0, {TypeId::kInt8}), "int"), {Datum::from_int64(99999999999)}) ==
        "ERR 22003 integer out of range");
  CHECK(run(fn("pg_sleep", {lit_f8(0)})).rfind("ERR 0A000", 0) == 0);
  CHECK(run(fn("now", {})).rfind("ERR 0A000", 0) == 0);
  CHECK(run(op("~~", lit_unknown("a"), lit_unknown("a\\"))) ==
        "ERR 22025 LIKE pattern must not end with escape character");
  CHECK(run(fn("sqrt", {lit_f8(-1)})) == "ERR 2201F cannot take square root of a negative number");
  CHECK(run(fn("ln", {lit_num("0")})) == "ERR 2201E cannot take logarithm of zero");
}

TEST_CASE("three-valued logic and NULL handling", "[eval]") {
  auto b = ScalarExpr::column(0, {TypeId::kBool});
  auto c = ScalarExpr::column(1, {TypeId::kBool});
  auto t = Datum::from_bool(true), f = Datum::from_bool(false), n = Datum::null();
  auto AND = *resolve_operator("and", {b, c});
  auto OR = *resolve_operator("or", {b, c});
  CHECK(run(AND, {n, f}) == "f");
  CHECK(run(AND, {n, t}) == "NULL");
  CHECK(run(OR, {n, t}) == "t");
  CHECK(run(OR, {n, f}) == "NULL");
  CHECK(run(ScalarExpr::unary(UnaryFunc::kIsNull, b, {TypeId::kBool}), {n}) == "t");
  CHECK(run(ScalarExpr::unary(UnaryFunc::kIsNotTrue, b, {TypeId::kBool}), {n}) == "t");
  auto x = ScalarExpr::column(0, {TypeId::kInt4});
  auto y = ScalarExpr::column(1, {TypeId::kInt4});
  CHECK(run(ScalarExpr::binary(BinaryFunc::kIsDistinctFrom, x, y, {TypeId::kBool}), {n, n}) == "f");
  CHECK(run(ScalarExpr::binary(BinaryFunc::kIsDistinctFrom, x, y, {TypeId::kBool}), {n, Datum::from_int32(1)}) == "t");
  CHECK(run(op("+", x, y), {n, Datum::from_int32(1)}) == "NULL");
  CHECK(run(fn("coalesce", {x, y, lit_int(7)}), {n, n}) == "7");
  auto cs = ScalarExpr::if_then_else(op("=", x, lit_int(1)), lit_unknown("one"), lit_unknown("other"), {TypeId::kText});
  CHECK(run(cs, {Datum::from_int32(1), n}) == "one");
  CHECK(run(cs, {n, n}) == "other");
}

TEST_CASE("constant folding and printing", "[fold]") {
  auto e = op("+", lit_int(1), op("*", lit_int(2), lit_int(3)));
  auto f = fold(e);
  REQUIRE(f.ok());
  REQUIRE(f->is_literal());
  CHECK(run(*f) == "7");
  auto err = fold(op("/", lit_int(1), lit_int(0)));
  REQUIRE_FALSE(err.ok());
  CHECK(err.status().sqlstate() == "22012");
  auto keep = fold(op("+", ScalarExpr::column(0, {TypeId::kInt4}), op("+", lit_int(1), lit_int(2))));
  REQUIRE(keep.ok());
  CHECK(print(*keep) == "(#0 + 3)");
  CHECK(print(fn("abs", {ScalarExpr::column(2, {TypeId::kInt8})})) == "abs(#2)");
  CHECK(print(cast(ScalarExpr::column(0, {TypeId::kInt4}), "bigint")) == "cast(#0 as bigint)");
  CHECK(fold(fn("now", {}))->is_literal() == false);
  CHECK(op("+", lit_int(1), lit_int(2)) == op("+", lit_int(1), lit_int(2)));
}

TEST_CASE("regular expressions: numbers std::regex cannot hold are PostgreSQL's errors", "[eval]") {
  // libstdc++ accumulates these numbers in a long without an overflow check.
  auto text = [](const char* s) { return ScalarExpr::literal(Datum::from_string(s), ColumnType{TypeId::kText}); };
  CHECK(run(op("~", text("a"), text("a{99999999999999999999}"))) ==
        "ERR 2201B invalid regular expression: invalid repetition count(s)");
  CHECK(run(op("~*", text("a"), text("a{1,256}"))) ==
        "ERR 2201B invalid regular expression: invalid repetition count(s)");
  CHECK(run(op("~", text("a"), text("(a)\\55555555555555555555555"))) ==
        "ERR 2201B invalid regular expression: invalid backreference number");
  CHECK(run(op("~", text("aa"), text("(a)\\2"))) ==
        "ERR 2201B invalid regular expression: invalid backreference number");
  CHECK(run(op("~", text("a"), text("a{255}"))) == "f");
  CHECK(run(op("~", text("aa"), text("(a)\\1"))) == "t");
  CHECK(run(op("~", text("a{"), text("\\{"))) == "t");
  CHECK(run(op("~", text("{"), text("[{999]"))) == "t");
}

TEST_CASE("regular expressions: a long text does not overflow the stack", "[eval]") {
  // libstdc++'s backtracking executor recursed once per character.
  const std::string long_text(1'000'000, 'a');
  auto text = [](const std::string& s) { return ScalarExpr::literal(Datum::from_string(s), ColumnType{TypeId::kText}); };
  CHECK(run(op("~", text(long_text), text("^(a|b)*$"))) == "t");
  CHECK(run(op("~*", text(long_text), text("^(A|b)*$"))) == "t");
  CHECK(run(op("~", text(long_text), text("^(a|b)*c"))) == "f");
  CHECK(run(op("~", text(std::string(40, 'a')), text("(a*)*b"))) == "f");  // no exponential backtracking
  // Back references need the backtracking executor: their text is bounded.
  CHECK(run(op("~", text("xaay"), text("(a)\\1"))) == "t");
  CHECK(run(op("~", text(std::string(2000, 'a')), text("(a)\\1"))) == "t");
  CHECK(run(op("~", text(std::string(2001, 'a')), text("(a)\\1"))) == "ERR 54001 stack depth limit exceeded");
}
