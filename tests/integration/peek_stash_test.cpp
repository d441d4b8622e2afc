// Integration: the peek stash. With
// compute_peek_response_stash_threshold_bytes set tiny, a 200,000-row peek
// dataflow result (a join, ~100 MB on the wire) is walked into the RocksDB
// stash and read back from there: every row arrives exactly once, the
// server's resident set does not grow by the result's size while the
// client reads, max_result_size still ends it with its error, a collected
// result (LIMIT without ORDER BY) goes through the stash too while an
// ORDER BY result does not, and no stash is left behind: after a complete
// read, an error, a cancel and a client that goes away (tandemd's log
// reports each deletion with the live count), and on disk once the server
// stopped.

#include <libpq-fe.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "storage/durable_store.hpp"
#include "storage/peek_stash.hpp"
#include "tests/support/pg_conn.hpp"
#include "tests/support/tandemd_process.hpp"

using tandem::testing::PgConn;
using tandem::testing::TandemdProcess;

namespace {

constexpr int kLeft = 1000;
constexpr int kRight = 200;
constexpr long kRows = static_cast<long>(kLeft) * kRight;
constexpr int kPad = 500;
// The join's result as sent: ~kPad bytes of text per row, ~100 MB in all.
constexpr long kResultBytes = kRows * kPad;

TandemdProcess& server() {
  static TandemdProcess process;
  return process;
}

struct Conn : PgConn {
  explicit Conn(const std::string& conninfo) : PgConn(conninfo) {
    exec_ok("SET transaction_isolation = 'serializable'");
  }
};

// Two small tables whose join on a constant key is kRows rows: the result
// is far larger than its inputs, and only the peek dataflow holds it.
void ensure_tables() {
  static bool made = false;
  if (made) return;
  Conn conn(server().conninfo());
  conn.exec_ok("CREATE TABLE l (k int, x int, pad text)");
  conn.exec_ok("CREATE TABLE r (k int, y int)");
  conn.exec_ok("CREATE INDEX l_k ON l (k)");
  conn.exec_ok("CREATE INDEX r_k ON r (k)");
  conn.exec_ok("INSERT INTO l SELECT 1, x, repeat('p', " + std::to_string(kPad) + ") FROM generate_series(0, " +
               std::to_string(kLeft - 1) + ") x");
  conn.exec_ok("INSERT INTO r SELECT 1, y FROM generate_series(0, " + std::to_string(kRight - 1) + ") y");
  // This file's reads are serializable: they run at the latest time both
  // indexes are complete to as the coordinator last heard from compute,
  // which may trail the inserts for a moment (a serializable read may be
  // stale). Wait until such a read covers them, so every later one does.
  const std::string expected = std::to_string(kLeft) + "|" + std::to_string(kRight);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (std::string counts;; std::this_thread::sleep_for(std::chrono::milliseconds(20))) {
    PGresult* res = PQexec(conn.c, "SELECT (SELECT count(*) FROM l) || '|' || (SELECT count(*) FROM r)");
    counts = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 ? PQgetvalue(res, 0, 0) : "";
    PQclear(res);
    if (counts == expected) break;
    INFO("serializable counts " << counts << ", expected " << expected);
    REQUIRE(std::chrono::steady_clock::now() < deadline);
  }
  made = true;
}

const std::string kJoin = "SELECT l.x, r.y, l.pad FROM l JOIN r ON l.k = r.k";

long rss_kib(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

struct Read {
  long rows = 0;
  std::vector<int> seen;  // per (x, y): times it arrived
  long max_rss_kib = 0;   // the server's, sampled while the client read
  std::string tag, sqlstate, error;
};

// Reads `sql` in single-row mode, counting each (x, y) and sampling the
// server's resident set every 10,000 rows. `on_row` may stall or cancel.
template <class OnRow>
Read read_join(PGconn* c, const std::string& sql, OnRow on_row) {
  Read out;
  out.seen.assign(static_cast<std::size_t>(kRows), 0);
  REQUIRE(PQsendQuery(c, sql.c_str()) == 1);
  REQUIRE(PQsetSingleRowMode(c) == 1);
  while (PGresult* res = PQgetResult(c)) {
    if (PQresultStatus(res) == PGRES_SINGLE_TUPLE) {
      int x = std::stoi(PQgetvalue(res, 0, 0));
      int y = std::stoi(PQgetvalue(res, 0, 1));
      if (x >= 0 && x < kLeft && y >= 0 && y < kRight) ++out.seen[static_cast<std::size_t>(x * kRight + y)];
      if (out.rows % 10000 == 0) out.max_rss_kib = std::max(out.max_rss_kib, rss_kib(server().pid()));
      on_row(++out.rows);
    } else if (PQresultStatus(res) == PGRES_FATAL_ERROR) {
      out.error = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
      out.sqlstate = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    } else {
      out.tag = PQcmdStatus(res);
    }
    PQclear(res);
  }
  return out;
}

Read read_join(PGconn* c, const std::string& sql) {
  return read_join(c, sql, [](long) {});
}

// The stash deletions tandemd logged: (rows, live stashes after it).
struct Deletion {
  long rows;
  long live;
};
std::vector<Deletion> deletions() {
  static const std::regex line(R"(peek stash \d+ deleted \((\d+) rows, \d+ bytes\); live peek stashes: (\d+))");
  std::vector<Deletion> out;
  std::string log = server().log();
  for (std::sregex_iterator it(log.begin(), log.end(), line), end; it != end; ++it) {
    out.push_back({std::stol((*it)[1]), std::stol((*it)[2])});
  }
  return out;
}

// Waits (bounded) until tandemd logged `n` deletions in all.
std::vector<Deletion> await_deletions(std::size_t n) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (;;) {
    auto found = deletions();
    if (found.size() >= n || std::chrono::steady_clock::now() > deadline) return found;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

void set_system(const std::string& sql) {
  PgConn system(server().conninfo("mz_system"));
  system.exec_ok(sql);
}

}  // namespace

TEST_CASE("a large peek dataflow result streams from the stash, every row once, in bounded memory") {
  ensure_tables();
  Conn conn(server().conninfo());
  set_system("ALTER SYSTEM SET compute_peek_response_stash_threshold_bytes = '64kB'");
  // Warm up: the dataflow's code paths and the stash's first files.
  Read warm = read_join(conn.c, kJoin);
  REQUIRE(warm.rows == kRows);
  const std::size_t before = await_deletions(1).size();
  REQUIRE(before >= 1);

  const long baseline = rss_kib(server().pid());
  Read read = read_join(conn.c, kJoin, [](long rows) {
    // A slow client: the result waits on the server while it reads.
    if (rows % 20000 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  });
  INFO("baseline RSS " << baseline << " KiB, max while reading " << read.max_rss_kib << " KiB, result "
                       << kResultBytes / 1024 << " KiB");
  INFO(read.error);
  CHECK(read.tag == "SELECT " + std::to_string(kRows));
  REQUIRE(read.rows == kRows);
  long wrong = 0;
  for (int n : read.seen) wrong += n != 1;
  CHECK(wrong == 0);
  // The result never sat in the server's memory while the client read it.
  CHECK(read.max_rss_kib - baseline < kResultBytes / 1024 / 2);

  auto after = await_deletions(before + 1);
  REQUIRE(after.size() == before + 1);
  CHECK(after.back().rows == kRows);
  CHECK(after.back().live == 0);
  set_system("ALTER SYSTEM RESET compute_peek_response_stash_threshold_bytes");
}

TEST_CASE("max_result_size ends a stashed result, which is deleted") {
  ensure_tables();
  Conn conn(server().conninfo());
  set_system("ALTER SYSTEM SET compute_peek_response_stash_threshold_bytes = '64kB'");
  set_system("ALTER SYSTEM SET max_result_size = '10MB'");
  const std::size_t before = deletions().size();
  Read read = read_join(conn.c, kJoin);
  CHECK(read.sqlstate == "54000");
  CHECK(read.error == "result exceeds max size of 10MB");
  CHECK(read.rows > 0);                   // the rows below the limit came first
  CHECK(read.rows < kRows / 5);           // and the walk stopped there
  CHECK(read.rows * kPad < 11L << 20);
  auto after = await_deletions(before + 1);
  REQUIRE(after.size() == before + 1);
  CHECK(after.back().live == 0);
  set_system("ALTER SYSTEM RESET max_result_size");
  set_system("ALTER SYSTEM RESET compute_peek_response_stash_threshold_bytes");
}

TEST_CASE("a collected result goes through the stash, an ordered one stays in memory") {
  ensure_tables();
  Conn conn(server().conninfo());
  set_system("ALTER SYSTEM SET compute_peek_response_stash_threshold_bytes = '64kB'");
  std::size_t before = deletions().size();
  // LIMIT needs the whole result collected by compute: over the threshold,
  // it is moved to the stash before the first row is sent.
  Read limited = read_join(conn.c, kJoin + " LIMIT 150000");
  CHECK(limited.tag == "SELECT 150000");
  CHECK(limited.rows == 150000);
  long twice = 0;
  for (int n : limited.seen) twice += n > 1;
  CHECK(twice == 0);
  auto after = await_deletions(before + 1);
  REQUIRE(after.size() == before + 1);
  CHECK(after.back().rows == 150000);
  CHECK(after.back().live == 0);

  // ORDER BY sorts the whole result in memory: no stash.
  before = after.size();
  Read ordered = read_join(conn.c, kJoin + " ORDER BY r.y, l.x");
  CHECK(ordered.rows == kRows);
  CHECK(ordered.tag == "SELECT " + std::to_string(kRows));
  CHECK(deletions().size() == before);
  // ... but max_result_size still bounds it.
  set_system("ALTER SYSTEM SET max_result_size = '10MB'");
  ordered = read_join(conn.c, kJoin + " ORDER BY r.y, l.x");
  CHECK(ordered.sqlstate == "54000");
  CHECK(ordered.rows == 0);
  set_system("ALTER SYSTEM RESET max_result_size");

  // Under the threshold, a result stays in memory.
  set_system("ALTER SYSTEM RESET compute_peek_response_stash_threshold_bytes");
  Read small = read_join(conn.c, kJoin + " AND l.x < 5");
  CHECK(small.rows == 5 * kRight);
  CHECK(deletions().size() == before);
}

TEST_CASE("a canceled read and a client that goes away leave no stash") {
  ensure_tables();
  set_system("ALTER SYSTEM SET compute_peek_response_stash_threshold_bytes = '64kB'");
  std::size_t before = deletions().size();
  {
    Conn conn(server().conninfo());
    Read canceled = read_join(conn.c, kJoin, [&](long rows) {
      if (rows != 1) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      PGcancel* cancel = PQgetCancel(conn.c);
      char err[256];
      CHECK(PQcancel(cancel, err, sizeof err) == 1);
      PQfreeCancel(cancel);
    });
    CHECK(canceled.sqlstate == "57014");
    CHECK(canceled.rows < kRows);
    auto after = await_deletions(before + 1);
    REQUIRE(after.size() == before + 1);
    CHECK(after.back().live == 0);
    before = after.size();
  }
  {
    // Reads one row, then disconnects with the rest unread.
    PGconn* c = PQconnectdb(server().conninfo().c_str());
    REQUIRE(PQstatus(c) == CONNECTION_OK);
    PQclear(PQexec(c, "SET transaction_isolation = 'serializable'"));
    REQUIRE(PQsendQuery(c, kJoin.c_str()) == 1);
    REQUIRE(PQsetSingleRowMode(c) == 1);
    PGresult* first = PQgetResult(c);
    CHECK(PQresultStatus(first) == PGRES_SINGLE_TUPLE);
    PQclear(first);
    PQfinish(c);
  }
  auto after = await_deletions(before + 1);
  REQUIRE(after.size() == before + 1);
  CHECK(after.back().live == 0);
  set_system("ALTER SYSTEM RESET compute_peek_response_stash_threshold_bytes");

  // Once the server stopped, its stash family holds no block either.
  ensure_tables();
  std::string data_dir = server().data_dir();
  REQUIRE(server().stop() == 0);
  auto store = tandem::storage::DurableStore::open({data_dir, false});
  REQUIRE(store.ok());
  auto blocks = tandem::storage::PeekStash::count_blocks(**store);
  REQUIRE(blocks.ok());
  CHECK(*blocks == 0);
}
