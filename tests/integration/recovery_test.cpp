// Integration: crash recovery. Acknowledged writes survive SIGKILL exactly
// once; a damaged data directory is a clear startup error, never a crash or
// a silent re-initialisation.

#include <libpq-fe.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "tests/support/tandemd_process.hpp"

using tandem::testing::TandemdProcess;

namespace {

std::string temp_dir() {
  char tmpl[] = "/tmp/tandem-recovery-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  return tmpl;
}

// Runs tandemd on `data_dir` to completion and returns its exit status and output.
std::pair<int, std::string> run_to_exit(const std::string& data_dir) {
  std::string log = data_dir + ".log";
  std::string cmd = std::string(TANDEMD_PATH) + " --listen 127.0.0.1:" + std::to_string(tandem::testing::free_port()) +
                    " --data-dir " + data_dir + " > " + log + " 2>&1";
  int status = std::system(("timeout 20 " + cmd).c_str());
  std::ifstream in(log);
  std::string out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

}  // namespace

TEST_CASE("acknowledged inserts survive SIGKILL exactly once") {
  std::string dir = temp_dir();
  std::string data = dir + "/data";
  std::mt19937 rng(std::random_device{}());
  std::set<int64_t> acked_all, attempted_all;
  for (int round = 0; round < 5; ++round) {
    TandemdProcess server({}, data);
    if (round == 0) {
      PGconn* c = PQconnectdb(server.conninfo().c_str());
      PQclear(PQexec(c, "CREATE TABLE r (id bigint, payload text)"));
      PQfinish(c);
    }
    std::mutex mu;
    std::atomic<bool> stop{false};
    std::vector<std::thread> writers;
    for (int w = 0; w < 4; ++w) {
      writers.emplace_back([&, w] {
        PGconn* c = PQconnectdb(server.conninfo().c_str());
        for (int64_t i = 0; !stop.load(); ++i) {
          int64_t id = (int64_t(round) << 40) | (int64_t(w) << 32) | i;
          std::string sql = "INSERT INTO r VALUES (" + std::to_string(id) + ", 'p')";
          {
            std::lock_guard lock(mu);
            attempted_all.insert(id);
          }
          PGresult* r = PQexec(c, sql.c_str());
          bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
          PQclear(r);
          if (!ok) break;
          std::lock_guard lock(mu);
          acked_all.insert(id);
        }
        PQfinish(c);
      });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100 + rng() % 400));
    kill(server.pid(), SIGKILL);
    stop = true;
    for (auto& t : writers) t.join();
  }
  std::multiset<int64_t> present;
  {
    // Stopped before the directory is removed: a live server's background
    // compaction deletes files under remove_all.
    TandemdProcess server({}, data);
    PGconn* c = PQconnectdb(server.conninfo().c_str());
    PGresult* r = PQexec(c, "SELECT id FROM r");
    REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
    for (int i = 0; i < PQntuples(r); ++i) present.insert(std::stoll(PQgetvalue(r, i, 0)));
    PQclear(r);
    PQfinish(c);
  }
  INFO("acknowledged " << acked_all.size() << ", present " << present.size());
  CHECK(acked_all.size() > 0);
  for (int64_t id : acked_all) CHECK(present.count(id) == 1);
  for (int64_t id : present) {
    CHECK(present.count(id) == 1);
    CHECK(attempted_all.count(id) == 1);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("a damaged data directory is a clear startup error") {
  std::string dir = temp_dir();
  // Not a directory at all.
  std::string file = dir + "/plain-file";
  std::ofstream(file) << "not a database";
  auto [status, out] = run_to_exit(file);
  CHECK(status == 1);
  CHECK(out.find("could not") != std::string::npos);

  // A real data directory whose RocksDB metadata is garbage.
  std::string data = dir + "/data";
  { TandemdProcess first({}, data); }
  std::ofstream(data + "/CURRENT", std::ios::trunc) << "MANIFEST-999999\n";
  auto [status2, out2] = run_to_exit(data);
  CHECK(status2 == 1);
  CHECK(out2.find("could not open data directory") != std::string::npos);
  // Nothing was re-initialised behind the user's back.
  std::ifstream current(data + "/CURRENT");
  std::string line;
  std::getline(current, line);
  CHECK(line == "MANIFEST-999999");
  std::filesystem::remove_all(dir);
}

namespace {

// The single value of a one-row, one-column query (fails the test otherwise).
std::string query_value(PGconn* c, const std::string& sql) {
  PGresult* r = PQexec(c, sql.c_str());
  INFO(sql << ": " << PQresultErrorMessage(r));
  REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
  REQUIRE(PQntuples(r) == 1);
  std::string value = PQgetvalue(r, 0, 0);
  PQclear(r);
  return value;
}

// Column `column` of every row of a query's result.
std::vector<std::string> query_column(PGconn* c, const std::string& sql, int column = 0) {
  PGresult* r = PQexec(c, sql.c_str());
  INFO(sql << ": " << PQresultErrorMessage(r));
  REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
  std::vector<std::string> values;
  for (int i = 0; i < PQntuples(r); ++i) values.push_back(PQgetvalue(r, i, column));
  PQclear(r);
  return values;
}

void exec_ok(PGconn* c, const std::string& sql) {
  PGresult* r = PQexec(c, sql.c_str());
  INFO(sql << ": " << PQresultErrorMessage(r));
  CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
  PQclear(r);
}

uint64_t wall_clock_ms() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count());
}

}  // namespace

// A strict-serializable read's mz_now() is the oracle's read timestamp: at
// least the timestamp of every acknowledged write before it. So a sequence of
// writes, each followed by `SELECT mz_now()`, observes timestamps that must
// strictly increase, across SIGKILL and restarts, even when the restarted
// server's wall clock is an hour (then two) behind: only the persisted
// high-water mark keeps the oracle ahead of what it issued before.
TEST_CASE("the timestamp oracle never goes backwards across restarts, even if the wall clock does") {
  const int64_t kHour = 3600 * 1000;
  {
    // The offset is real: a fresh server an hour behind issues timestamps
    // about an hour ago.
    TandemdProcess behind({"--unsafe-wall-clock-offset-ms", std::to_string(-kHour)});
    PGconn* c = PQconnectdb(behind.conninfo().c_str());
    uint64_t ts = std::stoull(query_value(c, "SELECT mz_now()"));
    CHECK(ts < wall_clock_ms() - kHour + 60 * 1000);
    CHECK(ts > wall_clock_ms() - kHour - 60 * 1000);
    PQfinish(c);
  }
  std::string dir = temp_dir();
  std::string data = dir + "/data";
  uint64_t last = 0;
  int64_t rows = 0;
  const int64_t offsets[] = {0, -kHour, -2 * kHour, 0};
  for (int round = 0; round < 4; ++round) {
    INFO("round " << round << ", wall clock offset " << offsets[round] << " ms");
    TandemdProcess server({"--unsafe-wall-clock-offset-ms", std::to_string(offsets[round])}, data);
    PGconn* c = PQconnectdb(server.conninfo().c_str());
    REQUIRE(PQstatus(c) == CONNECTION_OK);
    if (round == 0) exec_ok(c, "CREATE TABLE o (i bigint)");
    // The first read after the restart is already past everything before it.
    uint64_t first = std::stoull(query_value(c, "SELECT mz_now()"));
    CHECK(first > last);
    last = first;
    for (int i = 0; i < 20; ++i) {
      exec_ok(c, "INSERT INTO o VALUES (" + std::to_string(rows++) + ")");
      uint64_t ts = std::stoull(query_value(c, "SELECT mz_now()"));
      CHECK(ts > last);
      last = ts;
    }
    CHECK(query_value(c, "SELECT count(*) FROM o") == std::to_string(rows));
    PQfinish(c);
    kill(server.pid(), SIGKILL);
  }
  std::filesystem::remove_all(dir);
}

// ALTER ... RENAME rewrites the stored SQL of the views that name the item;
// after a restart re-plans everything from that SQL, the views read the same
// and SHOW CREATE shows the same text.
TEST_CASE("views over renamed items survive a restart") {
  std::string dir = temp_dir();
  std::string data = dir + "/data";
  const std::vector<std::string> shows = {"SHOW CREATE VIEW v2", "SHOW CREATE VIEW w", "SHOW CREATE INDEX v_by_b"};
  std::vector<std::string> before;
  {
    TandemdProcess server({}, data);
    PGconn* c = PQconnectdb(server.conninfo().c_str());
    exec_ok(c, "CREATE TABLE t (a int, b text)");
    exec_ok(c, "INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'y')");
    exec_ok(c, "CREATE VIEW v AS SELECT t.b, count(*) AS n FROM t GROUP BY t.b");
    exec_ok(c, "CREATE VIEW w AS WITH t AS (SELECT * FROM v WHERE n > 1) SELECT t.b FROM t");
    exec_ok(c, "CREATE INDEX v_by_b ON v (b)");
    exec_ok(c, "ALTER TABLE t RENAME TO t2");
    exec_ok(c, "ALTER VIEW v RENAME TO v2");
    for (const auto& s : shows) before.push_back(query_column(c, s, 1).at(0));
    CHECK(query_value(c, "SELECT n FROM v2 WHERE b = 'y'") == "2");
    PQfinish(c);
    kill(server.pid(), SIGKILL);
  }
  CHECK(before[0].find("FROM materialize.public.t2 AS t GROUP BY t.b") != std::string::npos);
  CHECK(before[1].find("WITH t AS (SELECT * FROM materialize.public.v2 WHERE (n > 1))") != std::string::npos);
  CHECK(before[2].find("ON materialize.public.v2 (b)") != std::string::npos);
  TandemdProcess server({}, data);
  PGconn* c = PQconnectdb(server.conninfo().c_str());
  for (size_t i = 0; i < shows.size(); ++i) {
    INFO(shows[i]);
    CHECK(query_column(c, shows[i], 1) == std::vector<std::string>{before[i]});
  }
  exec_ok(c, "INSERT INTO t2 VALUES (4, 'x')");
  CHECK(query_value(c, "SELECT n FROM v2 WHERE b = 'x'") == "2");
  CHECK(query_column(c, "SELECT b FROM w ORDER BY b") == std::vector<std::string>{"x", "y"});
  PQfinish(c);
  server.stop();  // before its files go: a live server compacts under remove_all
  std::filesystem::remove_all(dir);
}
