// Integration: SUBSCRIBE over pgwire. A libpq
// client running COPY (SUBSCRIBE t) TO STDOUT sees the snapshot, then each
// insert and delete as it commits, in time order; closing the client or
// canceling the statement ends the subscribe and drops its dataflow;
// DECLARE ... CURSOR FOR SUBSCRIBE with FETCH ... WITH (timeout) reads the
// same updates in a transaction.

#include <libpq-fe.h>
#include <poll.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/pg_conn.hpp"
#include "tests/support/tandemd_process.hpp"

using tandem::testing::TandemdProcess;

namespace {

TandemdProcess& server() {
  static TandemdProcess process;
  return process;
}

using Conn = tandem::testing::PgConn;

// The next CopyData line of a COPY OUT, waiting up to `timeout`; nullopt
// on timeout or at the end of the copy.
std::optional<std::string> next_line(PGconn* c, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    char* buffer = nullptr;
    int n = PQgetCopyData(c, &buffer, 1);
    if (n > 0) {
      std::string line(buffer, static_cast<size_t>(n));
      PQfreemem(buffer);
      if (!line.empty() && line.back() == '\n') line.pop_back();
      return line;
    }
    if (n < 0) return std::nullopt;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    pollfd p{PQsocket(c), POLLIN, 0};
    poll(&p, 1, static_cast<int>(left.count()));
    if (PQconsumeInput(c) == 0) return std::nullopt;
  }
}

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  std::string f;
  while (std::getline(in, f, '\t')) out.push_back(f);
  return out;
}

size_t ended_count() {
  std::string log = server().log();
  size_t seen = 0;
  for (size_t at = log.find("ended: dataflow dropped"); at != std::string::npos;
       at = log.find("ended: dataflow dropped", at + 1))
    ++seen;
  return seen;
}

// Waits (up to 10 s) until the server's log says more than `before`
// subscribes ended (their dataflows dropped).
bool another_subscribe_ended(size_t before) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (ended_count() > before) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

}  // namespace

TEST_CASE("COPY (SUBSCRIBE t) TO STDOUT shows inserts and deletes as they commit") {
  Conn writer(server().conninfo());
  writer.exec_ok("CREATE TABLE sub_t (a int, b text)");
  writer.exec_ok("INSERT INTO sub_t VALUES (1, 'one'), (2, 'two')");
  Conn reader(server().conninfo());
  PGresult* r = PQexec(reader.c, "COPY (SUBSCRIBE sub_t) TO STDOUT");
  REQUIRE(PQresultStatus(r) == PGRES_COPY_OUT);
  CHECK(PQnfields(r) == 4);  // mz_timestamp, mz_diff, a, b
  PQclear(r);

  auto first = next_line(reader.c, std::chrono::seconds(10));
  auto second = next_line(reader.c, std::chrono::seconds(10));
  REQUIRE(first);
  REQUIRE(second);
  std::vector<std::string> snapshot{fields(*first)[1] + " " + fields(*first)[2] + " " + fields(*first)[3],
                                    fields(*second)[1] + " " + fields(*second)[2] + " " + fields(*second)[3]};
  std::sort(snapshot.begin(), snapshot.end());
  CHECK(snapshot == std::vector<std::string>{"1 1 one", "1 2 two"});
  CHECK(fields(*first)[0] == fields(*second)[0]);  // both at the as_of
  const uint64_t as_of = std::stoull(fields(*first)[0]);

  writer.exec_ok("INSERT INTO sub_t VALUES (3, 'three')");
  auto inserted = next_line(reader.c, std::chrono::seconds(10));
  REQUIRE(inserted);
  auto ins = fields(*inserted);
  CHECK(ins[1] == "1");
  CHECK(ins[2] == "3");
  CHECK(ins[3] == "three");
  CHECK(std::stoull(ins[0]) > as_of);

  writer.exec_ok("DELETE FROM sub_t WHERE a = 1");
  auto deleted = next_line(reader.c, std::chrono::seconds(10));
  REQUIRE(deleted);
  auto del = fields(*deleted);
  CHECK(del[1] == "-1");
  CHECK(del[2] == "1");
  CHECK(std::stoull(del[0]) >= std::stoull(ins[0]));  // timestamps never decrease

  // The client goes away: the subscribe ends and its dataflow is dropped.
  size_t ended = ended_count();
  PQfinish(reader.c);
  reader.c = nullptr;
  CHECK(another_subscribe_ended(ended));
  writer.exec_ok("INSERT INTO sub_t VALUES (4, 'four')");  // nothing is left to feed
}

TEST_CASE("canceling COPY (SUBSCRIBE ...) ends it with 57014") {
  Conn writer(server().conninfo());
  writer.exec_ok("CREATE TABLE sub_c (a int)");
  Conn reader(server().conninfo());
  PGresult* r = PQexec(reader.c, "COPY (SUBSCRIBE sub_c WITH (PROGRESS)) TO STDOUT");
  REQUIRE(PQresultStatus(r) == PGRES_COPY_OUT);
  PQclear(r);
  auto progress = next_line(reader.c, std::chrono::seconds(10));
  REQUIRE(progress);
  auto p = fields(*progress);
  REQUIRE(p.size() == 4);
  CHECK(p[1] == "t");
  CHECK(p[2] == "\\N");
  size_t ended = ended_count();
  PGcancel* cancel = PQgetCancel(reader.c);
  char err[256];
  REQUIRE(PQcancel(cancel, err, sizeof err) == 1);
  PQfreeCancel(cancel);
  while (next_line(reader.c, std::chrono::seconds(10))) {
  }
  std::string sqlstate;
  while ((r = PQgetResult(reader.c)) != nullptr) {
    if (PQresultStatus(r) == PGRES_FATAL_ERROR) sqlstate = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    PQclear(r);
  }
  CHECK(sqlstate == "57014");
  CHECK(another_subscribe_ended(ended));
  r = PQexec(reader.c, "SELECT 1");  // the session goes on
  CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
  PQclear(r);
}

TEST_CASE("DECLARE ... CURSOR FOR SUBSCRIBE with FETCH and a timeout") {
  Conn writer(server().conninfo());
  writer.exec_ok("CREATE TABLE sub_f (a int)");
  writer.exec_ok("INSERT INTO sub_f VALUES (7)");
  Conn reader(server().conninfo());
  reader.exec_ok("BEGIN");
  reader.exec_ok("DECLARE c CURSOR FOR SUBSCRIBE sub_f");
  PGresult* r = PQexec(reader.c, "FETCH ALL c");  // waits for the snapshot
  REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
  REQUIRE(PQntuples(r) == 1);
  CHECK(std::string(PQgetvalue(r, 0, 1)) == "1");
  CHECK(std::string(PQgetvalue(r, 0, 2)) == "7");
  CHECK(std::string(PQfname(r, 0)) == "mz_timestamp");
  PQclear(r);
  auto start = std::chrono::steady_clock::now();
  r = PQexec(reader.c, "FETCH ALL c WITH (timeout = '300ms')");  // nothing new
  REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
  CHECK(PQntuples(r) == 0);
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(300));
  PQclear(r);
  writer.exec_ok("INSERT INTO sub_f VALUES (8)");
  r = PQexec(reader.c, "FETCH 10 c WITH (timeout = '10s')");
  REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
  REQUIRE(PQntuples(r) == 1);
  CHECK(std::string(PQgetvalue(r, 0, 2)) == "8");
  PQclear(r);
  size_t ended = ended_count();
  reader.exec_ok("COMMIT");  // closes the cursor: the subscribe ends
  CHECK(another_subscribe_ended(ended));
}
