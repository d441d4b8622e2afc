#include <catch2/catch.hpp>

#include "sqllogic/runner/value_format.hpp"

namespace tandem::slt {
namespace {

std::string standard(const char* text, unsigned oid, char type) {
  return format_value(Cell{false, text, oid}, type, OutputMode::kStandard);
}

std::string cockroach(const char* text, unsigned oid, char type) {
  return format_value(Cell{false, text, oid}, type, OutputMode::kCockroach);
}

TEST_CASE("NULL is NULL under every type") {
  for (char type : std::string("TIRBO")) {
    CHECK(format_value(Cell{true, "", pg_oid::kInt4}, type, OutputMode::kStandard) == "NULL");
  }
}

TEST_CASE("integer column type") {
  CHECK(standard("-42", pg_oid::kInt8, 'I') == "-42");
  CHECK(standard("t", pg_oid::kBool, 'I') == "1");
  CHECK(standard("f", pg_oid::kBool, 'I') == "0");
  CHECK(standard("3.9", pg_oid::kFloat8, 'I') == "3");
  CHECK(standard("-3.9", pg_oid::kFloat8, 'I') == "-3");
  CHECK(standard("-0.5", pg_oid::kFloat8, 'I') == "0");
  CHECK(standard("1e+20", pg_oid::kFloat8, 'I') == "100000000000000000000");
  CHECK(standard("17.5000000000000000", pg_oid::kNumeric, 'I') == "17");
  CHECK(standard("-17.9", pg_oid::kNumeric, 'I') == "-17");
  CHECK(cockroach("17.5", pg_oid::kNumeric, 'I') == "18");
  CHECK(cockroach("-17.5", pg_oid::kNumeric, 'I') == "-18");
  CHECK(standard("hello", pg_oid::kText, 'I') == "0");
  CHECK(standard("12", pg_oid::kOid, 'I') == "12");
}

TEST_CASE("real column type") {
  CHECK(standard("5", pg_oid::kInt4, 'R') == "5.000");
  CHECK(standard("-5", pg_oid::kInt4, 'R') == "-5.000");
  CHECK(standard("2.5", pg_oid::kFloat8, 'R') == "2.500");
  CHECK(standard("0.1", pg_oid::kFloat4, 'R') == "0.100");
  CHECK(standard("-1.23456", pg_oid::kFloat8, 'R') == "-1.235");
  CHECK(cockroach("0.1", pg_oid::kFloat8, 'R') == "0.1");
  CHECK(cockroach("1e+20", pg_oid::kFloat8, 'R') == "100000000000000000000");
  CHECK(standard("17.5000000000000000", pg_oid::kNumeric, 'R') == "17.500");
  CHECK(standard("1.23456", pg_oid::kNumeric, 'R') == "1.235");
  CHECK(standard("-0.0004", pg_oid::kNumeric, 'R') == "0.000");
  CHECK(standard("1.5", pg_oid::kNumeric, 'R') == "1.5");
  CHECK(cockroach("1.23456", pg_oid::kNumeric, 'R') == "1.23456");
}

TEST_CASE("text and bool column types") {
  CHECK(standard("", pg_oid::kText, 'T') == "(empty)");
  CHECK(standard("a b", pg_oid::kVarchar, 'T') == "a b");
  CHECK(cockroach("a b", pg_oid::kText, 'T') == "a\xE2\x90\xA0" "b");
  CHECK(standard("t", pg_oid::kBool, 'T') == "true");
  CHECK(standard("f", pg_oid::kBool, 'B') == "false");
  CHECK(standard("1.5", pg_oid::kFloat8, 'T') == "1.500");
  CHECK(standard("1.50", pg_oid::kNumeric, 'T') == "1.50");
  CHECK(standard("7", pg_oid::kInt4, 'T') == "7");
  CHECK(standard("\\x68656c6c6f", pg_oid::kBytea, 'T') == "hello");
  CHECK(standard("\\xff", pg_oid::kBytea, 'T') == "\\xff");
  CHECK(standard("{1,2}", 1007, 'T') == "{1,2}");
  CHECK(standard("1234", pg_oid::kOid, 'O') == "1234");
}

TEST_CASE("round_decimal") {
  CHECK(round_decimal("1.2345", 3, false) == "1.235");
  CHECK(round_decimal("1.2344", 3, false) == "1.234");
  CHECK(round_decimal("9.9995", 3, false) == "10.000");
  CHECK(round_decimal("-9.9995", 3, false) == "-10.000");
  CHECK(round_decimal("99.5", 0, false) == "100");
  CHECK(round_decimal("99.5", 0, true) == "99");
  CHECK(round_decimal("-0.4", 0, false) == "0");
  CHECK(round_decimal("-0.4", 0, true) == "0");
  CHECK(round_decimal("12", 2, false) == "12.00");
  CHECK(round_decimal(".5", 0, false) == "1");
  CHECK(round_decimal("NaN", 0, false) == "NaN");
  CHECK(round_decimal("007.1", 0, true) == "7");
}

}  // namespace
}  // namespace tandem::slt
