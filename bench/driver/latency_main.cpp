// tandem-latency: client-side latency of maintained views and index builds,
// tandemd and PostgreSQL side by side, interleaved in one process so both see
// the same machine load. It only measures: the
// calling script (bench/freshness_vs_postgres.sh,
// bench/hydration_vs_postgres.sh) creates and loads the tables first.
//
//   tandem-latency freshness TANDEM_CONNINFO PG_CONNINFO [ROUNDS] [TANDEM_PER_ROUND]
//     Both servers hold t(k int, v int). tandem has an index on the view
//     agg = SELECT k, count(*) AS c, sum(v) AS s FROM t GROUP BY k; PostgreSQL
//     has the same query as MATERIALIZED VIEW agg with an index on k. One
//     tandem sample: INSERT INTO t VALUES (k, 1); then read agg at k (a
//     strict serializable read, the default) until c shows the new row.
//     One PostgreSQL sample: INSERT; REFRESH MATERIALIZED VIEW agg; read agg
//     at k, which must show it. Each round takes TANDEM_PER_ROUND tandem
//     samples, then one PostgreSQL sample.
//
//   tandem-latency hydration TANDEM_CONNINFO PG_CONNINFO [ROUNDS]
//     Both servers hold h(id bigint, a int, b text), unindexed. One sample:
//     CREATE INDEX h_id ON h (id), then SELECT ... WHERE id = x (the index's
//     fast path on tandem, checked by EXPLAIN) until it answers the row, then
//     DROP INDEX (not timed). tandem's CREATE INDEX may return before the
//     arrangement is hydrated; the read waits for it. Alternates tandem,
//     PostgreSQL each round.
//
// Every statement is sent over one connection per server with the extended
// protocol (PQexecParams), so no process start or parse-time noise of psql
// enters the figures. Times are steady_clock microseconds.
#include "bench/driver/bench_client.hpp"

namespace {

using namespace bench;

long count_at(Connection& c, const std::string& key) {
  auto rows = c.run("SELECT c FROM agg WHERE k = $1", {key});
  return rows.empty() ? 0 : std::atol(rows[0][0].c_str());
}

int freshness(Connection& td, Connection& pg, int rounds, int per_round, int groups) {
  Samples td_ack, td_visible, td_total, pg_insert, pg_refresh, pg_total;
  long first_read_fresh = 0, td_samples = 0, extra_polls = 0;
  int key_seq = 0;
  auto next_key = [&] { return std::to_string((key_seq++ * 7919) % groups); };
  for (int round = 0; round < rounds; ++round) {
    for (int i = 0; i < per_round; ++i) {
      std::string key = next_key();
      long before = count_at(td, key);
      auto start = Clock::now();
      td.run("INSERT INTO t VALUES ($1, 1)", {key});
      double ack = micros_since(start);
      auto acked = Clock::now();
      for (int poll = 0;; ++poll) {
        long now = count_at(td, key);
        if (now == before + 1) {
          if (poll == 0) ++first_read_fresh;
          extra_polls += poll;
          break;
        }
        if (now != before) die("tandem: count at k=" + key + " went from " + std::to_string(before) + " to " +
                               std::to_string(now) + " after one insert");
        if (micros_since(acked) > 10e6) die("tandem: insert not visible after 10 s");
      }
      td_ack.add(ack);
      td_visible.add(micros_since(acked));
      td_total.add(micros_since(start));
      ++td_samples;
    }
    std::string key = next_key();
    long before = count_at(pg, key);
    auto start = Clock::now();
    pg.run("INSERT INTO t VALUES ($1, 1)", {key});
    pg_insert.add(micros_since(start));
    auto refresh = Clock::now();
    pg.run("REFRESH MATERIALIZED VIEW agg");
    pg_refresh.add(micros_since(refresh));
    long now = count_at(pg, key);
    pg_total.add(micros_since(start));
    if (now != before + 1) die("postgres: refreshed view does not show the insert");
  }
  print_header();
  print_row("tandem INSERT ack", td_ack);
  print_row("tandem ack -> visible in agg", td_visible);
  print_row("tandem INSERT -> visible (total)", td_total);
  print_row("postgres INSERT ack", pg_insert);
  print_row("postgres REFRESH MATERIALIZED VIEW", pg_refresh);
  print_row("postgres INSERT -> visible (total)", pg_total);
  std::printf("tandem: first read after the ack showed the row in %ld of %ld samples (%ld extra polls)\n",
              first_read_fresh, td_samples, extra_polls);
  std::printf("ratio (postgres total / tandem total): p50 %.0fx, mean %.0fx\n", pg_total.pct(50) / td_total.pct(50),
              pg_total.mean() / td_total.mean());
  return 0;
}

struct HydrationSample {
  double create_us = 0;  // CREATE INDEX returned
  double answer_us = 0;  // the lookup through the index answered
};

// tandem only: the lookup must be the index's fast path, not a scan. Runs on
// its own connection so that a server whose EXPLAIN fails still gets
// measured (with a warning).
const char* g_tandem_conninfo = nullptr;
void check_lookup_plan(const std::string& key) {
  PGconn* conn = PQconnectdb(g_tandem_conninfo);
  PGresult* res = PQexec(conn, ("EXPLAIN SELECT b FROM h WHERE id = " + key).c_str());
  if (PQresultStatus(res) != PGRES_TUPLES_OK) {
    std::fprintf(stderr, "warning: could not check the lookup's plan: %s", PQerrorMessage(conn));
  } else {
    std::string text;
    for (int r = 0; r < PQntuples(res); ++r) text += std::string(PQgetvalue(res, r, 0)) + "\n";
    if (text.find("Index Lookup on") == std::string::npos || text.find("h_id") == std::string::npos) {
      die("tandem: lookup is not planned through h_id:\n" + text);
    }
  }
  PQclear(res);
  PQfinish(conn);
}

HydrationSample hydrate_once(Connection& c, const std::string& key, const std::string& expect_b, bool check_plan) {
  HydrationSample s;
  auto start = Clock::now();
  c.run("CREATE INDEX h_id ON h (id)");
  s.create_us = micros_since(start);
  auto rows = c.run("SELECT b FROM h WHERE id = $1", {key});
  s.answer_us = micros_since(start);
  if (rows.size() != 1 || rows[0][0] != expect_b) die("lookup through the new index gave a wrong answer");
  if (check_plan) check_lookup_plan(key);  // after the clock stopped
  c.run("DROP INDEX h_id");
  return s;
}

int hydration(Connection& td, Connection& pg, int rounds) {
  long rows = std::atol(td.run("SELECT count(*) FROM h")[0][0].c_str());
  if (std::to_string(rows) != pg.run("SELECT count(*) FROM h")[0][0]) die("h differs between the servers");
  Samples td_create, td_answer, pg_create, pg_answer;
  for (int round = 0; round < rounds; ++round) {
    std::string key = std::to_string((round * 104729L + 17) % rows);
    std::string expect = pg.run("SELECT b FROM h WHERE id = $1", {key})[0][0];
    HydrationSample t = hydrate_once(td, key, expect, round == 0);
    HydrationSample p = hydrate_once(pg, key, expect, false);
    td_create.add(t.create_us);
    td_answer.add(t.answer_us);
    pg_create.add(p.create_us);
    pg_answer.add(p.answer_us);
  }
  print_header();
  print_row("tandem CREATE INDEX returned", td_create);
  print_row("tandem CREATE INDEX -> lookup answered", td_answer);
  print_row("postgres CREATE INDEX returned", pg_create);
  print_row("postgres CREATE INDEX -> lookup answered", pg_answer);
  std::printf("rows: %ld; tandem hydration %.2f M rows/s (p50)\n", rows, static_cast<double>(rows) / td_answer.pct(50));
  std::printf("ratio (postgres / tandem, to lookup answered): p50 %.2fx, mean %.2fx\n",
              pg_answer.pct(50) / td_answer.pct(50), pg_answer.mean() / td_answer.mean());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: tandem-latency freshness TANDEM_CONNINFO PG_CONNINFO [ROUNDS] [TANDEM_PER_ROUND] [GROUPS]\n"
                 "       tandem-latency hydration TANDEM_CONNINFO PG_CONNINFO [ROUNDS]\n");
    return 2;
  }
  std::string mode = argv[1];
  g_tandem_conninfo = argv[2];
  Connection td(argv[2], "tandem");
  Connection pg(argv[3], "postgres");
  int rounds = argc > 4 ? std::atoi(argv[4]) : 0;
  if (mode == "freshness") {
    int per_round = argc > 5 ? std::atoi(argv[5]) : 50;
    int groups = argc > 6 ? std::atoi(argv[6]) : 1000;
    return freshness(td, pg, rounds > 0 ? rounds : 20, per_round, groups);
  }
  if (mode == "hydration") return hydration(td, pg, rounds > 0 ? rounds : 5);
  die("unknown mode " + mode);
}
