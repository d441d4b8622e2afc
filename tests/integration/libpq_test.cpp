// Integration: libpq and libpqxx clients against a real tandemd: prepared
// statements with parameters, text and binary results, SQLSTATEs, a
// transaction block, cancel and statement_timeout.

#include <arpa/inet.h>
#include <libpq-fe.h>

#include <catch2/catch.hpp>
#include <pqxx/pqxx>

#include <chrono>
#include <cstring>
#include <thread>

#include "tests/support/pg_conn.hpp"
#include "tests/support/tandemd_process.hpp"

using tandem::testing::TandemdProcess;

namespace {

TandemdProcess& server() {
  static TandemdProcess process;
  return process;
}

using Conn = tandem::testing::PgConn;

std::string sqlstate_of(PGresult* r) {
  const char* s = PQresultErrorField(r, PG_DIAG_SQLSTATE);
  return s ? s : "";
}

}  // namespace

TEST_CASE("server parameters are reported at startup") {
  Conn conn(server().conninfo());
  CHECK(std::string(PQparameterStatus(conn.c, "server_version")) == "15.0 (tandem 0.1)");
  CHECK(std::string(PQparameterStatus(conn.c, "client_encoding")) == "UTF8");
  CHECK(std::string(PQparameterStatus(conn.c, "is_superuser")) == "off");
  CHECK(std::string(PQparameterStatus(conn.c, "integer_datetimes")) == "on");
  CHECK(PQserverVersion(conn.c) == 150000);
  Conn super(server().conninfo("mz_system"));
  CHECK(std::string(PQparameterStatus(super.c, "is_superuser")) == "on");
}

TEST_CASE("libpqxx prepared statements with parameters") {
  pqxx::connection c(server().conninfo());
  c.prepare("add", "SELECT $1::int4 + $2::int4");
  pqxx::nontransaction tx(c);
  CHECK(tx.exec_prepared1("add", 40, 2)[0].as<int>() == 42);
  // The type of $1 is inferred from its use.
  c.prepare("inc", "SELECT $1 + 1");
  CHECK(tx.exec_prepared1("inc", 41)[0].as<int>() == 42);
  c.prepare("cat", "SELECT $1 || '!'");
  CHECK(tx.exec_prepared1("cat", "hi")[0].as<std::string>() == "hi!");
  auto r = tx.exec_params("SELECT $1::numeric * 2, $2::text IS NULL", "1.25", nullptr);
  CHECK(r[0][0].as<std::string>() == "2.50");
  CHECK(r[0][1].as<bool>());
}

TEST_CASE("libpqxx reports SQLSTATEs") {
  pqxx::connection c(server().conninfo());
  pqxx::nontransaction tx(c);
  try {
    tx.exec("SELECT 1/0");
    FAIL("expected an error");
  } catch (const pqxx::sql_error& e) {
    CHECK(e.sqlstate() == "22012");
  }
  try {
    tx.exec("SELECT 2147483647 + 1");
    FAIL("expected an error");
  } catch (const pqxx::sql_error& e) {
    CHECK(e.sqlstate() == "22003");
  }
  try {
    tx.exec("SELECT FROM WHERE");
    FAIL("expected an error");
  } catch (const pqxx::sql_error& e) {
    CHECK(e.sqlstate() == "42601");
  }
}

TEST_CASE("syntax errors carry a position") {
  Conn conn(server().conninfo());
  PGresult* r = PQexec(conn.c, "SELECT 1 +");
  CHECK(PQresultStatus(r) == PGRES_FATAL_ERROR);
  CHECK(sqlstate_of(r) == "42601");
  const char* pos = PQresultErrorField(r, PG_DIAG_STATEMENT_POSITION);
  REQUIRE(pos != nullptr);
  CHECK(std::string(pos) == "11");
  PQclear(r);
}

TEST_CASE("text and binary results and parameters") {
  Conn conn(server().conninfo());
  // Binary parameter: int4 42 in network order.
  uint32_t v = htonl(42);
  const char* values[] = {reinterpret_cast<const char*>(&v)};
  int lengths[] = {4};
  int formats[] = {1};
  Oid types[] = {23};
  PGresult* r = PQexecParams(conn.c, "SELECT $1 + 1, 'x'::text, true, 1.5::float8, 7::int8", 1, types, values,
                             lengths, formats, 1);
  REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
  CHECK(PQftype(r, 0) == 23);
  CHECK(PQfformat(r, 0) == 1);
  uint32_t out;
  std::memcpy(&out, PQgetvalue(r, 0, 0), 4);
  CHECK(ntohl(out) == 43);
  CHECK(std::string(PQgetvalue(r, 0, 1), PQgetlength(r, 0, 1)) == "x");
  CHECK(PQgetvalue(r, 0, 2)[0] == 1);
  uint64_t bits;
  std::memcpy(&bits, PQgetvalue(r, 0, 3), 8);
  bits = be64toh(bits);
  double d;
  std::memcpy(&d, &bits, 8);
  CHECK(d == 1.5);
  CHECK(PQftype(r, 4) == 20);
  PQclear(r);

  r = PQexecParams(conn.c, "SELECT 1.50::numeric, DATE '2024-01-31', NULL::int4", 0, nullptr, nullptr, nullptr,
                   nullptr, 0);
  REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
  CHECK(std::string(PQgetvalue(r, 0, 0)) == "1.50");
  CHECK(std::string(PQgetvalue(r, 0, 1)) == "2024-01-31");
  CHECK(PQgetisnull(r, 0, 2) == 1);
  CHECK(PQftype(r, 0) == 1700);
  CHECK(PQftype(r, 1) == 1082);
  PQclear(r);
}

TEST_CASE("a transaction block is tracked in ReadyForQuery") {
  Conn conn(server().conninfo());
  CHECK(PQtransactionStatus(conn.c) == PQTRANS_IDLE);
  PQclear(PQexec(conn.c, "BEGIN"));
  CHECK(PQtransactionStatus(conn.c) == PQTRANS_INTRANS);
  PGresult* r = PQexec(conn.c, "SELECT 1/0");
  CHECK(sqlstate_of(r) == "22012");
  PQclear(r);
  CHECK(PQtransactionStatus(conn.c) == PQTRANS_INERROR);
  r = PQexec(conn.c, "SELECT 1");
  CHECK(sqlstate_of(r) == "25P02");
  PQclear(r);
  r = PQexec(conn.c, "ROLLBACK");
  CHECK(std::string(PQcmdStatus(r)) == "ROLLBACK");
  PQclear(r);
  CHECK(PQtransactionStatus(conn.c) == PQTRANS_IDLE);
  r = PQexec(conn.c, "START TRANSACTION; SELECT 1; COMMIT");
  CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
  CHECK(std::string(PQcmdStatus(r)) == "COMMIT");
  PQclear(r);
}

TEST_CASE("a cancel request interrupts the running statement") {
  Conn conn(server().conninfo());
  PGcancel* cancel = PQgetCancel(conn.c);
  auto start = std::chrono::steady_clock::now();
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    char err[256];
    PQcancel(cancel, err, sizeof err);
  });
  PGresult* r = PQexec(conn.c, "SELECT pg_sleep(30)");
  canceller.join();
  PQfreeCancel(cancel);
  CHECK(sqlstate_of(r) == "57014");
  CHECK(std::string(PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY)) == "canceling statement due to user request");
  PQclear(r);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  // The session goes on.
  r = PQexec(conn.c, "SELECT 1");
  CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
  PQclear(r);
}

TEST_CASE("statement_timeout cancels a long statement") {
  Conn conn(server().conninfo());
  PQclear(PQexec(conn.c, "SET statement_timeout = '200ms'"));
  PGresult* r = PQexec(conn.c, "SHOW statement_timeout");
  CHECK(std::string(PQgetvalue(r, 0, 0)) == "200ms");
  PQclear(r);
  r = PQexec(conn.c, "SELECT pg_sleep(30)");
  CHECK(sqlstate_of(r) == "57014");
  CHECK(std::string(PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY)) ==
        "canceling statement due to statement timeout");
  PQclear(r);
  PQclear(PQexec(conn.c, "RESET statement_timeout"));
  r = PQexec(conn.c, "SELECT pg_sleep(0.01)");
  CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
  PQclear(r);
}

TEST_CASE("SET, SHOW and RESET of session variables") {
  Conn conn(server().conninfo());
  auto show = [&](const char* sql) {
    PGresult* r = PQexec(conn.c, sql);
    std::string v = PQresultStatus(r) == PGRES_TUPLES_OK ? PQgetvalue(r, 0, 0) : sqlstate_of(r);
    PQclear(r);
    return v;
  };
  PQclear(PQexec(conn.c, "SET application_name TO 'tester'"));
  CHECK(std::string(PQparameterStatus(conn.c, "application_name")) == "tester");
  CHECK(show("SHOW application_name") == "tester");
  CHECK(show("SHOW cluster") == "quickstart");
  CHECK(show("SHOW transaction_isolation") == "strict serializable");
  PQclear(PQexec(conn.c, "SET transaction_isolation = 'serializable'"));
  CHECK(show("SHOW transaction_isolation") == "serializable");
  CHECK(show("SHOW search_path") == "public");
  CHECK(show("SHOW no_such_variable") == "42704");
  PQclear(PQexec(conn.c, "RESET application_name"));
  CHECK(show("SHOW application_name") == "");
  PGresult* r = PQexec(conn.c, "SHOW ALL");
  REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
  CHECK(PQnfields(r) == 3);
  CHECK(PQntuples(r) > 10);
  PQclear(r);
}

TEST_CASE("statement_timeout and cancel also end a long read") {
  Conn conn(server().conninfo());
  PQclear(PQexec(conn.c, "CREATE TABLE slow (a int)"));
  PQclear(PQexec(conn.c, "INSERT INTO slow SELECT * FROM generate_series(1, 2000)"));
  const char* heavy = "SELECT count(*) FROM slow s1, slow s2 WHERE s1.a < s2.a";
  PQclear(PQexec(conn.c, "SET statement_timeout = '50ms'"));
  PGresult* r = PQexec(conn.c, heavy);
  CHECK(sqlstate_of(r) == "57014");
  CHECK(std::string(PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY)) ==
        "canceling statement due to statement timeout");
  PQclear(r);
  PQclear(PQexec(conn.c, "RESET statement_timeout"));
  PGcancel* cancel = PQgetCancel(conn.c);
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    char err[256];
    PQcancel(cancel, err, sizeof err);
  });
  r = PQexec(conn.c, heavy);
  canceller.join();
  PQfreeCancel(cancel);
  CHECK(sqlstate_of(r) == "57014");
  PQclear(r);
  // The session and the table are fine afterwards.
  r = PQexec(conn.c, "SELECT count(*) FROM slow");
  REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
  CHECK(std::string(PQgetvalue(r, 0, 0)) == "2000");
  PQclear(r);
}
