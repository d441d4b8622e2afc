// Integration: background compaction of table and materialized-view shards,
// driven by the coordinator, seen through mz_internal.mz_shard_storage.
// After many updates of the same rows each shard's stored history shrinks;
// a cluster created after compaction, and a restart, read the right
// contents; a shard's since never falls back across a restart. Compaction
// never passes a read that holds a time: an explicit transaction's later
// reads at its timestamp, and a SUBSCRIBE started before the updates, stay
// exact however far "now" moves meanwhile.

#include <libpq-fe.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <thread>

#include "tests/support/pg_conn.hpp"
#include "tests/support/tandemd_process.hpp"

using tandem::testing::TandemdProcess;

namespace {

std::string query_one(PGconn* c, const std::string& sql) {
  PGresult* r = PQexec(c, sql.c_str());
  INFO(sql << ": " << PQerrorMessage(c));
  REQUIRE((PQresultStatus(r) == PGRES_TUPLES_OK || PQresultStatus(r) == PGRES_COMMAND_OK));
  std::string out = PQntuples(r) > 0 ? PQgetvalue(r, 0, 0) : "";
  PQclear(r);
  return out;
}

// A column of the object's row in mz_internal.mz_shard_storage.
uint64_t shard_column(PGconn* c, const std::string& object, const std::string& column) {
  std::string v = query_one(c, "SELECT s." + column + "::text FROM mz_internal.mz_shard_storage s JOIN mz_objects o "
                                "ON o.id = s.object_id WHERE o.name = '" + object + "'");
  REQUIRE(!v.empty());
  return std::stoull(v);
}

// Waits (up to 20 s) until the object's shard stores fewer than `bound`
// batches; returns what it stores then.
uint64_t stored_batches_below(PGconn* c, const std::string& object, uint64_t bound) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  uint64_t batches = shard_column(c, object, "stored_batches");
  while (batches >= bound && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    batches = shard_column(c, object, "stored_batches");
  }
  return batches;
}

}  // namespace

TEST_CASE("table and materialized-view shards are compacted in the background and stay readable") {
  char tmpl[] = "/tmp/tandem-compaction-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  const std::string data = std::string(tmpl) + "/data";
  constexpr int kUpdates = 300;
  const std::string expected = std::to_string(10 * kUpdates + 55);  // sum(v) after the updates
  uint64_t table_since = 0;
  {
    TandemdProcess server({}, data);
    PGconn* c = PQconnectdb(server.conninfo().c_str());
    REQUIRE(PQstatus(c) == CONNECTION_OK);
    query_one(c, "CREATE TABLE t (k int, v int)");
    query_one(c, "INSERT INTO t SELECT x, x FROM generate_series(1, 10) AS x");
    query_one(c, "CREATE MATERIALIZED VIEW m AS SELECT sum(v) AS s, count(*) AS n FROM t");
    CHECK(query_one(c, "SELECT count(DISTINCT s.shard_id) FROM mz_internal.mz_storage_shards s "
                       "JOIN mz_objects o ON o.id = s.object_id WHERE o.name IN ('t', 'm')") == "2");
    for (int i = 0; i < kUpdates; ++i) query_one(c, "UPDATE t SET v = v + 1");
    query_one(c, "INSERT INTO t VALUES (0, 0)");
    // Without compaction each shard would hold a batch per statement. The
    // read frontier trails "now" by a second; the compaction thread then
    // rewrites what lies below it.
    uint64_t table_batches = stored_batches_below(c, "t", kUpdates / 3);
    uint64_t view_batches = stored_batches_below(c, "m", kUpdates / 3);
    INFO("stored batches after " << kUpdates << " updates: t " << table_batches << ", m " << view_batches);
    CHECK(table_batches < kUpdates / 3);
    CHECK(view_batches < kUpdates / 3);
    CHECK(shard_column(c, "t", "stored_bytes") > 0);
    // A cluster created now replays the table from its since.
    query_one(c, "CREATE CLUSTER late (SIZE = '1')");
    query_one(c, "SET cluster = late");
    CHECK(query_one(c, "SELECT sum(v) FROM t") == expected);
    CHECK(query_one(c, "SELECT count(*) FROM t") == "11");
    CHECK(query_one(c, "SELECT s::text || ' ' || n::text FROM m") == expected + " 11");
    // No write after this: since moves on with no append to store it with.
    std::this_thread::sleep_for(std::chrono::seconds(3));
    table_since = shard_column(c, "t", "read_frontier");
    CHECK(table_since < shard_column(c, "t", "write_frontier"));
    PQfinish(c);
    REQUIRE(server.stop() == 0);
    UNSCOPED_INFO(server.log());
  }
  {
    TandemdProcess server({}, data);
    PGconn* c = PQconnectdb(server.conninfo().c_str());
    REQUIRE(PQstatus(c) == CONNECTION_OK);
    // Since is where it was before the restart, or later; never behind.
    CHECK(shard_column(c, "t", "read_frontier") >= table_since);
    CHECK(shard_column(c, "t", "stored_batches") < kUpdates / 3);
    CHECK(query_one(c, "SELECT sum(v) FROM t") == expected);
    CHECK(query_one(c, "SELECT s::text || ' ' || n::text FROM m") == expected + " 11");
    query_one(c, "SET cluster = late");
    CHECK(query_one(c, "SELECT count(*) FROM t WHERE v > 100") == "10");
    PQfinish(c);
  }
  std::filesystem::remove_all(tmpl);
}

TEST_CASE("an explicit transaction's reads stay exact while compaction moves on") {
  TandemdProcess server;
  tandem::testing::PgConn reader(server.conninfo());
  tandem::testing::PgConn writer(server.conninfo());
  writer.exec_ok("CREATE TABLE t (k int, v int)");
  writer.exec_ok("CREATE TABLE u (k int)");
  writer.exec_ok("INSERT INTO t SELECT x, x FROM generate_series(1, 10) AS x");
  writer.exec_ok("INSERT INTO u VALUES (1), (2), (3)");
  reader.exec_ok("BEGIN");
  CHECK(query_one(reader.c, "SELECT sum(v) FROM t") == "55");
  for (int i = 0; i < 200; ++i) {
    writer.exec_ok("UPDATE t SET v = v + 1");
    if (i % 20 == 0) writer.exec_ok("UPDATE u SET k = k + 10");
  }
  // Well past the compaction lag: without the transaction's hold the table
  // read frontier would be beyond its timestamp by now.
  std::this_thread::sleep_for(std::chrono::seconds(3));
  CHECK(query_one(writer.c, "SELECT sum(v) FROM t") == "2055");
  // The same table again, a table this transaction had not read (its
  // history comes from the shard), and both in one dataflow.
  CHECK(query_one(reader.c, "SELECT sum(v) FROM t") == "55");
  CHECK(query_one(reader.c, "SELECT sum(k) FROM u") == "6");
  CHECK(query_one(reader.c, "SELECT sum(v) + (SELECT sum(k) FROM u) FROM t") == "61");
  // A new cluster's first read in it: replayed from the shard as well.
  writer.exec_ok("CREATE CLUSTER other (SIZE = '1')");
  reader.exec_ok("COMMIT");
  reader.exec_ok("SET cluster = other");
  reader.exec_ok("BEGIN");
  CHECK(query_one(reader.c, "SELECT sum(v) FROM t") == "2055");
  for (int i = 0; i < 50; ++i) writer.exec_ok("UPDATE t SET v = v - 1");
  std::this_thread::sleep_for(std::chrono::seconds(3));
  CHECK(query_one(reader.c, "SELECT sum(v) FROM t") == "2055");
  CHECK(query_one(reader.c, "SELECT count(*) FROM u") == "3");
  reader.exec_ok("COMMIT");
  CHECK(query_one(reader.c, "SELECT sum(v) FROM t") == "1555");
  // Once the transaction is over its hold is gone and the frontier moves on.
  const uint64_t now_since = shard_column(writer.c, "t", "read_frontier");
  std::this_thread::sleep_for(std::chrono::seconds(3));
  CHECK(shard_column(writer.c, "t", "read_frontier") > now_since);
}

TEST_CASE("a subscribe started before many updates stays exact while compaction moves on") {
  TandemdProcess server;
  tandem::testing::PgConn sub(server.conninfo());
  tandem::testing::PgConn writer(server.conninfo());
  writer.exec_ok("CREATE TABLE t (k int, v int)");
  writer.exec_ok("INSERT INTO t SELECT x, x FROM generate_series(1, 10) AS x");
  sub.exec_ok("BEGIN");
  sub.exec_ok("DECLARE c CURSOR FOR SUBSCRIBE (SELECT sum(v) AS s FROM t)");
  // Sums the diffs of each value FETCHed so far; the collection is one row.
  std::map<std::string, long> contents;
  auto fetch = [&] {
    PGresult* r = PQexec(sub.c, "FETCH ALL c WITH (timeout = '1s')");
    INFO(PQerrorMessage(sub.c));
    REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
    for (int i = 0; i < PQntuples(r); ++i) contents[PQgetvalue(r, i, 2)] += std::atol(PQgetvalue(r, i, 1));
    PQclear(r);
    for (auto it = contents.begin(); it != contents.end();) it = it->second == 0 ? contents.erase(it) : std::next(it);
  };
  fetch();
  CHECK(contents == std::map<std::string, long>{{"55", 1}});
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 100; ++i) writer.exec_ok("UPDATE t SET v = v + 1");
    // Past the compaction lag, so the shards compact while it runs.
    std::this_thread::sleep_for(std::chrono::seconds(2));
    fetch();
    const std::string sum = std::to_string(55 + 1000 * (round + 1));
    CHECK(contents == std::map<std::string, long>{{sum, 1}});
  }
  sub.exec_ok("COMMIT");
  CHECK(shard_column(writer.c, "t", "stored_batches") < 100);
}
