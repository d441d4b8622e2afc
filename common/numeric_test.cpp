// Numeric arithmetic, rounding and printing; expected strings were produced
// by PostgreSQL 15 (psql -Atc "select ...").
#include <catch2/catch.hpp>

#include "common/numeric.hpp"
#include "common/types.hpp"

using tandem::Numeric;

namespace {

Numeric N(const char* s) {
  auto r = Numeric::parse(s);
  REQUIRE(r.ok());
  return *r;
}

std::string S(const tandem::Result<Numeric>& r) {
  if (!r.ok()) return "ERR " + r.status().sqlstate() + " " + r.status().message();
  return r->to_string();
}

}  // namespace

TEST_CASE("numeric parse and print like PostgreSQL", "[numeric]") {
  CHECK(N("1.50").to_string() == "1.50");
  CHECK(N("  -0.00 ").to_string() == "0.00");
  CHECK(N("0.0001").to_string() == "0.0001");
  CHECK(N("1e5").to_string() == "100000");
  CHECK(N("1.5e-3").to_string() == "0.0015");
  CHECK(N("-12.345").to_string() == "-12.345");
  CHECK(N("NaN").to_string() == "NaN");
  CHECK(N("-inf").to_string() == "-Infinity");
  CHECK(N("99999999999999999999999999999999999999").to_string() == "99999999999999999999999999999999999999");
  auto bad = Numeric::parse("abc");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().sqlstate() == "22P02");
  CHECK(bad.status().message() == "invalid input syntax for type numeric: \"abc\"");
  CHECK_FALSE(Numeric::parse("1e").ok());
  CHECK_FALSE(Numeric::parse(".").ok());
  auto big = Numeric::parse("1e40");
  REQUIRE_FALSE(big.ok());
  CHECK(big.status().sqlstate() == "22003");
}

TEST_CASE("numeric arithmetic scales follow PostgreSQL", "[numeric]") {
  CHECK(S(N("1").div(N("3"))) == "0.33333333333333333333");
  CHECK(S(N("10").div(N("4"))) == "2.5000000000000000");
  CHECK(S(N("1.50").add(N("2.250"))) == "3.750");
  CHECK(S(N("1.5").mul(N("2.25"))) == "3.375");
  CHECK(S(N("7.5").mod(N("2"))) == "1.5");
  CHECK(S(N("-7.5").mod(N("2"))) == "-1.5");
  CHECK(S(N("1e-10").div(N("3"))) == "0.0000000000333333333333333333");
  CHECK(S(N("12345678901234567890").div(N("7"))) == "1763668414462081127");
  CHECK(S(N("2").pow(N("0.5"))) == "1.4142135623730950");
  CHECK(S(N("2").pow(N("-2"))) == "0.2500000000000000");
  CHECK(S(N("1.1").pow(N("10"))) == "2.5937424601000000");
  CHECK(S(N("0").sqrt()) == "0.000000000000000");
  CHECK(S(N("2").sqrt()) == "1.414213562373095");
  // stddev's root keeps its variance's scale (sqrt() would choose 13 here).
  CHECK(S(N("76207870.294164500000").sqrt_at_own_scale()) == "8729.711925038792");
  CHECK(S(N("2.3333333333333333").sqrt_at_own_scale()) == "1.5275252316519467");
  CHECK(S(N("0").sqrt_at_own_scale()) == "0");
  CHECK(S(N("-1").sqrt_at_own_scale()).rfind("ERR 2201F", 0) == 0);
  CHECK(S(N("2").ln()) == "0.6931471805599453");
  CHECK(S(N("1").exp()) == "2.7182818284590452");
  CHECK(S(N("100").log10()) == "2.0000000000000000");
  CHECK(S(N("1").div(N("0"))) == "ERR 22012 division by zero");
  CHECK(S(N("1").mod(N("0"))) == "ERR 22012 division by zero");
  CHECK(S(N("99999999999999999999999999999999999999").add(N("1"))).rfind("ERR 22003", 0) == 0);
  CHECK(S(N("NaN").add(N("1"))) == "NaN");
}

TEST_CASE("numeric results exact in 38 digits keep PostgreSQL's display scale", "[numeric]") {
  // Each shown with more than 38 digits; the value itself has few.
  const std::string big = "6250000.00000000000000000000000000000000";
  CHECK(S(N("2500.0000000000000000").mul(N("2500.0000000000000000"))) == big);
  CHECK(N(big.c_str()).to_string() == big);
  CHECK(S(N(big.c_str()).add(N("1"))) == "6250001.00000000000000000000000000000000");
  CHECK(S(N(big.c_str()).add(N("1.5"))) == "6250001.50000000000000000000000000000000");
  CHECK(S(N(big.c_str()).sub(N(big.c_str()))) == "0.00000000000000000000000000000000");
  CHECK(S(N(big.c_str()).div(N("2"))) == "3125000.00000000000000000000000000000000");
  CHECK(S(N(big.c_str()).mod(N("7"))) == "1.00000000000000000000000000000000");
  CHECK(S(N(big.c_str()).round(33)) == "6250000.000000000000000000000000000000000");
  CHECK(S(N(big.c_str()).round(2)) == "6250000.00");
  CHECK(N(big.c_str()).trunc(1).to_string() == "6250000.0");
  CHECK(N(big.c_str()).neg().to_string() == "-" + big);
  CHECK(N(big.c_str()).normalized().to_string() == "6250000");
  CHECK(N(big.c_str()).compare(N("6250000")) == 0);
  CHECK(N("100000000000000000000000000000000000.000").to_string() == "100000000000000000000000000000000000.000");
  // Digits that do not fit are rounded away, and not shown as zeros.
  CHECK(S(N("1.0000000000000000001").mul(N("1234567.0000000000000000001"))) ==
        "1234567.0000000000001234568000000000000");
}

TEST_CASE("numeric rounding and conversions", "[numeric]") {
  CHECK(S(N("2.5").round(0)) == "3");
  CHECK(S(N("-2.5").round(0)) == "-3");
  CHECK(S(N("1234.5678").round(-2)) == "1200");
  CHECK(S(N("1.5").round(3)) == "1.500");
  CHECK(N("-1.99").trunc(0).to_string() == "-1");
  CHECK(S(N("-1.5").ceil()) == "-1");
  CHECK(S(N("-1.5").floor()) == "-2");
  CHECK(*N("3.7").to_int32() == 4);
  CHECK(*N("2.5").to_int32() == 3);
  CHECK(*N("-2.5").to_int64() == -3);
  CHECK(N("3000000000").to_int32().status().message() == "integer out of range");
  CHECK(N("40000").to_int16().status().message() == "smallint out of range");
  CHECK(N("0.1").to_double() == 0.1);
  CHECK(Numeric::from_double(0.1)->to_string() == "0.1");
  CHECK(Numeric::from_double(1e20)->to_string() == "100000000000000000000");
  CHECK(N("1.0").compare(N("1.000")) == 0);
  CHECK(N("-1").compare(N("0.5")) < 0);
  CHECK(N("NaN").compare(N("Infinity")) > 0);
  CHECK(N("1.500").normalized().to_string() == "1.5");
}

TEST_CASE("numeric typmod enforcement", "[numeric]") {
  const int32_t t52 = tandem::numeric_typmod(5, 2);
  CHECK(S(N("123.456").apply_typmod(t52)) == "123.46");
  CHECK(S(N("1.5").apply_typmod(t52)) == "1.50");
  auto r = N("1234.5").apply_typmod(t52);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().sqlstate() == "22003");
  CHECK(r.status().message() == "numeric field overflow");
  CHECK(r.status().detail() == "A field with precision 5, scale 2 must round to an absolute value less than 10^3.");
  CHECK(S(N("999.995").apply_typmod(t52)).rfind("ERR 22003", 0) == 0);
}
