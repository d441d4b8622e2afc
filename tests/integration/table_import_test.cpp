// Integration: a cluster's first import of a large table is replayed from
// storage off the coordinator thread. While a read on a new cluster
// imports the table, other sessions' reads that go through the coordinator
// (a peek dataflow on the default cluster, introspection, a constant
// query) are answered; a CREATE INDEX on the importing cluster, which
// answers only once the import is complete, is still waiting when they
// are. The assertions are on order, not on durations: the only
// assumption is that replaying the table takes longer than a few small
// reads.

#include <libpq-fe.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <thread>

#include "tests/support/pg_conn.hpp"
#include "tests/support/tandemd_process.hpp"

using tandem::testing::PgConn;
using tandem::testing::TandemdProcess;

namespace {

constexpr int kRows = 1000000;

std::string one_value(PgConn& conn, const std::string& sql) {
  PGresult* r = PQexec(conn.c, sql.c_str());
  INFO(sql << ": " << PQresultErrorMessage(r));
  REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
  REQUIRE(PQntuples(r) == 1);
  std::string v = PQgetvalue(r, 0, 0);
  PQclear(r);
  return v;
}

// Whether the query sent on `c` is still running (nothing answered yet).
bool busy(PGconn* c) {
  REQUIRE(PQconsumeInput(c) == 1);
  return PQisBusy(c) == 1;
}

// The single value (or "error SQLSTATE", or "ok" for a command) the query
// sent on `c` answered, waiting for it.
std::string result_of(PGconn* c) {
  std::string out;
  while (PGresult* r = PQgetResult(c)) {
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) {
      out = PQgetvalue(r, 0, 0);
    } else if (PQresultStatus(r) == PGRES_COMMAND_OK) {
      out = "ok";
    } else if (PQresultStatus(r) == PGRES_FATAL_ERROR) {
      const char* code = PQresultErrorField(r, PG_DIAG_SQLSTATE);
      out = std::string("error ") + (code ? code : "") + ": " + PQresultErrorMessage(r);
    }
    PQclear(r);
  }
  return out;
}

// Waits (bounded) until `sql` answers `value`.
void wait_for(PgConn& conn, const std::string& sql, const std::string& value) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::string last;
  while ((last = one_value(conn, sql)) != value) {
    INFO(sql << " answered " << last);
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

TEST_CASE("a cluster's first import of a large table does not hold other sessions' reads", "[import]") {
  TandemdProcess server;
  PgConn setup(server.conninfo());
  setup.exec_ok("CREATE TABLE big (a int, b int)");
  setup.exec_ok("INSERT INTO big SELECT x, x % 7 FROM generate_series(1, " + std::to_string(kRows) + ") AS x");
  setup.exec_ok("CREATE TABLE small (a int)");
  setup.exec_ok("INSERT INTO small VALUES (1), (2), (3)");
  // The default cluster imports `small` now, so the reads below only peek.
  CHECK(one_value(setup, "SELECT count(*) FROM small") == "3");
  setup.exec_ok("CREATE CLUSTER c2 (SIZE = '1')");
  const std::string c2 = one_value(setup, "SELECT id FROM mz_catalog.mz_clusters WHERE name = 'c2'");

  // The read on c2 that imports `big` ...
  PgConn importer(server.conninfo());
  importer.exec_ok("SET cluster = c2");
  REQUIRE(PQsendQuery(importer.c, "SELECT count(*) FROM big WHERE b < 7") == 1);
  // ... is admitted (its slot is taken just before it reaches the
  // coordinator), and a CREATE INDEX on c2 follows it: that one answers
  // once the import is complete.
  wait_for(setup,
           "SELECT active FROM mz_internal.mz_interactive_admission WHERE cluster_id = '" + c2 + "'", "1");
  PgConn indexer(server.conninfo());
  REQUIRE(PQsendQuery(indexer.c, "CREATE INDEX big_a IN CLUSTER c2 ON big (a)") == 1);
  // The index is in the catalog once the coordinator has run the
  // statement up to its wait for the import.
  wait_for(setup, "SELECT count(*) FROM mz_catalog.mz_indexes WHERE name = 'big_a'", "1");

  // Meanwhile other sessions' reads are answered: a peek dataflow on the
  // default cluster (through the coordinator), introspection and a
  // constant query.
  PgConn other(server.conninfo());
  for (int i = 0; i < 3; ++i) {
    CHECK(one_value(other, "SELECT count(*) FROM small") == "3");
    CHECK(one_value(other, "SELECT count(*) >= 0 FROM mz_introspection.mz_dataflow_operators") == "t");
    CHECK(one_value(other, "SELECT 1") == "1");
  }
  // ... before the import has finished.
  CHECK(busy(indexer.c));
  CHECK(busy(importer.c));

  // Both statements that depended on the import answer, over all of it.
  CHECK(result_of(importer.c) == std::to_string(kRows));
  CHECK(result_of(indexer.c) == "ok");
  importer.exec_ok("SET cluster = c2");
  CHECK(one_value(importer, "SELECT count(*) FROM big") == std::to_string(kRows));
  CHECK(one_value(importer, "SELECT b FROM big WHERE a = 12345") == "4");
  // Writes after the import reach c2's input.
  setup.exec_ok("INSERT INTO big VALUES (-1, 100)");
  CHECK(one_value(importer, "SELECT b FROM big WHERE a = -1") == "100");
  CHECK(one_value(importer, "SELECT count(*) FROM big") == std::to_string(kRows + 1));
}

TEST_CASE("writes during a cluster's first import reach it exactly once", "[import]") {
  TandemdProcess server;
  PgConn setup(server.conninfo());
  setup.exec_ok("CREATE TABLE big (a int, b int)");
  setup.exec_ok("INSERT INTO big SELECT x, 0 FROM generate_series(1, 300000) AS x");
  setup.exec_ok("CREATE CLUSTER c2 (SIZE = '2')");
  PgConn importer(server.conninfo());
  importer.exec_ok("SET cluster = c2");
  REQUIRE(PQsendQuery(importer.c, "CREATE INDEX big_a ON big (a)") == 1);
  // Single-row writes land while the import may be running.
  PgConn writer(server.conninfo());
  int written = 0;
  while (busy(importer.c) && written < 2000) {
    writer.exec_ok("INSERT INTO big VALUES (" + std::to_string(-1 - written) + ", 1)");
    ++written;
  }
  CHECK(result_of(importer.c) == "ok");
  for (int i = 0; i < 20; ++i, ++written) {
    writer.exec_ok("INSERT INTO big VALUES (" + std::to_string(-1 - written) + ", 1)");
  }
  INFO("rows written during and after the import: " << written);
  CHECK(one_value(importer, "SELECT count(*) FROM big") == std::to_string(300000 + written));
  CHECK(one_value(importer, "SELECT count(*) FROM big WHERE b = 1") == std::to_string(written));
  CHECK(one_value(importer, "SELECT count(DISTINCT a) FROM big") == std::to_string(300000 + written));
}

TEST_CASE("a table dropped during a cluster's first import fails the read waiting for it", "[import]") {
  TandemdProcess server;
  PgConn setup(server.conninfo());
  setup.exec_ok("CREATE TABLE big (a int)");
  setup.exec_ok("INSERT INTO big SELECT x FROM generate_series(1, 500000) AS x");
  setup.exec_ok("CREATE CLUSTER c2 (SIZE = '1')");
  const std::string c2 = one_value(setup, "SELECT id FROM mz_catalog.mz_clusters WHERE name = 'c2'");
  PgConn importer(server.conninfo());
  importer.exec_ok("SET cluster = c2");
  REQUIRE(PQsendQuery(importer.c, "SELECT count(*) FROM big") == 1);
  wait_for(setup,
           "SELECT active FROM mz_internal.mz_interactive_admission WHERE cluster_id = '" + c2 + "'", "1");
  setup.exec_ok("DROP TABLE big");
  // Dropped before the import finished: the read fails; after: it counted.
  const std::string result = result_of(importer.c);
  INFO(result);
  CHECK((result == "500000" || result.rfind("error 42P01", 0) == 0));
  // The cluster goes on serving reads.
  setup.exec_ok("CREATE TABLE t (a int)");
  setup.exec_ok("INSERT INTO t VALUES (1)");
  CHECK(one_value(importer, "SELECT count(*) FROM t") == "1");
}
