// Integration: admission control of peek dataflows. With
// max_concurrent_interactive_dataflows = 1, a peek dataflow that parks
// (AS OF a time not yet sealed) holds the cluster's one slot; a second one
// waits in the queue, visible in mz_internal.mz_interactive_admission, and
// both complete; a canceled waiter leaves the queue with 57014.

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

std::string one_value(PgConn& conn, const std::string& sql) {
  PGresult* r = PQexec(conn.c, sql.c_str());
  INFO(sql << ": " << PQresultErrorMessage(r));
  REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
  REQUIRE(PQntuples(r) == 1);
  std::string v = PQgetvalue(r, 0, 0);
  PQclear(r);
  return v;
}

// The default cluster's id. (A join with mz_clusters would be a peek
// dataflow itself, and take a slot.)
std::string quickstart_id(PgConn& conn) {
  return one_value(conn, "SELECT id FROM mz_catalog.mz_clusters WHERE name = 'quickstart'");
}

// "active queued admitted_total waited_total canceled_total" of the
// default cluster.
std::string admission(PgConn& conn) {
  return one_value(conn,
                   "SELECT active || ' ' || queued || ' ' || admitted_total || ' ' || waited_total || ' ' || "
                   "canceled_total FROM mz_internal.mz_interactive_admission WHERE cluster_id = '" +
                       quickstart_id(conn) + "'");
}

// Waits (bounded) until the default cluster has `active` running and
// `queued` waiting peek dataflows.
void wait_for(PgConn& conn, int active, int queued) {
  const std::string prefix = std::to_string(active) + " " + std::to_string(queued) + " ";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  std::string last;
  while ((last = admission(conn)).rfind(prefix, 0) != 0) {
    INFO("admission now: " << last);
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// A peek dataflow (count over an unindexed table) at a time about 3 s
// ahead: it parks until the table's upper passes that time.
std::string parked_count() {
  const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  return "SELECT count(*) FROM t AS OF " + std::to_string(now + 3000);
}

std::string result_of(PGconn* c) {
  std::string out;
  while (PGresult* r = PQgetResult(c)) {
    if (PQresultStatus(r) == PGRES_TUPLES_OK) {
      out = PQgetvalue(r, 0, 0);
    } else if (PQresultStatus(r) == PGRES_FATAL_ERROR) {
      const char* code = PQresultErrorField(r, PG_DIAG_SQLSTATE);
      out = std::string("error ") + (code ? code : "");
    }
    PQclear(r);
  }
  return out;
}

}  // namespace

TEST_CASE("with the bound at 1, two concurrent peek dataflows both complete and the wait is visible",
          "[admission]") {
  TandemdProcess server;
  PgConn setup(server.conninfo());
  setup.exec_ok("CREATE TABLE t (a int)");
  setup.exec_ok("INSERT INTO t VALUES (1), (2), (3)");
  PgConn system(server.conninfo("mz_system"));
  system.exec_ok("ALTER SYSTEM SET max_concurrent_interactive_dataflows = 1");
  CHECK(one_value(setup, "SELECT count(*) FROM t") == "3");  // admitted at once, nothing waited
  CHECK(admission(setup) == "0 0 1 0 0");

  PgConn first(server.conninfo()), second(server.conninfo()), third(server.conninfo());
  REQUIRE(PQsendQuery(first.c, parked_count().c_str()) == 1);
  wait_for(setup, 1, 0);
  REQUIRE(PQsendQuery(second.c, "SELECT count(*) FROM t") == 1);
  wait_for(setup, 1, 1);  // the second waits for the first's slot
  CHECK(result_of(first.c) == "3");
  CHECK(result_of(second.c) == "3");
  CHECK(admission(setup) == "0 0 3 1 0");
  CHECK(one_value(setup, "SELECT wait_time_max > INTERVAL '0' FROM mz_internal.mz_interactive_admission "
                         "WHERE cluster_id = '" + quickstart_id(setup) + "'") == "t");

  SECTION("a canceled waiter leaves the queue") {
    REQUIRE(PQsendQuery(first.c, parked_count().c_str()) == 1);
    wait_for(setup, 1, 0);
    REQUIRE(PQsendQuery(third.c, "SELECT count(*) FROM t") == 1);
    wait_for(setup, 1, 1);
    PGcancel* cancel = PQgetCancel(third.c);
    char err[256];
    REQUIRE(PQcancel(cancel, err, sizeof err) == 1);
    PQfreeCancel(cancel);
    CHECK(result_of(third.c) == "error 57014");
    CHECK(admission(setup).rfind("1 0 ", 0) == 0);
    CHECK(result_of(first.c) == "3");
    CHECK(admission(setup) == "0 0 4 1 1");
  }
}
