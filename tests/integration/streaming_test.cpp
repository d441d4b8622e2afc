// Integration: results that stream to the client while they are produced
// (issue 5 item 5): a large fast-path scan of an index reaches a libpq
// client in single-row mode long before its last row is produced, the same
// for COPY TO STDOUT; max_result_size ends a streamed result midway with its
// error; Execute with a row limit suspends and resumes a streamed portal.

#include <libpq-fe.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <string>

#include "frontend/pgwire/frontend_encoder.hpp"
#include "tests/support/raw_client.hpp"
#include "tests/support/pg_conn.hpp"
#include "tests/support/tandemd_process.hpp"

using tandem::pgwire::FrontendWriter;
using tandem::testing::BackendFrame;
using tandem::testing::RawClient;
using tandem::testing::TandemdProcess;

namespace {

constexpr int kRows = 200000;

TandemdProcess& server() {
  static TandemdProcess process;
  return process;
}

// Serializable reads are answered at once from the sealed index (a strict
// serializable one may have to wait for the oracle's time to be sealed, and
// a waiting peek is answered whole).
struct Conn : tandem::testing::PgConn {
  explicit Conn(const std::string& conninfo) : PgConn(conninfo) {
    PQclear(PQexec(c, "SET transaction_isolation = 'serializable'"));
  }
};

// A table of kRows rows of ~100 bytes with an index: its scan is far over
// the inline peek budget, so it streams.
void ensure_big_table() {
  static bool made = false;
  if (made) return;
  Conn conn(server().conninfo());
  conn.exec_ok("CREATE TABLE big (a int, b text)");
  conn.exec_ok("CREATE INDEX big_a ON big (a)");
  conn.exec_ok("INSERT INTO big SELECT x, repeat('x', 100) FROM generate_series(1, " + std::to_string(kRows) + ") x");
  // A strict serializable read waits until the write is visible.
  conn.exec_ok("SET transaction_isolation = 'strict serializable'");
  PGresult* r = PQexec(conn.c, "SELECT count(*) FROM big");
  REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
  CHECK(std::string(PQgetvalue(r, 0, 0)) == std::to_string(kRows));
  PQclear(r);
  made = true;
}

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

std::string types_of(const std::vector<BackendFrame>& frames) {
  std::string s;
  for (const auto& f : frames) s += f.type;
  return s;
}

}  // namespace

TEST_CASE("a large index scan reaches the client before its last row is produced") {
  ensure_big_table();
  Conn conn(server().conninfo());
  // Twice: the first run also pays for paging the table in.
  for (int run = 0; run < 2; ++run) {
    auto start = Clock::now();
    REQUIRE(PQsendQuery(conn.c, "SELECT a, b FROM big") == 1);
    REQUIRE(PQsetSingleRowMode(conn.c) == 1);
    double first_ms = -1;
    long rows = 0;
    std::string tag;
    while (PGresult* r = PQgetResult(conn.c)) {
      if (PQresultStatus(r) == PGRES_SINGLE_TUPLE) {
        if (rows == 0) first_ms = ms_since(start);
        ++rows;
      } else {
        INFO(PQresultErrorMessage(r));
        REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
        tag = PQcmdStatus(r);
      }
      PQclear(r);
    }
    double total_ms = ms_since(start);
    INFO("first row after " << first_ms << " ms, all " << rows << " rows after " << total_ms << " ms");
    CHECK(rows == kRows);
    CHECK(tag == "SELECT " + std::to_string(kRows));
    // Collected first, the first row would come after nearly all the work.
    CHECK(first_ms >= 0);
    CHECK(first_ms < total_ms / 4);
  }
}

TEST_CASE("COPY TO STDOUT of a large index streams every row") {
  ensure_big_table();
  Conn conn(server().conninfo());
  auto start = Clock::now();
  PGresult* r = PQexec(conn.c, "COPY big TO STDOUT");
  REQUIRE(PQresultStatus(r) == PGRES_COPY_OUT);
  PQclear(r);
  double first_ms = -1;
  long lines = 0;
  char* buffer = nullptr;
  int n;
  while ((n = PQgetCopyData(conn.c, &buffer, 0)) > 0) {
    if (lines == 0) first_ms = ms_since(start);
    ++lines;
    PQfreemem(buffer);
  }
  CHECK(n == -1);
  r = PQgetResult(conn.c);
  CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
  CHECK(std::string(PQcmdStatus(r)) == "COPY " + std::to_string(kRows));
  PQclear(r);
  while ((r = PQgetResult(conn.c)) != nullptr) PQclear(r);
  CHECK(lines == kRows);
  INFO("first line after " << first_ms << " ms of " << ms_since(start));
  CHECK(first_ms < ms_since(start) / 4);
}

TEST_CASE("max_result_size ends a streamed result midway") {
  ensure_big_table();
  Conn system(server().conninfo("mz_system"));
  system.exec_ok("ALTER SYSTEM SET max_result_size = '1MB'");
  Conn conn(server().conninfo());
  REQUIRE(PQsendQuery(conn.c, "SELECT a, b FROM big") == 1);
  REQUIRE(PQsetSingleRowMode(conn.c) == 1);
  long rows = 0;
  std::string error;
  std::string sqlstate;
  while (PGresult* r = PQgetResult(conn.c)) {
    if (PQresultStatus(r) == PGRES_SINGLE_TUPLE) {
      ++rows;
    } else if (PQresultStatus(r) == PGRES_FATAL_ERROR) {
      error = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
      sqlstate = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    }
    PQclear(r);
  }
  system.exec_ok("ALTER SYSTEM RESET max_result_size");
  CHECK(error == "result exceeds max size of 1MB");
  CHECK(sqlstate == "54000");
  CHECK(rows > 0);        // the rows before the limit were sent
  CHECK(rows < kRows);    // and the scan stopped there
  // The session goes on.
  PGresult* r = PQexec(conn.c, "SELECT 1");
  CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
  PQclear(r);
}

TEST_CASE("Execute with a row limit suspends and resumes a streamed portal") {
  ensure_big_table();
  RawClient client(server().port());
  client.startup();
  std::string out;
  FrontendWriter w(out);
  w.query("SET transaction_isolation = 'serializable'");
  client.send(out);
  client.read_until_ready();
  out.clear();
  w.parse("", "SELECT a FROM big");
  w.bind("", "", {}, {}, {});
  w.execute("", 5000);
  w.execute("", 3);
  w.execute("", 0);
  w.sync();
  client.send(out);
  auto frames = client.read_until_ready(30000);
  std::string types = types_of(frames);
  REQUIRE(types.size() == 2 + 5000 + 1 + 3 + 1 + (kRows - 5003) + 1 + 1);
  CHECK(types.substr(0, 2) == "12");
  CHECK(types[2 + 5000] == 's');
  CHECK(types[2 + 5000 + 1 + 3] == 's');
  CHECK(types.substr(types.size() - 2) == "CZ");
  CHECK(frames[frames.size() - 2].body == "SELECT " + std::to_string(kRows - 5003) + std::string(1, '\0'));
}
