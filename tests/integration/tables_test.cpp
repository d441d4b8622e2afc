// Integration: tables are durable. Rows, constraints and the catalog survive
// a clean restart and an abrupt kill; SHOW CREATE returns the same text.

#include <libpq-fe.h>
#include <signal.h>

#include <catch2/catch.hpp>

#include <filesystem>

#include "tests/support/tandemd_process.hpp"

using tandem::testing::TandemdProcess;

namespace {

std::string query_one(PGconn* c, const char* sql) {
  PGresult* r = PQexec(c, sql);
  std::string v;
  if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0) {
    v = PQgetvalue(r, 0, 0);
  } else if (PQresultStatus(r) == PGRES_FATAL_ERROR) {
    v = std::string("ERROR ") + PQresultErrorField(r, PG_DIAG_SQLSTATE);
  }
  PQclear(r);
  return v;
}

void exec(PGconn* c, const char* sql) {
  PGresult* r = PQexec(c, sql);
  INFO(sql << ": " << PQerrorMessage(c));
  REQUIRE(PQresultStatus(r) == PGRES_COMMAND_OK);
  PQclear(r);
}

}  // namespace

TEST_CASE("tables, rows and constraints survive restarts") {
  char tmpl[] = "/tmp/tandem-durable-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  std::string data = std::string(tmpl) + "/data";
  std::string create_sql;
  {
    TandemdProcess first({}, data);
    PGconn* c = PQconnectdb(first.conninfo().c_str());
    exec(c, "CREATE TABLE kv (k int PRIMARY KEY, v text NOT NULL DEFAULT 'none')");
    exec(c, "INSERT INTO kv VALUES (1, 'a'), (2, 'b')");
    exec(c, "INSERT INTO kv (k) VALUES (3)");
    exec(c, "CREATE UNIQUE INDEX kv_v ON kv (v)");
    create_sql = query_one(c, "SELECT 1");  // connection sanity
    PGresult* r = PQexec(c, "SHOW CREATE TABLE kv");
    REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
    create_sql = PQgetvalue(r, 0, 1);
    PQclear(r);
    PQfinish(c);
    CHECK(first.stop() == 0);
  }
  {
    TandemdProcess second({}, data);
    PGconn* c = PQconnectdb(second.conninfo().c_str());
    CHECK(query_one(c, "SELECT count(*) FROM kv") == "3");
    CHECK(query_one(c, "SELECT v FROM kv WHERE k = 3") == "none");
    CHECK(query_one(c, "INSERT INTO kv VALUES (2, 'again')") == "ERROR 23505");
    CHECK(query_one(c, "INSERT INTO kv VALUES (7, 'a')") == "ERROR 23505");  // the unique index
    PGresult* r = PQexec(c, "SHOW CREATE TABLE kv");
    REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
    CHECK(std::string(PQgetvalue(r, 0, 1)) == create_sql);
    PQclear(r);
    exec(c, "INSERT INTO kv VALUES (4, 'd')");
    PQfinish(c);
    // An acknowledged write survives a crash.
    kill(second.pid(), SIGKILL);
  }
  {
    TandemdProcess third({}, data);
    PGconn* c = PQconnectdb(third.conninfo().c_str());
    CHECK(query_one(c, "SELECT count(*) FROM kv") == "4");
    CHECK(query_one(c, "SELECT v FROM kv WHERE k = 4") == "d");
    CHECK(query_one(c, "INSERT INTO kv VALUES (8, 'd')") == "ERROR 23505");
    PQfinish(c);
  }
  std::filesystem::remove_all(tmpl);
}

TEST_CASE("keys added by ALTER TABLE survive a restart") {
  char tmpl[] = "/tmp/tandem-durable-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  std::string data = std::string(tmpl) + "/data";
  {
    TandemdProcess first({}, data);
    PGconn* c = PQconnectdb(first.conninfo().c_str());
    exec(c, "CREATE TABLE branches (bid int, name text)");
    exec(c, "INSERT INTO branches VALUES (1, 'a'), (2, 'b')");
    exec(c, "ALTER TABLE branches ADD PRIMARY KEY (bid)");
    exec(c, "ALTER TABLE branches ADD UNIQUE (name)");
    CHECK(query_one(c, "INSERT INTO branches VALUES (1, 'c')") == "ERROR 23505");
    PQfinish(c);
    CHECK(first.stop() == 0);
  }
  {
    TandemdProcess second({}, data);
    PGconn* c = PQconnectdb(second.conninfo().c_str());
    CHECK(query_one(c, "INSERT INTO branches VALUES (1, 'c')") == "ERROR 23505");
    CHECK(query_one(c, "INSERT INTO branches VALUES (3, 'a')") == "ERROR 23505");
    CHECK(query_one(c, "INSERT INTO branches VALUES (NULL, 'n')") == "ERROR 23502");
    CHECK(query_one(c, "SELECT string_agg(conname, ',' ORDER BY conname) FROM pg_constraint") ==
          "branches_name_key,branches_pkey");
    exec(c, "INSERT INTO branches VALUES (3, 'c')");
    CHECK(query_one(c, "SELECT count(*) FROM branches") == "3");
    PQfinish(c);
  }
  std::filesystem::remove_all(tmpl);
}
