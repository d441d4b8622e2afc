#include <catch2/catch.hpp>

#include "sqllogic/runner/script_parser.hpp"

namespace tandem::slt {
namespace {

TEST_CASE("parses SQLite statements and queries with conditions") {
  const auto records = parse_script(
      "# leading comment\n"
      "statement ok\n"
      "CREATE TABLE t1(a INTEGER,\n"
      "  b INTEGER)\n"
      "\n"
      "onlyif sqlite # empty RHS\n"
      "skipif mysql\n"
      "query IT rowsort label-7\n"
      "SELECT a, b\n"
      "FROM t1\n"
      "----\n"
      "1\n"
      "(empty)\n"
      "\n"
      "statement error\n"
      "DROP TABLE nope\n"
      "\n"
      "hash-threshold 8\n"
      "\n"
      "halt\n");
  REQUIRE(records.size() == 5);
  CHECK(records[0].kind == RecordKind::kStatementOk);
  CHECK(records[0].line == 2);
  CHECK(records[0].sql == "CREATE TABLE t1(a INTEGER,\n  b INTEGER)");

  const Record& query = records[1];
  CHECK(query.kind == RecordKind::kQuery);
  CHECK(query.line == 8);
  REQUIRE(query.conditions.size() == 2);
  CHECK(query.conditions[0].only_if);
  CHECK(query.conditions[0].database == "sqlite");
  CHECK_FALSE(query.conditions[1].only_if);
  CHECK(query.conditions[1].database == "mysql");
  CHECK(query.types == "IT");
  CHECK(query.sort == SortMode::kRowSort);
  CHECK(query.label == "label-7");
  CHECK(query.sql == "SELECT a, b\nFROM t1");
  CHECK(query.has_expected);
  CHECK(query.expected == std::vector<std::string>{"1", "(empty)"});

  CHECK(records[2].kind == RecordKind::kStatementError);
  CHECK(records[2].error_regex.empty());
  CHECK(records[3].kind == RecordKind::kHashThreshold);
  CHECK(records[3].hash_threshold == 8);
  CHECK(records[4].kind == RecordKind::kHalt);
}

TEST_CASE("skipif/onlyif decide whether a record applies") {
  const std::vector<std::string> names{"postgresql", "tandem"};
  auto applies = [&](const char* text) {
    const auto records = parse_script(text);
    REQUIRE(records.size() == 1);
    return record_applies(records[0], names);
  };
  CHECK(applies("statement ok\nSELECT 1\n"));
  CHECK_FALSE(applies("onlyif mysql\nstatement ok\nSELECT 1\n"));
  CHECK(applies("onlyif postgresql\nstatement ok\nSELECT 1\n"));
  CHECK(applies("onlyif tandem\nstatement ok\nSELECT 1\n"));
  CHECK_FALSE(applies("skipif postgresql\nstatement ok\nSELECT 1\n"));
  CHECK(applies("skipif sqlite\nstatement ok\nSELECT 1\n"));
}

TEST_CASE("parses Materialize additions") {
  const auto records = parse_script(
      "mode cockroach\n"
      "\n"
      "statement count 3\n"
      "INSERT INTO t VALUES (1), (2), (3)\n"
      "\n"
      "statement error pgcode 42P01 relation \"x\" does not exist\n"
      "SELECT * FROM x\n"
      "\n"
      "query error division by zero\n"
      "SELECT 1/0\n"
      "\n"
      "query TI colnames,valuesort\n"
      "SELECT 'a', 1\n"
      "----\n"
      "x y\n"
      "\n"
      "query T multiline\n"
      "EXPLAIN SELECT 1\n"
      "----\n"
      "line one\n"
      "\n"
      "line three\n"
      "EOF\n"
      "\n"
      "simple conn=mz_system,user=mz_system\n"
      "ALTER SYSTEM SET x = 1; SELECT 1\n"
      "----\n"
      "COMPLETE 0\n"
      "\n"
      "subtest foo\n"
      "\n"
      "reset-server\n"
      "\n"
      "frobnicate\n");
  REQUIRE(records.size() == 10);
  CHECK(records[0].kind == RecordKind::kMode);
  CHECK(records[0].mode == OutputMode::kCockroach);
  CHECK(records[1].kind == RecordKind::kStatementCount);
  CHECK(records[1].expected_count == 3);
  CHECK(records[2].kind == RecordKind::kStatementError);
  CHECK(records[2].error_pgcode == "42P01");
  CHECK(records[2].error_regex == "relation \"x\" does not exist");
  CHECK(records[3].kind == RecordKind::kQueryError);
  CHECK(records[3].error_regex == "division by zero");
  CHECK(records[4].colnames);
  CHECK(records[4].sort == SortMode::kValueSort);
  CHECK(records[4].label.empty());
  CHECK(records[5].multiline);
  CHECK(records[5].expected == std::vector<std::string>{"line one", "", "line three"});
  CHECK(records[6].kind == RecordKind::kSimple);
  CHECK(records[6].conn_name == "mz_system");
  CHECK(records[6].conn_user == "mz_system");
  CHECK(records[6].expected == std::vector<std::string>{"COMPLETE 0"});
  CHECK(records[7].kind == RecordKind::kIgnored);
  CHECK(records[8].kind == RecordKind::kResetServer);
  CHECK(records[9].kind == RecordKind::kInvalid);
  CHECK(records[9].line == 34);
}

TEST_CASE("query options and malformed records") {
  auto first = [](const char* text) { return parse_script(text).at(0); };
  const Record colnames = first("query TI colnames valuesort\nSELECT 1\n----\nx y\n");
  CHECK(colnames.colnames);
  CHECK(colnames.sort == SortMode::kValueSort);
  CHECK(first("query I partialsort(1)\nSELECT 1\n").sort == SortMode::kRowSort);
  CHECK(first("query I rowsort,retry\nSELECT 1\n").retry);
  CHECK_FALSE(first("query I rowsort\nSELECT 1\n").retry);
  CHECK(first("query X\nSELECT 1\n").kind == RecordKind::kInvalid);
  CHECK(first("query T multiline\nSELECT 1\n----\nno terminator\n").kind == RecordKind::kInvalid);
  CHECK(first("statement count many\nSELECT 1\n").kind == RecordKind::kInvalid);
  CHECK(first("statement ok\n\nSELECT 1\n").kind == RecordKind::kInvalid);
  const Record no_output = first("query I nosort\nSELECT 1 WHERE false\n");
  CHECK(no_output.kind == RecordKind::kQuery);
  CHECK_FALSE(no_output.has_expected);
  CHECK(no_output.expected.empty());
  // Windows line endings are accepted.
  CHECK(first("query I\r\nSELECT 1\r\n----\r\n1\r\n").expected == std::vector<std::string>{"1"});
}

TEST_CASE("records after a record with trailing blank lines keep their line numbers") {
  const auto records = parse_script("\n\nstatement ok\nSELECT 1\n\n\n\nquery I\nSELECT 2\n");
  REQUIRE(records.size() == 2);
  CHECK(records[0].line == 3);
  CHECK(records[1].line == 8);
}

}  // namespace
}  // namespace tandem::slt
