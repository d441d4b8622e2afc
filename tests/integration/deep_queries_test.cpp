// Integration: queries whose trees are very deep or very wide (long
// operator chains, many-way UNION ALL, long IN lists, views over them)
// are answered or refused with 54000, and the server stays up.

#include <libpq-fe.h>

#include <catch2/catch.hpp>

#include <string>

#include "tests/support/pg_conn.hpp"
#include "tests/support/tandemd_process.hpp"

using tandem::testing::first_value;
using tandem::testing::TandemdProcess;

namespace {

std::string chain(const std::string& term, const std::string& op, int n) {
  std::string out = term;
  for (int i = 1; i < n; ++i) out += " " + op + " " + term;
  return out;
}

}  // namespace

TEST_CASE("deep and wide queries are answered or refused, never crash the server") {
  TandemdProcess server;
  PGconn* c = PQconnectdb(server.conninfo().c_str());
  REQUIRE(PQstatus(c) == CONNECTION_OK);
  CHECK(first_value(c, "CREATE TABLE d (x int, s text)") == "OK");
  CHECK(first_value(c, "INSERT INTO d VALUES (1, 'a')") == "OK");

  CHECK(first_value(c, "SELECT " + chain("1", "+", 900)) == "900");
  CHECK(first_value(c, "SELECT " + chain("1", "+", 10000)) == "ERROR 54000");
  CHECK(first_value(c, "SELECT " + chain("x", "+", 100000) + " FROM d") == "ERROR 54000");
  CHECK(first_value(c, "SELECT count(*) FROM d WHERE " + chain("x = 1", "AND", 900)) == "1");
  CHECK(first_value(c, "SELECT length(" + chain("s", "||", 900) + ") FROM d") == "900");
  CHECK(first_value(c, "SELECT count(*) FROM (" + chain("SELECT 1", "UNION ALL", 900) + ") u") == "900");
  CHECK(first_value(c, chain("SELECT 1", "UNION ALL", 3000)) == "ERROR 54000");
  std::string in_list = "0";
  for (int i = 1; i < 8000; ++i) in_list += ", " + std::to_string(i);
  CHECK(first_value(c, "SELECT count(*) FROM d WHERE x IN (" + in_list + ")") == "1");
  CHECK(first_value(c, "SELECT count(*) FROM d WHERE x NOT IN (" + in_list + ")") == "0");

  // A view over a long chain is stored, indexed and read back (its stored
  // definition reparses).
  CHECK(first_value(c, "CREATE VIEW deep AS SELECT " + chain("x", "+", 900) + " AS y FROM d") == "OK");
  CHECK(first_value(c, "CREATE DEFAULT INDEX ON deep") == "OK");
  CHECK(first_value(c, "SELECT y FROM deep") == "900");
  CHECK(first_value(c, "SELECT 1") == "1");
  PQfinish(c);
}
