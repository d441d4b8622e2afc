#pragma once
// A libpq connection for integration tests: connected or the test fails,
// finished on destruction (unless a test took it over by nulling `c`).

#include <libpq-fe.h>

#include <catch2/catch.hpp>

#include <string>

namespace tandem::testing {

struct PgConn {
  PGconn* c;
  explicit PgConn(const std::string& conninfo) : c(PQconnectdb(conninfo.c_str())) {
    REQUIRE(PQstatus(c) == CONNECTION_OK);
  }
  ~PgConn() {
    if (c) PQfinish(c);
  }
  PgConn(const PgConn&) = delete;
  PgConn& operator=(const PgConn&) = delete;
  // Runs `sql`; a failure is a test failure naming the statement.
  void exec_ok(const std::string& sql) {
    PGresult* r = PQexec(c, sql.c_str());
    INFO(sql << ": " << PQresultErrorMessage(r));
    CHECK((PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK));
    PQclear(r);
  }
};

// The one row of `sql`'s result, its columns joined by '|' (NULL as
// "NULL" in the first); anything else is a test failure naming the query.
inline std::string query_scalar(PgConn& conn, const std::string& sql) {
  PGresult* r = PQexec(conn.c, sql.c_str());
  INFO(sql << ": " << PQresultErrorMessage(r));
  REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
  REQUIRE(PQntuples(r) == 1);
  std::string out = PQgetisnull(r, 0, 0) ? "NULL" : PQgetvalue(r, 0, 0);
  for (int c = 1; c < PQnfields(r); ++c) out += std::string("|") + PQgetvalue(r, 0, c);
  PQclear(r);
  return out;
}

// The first value of `sql`'s result, "OK" for a command without rows, or
// "ERROR <sqlstate>" (anything else is "BROKEN").
inline std::string first_value(PGconn* c, const std::string& sql) {
  PGresult* r = PQexec(c, sql.c_str());
  std::string v;
  if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0) {
    v = PQgetvalue(r, 0, 0);
  } else if (PQresultStatus(r) == PGRES_COMMAND_OK) {
    v = "OK";
  } else if (PQresultStatus(r) == PGRES_FATAL_ERROR) {
    const char* state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    v = std::string("ERROR ") + (state ? state : "?");
  } else {
    v = "BROKEN";
  }
  PQclear(r);
  return v;
}

// Sends a CancelRequest for the statement running on `c`.
inline void cancel_running(PGconn* c) {
  PGcancel* cancel = PQgetCancel(c);
  char err[256];
  CHECK(PQcancel(cancel, err, sizeof err) == 1);
  PQfreeCancel(cancel);
}

}  // namespace tandem::testing
