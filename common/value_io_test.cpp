// Text and binary I/O of every type; expected strings are PostgreSQL 15's
// output (DateStyle ISO, IntervalStyle postgres, TimeZone UTC).
#include <catch2/catch.hpp>

#include "common/value_io.hpp"

using namespace tandem;

namespace {

ColumnType T(const char* name, std::vector<int32_t> mods = {}) { return *type_from_name(name, mods); }

// text -> datum -> text.
std::string rt(const char* type, const char* in, std::vector<int32_t> mods = {}) {
  RowArena arena;
  const ColumnType t = T(type, mods);
  auto d = parse_datum(in, t, arena);
  if (!d.ok()) return "ERR " + d.status().sqlstate() + " " + d.status().message();
  return datum_to_text(*d, t);
}

}  // namespace

TEST_CASE("text output and input match PostgreSQL", "[value_io]") {
  CHECK(rt("bool", " TRUE ") == "t");
  CHECK(rt("bool", "of") == "f");
  CHECK(rt("bool", "y") == "t");
  CHECK(rt("bool", "0") == "f");
  CHECK(rt("bool", "x") == "ERR 22P02 invalid input syntax for type boolean: \"x\"");
  CHECK(rt("int4", "  42  ") == "42");
  CHECK(rt("int4", "-2147483648") == "-2147483648");
  CHECK(rt("int4", "abc") == "ERR 22P02 invalid input syntax for type integer: \"abc\"");
  CHECK(rt("int4", "99999999999") == "ERR 22003 value \"99999999999\" is out of range for type integer");
  CHECK(rt("int2", "32768") == "ERR 22003 value \"32768\" is out of range for type smallint");
  CHECK(rt("int8", "-9223372036854775808") == "-9223372036854775808");
  CHECK(rt("int4", "1.5") == "ERR 22P02 invalid input syntax for type integer: \"1.5\"");
  CHECK(rt("float8", "0.1") == "0.1");
  CHECK(rt("float8", "1e100") == "1e+100");
  CHECK(rt("float8", "1.5e-7") == "1.5e-07");
  CHECK(rt("float8", "inf") == "Infinity");
  CHECK(rt("float8", "-Infinity") == "-Infinity");
  CHECK(rt("float8", "nan") == "NaN");
  CHECK(rt("float8", "-0") == "-0");
  CHECK(rt("float8", "1e15") == "1e+15");
  CHECK(rt("float8", "123456789012345") == "123456789012345");
  CHECK(rt("float8", "0.00001") == "1e-05");
  CHECK(rt("float8", "0.3333333333333333") == "0.3333333333333333");
  CHECK(rt("float8", "1e400") == "ERR 22003 \"1e400\" is out of range for type double precision");
  CHECK(rt("float4", "0.1") == "0.1");
  CHECK(rt("float4", "1e6") == "1e+06");
  CHECK(rt("float4", "123456") == "123456");
  CHECK(rt("float4", "3.14159") == "3.14159");
  CHECK(rt("numeric", "1.50") == "1.50");
  CHECK(rt("numeric", "123.456", {5, 2}) == "123.46");
  CHECK(rt("text", "héllo") == "héllo");
  CHECK(rt("varchar", "abc  ", {3}) == "abc");
  CHECK(rt("varchar", "abcd", {3}) == "ERR 22001 value too long for type character varying(3)");
  CHECK(rt("char", "ab", {4}) == "ab  ");
  CHECK(rt("bytea", "\\x0102ff") == "\\x0102ff");
  CHECK(rt("bytea", "a\\\\b\\001") == "\\x615c6201");
  CHECK(rt("bytea", "\\x0") == "ERR 22023 invalid hexadecimal data: odd number of digits");
  CHECK(rt("date", "2024-01-31") == "2024-01-31");
  CHECK(rt("date", "0001-01-01 BC") == "0001-01-01 BC");
  CHECK(rt("date", "2024-02-30") == "ERR 22008 date/time field value out of range: \"2024-02-30\"");
  CHECK(rt("date", "abc") == "ERR 22007 invalid input syntax for type date: \"abc\"");
  CHECK(rt("date", "infinity") == "infinity");
  CHECK(rt("time", "12:34:56.5") == "12:34:56.5");
  CHECK(rt("time", "24:00:00") == "24:00:00");
  CHECK(rt("time", "25:00:00") == "ERR 22008 date/time field value out of range: \"25:00:00\"");
  CHECK(rt("timestamp", "2024-01-31 12:34:56.5") == "2024-01-31 12:34:56.5");
  CHECK(rt("timestamp", "2024-01-31T12:00:00Z") == "2024-01-31 12:00:00");
  CHECK(rt("timestamp", "2024-01-31") == "2024-01-31 00:00:00");
  CHECK(rt("timestamptz", "2024-01-31 12:00:00+02") == "2024-01-31 10:00:00+00");
  CHECK(rt("timestamptz", "2024-01-31 12:34:56.5") == "2024-01-31 12:34:56.5+00");
  CHECK(rt("timestamptz", "2024-01-31 12:00:00-05:30") == "2024-01-31 17:30:00+00");
  CHECK(rt("timestamp", "2024-01-31 12:00:00.1234567") == "2024-01-31 12:00:00.123457");
  CHECK(rt("interval", "1 year 2 mons 3 days 04:05:06") == "1 year 2 mons 3 days 04:05:06");
  CHECK(rt("interval", "-1 days +02:00:00") == "-1 days +02:00:00");
  CHECK(rt("interval", "0") == "00:00:00");
  CHECK(rt("interval", "1.5 days") == "1 day 12:00:00");
  CHECK(rt("interval", "-1 year -2 mons") == "-1 years -2 mons");
  CHECK(rt("interval", "1 day -1 hour") == "1 day -01:00:00");
  CHECK(rt("interval", "1:30") == "01:30:00");
  CHECK(rt("interval", "P1Y2M3DT4H5M6S") == "1 year 2 mons 3 days 04:05:06");
  CHECK(rt("interval", "3 mons ago") == "-3 mons");
  CHECK(rt("interval", "-00:00:01.5") == "-00:00:01.5");
  CHECK(rt("interval", "1 day 2 hours") == "1 day 02:00:00");
  CHECK(rt("interval", "abc") == "ERR 22007 invalid input syntax for type interval: \"abc\"");
  CHECK(rt("oid", "4294967295") == "4294967295");
  CHECK(rt("oid", "-1") == "4294967295");
  CHECK(rt("mz_timestamp", "1706704496500") == "1706704496500");
  CHECK(rt("mz_timestamp", "2024-01-31 12:34:56.5") == "1706704496500");
}

TEST_CASE("binary send/recv round trips", "[value_io]") {
  RowArena arena;
  const char* cases[][2] = {
      {"bool", "t"}, {"int2", "-5"}, {"int4", "123456"}, {"int8", "-9223372036854775808"}, {"float4", "3.14159"},
      {"float8", "-1.5e-07"}, {"numeric", "-12345.6789"}, {"numeric", "0.00"}, {"numeric", "1e30"},
      {"numeric", "NaN"}, {"numeric", "0.0001234"}, {"text", "héllo"}, {"bytea", "\\x00ff10"},
      {"date", "1999-12-31"}, {"time", "23:59:59.999999"}, {"timestamp", "2024-01-31 12:34:56.5"},
      {"timestamptz", "1970-01-01 00:00:00+00"}, {"interval", "-1 years 2 days 03:04:05.5"}, {"oid", "26"},
      {"mz_timestamp", "1706704496500"},
  };
  for (auto& c : cases) {
    INFO(c[0] << " " << c[1]);
    const ColumnType t = T(c[0]);
    auto d = parse_datum(c[1], t, arena);
    REQUIRE(d.ok());
    std::string wire;
    send_datum(*d, t, &wire);
    auto back = recv_datum(wire, t, arena);
    REQUIRE(back.ok());
    CHECK(datum_to_text(*back, t) == datum_to_text(*d, t));
  }
  // numeric 1.50 on the wire: ndigits 2, weight 0, sign 0, dscale 2, digits 1 5000.
  std::string wire;
  send_datum(Datum::from_numeric(*Numeric::parse("1.50")), T("numeric"), &wire);
  CHECK(wire == std::string("\x00\x02\x00\x00\x00\x00\x00\x02\x00\x01\x13\x88", 12));
  std::string int4;
  send_datum(Datum::from_int32(1), T("int4"), &int4);
  CHECK(int4 == std::string("\x00\x00\x00\x01", 4));
  auto shortint = recv_datum(std::string("\x00\x01", 2), T("int4"), arena);
  REQUIRE_FALSE(shortint.ok());
  CHECK(shortint.status().sqlstate() == "22P03");
}
