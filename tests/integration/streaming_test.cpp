// Integration: results that stream to the client while they are produced:
// a large fast-path scan of an index reaches a libpq
// client in single-row mode long before its last row is produced, the same
// for a strict serializable scan that waits for its timestamp, a peek
// dataflow, and COPY TO STDOUT; max_result_size ends a streamed result midway with its
// error; Execute with a row limit suspends and resumes a streamed portal.

#include <libpq-fe.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <thread>

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

// What a query sent in single-row mode delivered, and when.
struct Streamed {
  long rows = 0;
  double first_ms = -1;  // first row's arrival, from the query's start
  double total_ms = 0;   // the end's
  std::string tag;
  std::string error;
  std::string sqlstate;
};

// Runs `sql` (its last statement returning the rows) in single-row mode.
Streamed stream_query(PGconn* c, const std::string& sql) {
  Streamed out;
  auto start = Clock::now();
  REQUIRE(PQsendQuery(c, sql.c_str()) == 1);
  REQUIRE(PQsetSingleRowMode(c) == 1);
  while (PGresult* r = PQgetResult(c)) {
    if (PQresultStatus(r) == PGRES_SINGLE_TUPLE) {
      if (out.rows == 0) out.first_ms = ms_since(start);
      ++out.rows;
    } else if (PQresultStatus(r) == PGRES_FATAL_ERROR) {
      out.error = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
      out.sqlstate = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    } else {
      out.tag = PQcmdStatus(r);
    }
    PQclear(r);
  }
  out.total_ms = ms_since(start);
  return out;
}

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
    Streamed s = stream_query(conn.c, "SELECT a, b FROM big");
    INFO("first row after " << s.first_ms << " ms, all " << s.rows << " rows after " << s.total_ms << " ms");
    INFO(s.error);
    CHECK(s.rows == kRows);
    CHECK(s.tag == "SELECT " + std::to_string(kRows));
    // Collected first, the first row would come after nearly all the work.
    CHECK(s.first_ms >= 0);
    CHECK(s.first_ms < s.total_ms / 4);
  }
}

// Reads the first row of `sql` (its last statement returning the rows) in
// single-row mode, stalls like a slow client, then cancels. A streamed
// result is still being produced then (the socket's buffers hold a fraction
// of it, and the producer waits for the client), so the cancel ends it with
// 57014 before its last row; a result collected before its first row was
// sent would arrive whole.
Streamed cancel_after_first_row(PGconn* c, const std::string& sql) {
  Streamed out;
  REQUIRE(PQsendQuery(c, sql.c_str()) == 1);
  REQUIRE(PQsetSingleRowMode(c) == 1);
  while (PGresult* r = PQgetResult(c)) {
    if (PQresultStatus(r) == PGRES_SINGLE_TUPLE) {
      if (++out.rows == 1) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        tandem::testing::cancel_running(c);
      }
    } else if (PQresultStatus(r) == PGRES_FATAL_ERROR) {
      out.sqlstate = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    }
    PQclear(r);
  }
  return out;
}

// A strict serializable read right after a large write waits in compute for
// the index to seal its timestamp (a parked peek); a peek dataflow's result
// is ready only once its dataflow sealed it. Both are answered by compute
// with the sealed snapshots, walked here as the client reads: each result's
// first row reaches the client while its last is not produced yet.
TEST_CASE("a parked strict serializable scan and a peek dataflow stream their rows") {
  ensure_big_table();
  Conn conn(server().conninfo());
  conn.exec_ok("SET transaction_isolation = 'strict serializable'");
  conn.exec_ok("CREATE TABLE grow (a int, b text)");
  conn.exec_ok("CREATE INDEX grow_a ON grow (a)");
  // The 100,000 rows the INSERT acknowledges reach the index after it: the
  // SELECT's timestamp is not sealed yet when it is planned.
  const std::string insert = "INSERT INTO grow SELECT x, repeat('y', 100) FROM generate_series(1, 100000) x; ";
  Streamed s = stream_query(conn.c, insert + "SELECT a, b FROM grow");
  INFO("parked scan: first row after " << s.first_ms << " ms, " << s.rows << " rows after " << s.total_ms << " ms");
  INFO(s.error);
  CHECK(s.rows == 100000);
  CHECK(s.tag == "SELECT 100000");
  Streamed canceled = cancel_after_first_row(conn.c, insert + "SELECT a, b FROM grow");
  CHECK(canceled.sqlstate == "57014");
  CHECK(canceled.rows > 0);
  CHECK(canceled.rows < 200000);

  // DISTINCT is no fast path: a one-shot dataflow arranges its result.
  s = stream_query(conn.c, "SELECT DISTINCT a, b FROM big");
  INFO("peek dataflow: first row after " << s.first_ms << " ms, " << s.rows << " rows after " << s.total_ms << " ms");
  INFO(s.error);
  CHECK(s.rows == kRows);
  CHECK(s.tag == "SELECT " + std::to_string(kRows));
  canceled = cancel_after_first_row(conn.c, "SELECT DISTINCT a, b FROM big");
  CHECK(canceled.sqlstate == "57014");
  CHECK(canceled.rows > 0);
  CHECK(canceled.rows < kRows);
  // The session goes on, and the canceled write stayed acknowledged.
  s = stream_query(conn.c, "SELECT count(*) FROM grow");
  CHECK(s.rows == 1);
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
  conn.exec_ok("CREATE TABLE IF NOT EXISTS limited (a int, b text)");
  conn.exec_ok("CREATE INDEX IF NOT EXISTS limited_a ON limited (a)");
  // A collected result fails before its first row; a streamed one sends the
  // rows below the limit first. The sealed fast path, a parked strict
  // serializable scan (right after a large write) and a peek dataflow.
  const char* queries[] = {
      "SELECT a, b FROM big",
      "SET transaction_isolation = 'strict serializable'; "
      "INSERT INTO limited SELECT x, repeat('z', 100) FROM generate_series(1, 50000) x; SELECT a, b FROM limited",
      "SELECT DISTINCT a, b FROM big",
  };
  for (const char* sql : queries) {
    Streamed s = stream_query(conn.c, sql);
    INFO(sql << ": " << s.rows << " rows before the error");
    CHECK(s.error == "result exceeds max size of 1MB");
    CHECK(s.sqlstate == "54000");
    CHECK(s.rows > 0);      // the rows before the limit were sent
    CHECK(s.rows < 50000);  // and the scan stopped there
    conn.exec_ok("SET transaction_isolation = 'serializable'");
  }
  system.exec_ok("ALTER SYSTEM RESET max_result_size");
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
