// Integration: background compaction of table shards, driven by the
// coordinator. After many updates of the same rows the table's stored
// history shrinks (counted in the data dir once tandemd has stopped); a
// cluster created after compaction, and a restart, read the right contents.

#include <libpq-fe.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "storage/durable_store.hpp"
#include "storage/shard_store.hpp"
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

// Stored chunks and history rewrites of every shard in a stopped tandemd's
// data dir.
uint64_t stored_batches(const std::string& data_dir) {
  auto durable = tandem::storage::DurableStore::open({data_dir, false});
  REQUIRE(durable.ok());
  uint64_t batches = 0;
  {
    auto shards = tandem::storage::ShardStore::open(**durable);
    REQUIRE(shards.ok());
    for (auto id : (*shards)->list_shards()) {
      auto stats = (*shards)->storage_stats(id);
      REQUIRE(stats.ok());
      batches += stats->stored_batches;
    }
  }
  REQUIRE((*durable)->close().is_ok());
  return batches;
}

}  // namespace

TEST_CASE("a table's history is compacted in the background and stays readable") {
  char tmpl[] = "/tmp/tandem-compaction-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  const std::string data = std::string(tmpl) + "/data";
  constexpr int kUpdates = 300;
  const std::string expected = std::to_string(10 * kUpdates + 55);  // sum(v) after the updates
  {
    TandemdProcess server({}, data);
    PGconn* c = PQconnectdb(server.conninfo().c_str());
    REQUIRE(PQstatus(c) == CONNECTION_OK);
    query_one(c, "CREATE TABLE t (k int, v int)");
    query_one(c, "INSERT INTO t SELECT x, x FROM generate_series(1, 10) AS x");
    for (int i = 0; i < kUpdates; ++i) query_one(c, "UPDATE t SET v = v + 1");
    // The read frontier trails "now" by a second; let it pass the updates
    // and the compaction thread rewrite what lies below it.
    std::this_thread::sleep_for(std::chrono::seconds(4));
    query_one(c, "INSERT INTO t VALUES (0, 0)");  // stores the shard's new since
    // A cluster created now replays the table from its since.
    query_one(c, "CREATE CLUSTER late (SIZE = '1')");
    query_one(c, "SET cluster = late");
    CHECK(query_one(c, "SELECT sum(v) FROM t") == expected);
    CHECK(query_one(c, "SELECT count(*) FROM t") == "11");
    PQfinish(c);
    REQUIRE(server.stop() == 0);
    UNSCOPED_INFO(server.log());
  }
  // Without compaction the shard would hold one batch per statement.
  uint64_t batches = stored_batches(data);
  INFO("stored batches after " << kUpdates << " updates: " << batches);
  CHECK(batches < kUpdates / 3);
  {
    TandemdProcess server({}, data);
    PGconn* c = PQconnectdb(server.conninfo().c_str());
    REQUIRE(PQstatus(c) == CONNECTION_OK);
    CHECK(query_one(c, "SELECT sum(v) FROM t") == expected);
    query_one(c, "SET cluster = late");
    CHECK(query_one(c, "SELECT count(*) FROM t WHERE v > 100") == "10");
    PQfinish(c);
  }
  std::filesystem::remove_all(tmpl);
}
