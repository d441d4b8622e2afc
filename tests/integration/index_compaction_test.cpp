// Integration: indexes compact as their read holds allow (the read policy:
// each index's since trails its upper by `compaction_lag`, held back by
// reads in flight). One row updated 100,000 times leaves its index holding
// its live record and the last lag's updates, not one pair per update;
// reads stay exact; an AS
// OF read within the lag answers, one far older is refused (72000); and
// mz_internal.mz_frontiers shows the since moving.

#include <libpq-fe.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <thread>

#include "tests/support/pg_conn.hpp"
#include "tests/support/tandemd_process.hpp"

using tandem::testing::PgConn;
using tandem::testing::query_scalar;
using tandem::testing::TandemdProcess;

namespace {

// The records the index's dataflow arranges (mz_dataflow_arrangement_sizes).
int64_t index_records(PgConn& conn, const std::string& index) {
  return std::stoll(query_scalar(conn, "SELECT coalesce(sum(records), 0)::text FROM "
                                       "mz_introspection.mz_dataflow_arrangement_sizes WHERE name LIKE '%." +
                                           index + "'"));
}

// The index's (read_frontier, write_frontier) in mz_internal.mz_frontiers.
std::pair<uint64_t, uint64_t> index_frontiers(PgConn& conn, const std::string& index) {
  std::string row = query_scalar(conn, "SELECT f.read_frontier::text, f.write_frontier::text FROM "
                                       "mz_internal.mz_frontiers f JOIN mz_indexes i ON i.id = f.object_id "
                                       "WHERE i.name = '" + index + "'");
  auto bar = row.find('|');
  return {std::stoull(row.substr(0, bar)), std::stoull(row.substr(bar + 1))};
}

// Runs prepared statement "u" `n` times, each its own transaction (one
// Sync each), pipelined in rounds so the client never waits per statement.
void update_pipelined(PgConn& conn, int n) {
  REQUIRE(PQenterPipelineMode(conn.c) == 1);
  constexpr int kRound = 500;
  for (int done = 0; done < n;) {
    const int round = std::min(kRound, n - done);
    for (int i = 0; i < round; ++i) {
      REQUIRE(PQsendQueryPrepared(conn.c, "u", 0, nullptr, nullptr, nullptr, 0) == 1);
      REQUIRE(PQpipelineSync(conn.c) == 1);
    }
    for (int i = 0; i < round; ++i) {
      PGresult* r = PQgetResult(conn.c);
      INFO(PQresultErrorMessage(r));
      REQUIRE(PQresultStatus(r) == PGRES_COMMAND_OK);
      PQclear(r);
      REQUIRE(PQgetResult(conn.c) == nullptr);  // end of this statement's results
      r = PQgetResult(conn.c);
      REQUIRE(PQresultStatus(r) == PGRES_PIPELINE_SYNC);
      PQclear(r);
    }
    done += round;
  }
  REQUIRE(PQexitPipelineMode(conn.c) == 1);
}

// SQLSTATE and message of `sql`, which must fail.
std::string error_of(PgConn& conn, const std::string& sql) {
  PGresult* r = PQexec(conn.c, sql.c_str());
  INFO(sql);
  REQUIRE(PQresultStatus(r) == PGRES_FATAL_ERROR);
  std::string out = std::string(PQresultErrorField(r, PG_DIAG_SQLSTATE)) + " " +
                    PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
  PQclear(r);
  return out;
}

}  // namespace

TEST_CASE("an index over one row updated 100,000 times holds about its live records") {
  TandemdProcess server({"--durability", "relaxed"});
  PgConn conn(server.conninfo());
  PgConn system(server.conninfo("mz_system"));
  conn.exec_ok("CREATE TABLE t (k int, v int)");
  conn.exec_ok("CREATE INDEX t_idx ON t (k)");
  conn.exec_ok("INSERT INTO t VALUES (1, 0)");
  PGresult* prepared = PQprepare(conn.c, "u", "UPDATE t SET v = v + 1 WHERE k = 1", 0, nullptr);
  REQUIRE(PQresultStatus(prepared) == PGRES_COMMAND_OK);
  PQclear(prepared);

  // Each update takes its own timestamp (a millisecond), so the index
  // keeps the updates of the last `compaction_lag` of timestamps (two
  // records each) plus what unfinished merges hold: bounded by the lag,
  // not by the number of updates (which left 200,001 records before
  // indexes compacted).
  constexpr int kUpdates = 100'000;
  constexpr int kRound = 10'000;
  int64_t peak_default = 0;  // compaction_lag 1s
  int64_t peak_short = 0;    // compaction_lag 50ms
  const auto start = std::chrono::steady_clock::now();
  for (int done = 0; done < kUpdates; done += kRound) {
    if (done == kUpdates / 2) system.exec_ok("ALTER SYSTEM SET compaction_lag = '50ms'");
    update_pipelined(conn, kRound);
    int64_t& peak = done < kUpdates / 2 ? peak_default : peak_short;
    peak = std::max(peak, index_records(conn, "t_idx"));
    // Reads stay exact while the index compacts under them.
    CHECK(query_scalar(conn, "SELECT v FROM t WHERE k = 1") == std::to_string(done + kRound));
  }
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(query_scalar(conn, "SELECT k::text || ' ' || v::text FROM t") == "1 " + std::to_string(kUpdates));
  // With the writes over, the index consolidates to its live row and the
  // last lag's updates, even though no further update drives its merges.
  int64_t records = index_records(conn, "t_idx");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (records > 128 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    records = index_records(conn, "t_idx");
  }
  WARN(kUpdates << " updates in " << seconds << " s; index records: peak " << peak_default
                         << " (lag 1s), " << peak_short << " (lag 50ms), " << records << " after");
  CHECK(peak_default < 5'000);
  CHECK(peak_short < 500);
  CHECK(records <= 128);
  const auto [since, upper] = index_frontiers(conn, "t_idx");
  CHECK(since < upper);
  CHECK(query_scalar(conn, "SELECT v FROM t WHERE k = 1") == std::to_string(kUpdates));
  system.exec_ok("ALTER SYSTEM RESET compaction_lag");
}

TEST_CASE("an AS OF read within the compaction lag answers; one far older is refused") {
  TandemdProcess server;
  PgConn conn(server.conninfo());
  conn.exec_ok("CREATE TABLE t (k int, v int)");
  conn.exec_ok("CREATE INDEX t_idx ON t (k)");
  conn.exec_ok("INSERT INTO t VALUES (1, 10)");
  auto [created_since, created_upper] = index_frontiers(conn, "t_idx");
  conn.exec_ok("UPDATE t SET v = 20");
  // Let the since move on (the upper ticks once a second).
  std::this_thread::sleep_for(std::chrono::seconds(3));
  auto [since, upper] = index_frontiers(conn, "t_idx");
  CHECK(since > created_since);
  CHECK(since < upper);
  CHECK(upper - since <= 3000);
  // Within the lag: the read holds the index at its time, and answers.
  CHECK(query_scalar(conn, "SELECT v FROM t AS OF " + std::to_string(upper - 1)) == "20");
  // Before the since (the table's history before the update, long
  // compacted): refused with a clear error, never a wrong answer.
  std::string refused = error_of(conn, "SELECT v FROM t AS OF " + std::to_string(created_upper));
  CHECK(refused.rfind("72000 Timestamp (" + std::to_string(created_upper) + ") is not valid for all inputs", 0) == 0);

  // A longer lag (compaction_lag, a system parameter) keeps more history.
  PgConn system(server.conninfo("mz_system"));
  system.exec_ok("ALTER SYSTEM SET compaction_lag = '1h'");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  auto [held_since, held_upper] = index_frontiers(conn, "t_idx");
  conn.exec_ok("UPDATE t SET v = 30");
  std::this_thread::sleep_for(std::chrono::seconds(3));
  auto [later_since, later_upper] = index_frontiers(conn, "t_idx");
  CHECK(later_since == held_since);  // the since waits; it never moves back
  CHECK(later_upper > held_upper + 1000);
  CHECK(query_scalar(conn, "SELECT v FROM t AS OF " + std::to_string(held_upper)) == "20");
  CHECK(query_scalar(conn, "SELECT v FROM t") == "30");
  system.exec_ok("ALTER SYSTEM RESET compaction_lag");
}
