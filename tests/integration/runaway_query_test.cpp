// Integration: a runaway read (a cross join of three 100k-row tables, about
// 10^15 rows) ends with its statement: after a statement_timeout, a cancel
// request or the client's disconnect the server is idle again within a
// couple of seconds (CPU and memory), its cluster answers the next read at
// once, SIGTERM stops it promptly, and under max_query_heap_size such a
// query fails with 53200 instead of growing without bound.

#include <libpq-fe.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "tests/support/pg_conn.hpp"
#include "tests/support/proc_memory.hpp"
#include "tests/support/tandemd_process.hpp"

using tandem::testing::first_value;
using tandem::testing::TandemdProcess;

namespace {

using Clock = std::chrono::steady_clock;

// CPU seconds (user + system) the process has used.
double cpu_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));
  std::string field;
  long ticks = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14 || i == 15) ticks += std::stol(field);
  }
  return static_cast<double>(ticks) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// Waits until the server used under a third of a core over one second,
// for at most `limit`; returns whether it did.
bool goes_idle(pid_t pid, std::chrono::seconds limit) {
  const auto deadline = Clock::now() + limit;
  while (Clock::now() < deadline) {
    const double before = cpu_seconds(pid);
    std::this_thread::sleep_for(std::chrono::seconds(1));
    if (cpu_seconds(pid) - before < 0.33) return true;
  }
  return false;
}

constexpr const char* kCrossJoin = "SELECT count(*) FROM a, b, c";

struct Server {
  TandemdProcess process{{"--memory-limit", "256MB"}};
  PGconn* conn = nullptr;
  Server() {
    conn = PQconnectdb(process.conninfo().c_str());
    REQUIRE(PQstatus(conn) == CONNECTION_OK);
    for (const char* t : {"a", "b", "c"}) {
      REQUIRE(first_value(conn, std::string("CREATE TABLE ") + t + " (x int)") == "OK");
      REQUIRE(first_value(conn, std::string("INSERT INTO ") + t + " SELECT generate_series(1, 100000)") == "OK");
    }
    REQUIRE(first_value(conn, "SELECT count(*) FROM a") == "100000");
  }
  ~Server() { PQfinish(conn); }
  // The server's resident memory in MiB.
  long rss_mib() const { return tandem::testing::status_kib(process.pid(), "VmRSS") / 1024; }
  // The next read answers promptly.
  void answers_next_read() {
    const auto start = Clock::now();
    CHECK(first_value(conn, "SELECT count(*) FROM b WHERE x > 50000") == "50000");
    CHECK(Clock::now() - start < std::chrono::seconds(10));
  }
};

}  // namespace

TEST_CASE("a runaway read ends at its statement_timeout", "[runaway]") {
  Server s;
  const long before = s.rss_mib();
  REQUIRE(first_value(s.conn, "SET statement_timeout = '1s'") == "OK");
  const auto start = Clock::now();
  CHECK(first_value(s.conn, kCrossJoin) == "ERROR 57014");
  CHECK(Clock::now() - start < std::chrono::seconds(10));
  REQUIRE(first_value(s.conn, "SET statement_timeout = 0") == "OK");
  CHECK(goes_idle(s.process.pid(), std::chrono::seconds(15)));
  CHECK(s.rss_mib() < before + 512);
  s.answers_next_read();
}

TEST_CASE("a runaway read ends when it is canceled or its client goes away", "[runaway]") {
  Server s;
  std::string how;
  SECTION("cancel request") {
    how = "cancel";
    PGconn* c = PQconnectdb(s.process.conninfo().c_str());
    REQUIRE(PQstatus(c) == CONNECTION_OK);
    REQUIRE(PQsendQuery(c, kCrossJoin) == 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    tandem::testing::cancel_running(c);
    PGresult* r = PQgetResult(c);
    const char* state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    CHECK(std::string(state ? state : "") == "57014");
    PQclear(r);
    while ((r = PQgetResult(c)) != nullptr) PQclear(r);
    PQfinish(c);
  }
  SECTION("disconnect") {
    how = "disconnect";
    PGconn* c = PQconnectdb(s.process.conninfo().c_str());
    REQUIRE(PQstatus(c) == CONNECTION_OK);
    REQUIRE(PQsendQuery(c, kCrossJoin) == 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    PQfinish(c);
  }
  const bool idle = goes_idle(s.process.pid(), std::chrono::seconds(15));
  INFO(how << "\n" << s.process.log());
  CHECK(idle);
  s.answers_next_read();
}

TEST_CASE("a runaway read past max_query_heap_size fails with 53200", "[runaway]") {
  Server s;
  PGconn* system = PQconnectdb(s.process.conninfo("mz_system").c_str());
  REQUIRE(PQstatus(system) == CONNECTION_OK);
  REQUIRE(first_value(system, "ALTER SYSTEM SET max_query_heap_size = '32MB'") == "OK");
  PQfinish(system);
  // a x b is arranged for the join with c: past 32 MB within seconds.
  CHECK(first_value(s.conn, kCrossJoin) == "ERROR 53200");
  CHECK(goes_idle(s.process.pid(), std::chrono::seconds(15)));
  s.answers_next_read();
}

TEST_CASE("SIGTERM stops a server running a runaway read", "[runaway]") {
  Server s;
  PGconn* c = PQconnectdb(s.process.conninfo().c_str());
  REQUIRE(PQstatus(c) == CONNECTION_OK);
  REQUIRE(PQsendQuery(c, kCrossJoin) == 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  const auto start = Clock::now();
  CHECK(s.process.stop() == 0);
  CHECK(Clock::now() - start < std::chrono::seconds(10));
  PQfinish(c);
}
