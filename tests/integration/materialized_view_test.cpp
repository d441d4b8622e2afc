// Materialized views across restarts: the view's shard keeps its contents
// (data and errors), and after a restart — clean or SIGKILL in the middle of
// writes — the view converges to what its query computes over the tables.
#include <libpq-fe.h>
#include <signal.h>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/tandemd_process.hpp"

using tandem::testing::TandemdProcess;

namespace {

std::string temp_dir() {
  char tmpl[] = "/tmp/tandem-mv-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  return tmpl;
}

void exec(PGconn* c, const std::string& sql) {
  PGresult* r = PQexec(c, sql.c_str());
  INFO(sql << ": " << PQresultErrorMessage(r));
  REQUIRE((PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK));
  PQclear(r);
}

// The rows of `sql`, each as its columns joined by '|', or the error.
std::vector<std::string> rows(PGconn* c, const std::string& sql) {
  PGresult* r = PQexec(c, sql.c_str());
  std::vector<std::string> out;
  if (PQresultStatus(r) != PGRES_TUPLES_OK) {
    out.push_back(std::string("ERROR: ") + PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY));
  } else {
    for (int i = 0; i < PQntuples(r); ++i) {
      std::string row;
      for (int j = 0; j < PQnfields(r); ++j) row += (j ? "|" : "") + std::string(PQgetvalue(r, i, j));
      out.push_back(row);
    }
  }
  PQclear(r);
  return out;
}

const char* kView = "SELECT k, count(*), sum(v) FROM t GROUP BY k ORDER BY k";

}  // namespace

TEST_CASE("a materialized view survives restarts and converges after SIGKILL") {
  std::string dir = temp_dir();
  std::string data = dir + "/data";
  {
    TandemdProcess server({}, data);
    PGconn* c = PQconnectdb(server.conninfo().c_str());
    exec(c, "CREATE TABLE t (k int, v int)");
    exec(c, "INSERT INTO t SELECT x % 7, x FROM generate_series(1, 100) AS x");
    exec(c, "CREATE MATERIALIZED VIEW mv AS SELECT k, count(*) AS n, sum(v) AS s FROM t GROUP BY k");
    exec(c, "CREATE MATERIALIZED VIEW inv AS SELECT k, 1000 / v AS r FROM t");
    CHECK(rows(c, "SELECT * FROM mv ORDER BY k") == rows(c, kView));
    exec(c, "INSERT INTO t VALUES (3, 0)");  // an error in `inv`
    CHECK(rows(c, "SELECT * FROM inv") == std::vector<std::string>{"ERROR: Evaluation error: division by zero"});
    PQfinish(c);
  }
  for (int round = 0; round < 3; ++round) {
    TandemdProcess server({}, data);
    PGconn* c = PQconnectdb(server.conninfo().c_str());
    REQUIRE(PQstatus(c) == CONNECTION_OK);
    // The persisted error is read back as an error.
    CHECK(rows(c, "SELECT * FROM inv") == std::vector<std::string>{"ERROR: Evaluation error: division by zero"});
    CHECK(rows(c, "SELECT * FROM mv ORDER BY k") == rows(c, kView));
    exec(c, "INSERT INTO t VALUES (" + std::to_string(round) + ", 1000)");
    CHECK(rows(c, "SELECT * FROM mv ORDER BY k") == rows(c, kView));
    // Writes race a SIGKILL: the view's shard may lag the table's, and the
    // restart must correct it.
    std::thread writer([&] {
      PGconn* w = PQconnectdb(server.conninfo().c_str());
      for (int i = 0; i < 200; ++i) {
        PGresult* r = PQexec(w, ("INSERT INTO t VALUES (" + std::to_string(i % 5) + ", " + std::to_string(i) + ")").c_str());
        bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        PQclear(r);
        if (!ok) break;
      }
      PQfinish(w);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    kill(server.pid(), SIGKILL);
    writer.join();
    PQfinish(c);
  }
  {
    TandemdProcess server({}, data);
    PGconn* c = PQconnectdb(server.conninfo().c_str());
    CHECK(rows(c, "SELECT * FROM mv ORDER BY k") == rows(c, kView));
    exec(c, "DELETE FROM t WHERE v = 0");
    CHECK(rows(c, "SELECT count(*) FROM inv") == rows(c, "SELECT count(*) FROM t"));
    exec(c, "DROP MATERIALIZED VIEW mv");
    PQfinish(c);
  }
  {
    // The dropped view stays dropped; the other one still answers.
    TandemdProcess server({}, data);
    PGconn* c = PQconnectdb(server.conninfo().c_str());
    CHECK(rows(c, "SELECT * FROM mv")[0].rfind("ERROR: relation \"mv\" does not exist", 0) == 0);
    CHECK(rows(c, "SELECT count(*) FROM inv") == rows(c, "SELECT count(*) FROM t"));
    PQfinish(c);
  }
  std::filesystem::remove_all(dir);
}

// Randomized: materialized views and an index over a join, a reduce and a
// distinct, maintained under random inserts, deletes and updates, always
// equal to the same queries recomputed from scratch over the table.
TEST_CASE("materialized views equal a from-scratch recompute under random writes") {
  std::string dir = temp_dir();
  TandemdProcess server({}, dir + "/data");
  PGconn* c = PQconnectdb(server.conninfo().c_str());
  REQUIRE(PQstatus(c) == CONNECTION_OK);
  exec(c, "CREATE TABLE r (a int, b int)");
  exec(c, "CREATE TABLE s (a int, c text)");
  const std::vector<std::pair<std::string, std::string>> queries = {
      {"agg", "SELECT a, count(*) AS n, sum(b) AS sb, min(b) AS mn, max(b) AS mx FROM r GROUP BY a"},
      {"joined", "SELECT r.a, r.b, s.c FROM r JOIN s ON r.a = s.a WHERE r.b > 2"},
      {"dist", "SELECT DISTINCT b % 3 AS m FROM r"},
      {"outerj", "SELECT s.a, s.c, count(r.b) AS n FROM s LEFT JOIN r ON r.a = s.a GROUP BY s.a, s.c"},
  };
  exec(c, "CREATE INDEX s_a ON s (a)");
  for (const auto& [name, sql] : queries) exec(c, "CREATE MATERIALIZED VIEW " + name + " AS " + sql);
  exec(c, "CREATE VIEW joined_v AS SELECT * FROM joined");
  exec(c, "CREATE INDEX joined_idx ON joined_v (a)");
  std::mt19937 rng(20261202);
  for (int round = 0; round < 25; ++round) {
    for (int i = 0; i < 4; ++i) {
      switch (rng() % 5) {
        case 0:
        case 1:
          exec(c, "INSERT INTO r VALUES (" + std::to_string(rng() % 6) + ", " + std::to_string(rng() % 10) + ")");
          break;
        case 2:
          exec(c, "INSERT INTO s VALUES (" + std::to_string(rng() % 6) + ", 'c" + std::to_string(rng() % 3) + "')");
          break;
        case 3:
          exec(c, "DELETE FROM r WHERE b = " + std::to_string(rng() % 10));
          break;
        default:
          exec(c, "UPDATE s SET c = 'u' || c WHERE a = " + std::to_string(rng() % 6));
      }
    }
    for (const auto& [name, sql] : queries) {
      INFO("round " << round << " view " << name);
      std::string order = name == "dist" ? " ORDER BY 1" : " ORDER BY 1, 2, 3";
      CHECK(rows(c, "SELECT * FROM " + name + order) == rows(c, "SELECT * FROM (" + sql + ") AS q" + order));
    }
    CHECK(rows(c, "SELECT * FROM joined_v ORDER BY 1, 2, 3") ==
          rows(c, "SELECT * FROM (" + queries[1].second + ") AS q ORDER BY 1, 2, 3"));
  }
  PQfinish(c);
  server.stop();  // before its files go: a live server compacts under remove_all
  std::filesystem::remove_all(dir);
}
