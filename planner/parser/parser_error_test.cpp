// Syntax errors: SQLSTATE 42601, PostgreSQL's wording, 1-based character
// positions (relative to the whole multi-statement string).

#include <catch2/catch.hpp>

#include <string>

#include "planner/parser/parser.hpp"

using namespace tandem::sql;

namespace {

tandem::Status error_of(std::string_view sql) {
  auto r = parse_statements(sql);
  INFO(sql);
  REQUIRE_FALSE(r.ok());
  return r.status();
}

}  // namespace

TEST_CASE("errors: at or near a token", "[parser][errors]") {
  tandem::Status s = error_of("SELECT * FORM t");
  CHECK(s.sqlstate() == "42601");
  CHECK(s.message() == "syntax error at or near \"t\"");
  CHECK(s.position() == 15);

  s = error_of("SELECT a FROM WHERE b");
  CHECK(s.message() == "syntax error at or near \"WHERE\"");  // source spelling
  CHECK(s.position() == 15);

  s = error_of("SELEC 1");
  CHECK(s.message() == "syntax error at or near \"SELEC\"");
  CHECK(s.position() == 1);

  s = error_of("SELECT 1 +");
  CHECK(s.message() == "syntax error at end of input");
  CHECK(s.position() == 11);

  s = error_of("CREATE TABLE t (a int,)");
  CHECK(s.message() == "syntax error at or near \")\"");
  CHECK(s.position() == 23);

  s = error_of("SELECT (1; SELECT 2");
  CHECK(s.message() == "syntax error at or near \";\"");
  CHECK(s.position() == 10);
}

TEST_CASE("errors: positions are relative to the whole string", "[parser][errors]") {
  tandem::Status s = error_of("SELECT 1; SELECT 'é' FROM");
  CHECK(s.message() == "syntax error at end of input");
  CHECK(s.position() == 26);

  s = error_of("SELECT 1;\nSELECT 2 3");
  CHECK(s.message() == "syntax error at or near \"3\"");
  CHECK(s.position() == 20);
}

TEST_CASE("errors: assorted malformed statements", "[parser][errors]") {
  const char* bad[] = {
      "SELECT",
      "SELECT 1 FROM",
      "SELECT CASE END",
      "SELECT CAST(1 AS)",
      "SELECT a IN ()",
      "SELECT 1 2",
      "SELECT a FROM t JOIN u",
      "SELECT a FROM t LEFT u",
      "INSERT t VALUES (1)",
      "UPDATE t WHERE a = 1",
      "DELETE t",
      "CREATE TABLE t",
      "CREATE INDEX ON t",
      "DROP",
      "SET x",
      "COPY t FROM",
      "FETCH",
      "EXPLAIN PLAN SELECT 1",
      "SHOW CREATE",
      "SELECT a IS 5",
      "SELECT 1 LIMIT",
      ")",
      "SELECT $$",
  };
  for (const char* sql : bad) {
    INFO(sql);
    auto r = parse_statements(sql);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().sqlstate() == "42601");
    CHECK(r.status().position() > 0);
  }
}

TEST_CASE("errors: deep nesting is rejected, not a crash", "[parser][errors]") {
  std::string sql = "SELECT " + std::string(100000, '(') + "1" + std::string(100000, ')');
  auto r = parse_statements(sql);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().sqlstate() == "54000");
  std::string minus = "SELECT " + std::string(50000, '-') + "1";
  // `--` starts a comment: the statement is just SELECT.
  CHECK_FALSE(parse_statements(minus).ok());
  std::string nots;
  for (int i = 0; i < 50000; ++i) nots += "NOT ";
  CHECK(parse_statements("SELECT " + nots + "TRUE").status().sqlstate() == "54000");
}

TEST_CASE("errors: parse_one wants exactly one statement", "[parser][errors]") {
  CHECK(parse_one("SELECT 1;").ok());
  auto two = parse_one("SELECT 1; SELECT 2");
  REQUIRE_FALSE(two.ok());
  CHECK(two.status().sqlstate() == "42601");
  CHECK(two.status().message() == "cannot insert multiple commands into a prepared statement");
  auto none = parse_one("  -- nothing\n");
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().message() == "syntax error at end of input");
}

TEST_CASE("errors: a clause given twice around a parenthesised query", "[parser][errors]") {
  tandem::Status s = error_of("(SELECT a FROM t ORDER BY a) ORDER BY b");
  CHECK(s.sqlstate() == "42601");
  CHECK(s.message() == "multiple ORDER BY clauses not allowed");
  CHECK(error_of("((SELECT a FROM t LIMIT 1)) LIMIT 2").message() == "multiple LIMIT clauses not allowed");
  CHECK(error_of("(SELECT a FROM t OFFSET 1) OFFSET 2").message() == "multiple OFFSET clauses not allowed");
  // Clauses after the parentheses become the query's own.
  auto merged = parse_statements("(SELECT a FROM t LIMIT 3) ORDER BY a");
  REQUIRE(merged.ok());
  auto plain = parse_statements("SELECT a FROM t ORDER BY a LIMIT 3");
  REQUIRE(plain.ok());
  CHECK(merged->front().statement == plain->front().statement);
}

TEST_CASE("errors: a byte that starts no token", "[parser][errors]") {
  // Control characters, { } and \ are no operator: PostgreSQL's grammar
  // rejects them where they stand.
  tandem::Status s = error_of("SELECT min(a) \x11 (a) FROM t");
  CHECK(s.sqlstate() == "42601");
  CHECK(s.message() == "syntax error at or near \"\x11\"");
  CHECK(s.position() == 15);
  s = error_of("SELECT 1 { 2");
  CHECK(s.message() == "syntax error at or near \"{\"");
  CHECK(s.position() == 10);
  s = error_of("SELECT \\x");
  CHECK(s.message() == "syntax error at or near \"\\\"");
  CHECK(error_of("SELECT 1; SELECT \x7f").position() == 18);
}
